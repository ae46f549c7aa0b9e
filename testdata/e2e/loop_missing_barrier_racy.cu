// expect: race read-write local inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=float[1024]:rand --arg out=float[256]:zero
// explain: 11 13
// A loop that refills a shared tile each iteration: the barrier before the refill is missing,
// so the next iteration overwrites s[t] while the warp below still reads it.
__global__ void k(const float *in, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x, base = blockIdx.x * 512;
  float acc = 0.0f;
  for (int i = 0; i < 4; ++i) {
    s[t] = in[base + i * 128 + t];
    __syncthreads();
    acc += s[(t + 32) % 128];
    // __syncthreads() missing here
  }
  out[blockIdx.x * 128 + t] = acc;
}
