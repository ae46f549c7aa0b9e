// expect: none
// launch: --kernel k --grid 4 --block 64 --arg recs=long[256]:zero --arg in=int[256]:rand
// Structs in global memory with disjoint owners: thread g writes recs[g].key, and the
// val fields are written by a different warp of the same block after a barrier.
struct Rec { int key; float val; };
__global__ void k(Rec *recs, const int *in) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int base = blockIdx.x * blockDim.x;
  recs[g].key = in[g] % 1000;
  __syncthreads();
  int o = base + (t + 32) % blockDim.x;      // the record of a thread in the other warp
  recs[o].val = recs[o].key * 0.5f;
}
