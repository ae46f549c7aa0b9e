// expect: none
// launch: --kernel smooth --grid 2 --block 128 --arg a=float[256]:rand --arg iters=5
// Race-free iterative 1-D smoothing in shared memory: barriers between reading the
// neighbours and writing, and between writing and the next iteration's reads.
__global__ void smooth(float *a, int iters) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, n = blockDim.x;
  s[t] = a[g];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    float l = s[t > 0 ? t - 1 : t], r = s[t < n - 1 ? t + 1 : t];
    float v = 0.25f * l + 0.5f * s[t] + 0.25f * r;
    __syncthreads();
    s[t] = v;
    __syncthreads();
  }
  a[g] = s[t];
}
