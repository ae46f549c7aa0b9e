// Private accesses: each thread reads and writes only its own element, through
// an index held in a local. The second kernel looks alike but shifts the index.
__global__ void scale(float *v, float a) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  v[i] = v[i] * a;
}
__global__ void shifted(float *v, float a) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  v[i] = v[i + 1] * a;
}
__global__ void reassigned(float *v, float a) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  i = i / 2;
  v[i] = a;
}
// Grid-stride loops: the index starts at the global thread id and only
// grows by the grid's thread count, so it stays the thread's own.
__global__ void gridstride(int n, float *v, float a) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) v[i] = v[i] * a;
}
__global__ void gridstride_while(int n, float *v, float a) {
  unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
  while (i < n) {
    v[i] += a;
    i = i + blockDim.x * gridDim.x;
  }
}
// Not private: the step is the block's thread count (blocks overlap),
// the index is shifted, or it is changed another way.
__global__ void blockstep(int n, float *v, float a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) v[i] = a;
}
__global__ void gridstride_shifted(int n, float *v, float a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v[i] = v[i + 1] * a;
}
__global__ void gridstride_doubled(int n, float *v, float a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i *= 2) v[i] = a;
}
// Block-stride over shared memory: each thread its own elements of the
// block's array.
__global__ void blockstride_shared(const float *in, float *out) {
  __shared__ float s[1024];
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) s[j] = in[j];
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) s[j] = s[j] * 2.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x];
}
// Runs of k elements a thread: k*i+c with 0 <= c < k, the same k for
// every access, is private; a c out of range, or two widths, is not.
__global__ void pairs(float *v, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[2 * i] = a;
  v[2 * i + 1] = v[2 * i] * a;
}
__global__ void pairs_overlap(float *v, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[2 * i] = a;
  v[2 * i + 2] = a;
}
__global__ void pairs_widths(float *v, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[2 * i] = a;
  v[4 * i + 1] = a;
}
