// saxpy, y = a*x + y, over n floats with a grid-stride loop: thread g of the
// grid handles elements g, g + S, g + 2S, ... where S = gridDim.x * blockDim.x
// is the number of threads in the whole grid, so every element belongs to
// exactly one thread whatever the launch.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}
