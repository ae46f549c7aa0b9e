// expect: race read-write shared inter-warp
// launch: --kernel block_sum --grid 4 --block 256 --arg in=float[1024]:rand --arg out=float[4]:zero --arg n=1024
// explain: 17 17
// A tree reduction missing its barrier: warps read partial sums that other
// warps are still writing. The race shows twice: on partial, and where the
// reading warp's results land (out). Each report names both warps (issue
// 13: a race is between two units); the one on out named the reading
// warp alone before.
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  partial[t] = g < n ? in[g] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
