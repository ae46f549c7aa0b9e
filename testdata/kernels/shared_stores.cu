// Kernels whose stores to shared targets ldcheck can or cannot all see
// (privatize's TestSharedStoresTracked).
struct cell { float mass; int n; };

__device__ void fill(float *p, int i) { p[i] = 1.0f; }
__device__ void inc(float &x) { x += 1.0f; }

__global__ void tracked(float *out) {
  __shared__ float tile[4][32];
  __shared__ cell cells[32];
  __shared__ int count;
  int t = threadIdx.x;
  tile[t / 32][t % 32] = out[t];
  cells[t % 32].mass = 2.0f;
  if (t == 0) count = 0;
  __syncthreads();
  tile[0][t % 32] += 1.0f;
  if (t == 1) count++;
  __syncthreads();
  out[t] = tile[1][t % 32] + cells[t % 32].mass + count + sizeof(tile);
}

__global__ void alias(float *out) {
  __shared__ float tile[128];
  float *p = tile;
  p[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void call(float *out) {
  __shared__ float tile[128];
  fill(tile, threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void reference(float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x] = 0.0f;
  inc(tile[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}
