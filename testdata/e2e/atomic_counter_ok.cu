// expect: none
// launch: --kernel k --grid 4 --block 128 --arg in=int[512]:rand --arg count=int[1]:zero --arg out=int[512]:zero
// Every thread bumps one global counter with atomicAdd (no race), and counts the
// elements above zero into a shared counter, also with atomicAdd.
__global__ void k(const int *in, int *count, int *out) {
  __shared__ int positives;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) positives = 0;
  __syncthreads();
  atomicAdd(count, 1);
  if (in[g] > 0) atomicAdd(&positives, 1);
  __syncthreads();
  out[g] = positives;
}
