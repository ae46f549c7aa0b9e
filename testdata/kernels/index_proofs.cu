// Regions that read and write one array and still need no second pass,
// by an index proof (passes/disjoint.go), and regions where no proof holds.

// Thread t < half writes s[t] and reads s[t] and s[t + half]: the writes
// lie in [0, half), the other reads in [half, 2*half).
__global__ void halving(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads(); // 0
  for (int half = 128; half > 0; half /= 2) {
    if (t < half)
      s[t] += s[t + half];
    __syncthreads(); // 1
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// The same with one barrier after the loop: half takes every value in
// one region, and s[t + 64] is written by thread t + 64 before thread t
// reads it.
__global__ void halving_unsynced(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads(); // 0
  for (int half = 128; half > 0; half /= 2) {
    if (t < half)
      s[t] += s[t + half];
  }
  __syncthreads(); // 1
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Off by one: thread half - 1 writes s[half - 1], which thread 0 reads.
__global__ void halving_overlap(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads(); // 0
  for (int half = 128; half > 1; half /= 2) {
    if (t < half)
      s[t] += s[t + half - 1];
    __syncthreads(); // 1
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// The bound is read from memory: not the same for every thread.
__global__ void halving_loaded(const int *lim, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  int half = lim[t];
  __syncthreads(); // 0
  if (t < half)
    s[t] += s[t + half];
  __syncthreads(); // 1
  out[t] = s[t];
}

// Rows: thread (x, y) with y < half adds row y + half into row y.
__global__ void rows(float *out) {
  __shared__ float p[16][32];
  int x = threadIdx.x, y = threadIdx.y;
  p[y][x] = out[y * 32 + x];
  __syncthreads(); // 0
  for (int half = 8; half > 0; half /= 2) {
    if (y < half)
      p[y][x] += p[y + half][x];
    __syncthreads(); // 1
  }
  if (y == 0)
    out[x] = p[0][x];
}

// Padded indices (x + (x >> 5), against bank conflicts) grow with x.
__global__ void padded(float *out) {
  __shared__ float s[264];
  int t = threadIdx.x;
  s[t + (t >> 5)] = out[t];
  __syncthreads(); // 0
  for (int half = 128; half > 0; half >>= 1) {
    if (t < half)
      s[t + (t >> 5)] += s[(t + half) + ((t + half) >> 5)];
    __syncthreads(); // 1
  }
  out[t] = s[t + (t >> 5)];
}

// A tree whose stride is a variable: step * (2t + 1) - 1 against
// step * (2t + 2) - 1 differ only if step is not 0, which no guard says.
__global__ void strided(int *data) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = data[t];
  int step = 1;
  for (int d = 128; d > 0; d >>= 1) {
    __syncthreads(); // 0
    if (t < d)
      s[step * (2 * t + 2) - 1] += s[step * (2 * t + 1) - 1];
    step <<= 1;
  }
  __syncthreads(); // 1
  data[t] = s[t];
}

// Some threads leave the loop early: half is not the same for all.
__global__ void divergent(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  int half = 128;
  while (half > 0) {
    if (t == 7)
      break;
    half /= 2;
  }
  __syncthreads(); // 0
  if (t < half)
    s[t] += s[t + half];
  __syncthreads(); // 1
  out[t] = s[t];
}

// Column t of a table whose rows are chosen by the data: each thread has
// its own column, whatever the row.
__global__ void columns(const int *bin, const float *in, float *out) {
  __shared__ float part[16][128];
  int t = threadIdx.x;
  for (int c = 0; c < 16; ++c)
    part[c][t] = 0.0f;
  for (int j = t; j < 4096; j += 128)
    part[bin[j]][t] += in[j];
  __syncthreads(); // 0
  for (int half = 64; half > 0; half /= 2) {
    if (t < half)
      for (int c = 0; c < 16; ++c)
        part[c][t] += part[c][t + half];
    __syncthreads(); // 1
  }
  if (t < 16)
    out[t] = part[t][0];
}

// The row is chosen by the data and the column is shared: no proof.
__global__ void rows_loaded(const int *bin, float *out) {
  __shared__ float part[16][128];
  int t = threadIdx.x;
  part[bin[t]][0] += 1.0f;
  __syncthreads(); // 0
  out[t] = part[t % 16][0];
}

// A halving loop inside an outer loop, a barrier between the outer
// rounds: half is declared again each round, never between two uses.
__global__ void rounds(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    s[t] = out[r * 256 + t];
    __syncthreads(); // 0
    for (int half = 128; half > 0; half /= 2) {
      if (t < half)
        s[t] += s[t + half];
      __syncthreads(); // 1
    }
    if (t == 0)
      out[r] = s[0];
    __syncthreads(); // 2
  }
}

// Declared again each round with no barrier in the rounds: thread t reads
// s[t + 32] in round 1 after thread t + 32 wrote it in round 0.
__global__ void rounds_unsynced(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads(); // 0
  for (int r = 0; r < 4; ++r) {
    int half = 64 >> r;
    if (t < half)
      s[t] += s[t + half];
  }
  __syncthreads(); // 1
  out[t] = s[t];
}

// Pairs: thread t adds element 2t + 1 into element 2t. The elements a
// thread writes are even, the others it reads odd.
__global__ void pairs(float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[t] = out[t];
  s[t + 256] = out[t + 256];
  __syncthreads(); // 0
  s[2 * t] += s[2 * t + 1];
  __syncthreads(); // 1
  out[t] = s[t];
}

// The padding written as a macro: its operators have no text where it is
// used, and are read from its definition.
#define PAD(i) ((i) + ((i) >> 5))
__global__ void padded_macro(int *data) {
  __shared__ int s[PAD(256)];
  int t = threadIdx.x;
  s[PAD(t)] = data[t];
  int step = 1;
  for (int d = 128; d > 0; d >>= 1) {
    __syncthreads(); // 0
    if (t < d)
      s[PAD(step * (2 * t + 2) - 1)] += s[PAD(step * (2 * t + 1) - 1)];
    step <<= 1;
  }
  __syncthreads(); // 1
  data[t] = s[PAD(t)];
}

// The same shape with a minus: i - (i >> 5) takes one value twice (31 and
// 32 both give 31), so nothing is proven.
#define SKEW(i) ((i) - ((i) >> 5))
__global__ void skewed_macro(int *data) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[SKEW(t)] = data[t];
  int step = 1;
  for (int d = 128; d > 0; d >>= 1) {
    __syncthreads(); // 0
    if (t < d)
      s[SKEW(step * (2 * t + 2) - 1)] += s[SKEW(step * (2 * t + 1) - 1)];
    step <<= 1;
  }
  __syncthreads(); // 1
  data[t] = s[SKEW(t)];
}

// A batch of queries, one after the other (a B+ tree search's walk state):
// every thread reads cur[q] at the end of query i, and thread 0 sets
// cur[q] for query i + 1 after the loop's ++i, in the region that wraps
// around barrier 0. i is read as its value at the region's start plus the
// steps taken since: the read is of q, the write of q + 1.
__global__ void batched(int *cur, int *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i) {
    int q = blockIdx.x * 8 + i;
    if (t == 0)
      cur[q] = q;
    __syncthreads(); // 0
    out[q * blockDim.x + t] = cur[q];
  }
}

// The same, reading ahead: cur[q + 1] at query i is the element thread 0
// writes after the step, in the same region: a race.
__global__ void batched_ahead(int *cur, int *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i) {
    int q = blockIdx.x * 8 + i;
    if (t == 0)
      cur[q] = q;
    __syncthreads(); // 0
    out[q * blockDim.x + t] = cur[q + 1];
  }
}

