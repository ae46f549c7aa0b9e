// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg data=int[256]:iota --arg step=0
// explain: 18 18
// A tree step whose stride comes in as an argument: thread t < 64 adds
// s[step*(2t+1)+64] into s[step*(2t+2)+64]. The build proves the region
// race-free for any nonzero step (the two subscripts are step apart) and
// tests the stride where the accesses run (LDC_COND); with step 0 every
// thread reads and writes s[64], so the test fails, the run with one pass
// a region is void, and level 2 runs again with both passes, which sees
// warps 0 and 1 write s[64].
__global__ void k(int *data, int step) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * 128 + t];
  s[t + 128] = 0;
  __syncthreads();
  if (t < 64)
    s[step * (2 * t + 2) + 64] += s[step * (2 * t + 1) + 64];
  __syncthreads();
  data[blockIdx.x * 128 + t] = s[t + 64];
}
