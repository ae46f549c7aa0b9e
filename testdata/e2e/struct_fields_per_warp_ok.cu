// expect: none
// launch: --kernel k --grid 2 --block 128 --arg q=int[256]:zero --arg in=int[256]:rand
// Structs in global memory with one field per warp: warp w writes field w of every record
// of its block, with no barrier; the warps share each record but never a field.
struct Quad { int f[4]; };
__global__ void k(Quad *q, const int *in) {
  int t = threadIdx.x, lane = t % 32, w = t / 32, g = blockIdx.x * blockDim.x + t;
  q[blockIdx.x * 32 + lane].f[w] = in[g] + w;
}
