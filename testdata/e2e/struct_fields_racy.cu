// expect: race write-write global inter-block
// launch: --kernel gather --grid 2 --block 64 --arg in=float[128]:iota --arg res=float[128]:zero --arg p={data=@in,n=128,inner={scale=2.5,period=32},v=[1,2,3]}
// explain: 18 18
// The twin of struct_fields_ok.cu given period=32 in its nested struct:
// threads i, i+32, i+64 and i+96 (other warps, other blocks) write the
// same element of res with different values (read through the pointer
// field data, which points at buffer in).
struct Inner { float scale; int period; };
struct Params {
  const float *data;
  int n;
  Inner inner;
  int v[3];
};
__global__ void gather(Params p, const float *in, float *res) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    res[i % p.inner.period] = p.data[(i + 1) % p.n] * p.inner.scale + p.v[i % 3];
}
