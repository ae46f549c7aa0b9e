// expect: none
// launch: --kernel k --grid 2 --block 256 --shared 1024 --arg in=float[512]:rand --arg out=float[512]:zero
// Dynamic shared memory (extern __shared__): reverse each block's slice through it with a
// barrier between the writes and the reads.
__global__ void k(const float *in, float *out) {
  extern __shared__ float sm[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  sm[t] = in[g];
  __syncthreads();
  out[g] = sm[blockDim.x - 1 - t];
}
