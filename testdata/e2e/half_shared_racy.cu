// expect: race read-write shared inter-warp
// launch: --kernel k --grid 2 --block 64 --arg in=half[128]:rand --arg out=half[128]:zero
// explain: 15 16
// A shared __half tile read before the barrier: each thread adds its
// neighbour's element (t+1) to its own, so the last thread of warp 0 reads
// what warp 1 writes in the same region. The barrier comes too late.
#include <cuda_fp16.h>

__global__ void k(const __half *in, __half *out) {
  __shared__ __half tile[64];
  __shared__ __half sums[64];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  __half x = in[g];
  x = hexp(x);
  tile[t] = x;
  sums[t] = tile[t] + tile[(t + 1) % 64];
  __syncthreads();
  out[g] = sums[(t + 5) % 64];
}
