// Constructs ldcheck cannot check: a barrier inside a called device function,
// inline PTX, device malloc, a grid-wide sync, goto, and atomics.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void stage(float *s) {
  s[threadIdx.x] *= 2.0f;
  __syncthreads();
}

__global__ void weird(float *out, unsigned *hits) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  stage(s);
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  float *scratch = (float *)malloc(16);
  free(scratch);
  atomicAdd(&hits[lane], 1u);
  if (lane == 99) goto done;
  cg::this_grid().sync();
  cg::this_thread_block().sync();
  out[threadIdx.x] = s[63 - threadIdx.x];
done:
  return;
}
