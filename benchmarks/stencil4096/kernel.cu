// 5-point stencil on an n x n grid of floats (row-major), one 32x32 block per
// 32x32 tile of the output. Every thread loads its own cell into a shared
// tile; the threads on the tile's edges also load the neighbouring cell
// outside the tile (the one-cell halo; cells outside the grid read as 0).
// After a barrier each thread computes its output cell from the shared tile:
// out = c0 * centre + c1 * (north + south + west + east).
#define BW 32
#define BH 32

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[BH + 2][BW + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * BW + tx;
  int y = blockIdx.y * BH + ty;
  int sx = tx + 1, sy = ty + 1;

  tile[sy][sx] = in[y * n + x];
  if (tx == 0)
    tile[sy][0] = x > 0 ? in[y * n + x - 1] : 0.0f;
  if (tx == BW - 1)
    tile[sy][BW + 1] = x + 1 < n ? in[y * n + x + 1] : 0.0f;
  if (ty == 0)
    tile[0][sx] = y > 0 ? in[(y - 1) * n + x] : 0.0f;
  if (ty == BH - 1)
    tile[BH + 1][sx] = y + 1 < n ? in[(y + 1) * n + x] : 0.0f;
  __syncthreads();

  const float c0 = 0.5f, c1 = 0.125f;
  out[y * n + x] = c0 * tile[sy][sx] +
                   c1 * (tile[sy - 1][sx] + tile[sy + 1][sx] +
                         tile[sy][sx - 1] + tile[sy][sx + 1]);
}
