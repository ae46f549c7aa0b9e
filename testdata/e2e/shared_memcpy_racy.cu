// expect: race write-write shared inter-warp
// launch: --kernel k --grid 1 --block 64 --arg in=float[128]:rand --arg out=float[64]:zero
// explain: 12 12
// Both warps memcpy different data over the same half of the tile in one
// region: a write-write race that only memcpy's own flags can show.
#include <string.h>
__global__ void k(const float *in, float *out) {
  __shared__ float tile[64];
  int t = threadIdx.x, w = t / 32;
  tile[t] = 0.0f;
  __syncthreads();
  if (t % 32 == 0) memcpy(&tile[0], &in[w * 64], 32 * sizeof(float));
  __syncthreads();
  out[t] = tile[t];
}
