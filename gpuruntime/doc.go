// Package gpuruntime runs instrumented kernels and checks them: the Backend
// interface (CUDA and CPU implementations), device memory, launches, the
// two-pass checking protocol, the device-side checking code (CUDA C,
// embedded), the race model (Race, Access) and the traced rerun that
// names a race's two statements (ExplainRaces); package report writes it.
//
// It reads only the manifest and the compiled module of a build directory;
// it must not import passes or privatize.
package gpuruntime
