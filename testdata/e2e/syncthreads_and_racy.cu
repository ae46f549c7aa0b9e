// expect: race read-write local inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=int[256]:rand --arg out=int[256]:zero
// explain: 13 14
// The region between two __syncthreads_and barriers writes s[t] and reads the
// element of a thread in another warp, with no barrier in between.
__global__ void k(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  int ok = __syncthreads_and(s[t] >= 0 || s[t] < 0);
  int x = 0;
  if (ok) {
    s[t] = s[t] + 1;
    x = s[(t + 64) % 128];
  }
  ok = __syncthreads_and(x != 0x7fffffff);
  out[g] = x + ok;
}
