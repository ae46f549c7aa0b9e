// expect: race atomic-plain global inter-block
// launch: --kernel sum --grid 8 --block 64 --arg in=float[512]:rand --arg partial=float[8]:zero --arg out=float[1]:zero --arg n=512
// explain: 23 31
// last_block_ok.cu without the __threadfence(): nothing orders a block's
// store to partial[] before its atomic, so the last block may read a
// partial sum before it is visible: a read-write race between blocks.
// Its plain store to count is no longer ordered after the other blocks'
// atomics either: an atomic-plain race. Both are reported.
__device__ unsigned int count = 0;
__global__ void sum(const float *in, float *partial, float *out, int n) {
  __shared__ float s[64];
  __shared__ bool last;
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    unsigned ticket = atomicInc(&count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && t == 0) {
    float total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; b++) total += partial[b];
    out[0] = total;
    count = 0;
  }
}
