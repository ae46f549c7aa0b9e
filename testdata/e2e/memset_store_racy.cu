// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 64 --arg out=float[128]:zero
// explain: 15 16
// A memset by warp 0 and a plain store by warp 1 over the same shared
// element in one region: the report names the memset call and the store.
#include <string.h>
__global__ void k(float *out) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  tile[t] = 1.0f;
  __syncthreads();
  // Warp 0 clears the first 16 elements while warp 1 writes element 5:
  // nothing orders the two.
  if (t == 0)
    memset(tile, 0, 16 * sizeof(float));
  if (t == 37) tile[5] = 2.0f;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[t];
}
