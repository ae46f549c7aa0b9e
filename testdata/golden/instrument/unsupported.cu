// Instrumented by ldcheck from ../testdata/kernels/unsupported.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
#line 1 "../testdata/kernels/unsupported.cu"
// Constructs ldcheck cannot check: a barrier inside a called device function,
// inline PTX, device malloc, a grid-wide sync, goto, and atomics.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void stage(float *s) {
  (*LDC_TR(&(s[threadIdx.x]), 0, 1)) *= 2.0f;
  __syncthreads();
}

__global__ void weird(float *out, unsigned *hits) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  stage(s);
  unsigned lane;
  LDC_INLINE_ASM(asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane)));
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
#line 1 "unsupported.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_weird(void **a) { weird(*(float * *)a[0], *(unsigned int * *)a[1]); }
#endif
