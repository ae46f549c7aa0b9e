// expect: race write-write shared intra-warp
// launch: --intra-warp --kernel k --grid 2 --block 64 --arg in=int[128]:iota --arg out=int[2]:zero
// explain: 12 13
// Each warp keeps the largest value it has seen in its own shared slot,
// but every lane of the warp stores into that one slot in the same
// interval (no __syncwarp, no atomicMax): which lane's value remains
// depends on how the lanes were scheduled. Two lanes of one warp writing
// the same word with no synchronisation between: an intra-warp race.
__global__ void k(const int *in, int *out) {
  __shared__ int best[2];
  int t = threadIdx.x, w = t / 32, v = in[blockIdx.x * blockDim.x + t];
  if (t % 32 == 0) best[w] = 0;
  if (v > best[w]) best[w] = v;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = best[0] > best[1] ? best[0] : best[1];
}
