// expect: race read-write local inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[256]:zero
// explain: 10 11
// Warp 3 returns early; the remaining warps write s[t] and read the next warp's element
// before the barrier that should separate them.
__global__ void k(const float *in, float *out) {
  __shared__ float s[96];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t >= 96) return;
  s[t] = in[g] + 1.0f;
  float v = s[(t + 32) % 96];
  __syncthreads();
  out[g] = v * s[t];
}
