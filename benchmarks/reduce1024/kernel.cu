// Sum reduction, one partial sum per block: each of the block's 1024 threads
// loads one element into shared memory, then the block adds the upper half of
// the live range onto the lower half, halving it at every step with a barrier
// after each, until element 0 holds the block's sum, which thread 0 writes to
// out[block].
#define THREADS 1024

__global__ void reduce(const float *in, float *out) {
  __shared__ float part[THREADS];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int half = THREADS / 2; half > 0; half /= 2) {
    if (t < half)
      part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = part[0];
}
