// ld_scan with a race injected as in LDetector's Table VI (scan: "yes*",
// read-write, shared): the barrier between two levels of the up-sweep is
// missing (only the one after the loads is left). At level 2 and above a
// thread adds partial sums that threads of other warps wrote at the level
// before, with nothing ordering those writes before the reads: read-write
// race on the shared tree s between warps of a block. Everything else is
// ld_scan (Blelloch exclusive scan, padded, segs segments per block).
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
    __syncthreads();
    for (int d = THREADS; d > 0; d >>= 1) {
      // missing: __syncthreads(); between two levels of the up-sweep
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
