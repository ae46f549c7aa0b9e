// The statistics step of block-wise co-clustering (after the cocluster
// program LDetector checked, a GPU Bregman co-clustering; our own code). An
// m x n row-major matrix A has every row in one of KR row clusters
// (rowlab[i]) and every column in one of KC column clusters (collab[j]).
// The step gathers the sums that the next reassignment needs:
//   rowcc[i * KC + c]    sum of row i over the columns of cluster c (each
//                        row's profile over the column clusters), and
//   blockcc[b * KR * KC + r * KC + c]   block b's share of the co-cluster
//                        sums (rows of cluster r, columns of cluster c),
//                        which the host adds up over the blocks.
// A block of THREADS threads takes RB consecutive rows, one after the other.
// For a row, thread t sums its columns (t, t + THREADS, ...) by column
// cluster into its own column of the shared table part[c][t]; after a
// barrier, the block adds the table's columns together in log2(THREADS)
// halving steps, a barrier after each; the threads t < KC then take the
// row's sums part[t][0], write them to rowcc and add them to the block's
// co-cluster sums cc[rowlab[i]][t] in shared memory, and the block waits
// before the next row clears the table. At the end each thread writes one
// of the KR * KC co-cluster sums. Column profiles come from the same kernel
// on the transposed matrix. Race-free.
#define KR 16
#define KC 16
#define THREADS 256 // = KR * KC: a co-cluster sum a thread at the end
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
    __syncthreads();
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
