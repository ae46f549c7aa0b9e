// expect: race write-write global inter-warp
// launch: --kernel k --grid 1 --block 64 --arg in=half[64]:rand --arg out=half[32]:zero
// explain: 11 11
// Two warps write the same __half elements: thread t and thread t+32 both
// store out[t % 32], with different values.
#include <cuda_fp16.h>

__global__ void k(const __half *in, __half *out) {
  int t = threadIdx.x;
  __half v = in[t] * __float2half(2.0f) + __float2half(0.25f);
  out[t % 32] = v;
}
