// expect: none
// launch: --kernel gather --grid 2 --block 64 --arg in=float[128]:iota --arg res=float[128]:zero --arg p={data=@in,n=128,inner={scale=2.5,period=128},v=[1,2,3]}
// A struct passed by value, given field by field: a pointer field that
// points at another argument's buffer (data=@in), a nested struct and a
// fixed array. Each thread writes its own element of res (period 128 is
// the thread count).
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
