// Package clang is a thin binding to libclang 15's C API, in the shape of
// go-clang (Index, TranslationUnit, Cursor, Visit, Extent, Tokens,
// Diagnostics), covering only what ldcheck's front end needs.
//
// libclang is loaded at run time with purego rather than linked with cgo, so
// that the ldcheck binary builds with CGO_ENABLED=0 and starts on machines
// without libclang (the GPU machines): only the commands that parse source
// need it, and they get an ordinary error naming the package to install when
// it is missing.
//
// The package knows nothing about CUDA or races; it must not grow analysis
// logic.
package clang
