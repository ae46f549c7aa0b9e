// The co-clustering statistics step of ld_cocluster with the barrier
// between the per-thread sums and the tree reduction left out (the bug):
// in the first halving step, thread t < THREADS/2 adds part[c][t + 128],
// which a thread of warps 4-7 is still summing in the same region, into its
// own part[c][t]. A read-write race on shared memory between the block's 8
// warps: the sums warps 0-3 store into the table change with the order of
// the warps.
#define KR 16
#define KC 16
#define THREADS 256
#define RB 8

__global__ void cocluster_stats(const float *A, const int *rowlab, const int *collab,
                                float *rowcc, float *blockcc, int n) {
  __shared__ float part[KC][THREADS];
  __shared__ float cc[KR * KC];
  int t = threadIdx.x;
  cc[t] = 0.0f;
  for (int rr = 0; rr < RB; ++rr) {
    int i = blockIdx.x * RB + rr;
    for (int c = 0; c < KC; ++c)
      part[c][t] = 0.0f;
    for (int j = t; j < n; j += THREADS)
      part[collab[j]][t] += A[i * n + j];
    // missing: __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
      if (t < half)
        for (int c = 0; c < KC; ++c)
          part[c][t] += part[c][t + half];
      __syncthreads();
    }
    if (t < KC) {
      float v = part[t][0];
      rowcc[i * KC + t] = v;
      cc[rowlab[i] * KC + t] += v;
    }
    __syncthreads();
  }
  blockcc[blockIdx.x * KR * KC + t] = cc[t];
}
