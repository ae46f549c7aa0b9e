// expect: race read-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[256]:zero
// explain: 9 17
// A device function reads the whole tile through a pointer to const while
// every thread stores its own element of it, with no barrier between: the
// read of another warp's element races with that warp's store.
__device__ float total(const float *p, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
__global__ void k(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  tile[t] = in[g];
  __syncthreads();
  tile[t] = total(tile, 128);
  __syncthreads();
  out[g] = tile[t];
}
