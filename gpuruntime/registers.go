package gpuruntime

import "ldcheck/gpuruntime/cuda"

// RegisterCap is the register limit of the instrumented kernels for blocks
// of up to 256 threads. The checks at the barriers take instrumented
// kernels to 130-255 registers a thread; at 128 a block of 256 threads has
// two blocks an SM instead of one, and ptxas spills little. Measured on the
// H100: matmul2048 91 -> 54 ms, ld_btree 283 -> 182 ms, ld_nbody 50 -> 43
// ms, none slower; 64 made blocks of 256 threads slower (ld_radixsort 81 ->
// 99 ms, matmul2048 2.3x) (benchmarks/RESULTS.md).
const RegisterCap = 128

// LargeBlockRegisterCap is the register limit of the instrumented kernels
// for blocks of 288 to 512 threads: at 128 one block fills an SM, at 64 two
// (or more) fit. A block alone on an SM leaves it idle at every barrier of
// the checks while its slowest warp catches up; a second block fills those
// gaps. Measured on the H100: ld_bisect (512 threads) 175 -> 110 ms at
// 64. One cap for every size in the range, rather than the most each
// size allows (96 for 320 threads, 80 for 384), so that a build compiles
// SASS for two caps only: ld_em_racy (320 threads) ran in 43.1 ms at 96
// and 43.7 ms at 64. Below 64, ptxas spills more than a second block
// gains.
const LargeBlockRegisterCap = 64

// RegisterCapFor is the register limit of the instrumented kernels for a
// launch of blocks of threads threads: RegisterCap, or
// LargeBlockRegisterCap where that lets a second block onto each SM
// where 128 does not. Larger blocks (640 threads and more) keep
// RegisterCap: no cap of 64 or more fits two of them.
func RegisterCapFor(threads int) int {
	if c := cuda.MaxRegistersFor(2*threads, registersPerSM); c < RegisterCap && c >= LargeBlockRegisterCap {
		return LargeBlockRegisterCap
	}
	return RegisterCap
}

// OnePassRegisterCapFor is the register limit of the one-pass level-2
// module (manifest OnePassPTX) for blocks of threads threads. Such a
// launch spends its time at the barriers of its region ends, where the
// block waits for its slowest warp: more blocks an SM fill those waits,
// and its shared targets stay in place (ownShared: owner words, not a
// copy a warp), so registers, not shared memory, bound the blocks an SM
// holds.
//
//   - up to 32 threads: LargeBlockRegisterCap; an SM holds its most
//     blocks (32) at 64 already.
//   - 33 to 128: SmallBlockOnePassRegisterCap (ld_btree, H200: 11.9 ms at
//     64, 10.3 at 48, 9.3 at 40, 9.4 at 32, where spills eat the gain;
//     with f0ce9e9's region end 8.64 at 48, 7.76 at 40, 7.82 at 32; with
//     8946cbe's bare region ends, at twice the queries, 10.12 at 40 and
//     9.47 at 32: the ends hold fewer values across the barrier, and 16
//     blocks of 128 threads an SM hide its latency better than 12).
//   - larger blocks: RegisterCapFor, as the checked module. 64 for 129
//     to 256 threads was measured both ways (H200, the lean store path):
//     ld_radixsort, shared keys in place and light on registers, 31.0 ->
//     23.5 ms (4 blocks of 256 an SM instead of 2), but ld_nbody_racy,
//     whose tile loop spills at 64, 29 -> 57 ms; their SASS at 64 takes
//     alike more stack than at 128 (+224 and +232 bytes a thread), so the
//     build cannot tell the two apart, and the cap stays where no kernel
//     loses. Measured again with the lighter region end of f0ce9e9
//     (thirty-fourth session): ld_radixsort 27.0 -> 20.9 ms at 64 (24.0
//     at 80), ld_nbody_racy's one-pass launches 2.6 -> 5.1 ms each: the
//     same trade, so the same cap. Nor do their loops tell them apart
//     (thirty-fifth session): at 64 ld_nbody_racy's barrier-free tile
//     loop spills, but so does a barrier-free loop nested in
//     ld_radixsort's loop over bits.
//
// The checked module keeps RegisterCapFor at every size: ld_kmeans (128
// threads), proven race-free and run once from it, took 1.02 ms at 128
// and 1.15 at 64.
func OnePassRegisterCapFor(threads int) int {
	switch {
	case threads <= 32:
		return LargeBlockRegisterCap
	case threads <= 128:
		return SmallBlockOnePassRegisterCap
	}
	return RegisterCapFor(threads)
}

// SmallBlockOnePassRegisterCap is the one-pass module's register limit
// for blocks of 33 to 128 threads (OnePassRegisterCapFor): 16 blocks of
// 128 threads an SM (all the threads it holds) instead of 12 at 40.
const SmallBlockOnePassRegisterCap = 32

// registersPerSM is the register file of an SM (and the most a block may
// have) on every GPU since Kepler.
const registersPerSM = 65536
