// expect: race read-write shared inter-warp
// launch: --kernel scan --grid 2 --block 128 --arg data=int[512]:rand
// explain: 14 14
// Blelloch scan whose up-sweep has no barrier between levels: at the second level warp 0
// reads partial sums that warps 1-3 wrote at the first level in the same region.
__global__ void scan(int *data) {
  __shared__ int s[256];
  int t = threadIdx.x, n = 256, base = blockIdx.x * n;
  s[2 * t] = data[base + 2 * t] & 0xfff;
  s[2 * t + 1] = data[base + 2 * t + 1] & 0xfff;
  __syncthreads();
  int off = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    if (t < d) s[off * (2 * t + 2) - 1] += s[off * (2 * t + 1) - 1];
    off <<= 1;
  }
  if (t == 0) s[n - 1] = 0;
  for (int d = 1; d < n; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      int v = s[ai]; s[ai] = s[bi]; s[bi] += v;
    }
  }
  __syncthreads();
  data[base + 2 * t] = s[2 * t];
  data[base + 2 * t + 1] = s[2 * t + 1];
}
