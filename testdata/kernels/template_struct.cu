// A templated kernel with a struct in shared memory and a 3-D shared array.
#include <cuda_runtime.h>
struct Pair { float sum; int count; };

template <typename T, int N>
__global__ void tsum(const T *in, T *out) {
  __shared__ Pair acc;
  __shared__ T cube[2][4][N];
  if (threadIdx.x == 0) { acc.sum = 0; acc.count = 0; }
  __syncthreads();
  cube[0][threadIdx.x % 4][threadIdx.x % N] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = cube[0][0][0] + acc.sum;
}
template __global__ void tsum<float, 8>(const float *, float *);
