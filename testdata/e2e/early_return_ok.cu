// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=float[200]:rand --arg out=float[200]:zero --arg n=200
// Threads past n return before the barrier (block 1 keeps 72 of 128); the others read
// s[t/2], written by a live thread of a different warp before the barrier.
__global__ void k(const float *in, float *out, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (g >= n) return;
  s[t] = in[g];
  __syncthreads();
  out[g] = s[t / 2] - s[t];
}
