// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[256]:zero
// A shared tile passed whole to a device function that reads it through a
// pointer to const, after the barrier that ends its stores: race-free, and
// the read is the call (every region runs one pass).
__device__ float total(const float *p, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += p[i] * (float)(i % 3);
  return s;
}
__global__ void k(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  tile[t] = in[g];
  __syncthreads();
  out[g] = total(tile, 128) + tile[t];
}
