// Shared and global arrays passed to device functions as pointers to
// const (passes' TestConstArguments, privatize's TestSharedStoresTracked
// for their stores): the callee reads them, so the call is a read, the
// kernel's stores stay tracked and a region that only reads through it
// needs one pass. A callee that casts the const away, or a pointer to
// non-const, may write: the array escapes.
__device__ float total(const float *p, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

__device__ float sneaky(const float *p, int n) {
  float *q = (float *)p;
  q[n - 1] = 0.0f;
  return p[0];
}

__device__ float writes(float *p, int n) {
  p[n - 1] = 0.0f;
  return p[0];
}

// tile is written in the first region, where each thread has its own
// element, and read whole by total after the barrier: race-free, each
// region in one pass.
__global__ void readonly_tile(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  out[blockIdx.x * 128 + t] = total(tile, 128);
}

// The same read through a function that casts the const away.
__global__ void cast_away(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  out[blockIdx.x * 128 + t] = sneaky(tile, 128);
}

// The same read through a pointer to non-const.
__global__ void non_const(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  out[blockIdx.x * 128 + t] = writes(tile, 128);
}

// A region that writes tile and reads it through total: two passes.
__global__ void read_and_write(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  tile[t] = total(tile, 128);
  __syncthreads();
  out[blockIdx.x * 128 + t] = tile[t];
}
