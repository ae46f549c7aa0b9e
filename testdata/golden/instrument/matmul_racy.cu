// Instrumented by ldcheck from ../testdata/acceptance/matmul_racy.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel mm
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(tx)) + LDC_SLOT(sizeof(ty)) + LDC_SLOT(sizeof(row)) + LDC_SLOT(sizeof(col)) + LDC_SLOT(sizeof(acc)) + LDC_SLOT(sizeof(k0)) + LDC_SLOT(sizeof(k)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, tx); LDC_PUT(ldc_q, ty); LDC_PUT(ldc_q, row); LDC_PUT(ldc_q, col); LDC_PUT(ldc_q, acc); LDC_PUT(ldc_q, k0); LDC_PUT(ldc_q, k); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, tx); LDC_GET(ldc_q, ty); LDC_GET(ldc_q, row); LDC_GET(ldc_q, col); LDC_GET(ldc_q, acc); LDC_GET(ldc_q, k0); LDC_GET(ldc_q, k); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, tx); LDC_CMP(ldc_q, ldc_d, ty); LDC_CMP(ldc_q, ldc_d, row); LDC_CMP(ldc_q, ldc_d, col); LDC_CMP(ldc_q, ldc_d, acc); LDC_CMP(ldc_q, ldc_d, k0); LDC_CMP(ldc_q, ldc_d, k); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? (0x3u) : (E) == 0 ? (0x1u) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/acceptance/matmul_racy.cu"
// expect: race read-write local inter-warp
// launch: --kernel mm --grid 4,4 --block 16,16 --arg A=float[4096]:rand --arg B=float[4096]:rand --arg C=float[4096]:zero --arg n=64
// explain: 12 14
#define T 16
__global__ void mm(const float *A, const float *B, float *C, int n) { int tx{}; int ty{}; int row{}; int col{}; float acc{}; int k0{}; int k{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ float As[T][T], Bs[T][T]; decltype(&As) ldc_p_As = (decltype(&As))ldc_shared_copy(&ldc_t, 0, (void *)&As, sizeof(As)); unsigned *ldc_f_As = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_As); decltype(&Bs) ldc_p_Bs = (decltype(&Bs))ldc_shared_copy(&ldc_t, 1, (void *)&Bs, sizeof(Bs)); unsigned *ldc_f_Bs = ldc_shared_flags(1); LDC_TR_SHARED(1, ldc_p_Bs); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; default: break; } ldc_r_0_entry:;
  tx = threadIdx.x; ty = threadIdx.y;
  row = blockIdx.y * T + ty; col = blockIdx.x * T + tx;
  acc = 0.0f;
  for (k0 = 0; k0 < n; k0 += T) {
    (*LDC_SW(ldc_p_As, ldc_f_As, sizeof(*ldc_p_As), &((*LDC_TRS(&((*ldc_p_As)[ty][tx]), 1, 1, 0))))) = A[row * n + k0 + tx];
    (*LDC_SW(ldc_p_Bs, ldc_f_Bs, sizeof(*ldc_p_Bs), &((*LDC_TRS(&((*ldc_p_Bs)[ty][tx]), 2, 1, 1))))) = B[(k0 + ty) * n + col];
    { LDC_TR_BAR(0); LDC_BARRIER(0, 0); ldc_r_0_0:; }
    for (k = 0; k < T; ++k) acc += (*LDC_TRS(&((*ldc_p_As)[ty][k]), 3, 0, 0)) * (*LDC_TRS(&((*ldc_p_Bs)[k][tx]), 4, 0, 1));
    // second barrier forgotten: the next tile overwrites Bs while others still read it
  }
  (*LDC_WK(&((*LDC_TR(&(C[row * n + col]), 0, 1))))) = acc;
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "matmul_racy.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_mm(void **a) { mm(*(const float * *)a[0], *(const float * *)a[1], *(float * *)a[2], *(int *)a[3]); }
#endif
