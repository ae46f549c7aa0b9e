// Instrumented by ldcheck from ../testdata/kernels/padded_locals.cu. Do not edit: rebuild with `ldcheck build`.
#include "ldcheck_rt.h"
// kernel padded
#define LDC_LOCALS_SIZE_0 (LDC_SLOT(sizeof(t)) + LDC_SLOT(sizeof(m)) + LDC_SLOT(sizeof(pair)) + LDC_SLOT(sizeof(b)) + LDC_SLOT(sizeof(e)) + LDC_SLOT(sizeof(d)) + LDC_SLOT(sizeof(g)) + 1)
#define LDC_SAVE_0(B) do { unsigned char *ldc_q = (B); LDC_PUT(ldc_q, t); LDC_PUT(ldc_q, m); LDC_PUT(ldc_q, pair); LDC_PUT(ldc_q, b); LDC_PUT(ldc_q, e); LDC_PUT(ldc_q, d); LDC_PUT(ldc_q, g); (void)ldc_q; } while (0)
#define LDC_LOAD_0(B) do { const unsigned char *ldc_q = (B); LDC_GET(ldc_q, t); LDC_GET(ldc_q, m); LDC_GET(ldc_q, pair); LDC_GET(ldc_q, b); LDC_GET(ldc_q, e); LDC_GET(ldc_q, d); LDC_GET(ldc_q, g); (void)ldc_q; } while (0)
#define LDC_DIFF_0(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; LDC_CMP(ldc_q, ldc_d, t); if (sizeof(m) == 24) { LDC_CMP_AT(ldc_q, ldc_d, m, 0, 4); LDC_CMP_AT(ldc_q, ldc_d, m, 8, 9); ldc_q += LDC_SLOT(sizeof(m)); } else LDC_CMP(ldc_q, ldc_d, m); if (sizeof(pair) == 48) { LDC_CMP_AT(ldc_q, ldc_d, pair, 0, 4); LDC_CMP_AT(ldc_q, ldc_d, pair, 8, 9); LDC_CMP_AT(ldc_q, ldc_d, pair, 24, 4); LDC_CMP_AT(ldc_q, ldc_d, pair, 32, 9); ldc_q += LDC_SLOT(sizeof(pair)); } else LDC_CMP(ldc_q, ldc_d, pair); LDC_CMP(ldc_q, ldc_d, b); LDC_CMP(ldc_q, ldc_d, e); LDC_CMP(ldc_q, ldc_d, d); LDC_CMP(ldc_q, ldc_d, g); ldc_t.differ = ldc_d; } while (0)
#define LDC_ONE_0(S, E) (((int)((unsigned)((S) + 1) < 32u) & (int)((((E) == -1 ? (0x2u) : (E) == 0 ? (0x1u) : 0u) >> (((S) + 1) & 31)) & 1u)))
#define LDC_UNIFORM_ENDS_0 1
#line 1 "../testdata/kernels/padded_locals.cu"
// Locals with padding, live across a barrier: their saved copies are
// compared member by member, not byte for byte, because
// padding is not part of a value (on the GPU a struct in registers has
// none, so its bytes in memory differ between the two passes).
struct Mixed { int n; double x; char tag; };      // padding after n and after tag
struct Bits { unsigned a : 3; unsigned b : 5; };   // bit fields: compared whole
union Either { int i; double d; };                 // unions: compared whole
struct Base { int id; };
struct Derived : Base { double w; };               // a base: compared whole
struct Tight { float a, b; };                      // no padding: compared whole

__global__ void padded(const double *in, double *out) { int t{}; Mixed m{}; Mixed pair[2]{}; Bits b{}; Either e{}; Derived d{}; Tight g{}; ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_0); LDC_FAST_DECL; alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_0], ldc_end[LDC_LOCALS_SIZE_0];
  __shared__ double s[64]; decltype(&s) ldc_p_s = (decltype(&s))ldc_shared_copy(&ldc_t, 0, (void *)&s, sizeof(s)); unsigned *ldc_f_s = ldc_shared_flags(0); LDC_TR_SHARED(0, ldc_p_s); LDC_SAVE_0(ldc_start); ldc_dispatch_0: switch (LDC_RESUME(ldc_t.start)) { case 0: goto ldc_r_0_0; default: break; } ldc_r_0_entry:;
  t = threadIdx.x;
  { Mixed ldc_init = {t, in[t], 'a'}; memcpy(&m, &ldc_init, sizeof(m)); }
  { Mixed ldc_init[2] = {{t, 1.0, 'b'}, {t + 1, 2.0, 'c'}}; memcpy(&pair, &ldc_init, sizeof(pair)); }
  { Bits ldc_init = {1u, 2u}; memcpy(&b, &ldc_init, sizeof(b)); }
  e = decltype(e)();
  e.d = in[t];
  d = decltype(d)();
  d.id = t;
  d.w = 0.5;
  { Tight ldc_init = {1.0f, 2.0f}; memcpy(&g, &ldc_init, sizeof(g)); }
  (*LDC_SW(ldc_p_s, ldc_f_s, sizeof(*ldc_p_s), &((*LDC_TRS(&((*ldc_p_s)[t]), 1, 1, 0))))) = m.x;
  { LDC_TR_BAR(0); LDC_BARRIER(0, 0); ldc_r_0_0:; }
  (*LDC_WK(&((*LDC_TR(&(out[t]), 0, 1))))) = (*LDC_TRS(&((*ldc_p_s)[(t + 1) % 64]), 2, 0, 0)) + m.x + m.n + m.tag + pair[1].x + b.a + b.b + e.d + d.w + d.id + g.a;
 ldc_exit_0: LDC_TR_BAR(-1); LDC_EXIT(0); }
#line 1 "padded_locals.ldcheck.cu (ldcheck entry points)"
#ifdef LDC_CPU
extern "C" void ldc_entry_padded(void **a) { padded(*(const double * *)a[0], *(double * *)a[1]); }
#endif
