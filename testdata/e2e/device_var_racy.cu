// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 64 --arg in=int[256]:rand --arg out=int[256]:zero
// explain: 9 9
// A __device__ module-scope scratch array used by every block as if it were its own:
// all blocks write last[t] with block-dependent values.
__device__ int last[64];
__global__ void k(const int *in, int *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  last[t] = in[g] * 4 + blockIdx.x;
  out[g] = in[g] + 1;
}
