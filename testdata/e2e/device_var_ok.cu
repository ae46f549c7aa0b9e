// expect: none
// launch: --kernel k --grid 4 --block 128 --arg in=int[512]:rand --arg out=int[512]:zero
// A __device__ module-scope table written and read by block 0 only (warps exchange values
// across a barrier); the other blocks never touch it.
__device__ int table[128];
__global__ void k(const int *in, int *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (blockIdx.x == 0) {
    table[t] = in[t] >> 4;
    __syncthreads();
    out[t] = table[(t + 32) % 128] + table[t];
  } else {
    out[g] = in[g] >> 4;
  }
}
