// expect: none
// launch: --kernel k --grid 2 --block 64 --arg in=float[128]:rand --arg out=float[128]:zero
// Each warp fills its half of the tile with memcpy; after the barrier each
// thread reads the element the other warp copied. The checks visit only
// the bytes stores flagged, so memcpy must flag what it writes, or the
// other warp would never see it: a thread that reads a stale value writes
// out[b] as well, a race that makes this test fail.
#include <string.h>
__global__ void k(const float *in, float *out) {
  __shared__ float tile[64];
  int t = threadIdx.x, w = t / 32, b = blockIdx.x * 64;
  if (t % 32 == 0) memcpy(&tile[w * 32], &in[b + w * 32], 32 * sizeof(float));
  __syncthreads();
  float v = tile[63 - t];
  out[b + t] = v;
  if (v != in[b + 63 - t]) out[b] = (float)(t + 1);
}
