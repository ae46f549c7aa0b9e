// expect: race atomic-plain global inter-block
// launch: --kernel k --grid 4 --block 64 --arg total=int[1]:zero --arg in=int[256]:iota --arg out=int[256]:zero
// explain: 11 14
// Every block adds its elements into one global total with atomicAdd,
// but block 0's thread 0 first resets the total with a plain store:
// blocks are not ordered, so the store races with the other blocks'
// atomics (a data race under the CUDA memory model). Each thread also
// copies its element to out.
__global__ void k(int *total, const int *in, int *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g == 0) total[0] = 0;
  out[g] = in[g];
  __syncthreads();
  atomicAdd(&total[0], in[g]);
}
