// expect: none
// launch: --kernel reduce --grid 2 --block 1024 --arg in=float[2048]:rand --arg out=float[2]:zero
// Tree reduction over a 1024-thread block (32 warps): a barrier after every
// halving step, inside the loop, down to one element.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[1024];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}
