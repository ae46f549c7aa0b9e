// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 64 --arg in=double[256]:rand --arg out=double[128]:zero
// explain: 9 9
// Inter-block write-write race: output windows of 64 doubles advance by 32 per block, so
// neighbouring blocks write the overlapping half with different values.
__global__ void k(const double *in, double *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int o = blockIdx.x * 32 + t;
  if (o < 128) out[o] = in[g] * 0.5 + blockIdx.x;
}
