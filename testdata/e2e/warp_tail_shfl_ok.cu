// expect: none
// launch: --intra-warp --kernel reduce --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[2]:zero
// warp_tail_racy.cu with the last 64 partial sums added up by warp 0 with
// __shfl_down_sync: the values travel in registers, no lane touches a
// shared slot another lane writes.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 64) sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (tid == 0) sdata[0] = v;
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
