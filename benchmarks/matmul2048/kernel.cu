// Tiled matrix multiply C = A * B of n x n row-major floats, n a multiple of
// the tile width. Each 16x16 block computes one 16x16 tile of C: at every
// step along k it stages one tile of A and one of B in shared memory, waits
// for the whole tile (first barrier), accumulates the 16 products, and waits
// again before the next step overwrites the tiles (second barrier).
#define TILE 16

__global__ void mm(const float *A, const float *B, float *C, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    tileA[ty][tx] = A[row * n + (k0 + tx)];
    tileB[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += tileA[ty][k] * tileB[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
