// expect: race read-write global inter-warp
// launch: --kernel shift --grid 1 --block 64 --arg in=float[64]:rand --arg out=float[64]:zero
// explain: 12 13
// Kernels inside an extern "C" block (libclang shows the block as an
// unexposed declaration): each thread reads its right neighbour's slot with
// no barrier between the write and the read, across the warp boundary too.
extern "C" {
__device__ float twice(float x) { return 2.0f * x; }
__global__ void shift(const float *in, float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = twice(in[t]);
  out[t] = s[(t + 1) % 64];
}
}
