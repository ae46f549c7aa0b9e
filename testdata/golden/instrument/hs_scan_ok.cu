// Instrumented by ldcheck from ../testdata/acceptance/hs_scan_ok.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel scan
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(t)) + LDC_SLOT(sizeof(g)) + LDC_SLOT(sizeof(cur)) + LDC_SLOT(sizeof(off)) + LDC_SLOT(sizeof(v)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, t); LDC_PUT(ldc_q, g); LDC_PUT(ldc_q, cur); LDC_PUT(ldc_q, off); LDC_PUT(ldc_q, v); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, t); LDC_GET(ldc_q, g); LDC_GET(ldc_q, cur); LDC_GET(ldc_q, off); LDC_GET(ldc_q, v); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, t); LDC_CMP(ldc_q, ldc_d, g); LDC_CMP(ldc_q, ldc_d, cur); LDC_CMP(ldc_q, ldc_d, off); LDC_CMP(ldc_q, ldc_d, v); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? (0x6u) : (E) == 0 ? (0x1u) : (E) == 1 ? (0x6u) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/acceptance/hs_scan_ok.cu"
// expect: none
// launch: --kernel scan --grid 2 --block 256 --arg data=float[512]:rand
// Hillis-Steele inclusive scan, double-buffered: barriers inside the loop.
__global__ void scan(float *data) { int t{}; int g{}; int cur{}; int off{}; float v{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ float buf[2][256]; decltype(&buf) ldc_p_buf = (decltype(&buf))ldc_shared_copy(&ldc_t, 0, (void *)&buf, sizeof(buf)); unsigned *ldc_f_buf = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_buf); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; case 1: goto ldc_r_0_1; default: break; } ldc_r_0_entry:;
  t = threadIdx.x; g = blockIdx.x * blockDim.x + t;
  cur = 0;
  (*LDC_SW(ldc_p_buf, ldc_f_buf, sizeof(*ldc_p_buf), &((*LDC_TRS(&((*ldc_p_buf)[cur][t]), 2, 1, 0))))) = (*LDC_R(&((*LDC_TR(&(data[g]), 0, 0)))));
  { LDC_TR_BAR(0); LDC_BARRIER(0, 0); ldc_r_0_0:; }
  for (off = 1; off < blockDim.x; off <<= 1) {
    v = (*LDC_TRS(&((*ldc_p_buf)[cur][t]), 3, 0, 0));
    if (t >= off) v += (*LDC_TRS(&((*ldc_p_buf)[cur][t - off]), 4, 0, 0));
    (*LDC_SW(ldc_p_buf, ldc_f_buf, sizeof(*ldc_p_buf), &((*LDC_TRS(&((*ldc_p_buf)[1 - cur][t]), 5, 1, 0))))) = v;
    cur = 1 - cur;
    { LDC_TR_BAR(1); LDC_BARRIER(0, 1); ldc_r_0_1:; }
  }
  (*LDC_WK(&((*LDC_TR(&(data[g]), 1, 1))))) = (*LDC_TRS(&((*ldc_p_buf)[cur][t]), 6, 0, 0));
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "hs_scan_ok.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_scan(void **a) { scan(*(float * *)a[0]); }
#endif
