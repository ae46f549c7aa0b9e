// The tiled transpose of transpose8192 with the barrier between the tile load
// and the tile store removed (the bug): a thread reads tile[tx][ty + j], a
// column of the tile that the other warps of the block load (each warp loads
// rows ty, ty+8, ty+16, ty+24 of one ty), with nothing ordering the reads
// after the loads: a read-write race on shared memory between warps. Its
// effect lands in out, which the warps write from what they read.
#define TILE 32
#define ROWS 8

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS)
    tile[ty + j][tx] = in[(y + j) * n + x];
  // missing: __syncthreads();
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[tx][ty + j];
}
