// expect: race read-write global inter-warp
// launch: --kernel k --grid 1 --block 64 --arg in=int[64]:iota --arg out=int[64]:zero --arg res=int[64]:zero
// explain: 18 20
// Accesses written through macros: in an argument (assert's, and TWICE's,
// whose body uses it twice), and as a macro's whole expansion (AT). Each
// warp writes its own half of out, then, in the same region, reads the
// other warp's half through TWICE: a read-write race between the warps.
// Before, every access in a macro's argument was edited at the macro's
// name ("internal error ... does not compile").
#include <assert.h>
#define TWICE(x) ((x) + (x))
#define AT(i) out[i]

__global__ void k(const int *in, int *out, int *res) {
  int i = threadIdx.x;
  AT(i) = in[i];
  __syncthreads();
  AT(i) = in[i] + 1;
  assert(out[i] == in[i] + 1 && AT(i) > 0);
  res[i] = TWICE(out[(i + 32) % 64]);
}
