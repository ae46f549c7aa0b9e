// Variables the build proves no two threads of a block race on (passes/onepass.go:
// in every region, the writes are apart between threads, and the reads from
// the writes), and near misses that must stay checked.

// The reduction: s[t] written by thread t alone in every region.
__global__ void reduce(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads(); // 0
  for (int half = 128; half > 0; half /= 2) {
    if (t < half)
      s[t] += s[t + half];
    __syncthreads(); // 1
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Tiles of a matrix product: one element per thread (ty, tx), read by row.
__global__ void tiles(const float *a, float *c, int n) {
  __shared__ float ta[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    ta[ty][tx] = a[ty * n + k0 + tx];
    __syncthreads(); // 0
    for (int k = 0; k < 16; ++k)
      acc += ta[ty][k];
    __syncthreads(); // 1
  }
  c[ty * 16 + tx] = acc;
}

// A halo: thread t writes s[t + 1], thread 0 alone also s[0].
__global__ void halo(const float *in, float *out) {
  __shared__ float s[257];
  int t = threadIdx.x;
  s[t + 1] = in[t];
  if (t == 0)
    s[0] = 0.0f;
  __syncthreads(); // 0
  out[t] = s[t] + s[t + 1];
}

// A 2-D halo column: the threads of column 0 write row ty's first element.
__global__ void halo2d(const float *in, float *out) {
  __shared__ float s[16][17];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx + 1] = in[ty * 16 + tx];
  if (tx == 0)
    s[ty][0] = 0.0f;
  __syncthreads(); // 0
  out[ty * 16 + tx] = s[ty][tx] + s[ty][tx + 1];
}

// One thread sets a total and, later in the same region, adds to it.
__global__ void one_writer(const float *in, float *out) {
  __shared__ float total[1];
  int t = threadIdx.x;
  if (t == 0)
    total[0] = in[0];
  if (t == 0)
    total[0] += 1.0f;
  __syncthreads(); // 0
  out[t] = total[0];
}

// Near misses. Threads 0 and 1 both write s[0]: a write-write race.
__global__ void two_writers(float *out) {
  __shared__ float s[1];
  int t = threadIdx.x;
  if (t < 2)
    s[0] = t;
  __syncthreads(); // 0
  out[t] = s[0];
}

// Thread 0 and thread 1 write total[0] under different guards.
__global__ void other_writer(float *out) {
  __shared__ float total[1];
  int t = threadIdx.x;
  if (t == 0)
    total[0] = 1.0f;
  if (t == 1)
    total[0] = 2.0f;
  __syncthreads(); // 0
  out[t] = total[0];
}

// Thread t writes s[t] and s[t + 1]: thread t + 1 writes s[t + 1] too.
__global__ void shifted(float *out) {
  __shared__ float s[257];
  int t = threadIdx.x;
  s[t] = 1.0f;
  s[t + 1] = 2.0f;
  __syncthreads(); // 0
  out[t] = s[t];
}

// A loop with no barrier: thread t writes s[t + k] for every k.
__global__ void smeared(float *out) {
  __shared__ float s[260];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[t + k] = k;
  __syncthreads(); // 0
  out[t] = s[t];
}

// Writes of s are each thread's own, but the second region reads its
// neighbour's element (t ^ 1, no proof): that region runs twice, and a
// variable written in a region that runs twice must be copied.
__global__ void replayed(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads(); // 0
  s[t] = s[t] + s[t ^ 1];
  __syncthreads(); // 1
  out[t] = s[t];
}

// Written through a pointer: not seen, not proven.
__global__ void aliased(float *out) {
  __shared__ float s[256];
  float *p = s;
  p[threadIdx.x] = 1.0f;
  __syncthreads(); // 0
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// Global memory: thread t reads g[t + 1], which thread t + 1 writes in the
// same region (a race inside the block).
__global__ void global_shift(float *g) {
  int t = threadIdx.x;
  g[blockIdx.x * 256 + t] = g[blockIdx.x * 256 + t + 1] + 1.0f;
}

// Each thread reads and writes its own element.
__global__ void global_own(float *g) {
  int t = threadIdx.x;
  g[blockIdx.x * 256 + t] = g[blockIdx.x * 256 + t] * 2.0f;
}

// Rows of n elements, one thread an element: one-to-one when n is at
// least the block's width (a test the host makes at launch).
__global__ void rows(float *out, int n) {
  int tx = threadIdx.x, ty = threadIdx.y;
  out[(blockIdx.x * blockDim.y + ty) * n + tx] = tx;
}

// A halo of one element each side of a 32-wide tile: apart from the
// threads' elements when the block is at most 32 wide.
__global__ void halo32(const float *in, float *out) {
  __shared__ float s[34];
  int t = threadIdx.x;
  s[t + 1] = in[t];
  if (t == 31)
    s[33] = in[32];
  if (t == 0)
    s[0] = 0.0f;
  __syncthreads();
  out[t] = s[t] + s[t + 2];
}

// Blelloch's up-sweep and down-sweep over 2 * 256 ints. Between barriers,
// level d has threads t < d add s[step*(2t+1)-1] into s[step*(2t+2)-1]:
// apart while step is not 0 (tested as the kernel runs). The region that
// leaves the up-sweep runs its last level, d == 1: thread 0 alone, which
// then reads and clears the root (total, a scalar under t == 0).
__global__ void blelloch(const int *in, int *out) {
  __shared__ int s[512];
  __shared__ int total;
  int t = threadIdx.x;
  s[t] = in[t];
  s[t + 256] = in[t + 256];
  int step = 1;
  for (int d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d)
      s[step * (2 * t + 2) - 1] += s[step * (2 * t + 1) - 1];
    step <<= 1;
  }
  if (t == 0) {
    total = s[511];
    s[511] = 0;
  }
  for (int d = 1; d < 512; d <<= 1) {
    step >>= 1;
    __syncthreads();
    if (t < d) {
      int l = s[step * (2 * t + 1) - 1];
      s[step * (2 * t + 1) - 1] = s[step * (2 * t + 2) - 1];
      s[step * (2 * t + 2) - 1] += l;
    }
  }
  __syncthreads();
  out[t] = s[t] + total;
  out[t + 256] = s[t + 256] + total;
}

// The same without the test's premise: the up-sweep's last level is not
// alone (the loop may stop early, with a break), so thread 0's clear of
// the root can meet another thread's add.
__global__ void blelloch_break(const int *in, int *out, int stop) {
  __shared__ int s[512];
  int t = threadIdx.x;
  s[t] = in[t];
  s[t + 256] = in[t + 256];
  int step = 1;
  for (int d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d)
      s[step * (2 * t + 2) - 1] += s[step * (2 * t + 1) - 1];
    step <<= 1;
    if (d == stop)
      break;
  }
  if (t == 0)
    s[511] = 0;
  __syncthreads();
  out[t] = s[t];
}

