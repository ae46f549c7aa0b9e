// Instrumented by ldcheck from ../testdata/acceptance/device_sum_ww.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel k
#define LDC_LOCALS_SIZE_0 (1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B);  (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B);  (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0;  ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? ((((blockDim.y == 1) & (blockDim.z == 1)) ? 0x1u : 0u)) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/acceptance/device_sum_ww.cu"
// expect: race write-write global inter-block
// launch: --kernel k --grid 4 --block 64 --arg in=float[256]:rand
// explain: 7 7
// A module-scope accumulator updated without atomics by thread 0 of every block.
__device__ float total;
__global__ void k(const float *in) {  ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0]; LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) {  default: break; } ldc_r_0_entry:;
  if (threadIdx.x == 0) (*LDC_WK(&((*LDC_TR(&(total), 0, 1))))) += in[blockIdx.x * blockDim.x] + 1.0f;
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "device_sum_ww.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_k(void **a) { k(*(const float * *)a[0]); }
#endif
