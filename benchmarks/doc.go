// Package benchmarks holds ldcheck's evaluation programs (our own
// implementations of common GPU algorithms, racy and race-free), their
// expected verdicts, and the runners that measure checked versus native
// time. Results go in RESULTS.md with the command that produced them.
package benchmarks