// A row chosen by a label the kernel only reads: every thread of the block
// reads the same lab[b], so row * 8 + t is one element a thread.
__global__ void labeled(const int *lab, float *sums) {
  __shared__ float acc[64];
  int t = threadIdx.x;
  if (t < 8)
    acc[lab[blockIdx.x] * 8 + t] += 1.0f;
  __syncthreads();
  if (t < 64)
    sums[blockIdx.x * 64 + t] = acc[t];
}

// The same with labels the kernel also writes: thread 0 may change
// lab[b] between two threads' reads, so they need not agree.
__global__ void relabeled(int *lab, float *sums) {
  __shared__ float acc[64];
  int t = threadIdx.x;
  if (t == 0)
    lab[blockIdx.x] = (lab[blockIdx.x] + 1) % 8;
  if (t < 8)
    acc[lab[blockIdx.x] * 8 + t] += 1.0f;
  __syncthreads();
  if (t < 64)
    sums[blockIdx.x * 64 + t] = acc[t];
}

// Rows of 16 weights, one thread each, from row 1; block 0's first row of
// threads also updates the bias row w[0..15]: below every block's rows
// (blockIdx only moves them up) when the block is at most 16 wide.
__global__ void bias_row(float *w) {
  int j = threadIdx.x, r = threadIdx.y;
  int i = (1 + blockIdx.x * 4 + r) * 16 + j;
  w[i] += 1.0f;
  if (blockIdx.x == 0 && r == 0)
    w[j] += 1.0f;
}

// Rows from 0: block 0's row 0 is the bias row, reversed, so thread
// (15 - j, 0) updates the element thread (j, 0) does.
__global__ void bias_overlap(float *w) {
  int j = threadIdx.x, r = threadIdx.y;
  int i = (blockIdx.x * 4 + r) * 16 + j;
  w[i] += 1.0f;
  if (blockIdx.x == 0 && r == 0)
    w[15 - j] += 1.0f;
}

// Across the grid (TestGridRaceFree). bias_row above: block 0's bias row
// lies below every block's rows when the block is at most 16 wide.
// Every block adds to the bias row: blocks race there.
__global__ void bias_every_block(float *w) {
  int j = threadIdx.x, r = threadIdx.y;
  int i = (1 + blockIdx.x * 4 + r) * 16 + j;
  w[i] += 1.0f;
  if (r == 0)
    w[j] += 1.0f;
}

// Block 0 alone writes out[t].
__global__ void first_block(int *out) {
  if (blockIdx.x == 0)
    out[threadIdx.x] = 1;
}

