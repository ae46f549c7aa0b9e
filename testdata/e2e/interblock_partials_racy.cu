// expect: race read-write global inter-block
// launch: --kernel sum --grid 4 --block 64 --arg in=float[256]:rand --arg partial=float[4]:zero --arg out=float[1]:zero
// explain: 19 23
// Each block reduces its part in shared memory and stores the sum in
// partial; block 0 then adds up every block's partial sum, with nothing
// that makes it wait for the other blocks. Its read of partial[b] races
// with block b's store. The report names those two statements, not the
// shared-memory reduction: shared memory is each block's own, so no two
// blocks' accesses of it conflict.
__global__ void sum(const float *in, float *partial, float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
  __syncthreads();
  if (blockIdx.x == 0 && t == 0) {
    float total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; b++) total += partial[b];
    out[0] = total;
  }
}
