// expect: none
// launch: --kernel k --grid 2 --block 8,4,4 --arg in=int[256]:rand --arg out=int[256]:zero
// 3-D blocks (one warp per z-plane): each thread writes its cell, then after a barrier reads
// the cell mirrored in z, which another warp wrote.
__global__ void k(const int *in, int *out) {
  __shared__ int cube[4][4][8];
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  int g = blockIdx.x * 128 + (z * 4 + y) * 8 + x;
  cube[z][y][x] = in[g];
  __syncthreads();
  out[g] = cube[3 - z][y][x] - cube[z][3 - y][7 - x];
}
