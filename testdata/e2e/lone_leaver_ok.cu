// expect: none
// launch: --kernel k --grid 4 --block 96 --arg out=int[512]:zero --arg idx=int[96]:iota --arg rounds=5
// One lane of warp 0 stores and returns while the rest of its warp, and
// the other warps, go on through rounds of barriers, each round one
// thread of warp 2 storing (indices loaded from memory, so that level 2
// checks the stores where they land). On the H100 such a split warp made
// the region end's hardware reduction give its two halves two results
// and killed the launch (RESULTS, fifty-second session).
__global__ void k(int *out, const int *idx, int rounds) {
  int t = threadIdx.x, base = 128 * blockIdx.x;
  if (idx[t] == 0) {
    out[base] = 1;
    return;
  }
  for (int r = 0; r < rounds; r++) {
    __syncthreads();
    if (idx[t] == 64 + r) out[base + 1 + r] = 100 + r;
  }
}
