// expect: none
// launch: --kernel smooth --grid 2 --block 64 --arg in=float[128]:iota --arg out=float[128]:zero
// Quoted includes of headers next to the source: one the analysis sees,
// and one only a compiler other than clang sees (g++ for the CPU backend,
// nvcc on a GPU).
#include "quoted_include_hdr.h"
#ifndef __clang__
#include "quoted_include_compiler.h"
#endif
__global__ void smooth(const float *in, float *out) {
  __shared__ float tile[TILE];
  int t = threadIdx.x, g = blockIdx.x * TILE + t;
  tile[t] = in[g];
  __syncthreads();
  out[g] = blend(tile[t], tile[(t + 1) % TILE]);
}
