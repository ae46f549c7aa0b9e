// The host program of include_host_header_racy.cu, kept in a header as
// many programs do: host functions, main, runtime API calls and a launch,
// which ldcheck must leave out of the device and CPU builds; and a device
// helper, which it must keep.
#ifndef GRAPH_HOST_H
#define GRAPH_HOST_H
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void relax(const int *dist_in, int *dist, int n);

__device__ int weight(int u, int v) { return (u + v) % 7 + 1; }

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) printf("%s: %s\n", what, cudaGetErrorString(e));
}

int main() {
  int n = 256, *d_in, *d_out;
  check(cudaMalloc(&d_in, n * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&d_out, n * sizeof(int)), "cudaMalloc");
  relax<<<(n + 63) / 64, 64>>>(d_in, d_out, n);
  check(cudaDeviceSynchronize(), "relax");
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
#endif
