// Package benchmarks holds ldcheck's evaluation programs (our own
// implementations of common GPU algorithms, racy and race-free), their
// expected verdicts, and the runners that measure checked versus native
// time. Results go in RESULTS.md with the command that produced them.
//
// Each folder with kernel.cu is a program of the suite (package
// ldcheck/benchmarks/realsize/suite reads them; README.md lists them).
// realsize runs the suite at real size on a GPU; this package's test runs
// every program's launch-small on the CPU backend and checks its verdict
// (go test ./benchmarks, part of make test).
package benchmarks
