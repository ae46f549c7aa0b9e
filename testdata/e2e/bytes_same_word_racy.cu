// expect: race write-write shared inter-warp
// launch: --kernel k --grid 1 --block 128 --arg in=uchar[128]:rand --arg out=uchar[128]:zero
// explain: 9 9
// unsigned char array in shared memory: warps 0 and 2 both write byte 0 of each word
// (w % 2 instead of w), with different values.
__global__ void k(const unsigned char *in, unsigned char *out) {
  __shared__ unsigned char buf[128];
  int t = threadIdx.x, w = t / 32, lane = t % 32;
  buf[lane * 4 + w % 2] = (unsigned char)(in[t] | 1) + (unsigned char)(w * 64);
  __syncthreads();
  out[t] = buf[t];
}
