// saxpy with a grid-stride bug: the stride is the block size, not the number
// of threads in the grid. Block b starts at b * blockDim.x and then walks
// every later element in steps of one block, so block b's elements are also
// walked by every block before it: blocks write the same elements of y
// (write-write race on global memory between blocks), each from its own
// start, and block b reads y[i] that a lower block may already have updated.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int stride = blockDim.x; // bug: should be gridDim.x * blockDim.x
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}
