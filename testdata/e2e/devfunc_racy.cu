// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[256]:zero
// explain: 6 6
// A device function with no barrier stores through a pointer to shared memory; the caller
// passes a lane index, so all four warps store to the same 32 slots.
__device__ void store(float *p, int i, float v) { p[i] = v; }
__device__ float scaled(float x, int w) { return x * 2.0f + (float)w; }
__global__ void k(const float *in, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  store(s, t % 32, scaled(in[g], t / 32));
  __syncthreads();
  out[g] = s[t % 32];
}