// No barrier in the loop: the region after barrier 0 runs every step, so
// no access has one count of steps (thread 5 reads, in iteration i + 1,
// what thread 0 wrote in iteration i).
__global__ void batched_unsynced(int *cur, int *out) {
  int t = threadIdx.x;
  __syncthreads(); // 0
  for (int i = 0; i < 8; ++i) {
    int q = blockIdx.x * 8 + i;
    out[q * blockDim.x + t] = cur[q];
    if (t == 0)
      cur[q + 1] = q;
  }
}

// q = t + i is defined before barrier 0 and read after it, and defined
// again after the loop's ++i: the read of s[q] is at t + i, the write in
// the next iteration at t + i + 1, in one region. Thread t - 1 then writes
// what thread t read: a race, though both subscripts are written s[q].
__global__ void slid(float *out, int n) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  float x = 0;
  for (int i = 0; i < n; ++i) {
    int q = t + i;
    s[q] = x + 1;
    __syncthreads(); // 0
    x = s[q];
  }
  out[t] = x;
}

// q = t + j is defined before j changes, and read after the barrier: s[q]
// is s[t + j0] there, s[t + j] is s[t + j0 + 1], so thread t - 1 writes
// what thread t reads. No assignment of j runs between the two accesses:
// only a flow from q's definition sees it.
__global__ void late(float *out, int n, int j) {
  __shared__ float s[4096];
  int t = threadIdx.x;
  float x = 0;
  int q = t + j;
  j = j + 1;
  __syncthreads(); // 0
  x += s[q];
  s[t + j] = x;
  out[t] = x;
}
