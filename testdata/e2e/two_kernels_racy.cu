// expect: race read-write shared inter-warp
// launch: --kernel smooth --grid 2 --block 128 --arg a=float[256]:rand
// explain: 14 14
// Two kernels in one file: scale is race-free, smooth (selected with --kernel) updates
// shared memory in place from its neighbours with no barrier between reads and writes.
__global__ void scale(float *a, float f) {
  a[blockIdx.x * blockDim.x + threadIdx.x] *= f;
}
__global__ void smooth(float *a) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = a[g];
  __syncthreads();
  s[t] = 0.5f * (s[t] + s[(t + 1) % 128]);
  __syncthreads();
  a[g] = s[t];
}
