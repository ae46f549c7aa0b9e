// A complete program: host code with cudaMalloc and a <<< >>> launch must
// parse; only the kernel is analysed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a, int v) {
  __shared__ int tmp[32];
  tmp[threadIdx.x % 32] = v;
  __syncwarp();
  a[blockIdx.x] = tmp[0];
}

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<64, 32>>>(d, 7);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d);
  return 0;
}
