// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=int[256]:rand --arg out=int[256]:zero --arg counts=int[2]:zero
// The block counts its threads with an odd value (__syncthreads_count) and uses the
// count to size its output: thread 0 stores the count, every thread below it writes
// one slot of the block's output. An early exit in the last warp must count as 0.
__global__ void k(const int *in, int *out, int *counts) {
  __shared__ int s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t >= 120) return;
  int v = in[g];
  s[t] = v;
  int n = __syncthreads_count(v & 1);
  if (t == 0) counts[blockIdx.x] = n;
  if (t < n) out[g] = s[(t + 64) % 120] + n;
  int all = 0;
  if (__syncthreads_and(v != 12345678)) all = 1;
  else all = 2;
  out[g] += all;
}
