// expect: none
// launch: --kernel k --grid 2 --block 64 --arg in=float[128]:iota --arg out=float[128]:zero
// Locals the instrumenter must hoist as written, each used across a barrier:
// arrays without an initializer whose size is a macro expression, has a
// comment, or whose whole declaration comes from a macro; volatile locals
// (scalar and array); and calls to a non-static always_inline device function.
#define LANES 32
#define HALF (LANES / 2)
#define DECLARE_BUF(name) float name[LANES / 4]
__device__ __attribute__((always_inline)) float twice(float x) { return 2.0f * x; }
__global__ void k(const float *in, float *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float a[HALF];
  float b[LANES /* one per lane */];
  DECLARE_BUF(c);
  volatile int v = 3;
  volatile float w[2];
  a[t % HALF] = in[g];
  b[t % LANES] = twice(in[g]);
  c[t % 8] = 1.0f;
  w[1] = in[g] + v;
  __syncthreads();
  out[g] = a[t % HALF] + b[t % LANES] + c[t % 8] + w[1] + v;
}
