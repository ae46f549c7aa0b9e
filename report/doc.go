// Package report writes the outcome of a checked run (a gpuruntime.Result
// and the launch it came from) as text, JSON or SARIF. The three writers
// read one model, Doc, so that they always state the same facts; the
// races themselves are gpuruntime.Race values, made by the runtime.
//
// Data flows one way: passes -> privatize -> manifest -> gpuruntime ->
// report -> cmd/ldcheck. This package reads the manifest and the runtime's
// result; it runs nothing.
package report
