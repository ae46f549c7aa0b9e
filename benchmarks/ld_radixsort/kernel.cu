// LDetector's "radix sort" (CUDA SDK radixSort's per-block step), our own
// implementation: each block sorts its TILE = THREADS * KPT unsigned keys
// in shared memory with an LSD radix sort, one bit at a time (the low `bits`
// bits, from bit 0 up), by Blelloch's split: a thread holds KPT consecutive
// keys of the tile and counts those whose bit is 0; an exclusive
// work-efficient scan of these counts over the block (up-sweep, down-sweep,
// a barrier between levels) gives each thread the number of 0-keys before
// its own, and the root the block's total; a thread then scatters its
// 0-keys in order after the 0-keys before it and its 1-keys after all the
// 0-keys and the 1-keys before it. That is a stable partition, so after
// pass b the tile is sorted by its low b+1 bits. The passes write the two
// halves of keys in turn. out[block * TILE ..] receives the sorted tile
// (sorted runs of TILE keys; merging the runs is a later step, not here).
// No race.
#define THREADS 256
#define KPT 4
#define TILE (THREADS * KPT)

__global__ void radixsort(const unsigned int *in, unsigned int *out, int bits) {
  __shared__ unsigned int keys[2][TILE];
  __shared__ int zeros[THREADS];
  __shared__ int totalZeros;
  int t = threadIdx.x;
  int base = blockIdx.x * TILE;
  for (int k = 0; k < KPT; ++k)
    keys[0][k * THREADS + t] = in[base + k * THREADS + t];
  __syncthreads();

  int cur = 0;
  for (int b = 0; b < bits; ++b) {
    unsigned int mine[KPT];
    int z = 0;
    for (int k = 0; k < KPT; ++k) {
      mine[k] = keys[cur][t * KPT + k];
      z += ((mine[k] >> b) & 1u) == 0u;
    }
    zeros[t] = z;

    int step = 1;
    for (int d = THREADS / 2; d > 0; d >>= 1) {
      __syncthreads();
      if (t < d) {
        int ul = step * (2 * t + 1) - 1;
        int ur = step * (2 * t + 2) - 1;
        zeros[ur] += zeros[ul];
      }
      step <<= 1;
    }
    // Thread 0 did the last up-sweep level itself: the root is its own.
    if (t == 0) {
      totalZeros = zeros[THREADS - 1];
      zeros[THREADS - 1] = 0;
    }
    for (int d = 1; d < THREADS; d <<= 1) {
      step >>= 1;
      __syncthreads();
      if (t < d) {
        int dl = step * (2 * t + 1) - 1;
        int dr = step * (2 * t + 2) - 1;
        int left = zeros[dl];
        zeros[dl] = zeros[dr];
        zeros[dr] += left;
      }
    }
    __syncthreads();

    int zpos = zeros[t];
    int opos = totalZeros + t * KPT - zpos;
    int nxt = 1 - cur;
    for (int k = 0; k < KPT; ++k) {
      if (((mine[k] >> b) & 1u) == 0u)
        keys[nxt][zpos++] = mine[k];
      else
        keys[nxt][opos++] = mine[k];
    }
    __syncthreads();
    cur = nxt;
  }

  for (int k = 0; k < KPT; ++k)
    out[base + k * THREADS + t] = keys[cur][k * THREADS + t];
}
