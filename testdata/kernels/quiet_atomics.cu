// Shared variables that atomics update: their atomics and plain accesses
// are noted for the atomic-plain check only where the two kinds can run
// in the same region. Each kernel's comment says what to expect.

// split: cleared, counted with atomics, read, a barrier between each:
// nothing to note.
__global__ void split(const unsigned *data, unsigned *out, int n) {
  __shared__ unsigned bins[64];
  int t = threadIdx.x;
  if (t < 64) bins[t] = 0;
  __syncthreads();
  for (int i = t; i < n; i += blockDim.x) atomicAdd(&bins[data[i] % 64], 1u);
  __syncthreads();
  if (t < 64) out[blockIdx.x * 64 + t] = bins[t];
}

// same: a plain read in the atomics' region: noted.
__global__ void same(const unsigned *data, unsigned *out, int n) {
  __shared__ unsigned bins[64];
  int t = threadIdx.x;
  if (t < 64) bins[t] = 0;
  __syncthreads();
  for (int i = t; i < n; i += blockDim.x) atomicAdd(&bins[data[i] % 64], 1u);
  if (t < 64) out[blockIdx.x * 64 + t] = bins[t];
}

// looped: the plain store and the atomics meet around the loop's back
// edge (no barrier after the atomics): noted.
__global__ void looped(const unsigned *data, unsigned *out, int n) {
  __shared__ unsigned total;
  int t = threadIdx.x;
  for (int r = 0; r < 4; r++) {
    if (t == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, data[(r * blockDim.x + t) % n]);
  }
  out[blockIdx.x * blockDim.x + t] = 0;
}

// escapes: its address is kept in a pointer, which this cannot follow:
// noted.
__global__ void escapes(const unsigned *data, unsigned *out, int n) {
  __shared__ unsigned bins[64];
  unsigned *p = bins;
  int t = threadIdx.x;
  if (t < 64) bins[t] = 0;
  __syncthreads();
  for (int i = t; i < n; i += blockDim.x) atomicAdd(&bins[data[i] % 64], 1u);
  __syncthreads();
  if (t < 64) out[blockIdx.x * 64 + t] = p[t];
}
