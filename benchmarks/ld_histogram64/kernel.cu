// LDetector's "histogram64" (CUDA SDK histogram64), our own implementation:
// a 64-bin histogram of bytes, the bin of a byte being its top 6 bits.
// Each thread keeps its own sub-histogram in shared memory, 64 one-byte
// counters in a column of counts (counts[bin * THREADS + t]), so no two
// threads ever update the same byte and no atomics are needed. Data comes
// as 32-bit words, four bytes each. A block works in `passes` passes over
// consecutive chunks of THREADS * WORDS words; in a pass a thread clears its
// column, counts its WORDS words (at most 4 * 63 = 252 bytes, so its byte
// counters cannot wrap), and after a barrier the block merges the 192
// columns: three threads per bin each add 64 threads' counters, and after a
// second barrier thread b < 64 adds the three partial sums of bin b to its
// running total. At the end the block writes its sub-histogram to
// partial[block * 64 + bin]; merge64 (the second kernel, not launched by
// the benchmark) adds the blocks' rows into the final histogram. No race.
#define THREADS 192
#define BINS 64
#define WORDS 63
#define PARTS (THREADS / BINS)

__global__ void histogram64(const unsigned int *data, unsigned int *partial, int n, int passes) {
  __shared__ unsigned char counts[BINS * THREADS];
  __shared__ unsigned int sums[PARTS][BINS];
  int t = threadIdx.x;
  unsigned int total = 0;
  for (int p = 0; p < passes; ++p) {
    // The merge of the pass before read this column; a barrier lies between.
    for (int b = 0; b < BINS; ++b)
      counts[b * THREADS + t] = 0;
    int base = (blockIdx.x * passes + p) * (THREADS * WORDS);
    for (int i = 0; i < WORDS; ++i) {
      int w = base + i * THREADS + t;
      if (w < n) {
        unsigned int v = data[w];
        counts[((v >> 2) & 63) * THREADS + t]++;
        counts[((v >> 10) & 63) * THREADS + t]++;
        counts[((v >> 18) & 63) * THREADS + t]++;
        counts[((v >> 26) & 63) * THREADS + t]++;
      }
    }
    __syncthreads();

    int bin = t % BINS, part = t / BINS;
    unsigned int sum = 0;
    for (int j = 0; j < BINS; ++j) {
      // Start at a different column in each bin to spread the banks.
      int col = part * BINS + ((j + bin) & (BINS - 1));
      sum += counts[bin * THREADS + col];
    }
    sums[part][bin] = sum;
    __syncthreads();

    if (t < BINS)
      total += sums[0][t] + sums[1][t] + sums[2][t];
  }
  if (t < BINS)
    partial[blockIdx.x * BINS + t] = total;
}

// merge64 adds the blocks' sub-histograms: block b (of 64) sums column b of
// partial (nblocks rows) with a shared-memory tree reduction, 256 threads.
__global__ void merge64(const unsigned int *partial, unsigned int *hist, int nblocks) {
  __shared__ unsigned int acc[256];
  int t = threadIdx.x;
  unsigned int s = 0;
  for (int r = t; r < nblocks; r += 256)
    s += partial[r * BINS + blockIdx.x];
  acc[t] = s;
  for (int half = 128; half > 0; half >>= 1) {
    __syncthreads();
    if (t < half)
      acc[t] += acc[t + half];
  }
  if (t == 0)
    hist[blockIdx.x] = acc[0];
}
