// expect: race read-write global inter-block
// launch: --kernel k --grid 4 --block 64 --arg in=int[256]:rand --arg out=int[256]:zero
// explain: 10 13
// A __device__ module-scope variable set by block 0 and read by the other blocks in the
// same launch, without any grid-wide ordering (block 0 itself does not read it).
__device__ int scale;
__global__ void k(const int *in, int *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) scale = 7;
    out[g] = in[g] % 100;
  } else {
    out[g] = in[g] % 100 * scale;
  }
}
