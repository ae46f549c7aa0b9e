// expect: none
// launch: --kernel k --grid 2 --block 64 --arg in=int[128]:iota --arg out=int[128]:zero --arg v=Pt[128]:zero
// The twin of macro_args_racy.cu without the race: accesses in macro
// arguments (assert's, SQ's, whose body uses its argument twice), a
// macro's whole expansion (AT, GETX), and one inside another's argument
// (GETX in assert) are checked; every thread touches its own elements.
#include <assert.h>
#define SQ(x) ((x) * (x))
#define AT(i) out[i]
#define GETX(p) p.x
struct Pt { float x, y; };

__global__ void k(const int *in, int *out, Pt *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  AT(i) = in[i];
  __syncthreads();
  out[i] = SQ(out[i]) + 1;
  assert(out[i] == in[i] * in[i] + 1);
  GETX(v[i]) = (float)AT(i);
  assert(GETX(v[i]) == (float)out[i]);
}
