// expect: none
// launch: --kernel k --grid 3 --block 96 --arg in=int[288]:rand --arg out=int[288]:zero --arg rounds=int[3]:zero
// Each thread halves its value until it is 0; the block keeps iterating while any
// thread still has work (__syncthreads_or in the loop condition). Every round the
// threads publish their value in shared memory and read a neighbour's of another
// warp, race-free: the barrier in the condition ends the region.
__global__ void k(const int *in, int *out, int *rounds) {
  __shared__ int s[96];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = in[g] & 0xfff, acc = 0, r = 0;
  while (__syncthreads_or(v != 0)) {
    s[t] = v;
    __syncthreads();
    acc += s[(t + 32) % 96];
    v >>= 1;
    r++;
  }
  out[g] = acc;
  if (t == 0) rounds[blockIdx.x] = r;
}
