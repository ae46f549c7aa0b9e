// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 32 --arg in=float[128]:rand --arg out=float[8]:zero
// explain: 13 13
// A whole struct stored with one assignment (clang calls the implicit
// operator=): out is written, not read-only, and every block stores its own
// values into out[0].
struct Sample { float value; int block; };
__global__ void k(const float *in, Sample *out) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  Sample s;
  s.value = in[g];
  s.block = blockIdx.x;
  if (t == 0) out[0] = s;
}
