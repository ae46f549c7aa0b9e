// expect: race read-write local inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=int[256]:rand --arg out=int[256]:zero
// explain: 12 13
// The race shows only in a predicate: each thread sets s[t] and, with no barrier in
// between, tests the element of a thread in another warp in __syncthreads_count.
// The block's count (and so out) depends on which warp ran first.
__global__ void k(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = 0;
  __syncthreads();
  s[t] = in[g] | 1;
  int n = __syncthreads_count(s[(t + 64) % 128] != 0);
  out[g] = n;
}
