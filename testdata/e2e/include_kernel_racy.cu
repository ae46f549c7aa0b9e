// expect: race read-write global inter-warp
// launch: --kernel scale --grid 2 --block 64 --arg in=float[128]:rand --arg out=float[128]:zero
// explain: kernels.cu:8 kernels.cu:11
// main.cu includes kernel.cu: a build of this file must find, instrument and
// check the kernel defined in include/kernels.cu (itself including
// params.h, also included here: #pragma once skips it the second time).
#include <cstdio>
#include "include/params.h"
#include "include/kernels.cu"
int main() {
  float *in, *out;
  cudaMalloc(&in, 2 * BLOCK * sizeof(float));
  cudaMalloc(&out, 2 * BLOCK * sizeof(float));
  scale<<<2, BLOCK>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
