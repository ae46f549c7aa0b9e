// expect: race write-write shared inter-warp
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[8]:zero
// explain: 12 12
// A struct array in shared memory: each warp owns stats[w].sum, but every warp's lane 0 also
// writes the one field stats[0].count with its own warp number.
struct Stats { float sum; int count; };
__global__ void k(const float *in, float *out) {
  __shared__ Stats stats[4];
  int t = threadIdx.x, w = t / 32, g = blockIdx.x * blockDim.x + t;
  if (t % 32 == 0) {
    stats[w].sum = in[g];
    stats[0].count = w + 1;        // racy field
  }
  __syncthreads();
  if (t < 4) out[blockIdx.x * 4 + t] = stats[t].sum + stats[0].count;
}
