// expect: race read-write local inter-warp
// launch: --kernel k --grid 4 --block 128 --arg c=int[4]:zero --arg out=int[512]:zero
// explain: 20 21
// atomic_self_read_ok.cu with a true race added: lane 0 of each warp
// publishes what it read in a shared slot and reads its neighbour warp's
// slot in the same region. The reads before each unit's own atomics must
// not hide it, nor be reported in its place.
__global__ void k(int *c, int *out) {
  __shared__ int s[4];
  __shared__ int pub[4];
  int t = threadIdx.x, w = t / 32;
  if (t < 4) s[t] = 0;
  if (t < 4) pub[t] = 0;
  __syncthreads();
  int seen = 0;
  for (int i = 0; i < 3; i++) {
    if (t % 32 == 0) {
      int old = s[w];
      atomicAdd(&s[w], 1);
      pub[w] = old + 1;
      seen += pub[(w + 1) % 4];
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
