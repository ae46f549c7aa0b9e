// expect: none
// launch: --kernel k --grid 2 --block 64 --arg in=float[512]:iota --arg out=float[128]:zero
// Locals the instrumenter must hoist as they are: an array without an
// initializer (its size a macro), a 2-D one, a const pointee, a const pointer.
#define KPT 4
__global__ void k(const float *in, float *out) {
  const float *row = in + (blockIdx.x * blockDim.x + threadIdx.x) * KPT;
  float *const o = out + blockIdx.x * blockDim.x;
  unsigned int mine[KPT];
  int a[2][3];
  float b[2] = {1.0f, 2.0f};
  for (int d = 0; d < KPT; ++d) mine[d] = row[d] * 2;
  a[1][2] = mine[0];
  __syncthreads();
  o[threadIdx.x] = mine[0] + mine[3] + a[1][2] + b[1];
}
