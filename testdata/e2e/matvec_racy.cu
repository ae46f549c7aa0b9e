// expect: race read-write global inter-warp
// launch: --kernel mv --grid 4 --block 64 --arg A=float[16384]:rand --arg x=float[64]:rand --arg y=float[256]:zero --arg n=64
// explain: 9 11
// Matrix-vector product that stages x in shared memory but forgets the barrier: warp 0
// reads xs[32..63] while warp 1 is still loading them.
__global__ void mv(const float *A, const float *x, float *y, int n) {
  __shared__ float xs[64];
  int t = threadIdx.x, row = blockIdx.x * blockDim.x + t;
  for (int j = t; j < n; j += blockDim.x) xs[j] = x[j];
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += A[row * n + j] * xs[j];
  y[row] = acc;
}
