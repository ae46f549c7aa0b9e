// Package gpuruntime runs instrumented kernels and checks them: the Backend
// interface (CUDA and CPU implementations), device memory, launches, the
// two-pass checking protocol, the device-side checking code (CUDA C,
// embedded) and race reports.
//
// It reads only the manifest and the compiled module of a build directory;
// it must not import passes or privatize.
package gpuruntime
