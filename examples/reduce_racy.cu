// A block-wide sum in shared memory with one barrier missing: in the tree
// reduction, warps read partial sums that other warps are still writing.
// `make example` runs ldcheck on this kernel.
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  partial[t] = g < n ? in[g] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    // missing: __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
