// expect: race read-write global inter-warp
// launch: --kernel k --grid 2,2 --block 16,16 --arg in=float[1024]:rand --arg out=float[1024]:zero
// explain: 10 12
// 2-D blocks on a 2-D grid: the in-block transpose reads tile[tx][ty] with no barrier after
// the writes; (ty,tx) and (tx,ty) lie in different warps for most threads.
__global__ void k(const float *in, float *out) {
  __shared__ float tile[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int b = (blockIdx.y * gridDim.x + blockIdx.x) * 256;
  tile[ty][tx] = in[b + ty * 16 + tx];
  // barrier missing
  out[b + ty * 16 + tx] = tile[tx][ty] * 2.0f;
}
