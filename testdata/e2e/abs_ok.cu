// expect: none
// launch: --kernel k --grid 2 --block 64 --arg out=int[128]:zero --arg f=float[128]:rand --arg d=double[128]:rand
// abs, labs and llabs in device code, with and without the C library's
// headers included (CUDA declares them for the device; ldcheck could not
// build this kernel before: "use of undeclared identifier 'abs'", or
// "call to 'abs' is ambiguous" with <stdlib.h>). Each thread writes its
// own elements; race-free. Checks the values it knows.
#include <stdlib.h>
#include <math.h>
#include <assert.h>

__global__ void k(int *out, float *f, double *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = abs(i - 5) + (int)labs(i - 3L) + (int)llabs(i - 9LL);
  f[i] = abs(-f[i]);
  d[i] = abs(-d[i]) + fabs(-1.0);
  long long big = llabs(-(1LL << 40));
  assert(big == (1LL << 40));
  assert(out[i] == (i > 5 ? i - 5 : 5 - i) + (i > 3 ? i - 3 : 3 - i) + (i > 9 ? i - 9 : 9 - i));
  assert(f[i] >= 0.0f && d[i] >= 1.0);
}
