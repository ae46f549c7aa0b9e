// Instrumented by ldcheck from ../testdata/kernels/host_code.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel fill
#define LDC_LOCALS_SIZE_0 (1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B);  (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B);  (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0;  ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (0)
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/kernels/host_code.cu"
// A complete program: host code with cudaMalloc and a <<< >>> launch must
// parse; only the kernel is analysed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a, int v) {  ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ int tmp[32]; decltype(&tmp) ldc_p_tmp = (decltype(&tmp))ldc_shared_copy(&ldc_t, 0, (void *)&tmp, sizeof(tmp)); unsigned *ldc_f_tmp = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_tmp); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) {  default: break; } ldc_r_0_entry:;
  (*LDC_SW(ldc_p_tmp, ldc_f_tmp, sizeof(*ldc_p_tmp), &((*LDC_TRS(&((*ldc_p_tmp)[threadIdx.x % 32]), 1, 1, 0))))) = v;
  __syncwarp();
  (*LDC_WK(&((*LDC_TR(&(a[blockIdx.x]), 0, 1))))) = (*LDC_TRS(&((*ldc_p_tmp)[0]), 2, 0, 0));
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }

/* ldcheck: host function main left out: ldcheck launches kernels itself */








#line 1 "host_code.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_fill(void **a) { fill(*(int * *)a[0], *(int *)a[1]); }
#endif
