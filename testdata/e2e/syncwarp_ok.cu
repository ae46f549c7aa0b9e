// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=int[256]:rand --arg out=int[256]:zero
// Warp-private shared slices: lanes exchange values through their warp's slice with
// __syncwarp between the stores and the loads; no warp touches another's slice.
__global__ void k(const int *in, int *out) {
  __shared__ int slice[4][32];
  int t = threadIdx.x, lane = t % 32, w = t / 32, g = blockIdx.x * blockDim.x + t;
  int v = in[g] & 0xffff;
  for (int step = 1; step < 32; step <<= 1) {
    slice[w][lane] = v;
    __syncwarp();
    v += slice[w][lane ^ step];
    __syncwarp();
  }
  out[g] = v + __shfl_xor_sync(0xffffffffu, lane, 1);
}
