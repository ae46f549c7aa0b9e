// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 8,4,4 --arg in=double[256]:rand --arg out=double[256]:zero
// explain: 10 10
// 3-D blocks: the plane index z is left out of the shared index, so the four warps
// (one per z-plane) write the same 4x8 plane with different values.
__global__ void k(const double *in, double *out) {
  __shared__ double plane[4][8];
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  int g = blockIdx.x * 128 + (z * 4 + y) * 8 + x;
  plane[y][x] = in[g] + z;
  __syncthreads();
  out[g] = plane[y][x];
}
