// expect: none
// launch: --kernel blelloch --grid 2 --block 128 --arg data=int[512]:iota
// An exclusive scan of 256 elements per block as a tree (Blelloch): an
// up-sweep, then a down-sweep, with the stride held in a variable. Thread
// t writes element step*(2t+2)-1 and reads step*(2t+1)-1: never the same
// element for two threads while step is not 0, which the build cannot see
// and the checked run tests where the accesses run (its regions run once).
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
  for (int d = 1; d < 256; d <<= 1) {
    step >>= 1;
    __syncthreads();
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
