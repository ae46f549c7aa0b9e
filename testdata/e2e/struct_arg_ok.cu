// expect: none
// launch: --kernel scale --grid 2 --block 64 --arg p=hex:80000000_0000c03f_01000000 --arg out=float[128]:zero
// A struct passed by value (n = 128, s = 1.5f, stride = 1), given to --arg as
// its bytes: each thread writes its own element.
struct Params {
  int n;
  float s;
  int stride;
};
__global__ void scale(Params p, float *out) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * p.stride;
  if (i < p.n) out[i] = p.s * i;
}
