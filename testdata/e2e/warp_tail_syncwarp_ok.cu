// expect: none
// launch: --intra-warp --kernel reduce --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[2]:zero
// warp_tail_racy.cu written for independent thread scheduling: each step
// reads into a register, synchronises the warp, writes, and synchronises
// again, so no lane reads a slot another lane writes in the same interval.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 64) sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    float v = sdata[tid];
    for (int o = 32; o > 0; o >>= 1) {
      v += sdata[tid + o < 64 ? tid + o : tid];
      __syncwarp();
      sdata[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
