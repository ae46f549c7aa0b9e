// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 32 --arg in=float[128]:rand --arg out=float[4]:zero
// explain: 24 24
// Local structs declared without an initializer (one with a constructor
// that must run at every loop iteration, as written) do not stop the kernel
// from being checked: every block writes out[0].
struct Acc {
  float sum;
  int n;
  __device__ Acc() : sum(0.0f), n(0) {}
};
struct Pair { float a, b; };
__global__ void k(const float *in, float *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  Pair p;
  p.a = in[g];
  for (int i = 0; i < 2; i++) {
    Acc acc;
    acc.sum += p.a * (i + 1);
    acc.n++;
    p.b = acc.sum / acc.n;
  }
  __syncthreads();
  if (t == 0) out[0] = p.b + (float)blockIdx.x;
}
