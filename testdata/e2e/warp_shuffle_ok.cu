// expect: none
// launch: --kernel k --grid 4 --block 128 --arg in=float[512]:rand --arg out=float[4]:zero
// Block sum with warp shuffles: each warp reduces with __shfl_down_sync, lane 0 stores the
// warp's sum in its own slot, and warp 0 combines the slots after a barrier.
__global__ void k(const float *in, float *out) {
  __shared__ float part[4];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  float v = in[blockIdx.x * blockDim.x + t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) part[w] = v;
  __syncthreads();
  if (w == 0) {
    v = lane < 4 ? part[lane] : 0.0f;
    for (int o = 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