// v[i] and v[i + 1] look one apart, but i is a loop variable: block 0 at
// i = 1 and block 1 at i = 0 both write v[1].
__global__ void stepper(int *v, int n) {
  for (int i = 0; i < n; i++) {
    if (threadIdx.x == 0 && blockIdx.x == 0)
      v[i] = 1;
    if (threadIdx.x == 0 && blockIdx.x == 1)
      v[i + 1] = 2;
  }
}

// A 32x32 tile moved by a block of 32 x ROWS threads: each thread loads
// rows ty, ty + 8, ty + 16, ty + 24 (j over 0, 8, 16, 24 in one region).
// Two values of j differ by a multiple of 8: with blockDim.y <= 8, ty + j
// is one row per (ty, j). The store's x and y are assigned again after
// the barrier: the assignments that reach the store are read.
__global__ void tile_rows(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 32 + tx;
  int y = blockIdx.y * 32 + ty;
  for (int j = 0; j < 32; j += 8)
    tile[ty + j][tx] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + tx;
  y = blockIdx.x * 32 + ty;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[tx][ty + j];
}

// Rows 4 apart: only blocks of at most 4 rows of threads keep ty + j one
// row per thread and step; the store's loop runs past the tile (j < 64):
// eight steps, so a block's rows reach the next block's.
__global__ void tile_rows4(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = 0; j < 32; j += 4)
    tile[ty + j][tx] = in[(blockIdx.y * 32 + ty + j) * n + blockIdx.x * 32 + tx];
  __syncthreads();
  for (int j = 0; j < 64; j += 8)
    out[(blockIdx.x * 32 + ty + j) * n + blockIdx.y * 32 + tx] = tile[tx][ty];
}

// j starts at 0 in one loop and at 4 in the other, both stepping by 8:
// its values are not one class modulo 8 (rows 4 and 12 of the second
// loop sit between the first's), so nothing is proven.
__global__ void tile_two_classes(float *out) {
  __shared__ float tile[64][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int j;
  for (j = 0; j < 32; j += 8)
    tile[ty + j][tx] = 1.0f;
  for (j = 4; j < 64; j += 8)
    tile[ty + j][tx] = 2.0f;
  __syncthreads();
  out[blockIdx.x * 1024 + ty * 32 + tx] = tile[tx][ty];
}

// x is the block's element, then again the thread's own in the block:
// the store reads the second. Reassigned under a condition (flip), both
// reach the store: nothing is proven.
__global__ void redefined(float *out, int flip) {
  int x = threadIdx.x;
  x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = 1.0f;
}
__global__ void redefined_maybe(float *out, int flip) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (flip)
    x = threadIdx.x;
  out[x] = 1.0f;
}

// A block scans segs segments of 512 elements, one after the other:
// out[off + t] and out[off + t + 256] with off = (blockIdx.x * segs + g)
// * 512. The second access is the first moved up 256, past every thread
// of a block of at most 256: one-to-one over the launch.
__global__ void seg_pairs(const int *in, int *out, int segs) {
  for (int g = 0; g < segs; ++g) {
    int off = (blockIdx.x * segs + g) * 512;
    out[off + threadIdx.x] = in[off + threadIdx.x];
    out[off + threadIdx.x + 256] = in[off + threadIdx.x + 256];
  }
}

// Segments of 256 with the same two accesses: the second is the next
// segment's first. No launch passes the tests.
__global__ void seg_pairs_overlap(const int *in, int *out, int segs) {
  for (int g = 0; g < segs; ++g) {
    int off = (blockIdx.x * segs + g) * 256;
    out[off + threadIdx.x] = in[off + threadIdx.x];
    out[off + threadIdx.x + 256] = in[off + threadIdx.x + 256];
  }
}

// Sixteen threads of a block store its sixteen sums: the guard bounds the
// thread index, whatever the block's size. With 32 threads under the
// guard, a block's stores reach the next block's.
__global__ void guarded_cols(const float *in, float *out) {
  int t = threadIdx.x;
  if (t < 16)
    out[blockIdx.x * 16 + t] = in[t];
}
__global__ void guarded_cols_wide(const float *in, float *out) {
  int t = threadIdx.x;
  if (t < 32)
    out[blockIdx.x * 16 + t] = in[t];
}

// The block loads a table into shared memory, blockDim.x elements a step:
// thread t stores t, t + blockDim.x, ... (one element per thread and
// step). Steps of 16 need blocks of at most 16 threads; starting at 2t,
// steps of blockDim.x overlap the next step's (one-thread blocks only).
__global__ void block_stride(const float *tab, float *out, int n) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x)
    s[i] = tab[i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t * 7) % 1024];
}
__global__ void block_stride16(const float *tab, float *out, int n) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += 16)
    s[i] = tab[i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t * 7) % 1024];
}
__global__ void block_stride_doubled(const float *tab, float *out, int n) {
  __shared__ float s[2048];
  int t = threadIdx.x;
  for (int i = 2 * t; i < 2048; i += blockDim.x)
    s[i] = tab[i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t * 7) % 1024];
}

