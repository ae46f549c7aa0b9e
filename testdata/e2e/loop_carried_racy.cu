// expect: race read-write shared inter-warp
// launch: --kernel k --grid 1 --block 128 --arg in=int[128]:rand --arg out=int[128]:zero
// explain: 12 13
// Loop-carried race: iteration i reads s[t+32], which the next warp rewrote in iteration i-1,
// with no barrier anywhere in the loop.
__global__ void k(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t] & 0xffff;
  __syncthreads();
  for (int i = 1; i <= 4; ++i) {
    int v = s[(t + 32) & 127];
    s[t] = v + i * (t + 1);
  }
  __syncthreads();
  out[t] = s[t];
}
