// expect: none
// launch: --kernel reduce --grid 4 --block 256 --arg in=float[1024]:rand --arg out=float[4]:zero
// Tree reduction in shared memory with a barrier after every halving step (down to one element).
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[256];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}
