// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 64 --arg recs=long[64]:zero --arg in=int[256]:rand
// explain: 10 10
// Structs in global memory: each block fills the key field of its own records, but all
// blocks write the val field of the same record 0 with different values.
struct Rec { int key; float val; };
__global__ void k(Rec *recs, const int *in) {
  int t = threadIdx.x, b = blockIdx.x;
  if (t < 16) recs[b * 16 + t].key = in[b * 64 + t];
  if (t == 0) recs[0].val = (float)(b + 1);   // every block writes recs[0].val
}
