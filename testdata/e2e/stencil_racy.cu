// expect: race read-write global inter-warp
// launch: --kernel stencil --grid 4 --block 128 --arg in=float[518]:rand --arg out=float[512]:zero
// explain: 10 16
// The 1-D radius-3 stencil without the barrier after loading the shared tile: threads read
// neighbours (and the right halo) that other warps load in the same region.
#define R 3
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[128 + 2 * R];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t + R] = in[g + R];
  if (t < R) {
    s[t] = in[g];
    s[t + blockDim.x + R] = in[g + blockDim.x + R];
  }
  float v = 0.0f;
  for (int o = -R; o <= R; ++o) v += s[t + R + o];
  out[g] = v / (2 * R + 1);
}
