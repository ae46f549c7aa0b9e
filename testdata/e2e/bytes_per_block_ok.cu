// expect: none
// launch: --kernel k --grid 4 --block 64 --arg in=uchar[256]:rand --arg out=uchar[256]:zero
// unsigned char array in global memory: block b writes byte b of every 4-byte word of out,
// so the four blocks share every word but never a byte.
__global__ void k(const unsigned char *in, unsigned char *out) {
  int t = threadIdx.x, b = blockIdx.x;
  out[t * 4 + b] = (unsigned char)(in[b * 64 + t] + b + 1);
}
