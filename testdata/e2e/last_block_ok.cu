// expect: none
// launch: --kernel sum --grid 8 --block 64 --arg in=float[512]:rand --arg partial=float[8]:zero --arg out=float[1]:zero --arg n=512
// The "last block" reduction (the CUDA samples' threadfence reduction):
// every block stores its partial sum, calls __threadfence() and takes a
// ticket with atomicInc; the block whose ticket is the last adds up every
// block's partial sum and resets the counter. The fence orders each
// block's store before its atomic, and the last ticket's atomic comes
// after every other block's: the last block's reads of partial[] and its
// plain store to count are ordered after the other blocks' accesses. No
// race (ldcheck says so in a note).
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
    __threadfence();
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
