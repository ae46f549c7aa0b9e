// expect: none
// launch: --kernel k --grid 4 --block 64 --arg total=int[4]:zero --arg in=int[256]:iota --arg out=int[256]:zero
// atomic_plain_write_racy.cu with each block's own total: its thread 0
// resets it with a plain store, the barrier orders the store before the
// block's atomics, and no other block touches it.
__global__ void k(int *total, const int *in, int *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) total[blockIdx.x] = 0;
  out[g] = in[g];
  __syncthreads();
  atomicAdd(&total[blockIdx.x], in[g]);
}
