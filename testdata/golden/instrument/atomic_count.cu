// Instrumented by ldcheck from ../testdata/kernels/atomic_count.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel count
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(t)) + LDC_SLOT(sizeof(ticket)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, t); LDC_PUT(ldc_q, ticket); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, t); LDC_GET(ldc_q, ticket); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, t); LDC_CMP(ldc_q, ldc_d, ticket); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? (0x4u) : (E) == 0 ? (0x1u) : (E) == 1 ? (0x2u) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/kernels/atomic_count.cu"
// Atomics must take effect once per checked run, even when the region that
// holds them is replayed; the value an atomic returned is used afterwards.
__global__ void count(int *counter, int *slots, int *out) { int t{}; int ticket{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ int seen[64]; decltype(&seen) ldc_p_seen = (decltype(&seen))ldc_shared_copy(&ldc_t, 0, (void *)&seen, sizeof(seen)); unsigned *ldc_f_seen = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_seen); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; case 1: goto ldc_r_0_1; default: break; } ldc_r_0_entry:;
  t = threadIdx.x;
  (*LDC_SW(ldc_p_seen, ldc_f_seen, sizeof(*ldc_p_seen), &((*LDC_TRS(&((*ldc_p_seen)[t]), 3, 1, 0))))) = t;
  { LDC_TR_BAR(0); LDC_BARRIER(0, 0); ldc_r_0_0:; }
  ticket = LDC_AOP(atomicAdd, 0, 0, 0, 0)(&counter[0], 1);
  (*LDC_WK(&((*LDC_TR(&(slots[blockIdx.x * blockDim.x + t]), 1, 1))))) = ticket;
  { LDC_TR_BAR(1); LDC_BARRIER(0, 1); ldc_r_0_1:; }
  (*LDC_WK(&((*LDC_TR(&(out[blockIdx.x * blockDim.x + t]), 2, 1))))) = (*LDC_TRS(&((*ldc_p_seen)[(t + 1) % 64]), 4, 0, 0)) + 1;
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "atomic_count.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_count(void **a) { count(*(int * *)a[0], *(int * *)a[1], *(int * *)a[2]); }
#endif
