// expect: none
// launch: --kernel stencil --grid 4 --block 128 --arg in=float[518]:rand --arg out=float[512]:zero
// 1-D stencil of radius 3 with the halo in shared memory: warp 0 loads both halos, and a
// barrier separates all loads from the neighbour reads.
#define R 3
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[128 + 2 * R];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t + R] = in[g + R];
  if (t < R) {
    s[t] = in[g];
    s[t + blockDim.x + R] = in[g + blockDim.x + R];
  }
  __syncthreads();
  float v = 0.0f;
  for (int o = -R; o <= R; ++o) v += s[t + R + o];
  out[g] = v / (2 * R + 1);
}
