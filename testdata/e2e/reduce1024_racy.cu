// expect: race read-write shared inter-warp
// launch: --kernel reduce --grid 2 --block 1024 --arg in=float[2048]:rand --arg out=float[2]:zero
// explain: 13 13
// The 1024-thread tree reduction with the barrier inside the loop forgotten:
// at s = 256 warps 0-7 read sdata[256..511], which warps 8-15 updated at
// s = 512 in the same region.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[1024];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
  }
  __syncthreads();
  if (t == 0) out[blockIdx.x] = sdata[0];
}
