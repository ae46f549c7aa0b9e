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

// minRegisterCap is the lowest cap RegisterCapFor chooses: below it ptxas
// spills more than a second block gains.
const minRegisterCap = 64

// RegisterCapFor is the register limit of the instrumented kernels for a
// launch of blocks of threads threads: RegisterCap, lowered (to no less
// than 64) where that lets a second block onto each SM. A block alone on
// an SM leaves it idle at every barrier of the checks while its slowest
// warp catches up; a second block fills those gaps. Measured on the H100:
// ld_bisect (512 threads) 175 -> 110 ms at 64, ld_em_racy (320 threads)
// 71 -> 43 ms at 96.
func RegisterCapFor(threads int) int {
	c := cuda.MaxRegistersFor(2*threads, registersPerSM)
	if c >= RegisterCap || c < minRegisterCap {
		return RegisterCap
	}
	return c
}

// registersPerSM is the register file of an SM (and the most a block may
// have) on every GPU since Kepler.
const registersPerSM = 65536
