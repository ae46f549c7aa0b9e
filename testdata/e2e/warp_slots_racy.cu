// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[8]:zero
// explain: 11 11
// Warp-shuffle block sum where lane 0 stores to part[w % 2] instead of part[w]: warps 0 and 2
// (and 1 and 3) overwrite each other's partial sums.
__global__ void k(const float *in, float *out) {
  __shared__ float part[4];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  float v = in[blockIdx.x * blockDim.x + t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (lane == 0) part[w % 2] = v;
  __syncthreads();
  if (t < 4) out[blockIdx.x * 4 + t] = part[t];
}
