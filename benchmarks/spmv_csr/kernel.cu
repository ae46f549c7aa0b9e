// Sparse matrix-vector product y = A x with A in CSR form (rowptr, cols,
// vals), one warp per row ("CSR vector"): the 32 lanes of a warp walk the
// row's nonzeros together (lane l takes nonzeros l, l+32, ...), reading
// them coalesced and gathering x at their columns, then add their partial
// sums with a butterfly of warp shuffles, and lane 0 writes y[row]. A block
// of 256 threads handles 8 consecutive rows. No shared memory, no barrier;
// race-free: every row's y is written by exactly one lane.
#define WARP 32

__global__ void spmv(const int *rowptr, const int *cols, const float *vals,
                     const float *x, float *y, int rows) {
  int lane = threadIdx.x % WARP;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
  if (row >= rows)
    return; // whole warps leave together: a warp's lanes share its row
  float sum = 0.0f;
  for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += WARP)
    sum += vals[k] * x[cols[k]];
  for (int off = WARP / 2; off > 0; off /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, off);
  if (lane == 0)
    y[row] = sum;
}
