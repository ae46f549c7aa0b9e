// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=uchar[256]:rand --arg out=uchar[256]:zero
// unsigned char array in shared memory: warp w writes byte w of every 4-byte word, so the
// four warps share every word but never a byte.
__global__ void k(const unsigned char *in, unsigned char *out) {
  __shared__ unsigned char buf[128];
  int t = threadIdx.x, w = t / 32, lane = t % 32, g = blockIdx.x * blockDim.x + t;
  buf[lane * 4 + w] = in[g] ^ (unsigned char)(w * 17 + 1);
  __syncthreads();
  out[g] = buf[t] + buf[127 - t];
}
