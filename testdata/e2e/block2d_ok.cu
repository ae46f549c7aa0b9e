// expect: none
// launch: --kernel k --grid 2,2 --block 16,16 --arg in=float[1024]:rand --arg out=float[1024]:zero
// 2-D blocks on a 2-D grid: each block transposes its 16x16 tile through shared memory
// with a barrier between the writes and the transposed reads.
__global__ void k(const float *in, float *out) {
  __shared__ float tile[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int b = (blockIdx.y * gridDim.x + blockIdx.x) * 256;
  tile[ty][tx] = in[b + ty * 16 + tx];
  __syncthreads();
  out[b + ty * 16 + tx] = tile[tx][ty] * 2.0f;
}
