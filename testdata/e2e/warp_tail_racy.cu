// expect: race read-write shared intra-warp
// launch: --intra-warp --kernel reduce --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[2]:zero
// explain: 19 24
// The classic warp-synchronous reduction tail: once 32 partial sums are
// left, warp 0 adds them up with no __syncwarp between the steps (volatile
// only keeps the values out of registers). Since Volta the lanes of a warp
// are scheduled independently: lane 0 reads sdata[16] while lane 16 writes
// it, with no synchronisation between. An intra-warp race (CUDA 9 and
// later need __syncwarp, see warp_tail_syncwarp_ok.cu).
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 64) sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = sdata;
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
