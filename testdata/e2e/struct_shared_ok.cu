// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=float[256]:rand --arg out=float[8]:zero
// A struct array in shared memory with per-warp fields: lane 0 of warp w fills stats[w]
// (all fields), then after a barrier thread 0 combines them.
struct Stats { float lo; float hi; int count; };
__global__ void k(const float *in, float *out) {
  __shared__ Stats stats[4];
  int t = threadIdx.x, w = t / 32, g = blockIdx.x * blockDim.x + t;
  if (t % 32 == 0) {
    float lo = in[g], hi = in[g];
    for (int i = 1; i < 32; ++i) { lo = fminf(lo, in[g + i]); hi = fmaxf(hi, in[g + i]); }
    stats[w].lo = lo; stats[w].hi = hi; stats[w].count = 32 * (w + 1);
  }
  __syncthreads();
  if (t == 0) {
    Stats a = stats[0];
    for (int i = 1; i < 4; ++i) { a.lo = fminf(a.lo, stats[i].lo); a.hi = fmaxf(a.hi, stats[i].hi); a.count += stats[i].count; }
    out[blockIdx.x * 4] = a.lo; out[blockIdx.x * 4 + 1] = a.hi; out[blockIdx.x * 4 + 2] = (float)a.count;
  }
}
