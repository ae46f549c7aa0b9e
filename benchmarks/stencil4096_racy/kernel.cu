// The 5-point stencil of stencil4096 with the barrier after the tile loads
// removed (the bug): a thread reads the north and south cells of the shared
// tile, which the warps of the rows above and below load, and the halo cells
// loaded by the edge threads, with nothing ordering those reads after the
// loads (read-write race on shared memory between warps).
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
  // missing: __syncthreads();

  const float c0 = 0.5f, c1 = 0.125f;
  out[y * n + x] = c0 * tile[sy][sx] +
                   c1 * (tile[sy - 1][sx] + tile[sy + 1][sx] +
                         tile[sy][sx - 1] + tile[sy][sx + 1]);
}
