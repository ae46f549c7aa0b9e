// expect: none
// launch: --kernel k --grid 4 --block 64 --arg data=int[256]:rand --arg best=int[4]:zero
// atomic_plain_max_racy.cu with one maximum per block, read plainly only by
// the block's thread 0, which alone updates it (with its own atomicMax):
// a unit's own plain read and atomic are no race.
__global__ void k(const int *data, int *best) {
  int t = threadIdx.x, b = blockIdx.x;
  if (t == 0) {
    for (int i = 0; i < 64; i++) {
      int v = data[b * 64 + i];
      if (best[b] < v) atomicMax(&best[b], v);
    }
  }
}
