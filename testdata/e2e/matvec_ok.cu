// expect: none
// launch: --kernel mv --grid 4 --block 64 --arg A=float[16384]:rand --arg x=float[64]:rand --arg y=float[256]:zero --arg n=64
// Matrix-vector product y = A x (256 x 64): each block stages x in shared memory, then
// each thread computes one row's dot product after the barrier.
__global__ void mv(const float *A, const float *x, float *y, int n) {
  __shared__ float xs[64];
  int t = threadIdx.x, row = blockIdx.x * blockDim.x + t;
  for (int j = t; j < n; j += blockDim.x) xs[j] = x[j];
  __syncthreads();
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += A[row * n + j] * xs[j];
  y[row] = acc;
}
