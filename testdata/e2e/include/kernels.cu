// The kernels of include_kernel_racy.cu, in a .cu file that the main file
// includes (the layout of many real programs).
#pragma once
#include "params.h"
__global__ void scale(const float *in, float *out) {
  __shared__ float tile[BLOCK];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * BLOCK + t] * SCALE;
  // no barrier: a thread reads the slot its neighbour (in another warp at
  // the warp boundary) writes
  out[blockIdx.x * BLOCK + t] = tile[(t + 1) % BLOCK];
}
