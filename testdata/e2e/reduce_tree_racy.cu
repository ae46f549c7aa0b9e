// expect: race read-write shared inter-warp
// launch: --kernel reduce --grid 4 --block 256 --arg in=float[1024]:rand --arg out=float[4]:zero
// explain: 12 12
// Tree reduction with the barrier inside the loop forgotten: at s = 64 warps 0-1 read
// sdata[64..127], which warps 2-3 updated at s = 128 in the same region.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[256];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
  }
  __syncthreads();
  if (t == 0) out[blockIdx.x] = sdata[0];
}
