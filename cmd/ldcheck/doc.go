// Command ldcheck finds data races in CUDA kernels by value-based checking
// (LDetector): it gives every warp or block a private copy of each variable
// that may race, runs each barrier-delimited region twice and compares bytes.
//
// This package owns the command line only: flags, exit codes and output
// formats. Analysis lives in passes, rewriting in privatize, execution and
// checking in gpuruntime. It must not contain analysis or checking logic.
//
// Exit status: 0 no race, 1 races found, 2 bad input or usage, 3 the tool or
// backend failed, 4 ran, not checked (--allow-unchecked: 0).
package main
