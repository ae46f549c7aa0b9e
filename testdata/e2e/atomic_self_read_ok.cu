// expect: none
// launch: --kernel k --grid 4 --block 128 --arg c=int[4]:zero --arg out=int[512]:zero
// Each block's first thread reads its block's global counter and then bumps
// it atomically; lane 0 of every warp does the same with its warp's shared
// counter, in every region. A unit that reads a variable and then updates it
// atomically is not racing with itself: its own atomics must not change what
// it reads when its region runs again (it was reported as a read-write race
// "between blocks 0").
__global__ void k(int *c, int *out) {
  __shared__ int s[4];
  int t = threadIdx.x, w = t / 32;
  if (t < 4) s[t] = 0;
  __syncthreads();
  int seen = 0;
  for (int i = 0; i < 3; i++) {
    if (t % 32 == 0) {
      int old = s[w];
      atomicAdd(&s[w], 1);
      seen += old;
    }
    if (t == 0) {
      int old = c[blockIdx.x];
      atomicAdd(&c[blockIdx.x], 2);
      seen += old;
    }
    __syncthreads();
  }
  out[t * gridDim.x + blockIdx.x] = seen;
}
