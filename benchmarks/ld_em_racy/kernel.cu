// The EM expectation step of ld_em with the bug of Table VI of LDetector (em
// has a write-write race on shared memory): the block keeps one row of
// accumulators, acc[NSTAT], for all its warps, and lane 0 of every warp adds
// the warp's sums into it with a plain read-modify-write, no atomics and no
// barrier between the warps. The 10 warps of a block store different sums
// into the same acc[k * S + s]: a write-write race on shared memory between
// warps (on a GPU, updates are lost).
#define K 16
#define D 4
#define S (1 + 2 * D)
#define NSTAT (K * S)
#define WARPS 10

__global__ void em_estep(const float *x, const float *mean, const float *invvar,
                         const float *logc, float *loglik, float *blockstats,
                         int npoints) {
  __shared__ float mu[K * D];
  __shared__ float iv[K * D];
  __shared__ float lc[K];
  __shared__ float acc[NSTAT]; // bug: one row shared by every warp
  int t = threadIdx.x, lane = t % 32;
  for (int i = t; i < K * D; i += blockDim.x) {
    mu[i] = mean[i];
    iv[i] = invvar[i];
  }
  if (t < K)
    lc[t] = logc[t];
  for (int i = t; i < NSTAT; i += blockDim.x)
    acc[i] = 0.0f;
  __syncthreads();

  for (int base = blockIdx.x * blockDim.x; base < npoints; base += gridDim.x * blockDim.x) {
    int p = base + t;
    bool valid = p < npoints;
    float xv[D] = {0.0f};
    if (valid)
      for (int d = 0; d < D; ++d)
        xv[d] = x[p * D + d];
    float lp[K] = {0.0f}; // initialised only for ldcheck build (benchmarks/README.md)
    float top = -3.0e38f;
    for (int k = 0; k < K; ++k) {
      float q = 0.0f;
      for (int d = 0; d < D; ++d) {
        float diff = xv[d] - mu[k * D + d];
        q += diff * diff * iv[k * D + d];
      }
      lp[k] = lc[k] - 0.5f * q;
      top = fmaxf(top, lp[k]);
    }
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
      lp[k] = __expf(lp[k] - top);
      sum += lp[k];
    }
    if (valid)
      loglik[p] = top + __logf(sum);
    float scale = valid ? 1.0f / sum : 0.0f;
    for (int k = 0; k < K; ++k) {
      float r = lp[k] * scale;
      for (int s = 0; s < S; ++s) {
        float v = r;
        if (s > D)
          v = r * xv[s - 1 - D] * xv[s - 1 - D];
        else if (s > 0)
          v = r * xv[s - 1];
        for (int off = 16; off > 0; off /= 2)
          v += __shfl_xor_sync(0xffffffffu, v, off);
        if (lane == 0)
          acc[k * S + s] += v; // bug: every warp's lane 0 updates the same row
      }
    }
  }
  __syncthreads();
  for (int i = t; i < NSTAT; i += blockDim.x)
    blockstats[blockIdx.x * NSTAT + i] = acc[i];
}
