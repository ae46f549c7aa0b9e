// expect: race atomic-plain global inter-block
// launch: --kernel k --grid 8 --block 32 --arg data=int[256]:rand --arg best=int[1]:zero
// explain: 11 12
// The maximum of data: each thread skips the atomicMax when the current
// maximum is already larger, reading it plainly. Other blocks (one warp
// each) update it atomically meanwhile: the plain read races with their
// atomicMax (the pattern a graph benchmark suite has 40 racy kernels of).
__global__ void k(const int *data, int *best) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = data[g];
  if (best[0] < v)
    atomicMax(best, v);
}
