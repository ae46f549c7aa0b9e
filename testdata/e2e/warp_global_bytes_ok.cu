// expect: none
// launch: --kernel bytes --grid 2 --block 64 --arg b=uchar[128]:zero --arg out=uchar[128]:zero
// Lanes store into neighbouring bytes of one 4-byte word of global memory,
// then, after __syncwarp, read their neighbour's byte: no two lanes touch
// the same byte in one interval.
__global__ void bytes(unsigned char *b, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = (unsigned char)(i * 3);
  __syncwarp();
  out[i] = b[i ^ 1];
}
