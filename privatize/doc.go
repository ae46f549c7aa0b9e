// Package privatize rewrites a CUDA source file so that every target
// variable gets a private copy per unit (data expansion, LDetector Table II),
// every access goes to the copy of the current unit (access redirection,
// Table III), and every AP region can be run twice (region replay). It emits
// the instrumented source and the manifest, the only contract with the
// runtime.
//
// It consumes passes' results; it must not parse source itself, compile, or
// run kernels.
package privatize
