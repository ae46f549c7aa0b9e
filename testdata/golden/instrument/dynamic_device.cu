// Instrumented by ldcheck from ../testdata/kernels/dynamic_device.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel dyn
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(t)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, t); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, t); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, t); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (0)
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/kernels/dynamic_device.cu"
// extern __shared__, __device__ and __constant__ variables, a device function.
__device__ int counter;
__device__ float table[64];
__constant__ float coeff[4];

__device__ void bump(float *p, int i) { (*LDC_TR(&(p[i]), 0, 1)) += coeff[i % 4]; }

__global__ void dyn(float *out, int n) { int t{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  LDC_DYNAMIC_SHARED(float, buf); float *ldc_p_buf = (float *)ldc_shared_copy(&ldc_t, 0, (void *)buf, 0); LDC_TR_SHARED(0, ldc_p_buf); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; case 1: goto ldc_r_0_1; default: break; } ldc_r_0_entry:;
  t = threadIdx.x;
  (*LDC_TRS(&(ldc_p_buf[t]), 6, 1, 0)) = (*LDC_R(&((*LDC_TR(&(out[t]), 2, 0)))));
  { LDC_TR_BAR(0); LDC_BARRIER(0, 0); ldc_r_0_0:; }
  bump(ldc_p_buf, (t + 1) % blockDim.x);
  (*LDC_WK(&((*LDC_TR(&(table[t % 64]), 3, 1))))) = (*LDC_TRS(&(ldc_p_buf[t]), 7, 0, 0));
  { LDC_TR_BAR(1); LDC_BARRIER(0, 1); ldc_r_0_1:; }
  (*LDC_WK(&((*LDC_TR(&(out[t]), 4, 1))))) = (*LDC_TRS(&(ldc_p_buf[t]), 8, 0, 0)) + (*LDC_R(&((*LDC_TR(&(table[(t + 3) % 64]), 5, 0)))));
  LDC_AOP(atomicAdd, 1, 0, 1, 0)(&counter, 1);
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "dynamic_device.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_dyn(void **a) { dyn(*(float * *)a[0], *(int *)a[1]); }
#endif
