// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[256]:zero
// Device functions without barriers called from a kernel: one writes through a pointer
// to shared memory at the caller's own index, one reads neighbours after the barrier.
__device__ void store(float *p, int i, float v) { p[i] = v; }
__device__ float neighbours(const float *p, int i, int n) {
  return p[(i + n - 1) % n] + p[(i + 1) % n];
}
__global__ void k(const float *in, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  store(s, t, in[g] * in[g]);
  __syncthreads();
  out[g] = neighbours(s, t, blockDim.x) - s[t];
}
