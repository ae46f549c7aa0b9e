// expect: unchecked
// launch: --kernel k --grid 1 --block 64 --arg in=int[64]:rand --arg out=int[64]:zero
// A predicate barrier right of && runs only when the left side lets it: region
// replay cannot move it out of the condition, so the kernel runs unchecked and the
// reason names line 7.
__global__ void k(const int *in, int *out) {
  if (in[0] != 12345 && __syncthreads_or(in[threadIdx.x] & 1)) out[threadIdx.x] = 1;
}
