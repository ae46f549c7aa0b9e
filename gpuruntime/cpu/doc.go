// Package cpu is the CPU backend's engine: it compiles CUDA device code as
// C++17 against an embedded CUDA-on-CPU header (include/ldcheck_cpu.h), loads
// the resulting shared library with purego (no cgo: the package builds with
// CGO_ENABLED=0) and launches kernels on it, every GPU thread a fiber.
//
// Two things make it behave like a GPU rather than like a C++ program: the
// threads of a block take turns at every memory access (lockstep warps; the
// compiler's ThreadSanitizer hooks, defined in the header, are the turns),
// and every buffer ends at a guard zone, so an access past its end fails the
// launch with the address (Buffer.Locate maps it back) instead of
// corrupting memory or killing the process.
//
// It owns: the header and its stub CUDA headers, finding and running the C++
// compiler, loading modules, launching kernels and the memory that stands in
// for device memory (mmap'd, outside the Go heap, so C may keep pointers to
// it). A launch runs on Workers OS threads, one block each at a time, and
// publishes how far it got (blocks finished, barriers passed, threads
// waiting at a barrier) while it runs: Module.Running reads it from any
// goroutine, so a host that waits can tell a slow launch from a hung one.
//
// The engine's one piece of process-wide state is its fault handler, chained
// to Go's and installed once per loaded library.
//
// It does not know about checking, manifests or instrumentation: the
// instrumenter (privatize) emits the kernel entry points this package calls
// (see the header's contract), and gpuruntime builds the Backend on top of
// it. It must not import passes, privatize or gpuruntime, and it keeps no
// package-level mutable state in Go: a Module holds its own function
// pointers.
package cpu
