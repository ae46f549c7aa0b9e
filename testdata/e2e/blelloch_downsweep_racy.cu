// expect: race read-write shared inter-warp
// launch: --kernel blelloch --grid 2 --block 128 --arg data=int[512]:iota
// explain: 27 29
// blelloch_ok without the barrier between two levels of the down-sweep:
// a level reads the partial sums the level before wrote, in other warps,
// with nothing ordering them. The stride changes inside the region, so
// no index proof holds and the region keeps its second pass.
__global__ void blelloch(int *data) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int base = blockIdx.x * 256;
  s[2 * t] = data[base + 2 * t];
  s[2 * t + 1] = data[base + 2 * t + 1];
  int step = 1;
  for (int d = 128; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d)
      s[step * (2 * t + 2) - 1] += s[step * (2 * t + 1) - 1];
    step <<= 1;
  }
  if (t == 0)
    s[255] = 0;
  __syncthreads();
  for (int d = 1; d < 256; d <<= 1) {
    step >>= 1;
    if (t < d) {
      int left = s[step * (2 * t + 1) - 1];
      s[step * (2 * t + 1) - 1] = s[step * (2 * t + 2) - 1];
      s[step * (2 * t + 2) - 1] += left;
    }
  }
  __syncthreads();
  data[base + 2 * t] = s[2 * t];
  data[base + 2 * t + 1] = s[2 * t + 1];
}
