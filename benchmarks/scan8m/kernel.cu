// Blelloch's work-efficient exclusive scan (prefix sum) of ints, in two
// kernels. scan: each block of B threads scans its own 2B consecutive
// elements in shared memory, two per thread. The up-sweep builds partial sums
// in a balanced tree in place (level d adds the left child into the right
// one, with half as many active threads at each level); the root then holds
// the block's total, which thread 0 saves to sums[block] before clearing it.
// The down-sweep walks the tree back down, each node passing its value to its
// left child and the sum of its value and the old left child to its right
// child, which leaves the exclusive scan in place. There is a barrier between
// every two levels of both sweeps. add_offsets: once sums has been scanned in
// turn (by the same kernel), each block adds its scanned total to its
// elements, completing the scan of the whole array.
#define THREADS 512
#define ELEMS (2 * THREADS)

__global__ void scan(const int *in, int *out, int *sums) {
  __shared__ int s[ELEMS];
  int t = threadIdx.x;
  int base = blockIdx.x * ELEMS;
  s[2 * t] = in[base + 2 * t];
  s[2 * t + 1] = in[base + 2 * t + 1];

  int step = 1;
  for (int active = ELEMS / 2; active > 0; active /= 2) {
    __syncthreads();
    if (t < active) {
      int left = step * (2 * t + 1) - 1;
      int right = step * (2 * t + 2) - 1;
      s[right] += s[left];
    }
    step *= 2;
  }

  if (t == 0) {
    sums[blockIdx.x] = s[ELEMS - 1];
    s[ELEMS - 1] = 0;
  }

  for (int active = 1; active < ELEMS; active *= 2) {
    step /= 2;
    __syncthreads();
    if (t < active) {
      int left = step * (2 * t + 1) - 1;
      int right = step * (2 * t + 2) - 1;
      int l = s[left];
      s[left] = s[right];
      s[right] += l;
    }
  }
  __syncthreads();

  out[base + 2 * t] = s[2 * t];
  out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(int *out, const int *offsets) {
  int base = blockIdx.x * ELEMS;
  int add = offsets[blockIdx.x];
  out[base + 2 * threadIdx.x] += add;
  out[base + 2 * threadIdx.x + 1] += add;
}
