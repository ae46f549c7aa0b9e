// expect: race write-write global inter-block
// launch: --kernel relax --grid 4 --block 64 --arg dist_in=int[256]:rand --arg dist=int[256]:zero --arg n=256
// explain: 12 13
// The host program lives in an included header (include/graph_host.h,
// included twice: its guard skips the second); the kernel uses the
// header's device helper. Every block relaxes node 0 with its own value.
#include "include/graph_host.h"
#include "include/graph_host.h"
__global__ void relax(const int *dist_in, int *dist, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  dist[v] = dist_in[v] + weight(v, 0);
  if (threadIdx.x == 0) dist[0] = dist_in[v] + weight(0, v);
}
