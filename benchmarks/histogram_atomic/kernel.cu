// Histogram of n unsigned ints into NBINS bins (bin = value % NBINS), in two
// stages. Each block keeps its own histogram in shared memory: its threads
// clear the bins, wait (barrier), walk the input with a grid-stride loop
// adding one to their value's bin with atomicAdd on shared memory, wait
// again, and then add the block's bins into the global histogram with one
// atomicAdd per bin. Race-free: every update of a bin is atomic, and the
// barriers order the clearing, the counting and the merge.
#define NBINS 256

__global__ void histogram(const unsigned int *data, unsigned int *bins, int n) {
  __shared__ unsigned int local[NBINS];
  int t = threadIdx.x;
  for (int b = t; b < NBINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride)
    atomicAdd(&local[data[i] % NBINS], 1u);
  __syncthreads();
  for (int b = t; b < NBINS; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&bins[b], local[b]);
}
