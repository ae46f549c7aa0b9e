// The assignment step of k-means (after the kmeans program LDetector checked,
// Holey et al. 2013; our own code): every point moves to its nearest
// centroid. npoints points of D features are stored feature-major
// (features[d * npoints + p], so that a warp reads consecutive points), the
// K centroids row-major (clusters[k * D + d]). Each block first caches all
// centroids in shared memory (its threads copy them together), waits for the
// whole table (barrier), and then its threads walk the points with a
// grid-stride loop: a point's features go to registers, its squared distance
// to each cached centroid is summed in feature order, and the nearest
// centroid (the first one on ties) becomes membership[p]. Each thread counts
// the points whose membership changed and adds its count to *changed with
// one atomicAdd (the convergence test of the host loop). Race-free.
#define K 64
#define D 16

__global__ void kmeans_assign(const float *features, const float *clusters,
                              int *membership, int *changed, int npoints) {
  __shared__ float cent[K * D];
  int t = threadIdx.x;
  for (int i = t; i < K * D; i += blockDim.x)
    cent[i] = clusters[i];
  __syncthreads();

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
