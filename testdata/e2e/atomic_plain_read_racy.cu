// expect: race atomic-plain shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg out=int[256]:zero
// explain: 14 16
// Warps 1 to 3 count into a shared counter with atomicAdd while warp 0
// reads it plainly in the same region (no barrier between): under the
// CUDA memory model a plain read racing with another warp's atomic is a
// data race. The counter is not privatized (atomics take effect once), so
// no byte comparison sees it: the atomic-plain check must.
__global__ void k(int *out) {
  __shared__ int counter[1];
  int t = threadIdx.x, seen = 0;
  if (t == 0) counter[0] = 0;
  __syncthreads();
  if (t < 32) seen = counter[0];
  else
    atomicAdd(&counter[0], 1);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = seen + counter[0];
}
