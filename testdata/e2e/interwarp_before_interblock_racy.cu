// expect: race write-write global inter-warp
// launch: --kernel k --grid 8 --block 64 --arg buf=float[256]:zero --arg out=float[512]:zero
// explain: 11 11
// Two races: the warps of each block write the same cells of buf, and each
// block reads the cells the next block writes. The first alone makes a
// block end differently from one run to the next, so a difference between
// the block-level passes proves nothing about other blocks: the race
// between warps is the one reported.
__global__ void k(float *buf, float *out) {
  int b = blockIdx.x, t = threadIdx.x;
  buf[b * 32 + (t & 31)] = (float)t;
  out[b * 64 + t] = buf[((b + 1) % gridDim.x) * 32 + (t & 31)];
}
