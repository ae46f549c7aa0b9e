// expect: race read-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=int[256]:rand --arg out=int[256]:zero
// explain: 13 13
// A ping-pong loop whose barrier is taken only on odd iterations (block-uniform, but wrong):
// iteration 0's writes and iteration 1's reads of neighbours fall in one region.
__global__ void k(const int *in, int *out) {
  __shared__ int s[2][128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[0][t] = in[g] & 0xffff;
  __syncthreads();
  for (int i = 0; i < 4; ++i) {
    int src = i & 1;
    s[1 - src][t] = s[src][t] + s[src][(t + 32) % 128];
    if (i & 1) __syncthreads();
  }
  __syncthreads();
  out[g] = s[0][t];
}
