// Instrumented by ldcheck from ../testdata/kernels/pred_barriers.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel forms
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(t)) + LDC_SLOT(sizeof(g)) + LDC_SLOT(sizeof(v)) + LDC_SLOT(sizeof(acc)) + LDC_SLOT(sizeof(c)) + LDC_SLOT(sizeof(i)) + LDC_SLOT(sizeof(ldc_pa_0_0)) + LDC_SLOT(sizeof(ldc_sv_0_0)) + LDC_SLOT(sizeof(ldc_pa_0_1)) + LDC_SLOT(sizeof(ldc_sv_0_1)) + LDC_SLOT(sizeof(ldc_pa_0_2)) + LDC_SLOT(sizeof(ldc_sv_0_2)) + LDC_SLOT(sizeof(ldc_pa_0_3)) + LDC_SLOT(sizeof(ldc_sv_0_3)) + LDC_SLOT(sizeof(ldc_pa_0_4)) + LDC_SLOT(sizeof(ldc_sv_0_4)) + LDC_SLOT(sizeof(ldc_pa_0_5)) + LDC_SLOT(sizeof(ldc_sv_0_5)) + LDC_SLOT(sizeof(ldc_pa_0_6)) + LDC_SLOT(sizeof(ldc_sv_0_6)) + LDC_SLOT(sizeof(ldc_pa_0_7)) + LDC_SLOT(sizeof(ldc_sv_0_7)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, t); LDC_PUT(ldc_q, g); LDC_PUT(ldc_q, v); LDC_PUT(ldc_q, acc); LDC_PUT(ldc_q, c); LDC_PUT(ldc_q, i); LDC_PUT(ldc_q, ldc_pa_0_0); LDC_PUT(ldc_q, ldc_sv_0_0); LDC_PUT(ldc_q, ldc_pa_0_1); LDC_PUT(ldc_q, ldc_sv_0_1); LDC_PUT(ldc_q, ldc_pa_0_2); LDC_PUT(ldc_q, ldc_sv_0_2); LDC_PUT(ldc_q, ldc_pa_0_3); LDC_PUT(ldc_q, ldc_sv_0_3); LDC_PUT(ldc_q, ldc_pa_0_4); LDC_PUT(ldc_q, ldc_sv_0_4); LDC_PUT(ldc_q, ldc_pa_0_5); LDC_PUT(ldc_q, ldc_sv_0_5); LDC_PUT(ldc_q, ldc_pa_0_6); LDC_PUT(ldc_q, ldc_sv_0_6); LDC_PUT(ldc_q, ldc_pa_0_7); LDC_PUT(ldc_q, ldc_sv_0_7); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, t); LDC_GET(ldc_q, g); LDC_GET(ldc_q, v); LDC_GET(ldc_q, acc); LDC_GET(ldc_q, c); LDC_GET(ldc_q, i); LDC_GET(ldc_q, ldc_pa_0_0); LDC_GET(ldc_q, ldc_sv_0_0); LDC_GET(ldc_q, ldc_pa_0_1); LDC_GET(ldc_q, ldc_sv_0_1); LDC_GET(ldc_q, ldc_pa_0_2); LDC_GET(ldc_q, ldc_sv_0_2); LDC_GET(ldc_q, ldc_pa_0_3); LDC_GET(ldc_q, ldc_sv_0_3); LDC_GET(ldc_q, ldc_pa_0_4); LDC_GET(ldc_q, ldc_sv_0_4); LDC_GET(ldc_q, ldc_pa_0_5); LDC_GET(ldc_q, ldc_sv_0_5); LDC_GET(ldc_q, ldc_pa_0_6); LDC_GET(ldc_q, ldc_sv_0_6); LDC_GET(ldc_q, ldc_pa_0_7); LDC_GET(ldc_q, ldc_sv_0_7); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, t); LDC_CMP(ldc_q, ldc_d, g); LDC_CMP(ldc_q, ldc_d, v); LDC_CMP(ldc_q, ldc_d, acc); LDC_CMP(ldc_q, ldc_d, c); LDC_CMP(ldc_q, ldc_d, i); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_0); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_0); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_1); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_1); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_2); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_2); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_3); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_3); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_4); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_4); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_5); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_5); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_6); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_6); LDC_CMP(ldc_q, ldc_d, ldc_pa_0_7); LDC_CMP(ldc_q, ldc_d, ldc_sv_0_7); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? (0x100u) : (E) == 0 ? (0x1u) : (E) == 1 ? (0x2u) : (E) == 3 ? (0x10u | (((blockDim.y == 1) & (blockDim.z == 1)) ? 0x8u : 0u)) : (E) == 4 ? (0x30u) : (E) == 5 ? (0x20u) : (E) == 6 ? (0x60u) : (E) == 7 ? (0x180u) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 0
#line 1 "../testdata/kernels/pred_barriers.cu"
// Predicate barriers (__syncthreads_and/or/count) in every place a statement
// can hold them: region replay moves each to a statement of its own.
__global__ void forms(const int *in, int *out, int n) { int t{}; int g{}; int v{}; int acc{}; int c{}; int i{}; int ldc_pa_0_0{}; int ldc_sv_0_0{}; int ldc_pa_0_1{}; int ldc_sv_0_1{}; int ldc_pa_0_2{}; int ldc_sv_0_2{}; int ldc_pa_0_3{}; int ldc_sv_0_3{}; int ldc_pa_0_4{}; int ldc_sv_0_4{}; int ldc_pa_0_5{}; int ldc_sv_0_5{}; int ldc_pa_0_6{}; int ldc_sv_0_6{}; int ldc_pa_0_7{}; int ldc_sv_0_7{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ int s[128]; decltype(&s) ldc_p_s = (decltype(&s))ldc_shared_copy(&ldc_t, 0, (void *)&s, sizeof(s)); unsigned *ldc_f_s = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_s); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; case 1: goto ldc_r_0_1; case 2: goto ldc_r_0_2; case 3: goto ldc_r_0_3; case 4: goto ldc_r_0_4; case 5: goto ldc_r_0_5; case 6: goto ldc_r_0_6; case 7: goto ldc_r_0_7; default: break; } ldc_r_0_entry:;
  t = threadIdx.x; g = blockIdx.x * blockDim.x + t;
  v = in[g]; acc = 0;
  (*LDC_SW(ldc_p_s, ldc_f_s, sizeof(*ldc_p_s), &((*LDC_TRS(&((*ldc_p_s)[t]), 1, 1, 0))))) = v;
  { { ldc_pa_0_0 = (v) ? 1 : 0; LDC_TR_BAR(0); LDC_BARRIER_PRED(0, 0, LDC_PRED_OR, __syncthreads_or, ldc_pa_0_0, ldc_sv_0_0); ldc_r_0_0:; } (void)ldc_sv_0_0; }
  { { ldc_pa_0_1 = ((*LDC_TRS(&((*ldc_p_s)[(t + 32) % 128]), 2, 0, 0)) > 0) ? 1 : 0; LDC_TR_BAR(1); LDC_BARRIER_PRED(0, 1, LDC_PRED_COUNT, __syncthreads_count, ldc_pa_0_1, ldc_sv_0_1); ldc_r_0_1:; } c = ldc_sv_0_1; }
  { { ldc_pa_0_2 = ((*LDC_TRS(&((*ldc_p_s)[t]), 4, 0, 0)) > 0) ? 1 : 0; LDC_TR_BAR(2); LDC_BARRIER_PRED(0, 2, LDC_PRED_COUNT, __syncthreads_count, ldc_pa_0_2, ldc_sv_0_2); ldc_r_0_2:; } (*LDC_SW(ldc_p_s, ldc_f_s, sizeof(*ldc_p_s), &((*LDC_TRS(&((*ldc_p_s)[t]), 3, 1, 0))))) = ldc_sv_0_2 + c; }
  for (i = 0; ; ++i) { { ldc_pa_0_3 = (i < (v & 7)) ? 1 : 0; LDC_TR_BAR(3); LDC_BARRIER_PRED(0, 3, LDC_PRED_OR, __syncthreads_or, ldc_pa_0_3, ldc_sv_0_3); ldc_r_0_3:; } if (!( ldc_sv_0_3)) break; {
    if (i & 1) continue;
    acc += i;
  } }
  do {
    v >>= 1;
    if (v & 1) goto ldc_c_0_4;
    acc++;
   ldc_c_0_4:; { ldc_pa_0_4 = (v != 0) ? 1 : 0; LDC_TR_BAR(4); LDC_BARRIER_PRED(0, 4, LDC_PRED_COUNT, __syncthreads_count, ldc_pa_0_4, ldc_sv_0_4); ldc_r_0_4:; } } while (ldc_sv_0_4 > 2);
  if (n > 1000) acc = 0;
  else { { ldc_pa_0_5 = (acc >= 0) ? 1 : 0; LDC_TR_BAR(5); LDC_BARRIER_PRED(0, 5, LDC_PRED_AND, __syncthreads_and, ldc_pa_0_5, ldc_sv_0_5); ldc_r_0_5:; } if (ldc_sv_0_5) acc += 2; }
  { { ldc_pa_0_6 = (acc & 1) ? 1 : 0; LDC_TR_BAR(6); LDC_BARRIER_PRED(0, 6, LDC_PRED_COUNT, __syncthreads_count, ldc_pa_0_6, ldc_sv_0_6); ldc_r_0_6:; } switch (ldc_sv_0_6) {
  case 0: acc++; break;
  default: break;
  } }
  while (1

)
    { { ldc_pa_0_7 = (v > 0 && acc < 100) ? 1 : 0; LDC_TR_BAR(7); LDC_BARRIER_PRED(0, 7, LDC_PRED_OR, __syncthreads_or, ldc_pa_0_7, ldc_sv_0_7); ldc_r_0_7:; } if (!(ldc_sv_0_7)) break; acc += v--; }
  (*LDC_WK(&((*LDC_TR(&(out[g]), 0, 1))))) = acc + (*LDC_TRS(&((*ldc_p_s)[t]), 5, 0, 0));
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }

// Where the barrier would not run every time its statement does, the kernel
// is not instrumented, and the reason names the line.
__global__ void guarded(const int *in, int *out) {
  int t = threadIdx.x;
  if (t < 4 && __syncthreads_or(in[t])) out[t] = 1;
}

__global__ void in_increment(const int *in, int *out) {
  int t = threadIdx.x, k = 0;
  for (int i = 0; i < 4; i += __syncthreads_count(in[t] > i)) k++;
  out[t] = k;
}
#line 1 "pred_barriers.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_forms(void **a) { forms(*(const int * *)a[0], *(int * *)a[1], *(int *)a[2]); }
extern "C" void ldc_entry_guarded(void **a) { guarded(*(const int * *)a[0], *(int * *)a[1]); }
extern "C" void ldc_entry_in_increment(void **a) { in_increment(*(const int * *)a[0], *(int * *)a[1]); }
#endif
