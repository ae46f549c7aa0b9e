// One expectation step of EM for a mixture of K Gaussians with diagonal
// covariances in D dimensions (after the em program LDetector checked; our
// own code), with the sufficient statistics the maximisation step needs.
// Inputs: npoints points x[p * D + d]; per component k its mean
// mean[k * D + d], inverse variances invvar[k * D + d] and log constant
// logc[k] = log weight_k + 0.5 * sum_d log invvar_kd - (D/2) log(2 pi).
// Outputs: loglik[p], the point's log-likelihood under the mixture, and,
// per block b, its share of the statistics blockstats[b * NSTAT + k * S + s]
// (S = 1 + 2D: s = 0 the sum of the responsibilities r_pk, 1..D the sums of
// r_pk * x_pd, D+1..2D the sums of r_pk * x_pd^2), which the host adds up
// over the blocks.
//
// A block of WARPS warps (320 threads) caches the parameters in shared
// memory and clears its accumulators acc[w][NSTAT], one row per warp; after
// a barrier it walks the points a block-wide chunk at a time (every thread
// takes part in every chunk, so that whole warps shuffle). A thread computes
// its point's log densities, their log-sum-exp (loglik) and the
// responsibilities; each statistic is then summed over the warp's 32 points
// with a butterfly of shuffles, and lane 0 adds the warp's sum into the
// warp's own row of acc. After a final barrier the threads add up the
// warps' rows and write the block's statistics. Race-free: a row of acc is
// only ever updated by its warp's lane 0.
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
  __shared__ float acc[WARPS][NSTAT];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  for (int i = t; i < K * D; i += blockDim.x) {
    mu[i] = mean[i];
    iv[i] = invvar[i];
  }
  if (t < K)
    lc[t] = logc[t];
  for (int i = t; i < WARPS * NSTAT; i += blockDim.x)
    acc[i / NSTAT][i % NSTAT] = 0.0f;
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
    float scale = valid ? 1.0f / sum : 0.0f; // points past the end add nothing
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
          acc[w][k * S + s] += v;
      }
    }
  }
  __syncthreads();
  for (int i = t; i < NSTAT; i += blockDim.x) {
    float total = 0.0f;
    for (int v = 0; v < WARPS; ++v)
      total += acc[v][i];
    blockstats[blockIdx.x * NSTAT + i] = total;
  }
}
