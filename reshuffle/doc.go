// Package reshuffle plans memory-capped checking (LDetector section 4.5,
// warp reshuffling): from the number of units and the room for private
// copies it chooses groups and rounds, and gives equation (1)'s probability
// of having found a race after k rounds.
//
// It owns:
//
//   - FitCopies: how many private copies fit in a memory limit, or an error
//     (*TooSmallError) naming the bytes needed for the minimum of two;
//   - Plan (NewPlan): the rounds, ceil(log_M N) for N units and M copies,
//     and for each round the contiguous groups of units and the private copy
//     each group runs on (GroupOf, Groups, Copy); which round checks a given
//     pair of units (CheckRound, Separated); the exact fraction of pairs
//     checked after k rounds (Coverage);
//   - Probability: equation (1), P_k = N(1 - 1/M^k)/(N-1), which the runtime
//     reports with the rounds run when it stops early.
//
// Running the rounds (restarting the kernel from saved inputs, redirecting
// each unit to its copy, the two-pass checks) belongs to gpuruntime.
//
// It is pure arithmetic: no device, no files.
package reshuffle
