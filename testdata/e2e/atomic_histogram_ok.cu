// expect: none
// launch: --kernel hist --grid 4 --block 256 --arg data=uchar[4096]:rand --arg bins=uint[16]:zero --arg n=4096
// Histogram of unsigned chars: per-block bins in shared memory updated with atomicAdd,
// then merged into the global bins with atomicAdd.
__global__ void hist(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int local[16];
  int t = threadIdx.x;
  if (t < 16) local[t] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % 16], 1u);
  __syncthreads();
  if (t < 16) atomicAdd(&bins[t], local[t]);
}
