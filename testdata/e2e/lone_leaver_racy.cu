// expect: race write-write global inter-warp
// launch: --kernel k --grid 2 --block 64 --arg out=int[16]:zero --arg idx=int[64]:iota
// explain: 11 14
// Thread 0 stores out[b] and returns; thread 32 (warp 1) stores the same
// element before the barrier that the other threads of warp 0 wait at.
__global__ void k(int *out, const int *idx) {
  int t = threadIdx.x, b = 8 * blockIdx.x;
  if (idx[t] == 0) {
    // (thread 0 leaves after storing)
    int v = 7;
    out[b] = v;
    return;
  }
  if (idx[t] == 32) out[b] = 9;
  __syncthreads();
  if (idx[t] == 40) out[b + 4] = 4;
}
