// Package cuda is ldcheck's binding of the CUDA driver API (libcuda.so.1).
//
// It owns the driver binding: loading the library, one Go method per driver
// entry point that ldcheck uses, the driver's handle types and enumerations,
// and turning every CUresult into a Go error that carries the driver's own
// name and message (cuGetErrorName, cuGetErrorString). On top of the binding
// it has one driver-level helper, Program: a module plus the
// register-limited copies of it that blocks of many threads need (a kernel
// of 130 registers cannot launch 1024 threads per block), with the
// module-scope variables kept in step between them (see Program). It knows
// nothing of kernels' instrumentation, of ldcheck's checking protocol or of
// race reports; package gpuruntime builds its CUDA backend on top of it.
//
// # Why purego
//
// The library is opened at run time with github.com/ebitengine/purego
// (Dlopen, Dlsym, RegisterFunc), not linked through cgo and cuda.h. The
// package therefore builds with CGO_ENABLED=0, needs no CUDA toolkit and no
// GPU at build time, and a machine without a driver gets an ordinary error
// (ErrNoDriver) from Load instead of a link failure: CI machines and laptops
// build, test and run ldcheck's CPU backend, and the same binary uses a GPU
// where one is present. (mumax's cu package, whose names this package
// mirrors, needs cuda.h and libcuda at build time and panics on errors.)
//
// # Shape
//
// Load returns a *Driver that holds the library handle and its function
// pointers; there is no package-level mutable state, and a Driver is safe for
// concurrent use (it is immutable after Load; the CUDA driver is
// thread-safe). Methods are named after the driver entry points without the
// "cu" prefix and the "_v2" suffix, as in mumax's cu package: cuMemAlloc_v2
// is Driver.MemAlloc, cuDeviceGetName is Driver.DeviceGetName. Where the
// driver exports a "_v2" symbol (64-bit sizes, current semantics) that is the
// one bound. Every method returns an error, never panics on a driver
// failure; failures are *Error values.
//
// # Contexts and OS threads
//
// The driver's current context is per OS thread, and goroutines move between
// OS threads. Code that calls CtxSetCurrent and then other methods must run
// on a goroutine locked with runtime.LockOSThread, or make the context
// current again before each group of calls.
//
// # Kernel arguments
//
// LaunchKernel takes the kernel's arguments as []unsafe.Pointer, one pointer
// per parameter, each pointing at a value of exactly the parameter's size:
// the driver reads sizeof(parameter) bytes through each pointer, so an int
// parameter needs a pointer to an int32, a float* parameter a pointer to a
// DevicePtr (8 bytes), a 16-byte struct a pointer to a 16-byte Go value. The
// values are pinned (runtime.Pinner) for the duration of the call.
package cuda
