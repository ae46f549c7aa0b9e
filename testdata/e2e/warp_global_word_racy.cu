// expect: race write-write global intra-warp
// launch: --kernel group --grid 2 --block 64 --arg in=int[128]:iota --arg out=int[32]:zero
// explain: 10 10
// Four lanes of a warp store their values into one element of out (t / 4
// in the block's part): whichever lane the warp scheduled last wins. An
// intra-warp write-write race in global memory; no other warp or block
// stores into those elements.
__global__ void group(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i / 4] = in[i] * 2;
}
