// expect: race write-write global inter-block
// launch: --kernel reduce --grid 4 --block 128 --arg in=double[512]:rand --arg out=double[1]:zero
// explain: 15 15
// Correct per-block tree reduction of doubles, but every block stores its partial sum to
// out[0] instead of out[blockIdx.x].
__global__ void reduce(const double *in, double *out) {
  __shared__ double sdata[128];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[0] = sdata[0];
}
