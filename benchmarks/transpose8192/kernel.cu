// Matrix transpose out = in^T of an n x n row-major float matrix, n a multiple
// of 32, through a 32x32 tile in shared memory. A 32x8 block moves one 32x32
// tile: each thread loads four elements of the tile (rows ty, ty+8, ty+16,
// ty+24) with coalesced reads along a row of in, the block waits for the
// whole tile (barrier), and each thread stores four elements of the
// transposed tile with coalesced writes along a row of out, reading the tile
// by column. The tile has one padding column (33 floats a row) so that a
// warp reading a column touches 32 different banks.
#define TILE 32
#define ROWS 8

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS)
    tile[ty + j][tx] = in[(y + j) * n + x];
  __syncthreads();
  // The block's tile lands at the mirrored tile position of out.
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[tx][ty + j];
}
