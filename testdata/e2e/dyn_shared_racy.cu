// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --shared 512 --arg in=double[256]:rand --arg out=double[256]:zero
// explain: 9 9
// Dynamic shared memory of doubles sized for 64 elements: t % 64 makes warps 0 and 2
// (and 1 and 3) write the same elements with different values.
__global__ void k(const double *in, double *out) {
  extern __shared__ double dsm[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  dsm[t % 64] = in[g] * 3.0;
  __syncthreads();
  out[g] = dsm[t % 64];
}
