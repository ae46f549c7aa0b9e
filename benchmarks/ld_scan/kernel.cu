// LDetector's "scan" (CUDA SDK scan, work-efficient variant), our own
// implementation: Blelloch's work-efficient exclusive scan of ints in shared
// memory, with the bank-conflict padding of one int every 32 (so 1056 ints,
// 4.22 KB, as in LDetector's Table V). A block of THREADS threads scans
// `segs` consecutive segments of 2*THREADS elements, one after the other:
// each thread loads two elements, the up-sweep builds a balanced tree of
// partial sums in place (level d: thread t < d adds the left child into the
// right one), thread 0 saves the segment total and clears the root, the
// down-sweep walks the tree back down (a node passes its value to its left
// child and the sum of its value and the old left child to its right child),
// and each thread writes its two elements plus the running total of the
// block's earlier segments. There is a barrier between every two levels of
// both sweeps. out is then the exclusive scan of each block's range
// (segs*2*THREADS elements), sums[block] the range's total; scanning sums and
// adding it back (as scan8m's add_offsets does) would finish a whole-array scan.
#define THREADS 512
#define SEG (2 * THREADS)
#define PAD(i) ((i) + ((i) >> 5))

__global__ void scan(const int *in, int *out, int *sums, int segs) {
  __shared__ int s[PAD(SEG)];
  __shared__ int segTotal;
  int t = threadIdx.x;
  int a = t, b = t + THREADS;
  int carry = 0;
  for (int g = 0; g < segs; ++g) {
    int off = (blockIdx.x * segs + g) * SEG;
    // Each thread writes only the two elements it read last time round.
    s[PAD(a)] = in[off + a];
    s[PAD(b)] = in[off + b];

    int step = 1;
    for (int d = THREADS; d > 0; d >>= 1) {
      __syncthreads();
      if (t < d) {
        int ul = step * (2 * t + 1) - 1;
        int ur = step * (2 * t + 2) - 1;
        s[PAD(ur)] += s[PAD(ul)];
      }
      step <<= 1;
    }

    // Thread 0 did the last up-sweep level itself: the root is its own.
    if (t == 0) {
      segTotal = s[PAD(SEG - 1)];
      s[PAD(SEG - 1)] = 0;
    }

    for (int d = 1; d < SEG; d <<= 1) {
      step >>= 1;
      __syncthreads();
      if (t < d) {
        int dl = step * (2 * t + 1) - 1;
        int dr = step * (2 * t + 2) - 1;
        int left = s[PAD(dl)];
        s[PAD(dl)] = s[PAD(dr)];
        s[PAD(dr)] += left;
      }
    }
    __syncthreads();

    out[off + a] = s[PAD(a)] + carry;
    out[off + b] = s[PAD(b)] + carry;
    carry += segTotal;
  }
  if (t == 0)
    sums[blockIdx.x] = carry;
}
