// expect: race read-write global intra-warp
// launch: --kernel shift --grid 2 --block 64 --arg a=int[129]:iota
// explain: 12 13
// Each lane adds one to its element and stores it in the next one, in
// global memory: lane l + 1 reads a[i + 1] while lane l writes it, and
// nothing orders the two (lanes of a warp are scheduled independently
// since Volta). The last lane of each warp does not store, so the race is
// between lanes of one warp only: no two warps or blocks touch one word,
// and the byte comparisons (one unit a warp) cannot see it.
__global__ void shift(int *a) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = a[i];
  if (t % 32 != 31) a[i + 1] = v + 1;
}