// Warp arithmetic. One warp per row: lane 0 of warp w = gid / 32 writes
// y[w], which is one thread per row when the blocks are whole warps
// (blockDim.x a multiple of 32). With lanes 0 and 1 both writing, two
// threads meet at each row.
__global__ void warp_rows(const float *x, float *y, int rows) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= rows)
    return;
  float v = x[row * 32 + lane];
  if (lane == 0)
    y[row] = v;
}
__global__ void warp_rows_two_lanes(const float *x, float *y, int rows) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= rows)
    return;
  float v = x[row * 32 + lane];
  if (lane < 2)
    y[row] = v;
}
// The same with shifts and masks: warp = t >> 5, lane = t & 31.
__global__ void warp_rows_bits(const float *x, float *y, int rows) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (row < rows && lane == 0)
    y[row] = x[row];
}

// Per-warp accumulators: acc[w][s] is updated by lane 0 of warp w alone,
// after the block clears acc as one row of elements (acc[i / 64][i % 64]
// over a block-stride loop). Two warps sharing a row (w % 2), or two
// threads clearing one element (i = t / 2), race.
__global__ void warp_acc(float *out) {
  __shared__ float acc[8][64];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  for (int i = t; i < 8 * 64; i += blockDim.x)
    acc[i / 64][i % 64] = 0.0f;
  __syncthreads();
  for (int s = 0; s < 64; ++s)
    if (lane == 0)
      acc[w][s] += s * t;
  __syncthreads();
  if (t < 64) {
    float total = 0.0f;
    for (int v = 0; v < 8; ++v)
      total += acc[v][t];
    out[blockIdx.x * 64 + t] = total;
  }
}
__global__ void warp_acc_shared_row(float *out) {
  __shared__ float acc[8][64];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  for (int s = 0; s < 64; ++s)
    if (lane == 0)
      acc[w % 2][s] += s * t;
  __syncthreads();
  if (t < 64)
    out[blockIdx.x * 64 + t] = acc[0][t];
}
__global__ void warp_acc_halves(float *out) {
  __shared__ float acc[8][64];
  int t = threadIdx.x;
  int i = t / 2;
  acc[i / 64][i % 64] = t;
  __syncthreads();
  if (t < 64)
    out[blockIdx.x * 64 + t] = acc[0][t];
}

// Loops over the grid. A block walks chunks of blockDim.x points, the
// grid's blocks side by side (base += gridDim.x * blockDim.x): each point
// has one thread. Stepping by blockDim.x alone, block 1's first chunk is
// block 0's second (one block only).
__global__ void grid_chunks(const float *x, float *out, int n) {
  int t = threadIdx.x;
  for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
    int p = base + t;
    if (p < n)
      out[p] = 2.0f * x[p];
  }
}
__global__ void grid_chunks_overlap(const float *x, float *out, int n) {
  int t = threadIdx.x;
  for (int base = blockIdx.x * blockDim.x; base < n; base += blockDim.x) {
    int p = base + t;
    if (p < n)
      out[p] = 2.0f * x[p];
  }
}
// A block writes its 64 statistics with a block-stride loop: i takes each
// of 0..63 once over the block's threads. With i below 128 the blocks'
// parts (64 apart) overlap.
__global__ void block_stats(const float *x, float *stats) {
  int t = threadIdx.x;
  for (int i = t; i < 64; i += blockDim.x)
    stats[blockIdx.x * 64 + i] = x[i];
}
__global__ void block_stats_overlap(const float *x, float *stats) {
  int t = threadIdx.x;
  for (int i = t; i < 128; i += blockDim.x)
    stats[blockIdx.x * 64 + i] = x[i];
}

// Per-thread columns of counters: thread t counts into column t of the
// row its value picks (read from memory: any row), so two threads meet
// only in blocks wider than a row. With two threads a column (t / 2),
// they meet.
__global__ void data_columns(const unsigned *in, unsigned *out) {
  __shared__ unsigned char cols[64 * 128];
  int t = threadIdx.x;
  for (int b = 0; b < 64; ++b)
    cols[b * 128 + t] = 0;
  unsigned v = in[blockIdx.x * blockDim.x + t];
  cols[((v >> 4) & 63) * 128 + t]++;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = cols[t];
}
__global__ void data_columns_paired(const unsigned *in, unsigned *out) {
  __shared__ unsigned char cols[64 * 128];
  int t = threadIdx.x;
  unsigned v = in[blockIdx.x * blockDim.x + t];
  cols[((v >> 4) & 63) * 128 + t / 2]++;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = cols[t];
}
