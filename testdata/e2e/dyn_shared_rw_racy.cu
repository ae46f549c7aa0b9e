// expect: race read-write global inter-warp
// launch: --kernel k --grid 2 --block 256 --shared 1024 --arg in=float[512]:rand --arg out=float[512]:zero
// explain: 8 9
// Dynamic shared memory: the block reversal of dyn_shared_ok without its barrier.
__global__ void k(const float *in, float *out) {
  extern __shared__ float sm[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  sm[t] = in[g];
  out[g] = sm[blockDim.x - 1 - t];
}
