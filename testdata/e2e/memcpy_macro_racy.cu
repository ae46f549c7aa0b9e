// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 32 --arg in=float[128]:rand --arg out=float[4]:zero
// explain: 12 12
// Stores made by memcpy and __builtin_memcpy written through macros: each
// block copies its own values over out[0..1].
#include <string.h>
#define COPY_OUT(dst, src, n) memcpy((dst), (src), (n))
#define RAW_COPY(dst, src, n) __builtin_memcpy(dst, src, n)
__global__ void k(const float *in, float *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float v[2] = {in[g], in[g] + 1.0f};
  if (t == 0) COPY_OUT(out, v, sizeof(float));
  if (t == 1) RAW_COPY(out + 1, v + 1, sizeof(float));
}
