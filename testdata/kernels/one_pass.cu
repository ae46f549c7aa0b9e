// Regions that run once (passes.Region.OnePass: no variable their code
// reads is written in them) and regions that keep their second pass.
__device__ float gsum;
__device__ void touch(float *p) { p[0] += 1.0f; }
__device__ void bump() { gsum += 1.0f; }

// The tile is written in one region and read in the next.
__global__ void tiles(const float *in, float *out) {
  __shared__ float t[128];
  t[threadIdx.x] = in[threadIdx.x];
  __syncthreads(); // 0
  out[threadIdx.x] = t[127 - threadIdx.x];
}

// s[t] += v reads and writes s in region (1, 2) (the loop runs at least
// once: no region (0, -1)); data is read and written
// by the kernel, so level 1 keeps its second launch.
__global__ void inplace(float *data) {
  __shared__ float s[128];
  s[threadIdx.x] = data[threadIdx.x];
  __syncthreads(); // 0
  for (int k = 1; k < 128; k <<= 1) {
    float v = threadIdx.x >= k ? s[threadIdx.x - k] : 0.0f;
    __syncthreads(); // 1
    s[threadIdx.x] += v;
    __syncthreads(); // 2
  }
  data[threadIdx.x] = s[threadIdx.x];
}

// From barrier 2 the code reads cur (on to barrier 1) or writes it (on to
// barrier 0), never both before one barrier: every region runs once.
__global__ void levels(int *cur, const int *keys, int h, int n) {
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0) cur[i] = 0;
    __syncthreads(); // 0
    for (int l = 0; l < h; ++l) {
      int node = cur[i];
      __syncthreads(); // 1
      if (keys[node * 32 + threadIdx.x] > 0) cur[i] = node + 1;
      __syncthreads(); // 2
    }
  }
}

// A pointer to s escapes: its accesses could be anywhere.
__global__ void aliased(float *out) {
  __shared__ float s[64];
  float *p = s;
  p[threadIdx.x] = 1.0f;
  __syncthreads(); // 0
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// A reference to an element: stores through it are not seen as stores.
__global__ void referenced(float *out) {
  __shared__ float s[64];
  float &r = s[threadIdx.x];
  r = 2.0f;
  __syncthreads(); // 0
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// gsum is read and written in a device function: everywhere.
__global__ void device_var(float *out) {
  bump();
  __syncthreads(); // 0
  out[threadIdx.x] = gsum;
  touch(out);
}

// A goto can take the code back before a barrier the regions pass saw
// behind it: every region keeps its second pass.
__global__ void jumps(float *out) {
  __shared__ float s[64];
  int round = 0;
again:
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads(); // 0
  out[threadIdx.x] = s[63 - threadIdx.x];
  if (++round < 2) goto again;
}
