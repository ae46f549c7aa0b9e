__device__ unsigned int count = 0;
__global__ void sum(const float *in, float *partial, float *out) {
  __shared__ bool last;
  float v = in[blockIdx.x];
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = v;
    __threadfence();
    unsigned ticket = atomicInc(&count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; b++) total += partial[b];
    out[0] = total;
    count = 0;
  }
}
__global__ void early(const float *in, float *partial, float *out) {
  partial[blockIdx.x] = in[blockIdx.x];
  __threadfence();
  if (atomicAdd(&count, 1u) != gridDim.x - 1) return;
  out[0] = partial[0] + partial[1];
}
__global__ void nofence(const float *in, float *partial, float *out) {
  partial[blockIdx.x] = in[blockIdx.x];
  unsigned ticket = atomicInc(&count, gridDim.x);
  if (ticket == gridDim.x - 1) out[0] = partial[0];
}
