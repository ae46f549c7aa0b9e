// Instrumented by ldcheck from ../testdata/kernels/control_flow.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel flow
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(t)) + LDC_SLOT(sizeof(r)) + LDC_SLOT(sizeof(v)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, t); LDC_PUT(ldc_q, r); LDC_PUT(ldc_q, v); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, t); LDC_GET(ldc_q, r); LDC_GET(ldc_q, v); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, t); LDC_CMP(ldc_q, ldc_d, r); LDC_CMP(ldc_q, ldc_d, v); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? (0x31u) : (E) == 0 ? (0x1u) : (E) == 1 ? (0xeu) : (E) == 2 ? (0x4u) : (E) == 3 ? ((((blockDim.y == 1) & (blockDim.z == 1)) ? 0xeu : 0u)) : (E) == 4 ? (0x10u) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 0
#line 1 "../testdata/kernels/control_flow.cu"
// Barriers in while and do loops, in a uniform if, with break, continue and
// an early return.
__global__ void flow(int *data, int rounds) { int t{}; int r{}; int v{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ int s[128]; decltype(&s) ldc_p_s = (decltype(&s))ldc_shared_copy(&ldc_t, 0, (void *)&s, sizeof(s)); unsigned *ldc_f_s = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_s); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; case 1: goto ldc_r_0_1; case 2: goto ldc_r_0_2; case 3: goto ldc_r_0_3; case 4: goto ldc_r_0_4; default: break; } ldc_r_0_entry:;
  t = threadIdx.x;
  if (blockIdx.x >= 4) { goto ldc_exit_0; }
  (*LDC_SW(ldc_p_s, ldc_f_s, sizeof(*ldc_p_s), &((*LDC_TRS(&((*ldc_p_s)[t]), 2, 1, 0))))) = (*LDC_R(&((*LDC_TR(&(data[blockIdx.x * blockDim.x + t]), 0, 0)))));
  { LDC_TR_BAR(0); LDC_BARRIER(0, 0); ldc_r_0_0:; }
  r = 0;
  while (r < rounds) {
    v = (*LDC_TRS(&((*ldc_p_s)[(t + 1) % 128]), 3, 0, 0));
    { LDC_TR_BAR(1); LDC_BARRIER(0, 1); ldc_r_0_1:; }
    if (v < 0) { ++r; continue; }
    (*LDC_SW(ldc_p_s, ldc_f_s, sizeof(*ldc_p_s), &((*LDC_TRS(&((*ldc_p_s)[t]), 4, 1, 0))))) = v + 1;
    { LDC_TR_BAR(2); LDC_BARRIER(0, 2); ldc_r_0_2:; }
    if (r > 100) break;
    ++r;
  }
  do {
    (*LDC_SW(ldc_p_s, ldc_f_s, sizeof(*ldc_p_s), &((*LDC_TRS(&((*ldc_p_s)[t]), 5, 1, 0))))) -= 1;
    { LDC_TR_BAR(3); LDC_BARRIER(0, 3); ldc_r_0_3:; }
  } while ((*LDC_TRS(&((*ldc_p_s)[0]), 6, 0, 0)) > 1000);
  if (rounds > 3) {
    { LDC_TR_BAR(4); LDC_BARRIER(0, 4); ldc_r_0_4:; }
  }
  (*LDC_WK(&((*LDC_TR(&(data[blockIdx.x * blockDim.x + t]), 1, 1))))) = (*LDC_TRS(&((*ldc_p_s)[t]), 7, 0, 0));
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "control_flow.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_flow(void **a) { flow(*(int * *)a[0], *(int *)a[1]); }
#endif
