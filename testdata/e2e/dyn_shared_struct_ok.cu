// expect: none
// launch: --kernel k --grid 2 --block 64 --shared 1024 --arg in=float[128]:rand --arg out=float[128]:zero
// A struct array in dynamic shared memory (64 x 16 bytes): each thread fills its own
// record, and after a barrier reads the record of the mirrored thread in the other warp.
struct Cell { float v; float sq; int idx; int pad; };
__global__ void k(const float *in, float *out) {
  extern __shared__ Cell cells[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  cells[t].v = in[g];
  cells[t].sq = in[g] * in[g];
  cells[t].idx = t;
  __syncthreads();
  Cell c = cells[blockDim.x - 1 - t];
  out[g] = c.sq - c.v + (float)c.idx;
}
