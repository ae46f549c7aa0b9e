// The k-means assignment step of ld_kmeans with the race injected the way
// LDetector's evaluation injected it (after the prior work it compares with):
// the barrier between caching the centroids in shared memory and using them
// is removed. A warp computes distances to centroids that the other warps of
// its block are still copying in: a read-write race on shared memory between
// warps. Its effect lands where the warps write what they computed, in
// membership (global memory).
#define K 64
#define D 16

__global__ void kmeans_assign(const float *features, const float *clusters,
                              int *membership, int *changed, int npoints) {
  __shared__ float cent[K * D];
  int t = threadIdx.x;
  for (int i = t; i < K * D; i += blockDim.x)
    cent[i] = clusters[i];
  // missing: __syncthreads();

  int moved = 0;
  for (int p = blockIdx.x * blockDim.x + t; p < npoints; p += gridDim.x * blockDim.x) {
    float x[D] = {0}; // initialised only for ldcheck build (benchmarks/README.md)
    for (int d = 0; d < D; ++d)
      x[d] = features[d * npoints + p];
    float best = 3.0e38f;
    int nearest = 0;
    for (int k = 0; k < K; ++k) {
      float dist = 0.0f;
      for (int d = 0; d < D; ++d) {
        float diff = x[d] - cent[k * D + d];
        dist += diff * diff;
      }
      if (dist < best) {
        best = dist;
        nearest = k;
      }
    }
    if (membership[p] != nearest)
      moved++;
    membership[p] = nearest;
  }
  if (moved > 0)
    atomicAdd(changed, moved);
}
