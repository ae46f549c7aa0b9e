// expect: none
// launch: --intra-warp --kernel k --grid 2 --block 64 --arg in=uchar[128]:rand --arg out=uchar[128]:zero
// Lanes write neighbouring bytes of one 4-byte word (an unsigned char per
// lane), then read their own byte back after __syncwarp and their
// neighbour's: no two lanes touch the same byte in one interval.
__global__ void k(const unsigned char *in, unsigned char *out) {
  __shared__ unsigned char b[64];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  b[t] = in[g];
  unsigned char mine = b[t];
  __syncwarp();
  out[g] = mine + b[t ^ 1];
}
