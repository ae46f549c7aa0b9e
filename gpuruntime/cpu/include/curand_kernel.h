/* ldcheck CPU backend: the cuRAND device API (XORWOW and Philox4x32-10).
 *
 * Written from the published algorithms, not from NVIDIA's headers:
 *   - XORWOW: Marsaglia, "Xorshift RNGs" (J. Stat. Softw. 8(14), 2003), the
 *     xorshift of five words plus a Weyl sequence (d += 362437), output
 *     v4 + d. cuRAND's seeding of the six words from the 64-bit seed is the
 *     one every public re-implementation (rocRAND, ports of curand_init)
 *     agrees on; curand_init then skips subsequence * 2^67 draws and offset
 *     draws, as cuRAND's documentation says.
 *   - Philox4x32-10: Salmon, Moraes, Dror, Shaw, "Parallel random numbers:
 *     as easy as 1, 2, 3" (SC11): 10 rounds, multipliers 0xD2511F53 and
 *     0xCD9E8D57, key increments 0x9E3779B9 and 0xBB67AE85. The counter's
 *     high 64 bits are the subsequence, its low 64 bits offset / 4; a draw
 *     returns the next of the four outputs of the current counter.
 *   - Distributions: uniform floats x * 2^-32 + 2^-33 (in (0, 1]), doubles
 *     from 53 bits of two draws; normals by Box-Muller on two draws (the
 *     second value cached in the state for the next curand_normal call).
 *
 * The skip-ahead uses GF(2) jump matrices of the 160-bit xorshift, computed
 * on first use by repeated squaring (no precomputed tables): M^(2^k) for
 * offsets and M^(2^(67+k)) for subsequences, k = 0..63. The Weyl word moves
 * by 362437 per draw (2^67 draws move it by a multiple of 2^32: nothing).
 *
 * Known to differ from a GPU: normal and log-normal values go through the
 * C library's logf/sinf/cosf, where cuRAND's device code uses the GPU's
 * approximate __sincosf: they may differ in the last bits (the raw draws,
 * curand(), and the uniform values are meant to be identical). curand_poisson
 * uses cuRAND's method only for lambda < 64 (Knuth's product of uniforms)
 * and lambda > 4000 (normal approximation); in between it draws from the
 * Poisson distribution by inversion of the CDF, one uniform per value, which
 * is not the GPU's sequence.
 *
 * Everything here is LDC_ENGINE: a curand call is one step of the lockstep
 * schedule, never interleaved with other threads' accesses.
 */
#pragma once
#ifndef LDC_CURAND_KERNEL_H
#define LDC_CURAND_KERNEL_H

#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "curand.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_PI_DOUBLE (3.1415926535897932)

namespace ldc_curand {

// ---- XORWOW -----------------------------------------------------------

// One step of the xorshift part (the Weyl word is handled by the callers).
LDC_ENGINE inline void xorshift(unsigned int v[5]) {
  unsigned int t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

// A 160x160 matrix over GF(2), stored by columns: col[k] is the image of
// the k-th unit vector (bit k % 32 of word k / 32).
struct Mat {
  unsigned int col[160][5];
};

LDC_ENGINE inline void apply(const Mat &m, const unsigned int in[5], unsigned int out[5]) {
  unsigned int r[5] = {0, 0, 0, 0, 0};
  for (int w = 0; w < 5; w++) {
    unsigned int bits = in[w];
    while (bits) {
      int b = __builtin_ctz(bits);
      bits &= bits - 1;
      const unsigned int *c = m.col[w * 32 + b];
      r[0] ^= c[0], r[1] ^= c[1], r[2] ^= c[2], r[3] ^= c[3], r[4] ^= c[4];
    }
  }
  memcpy(out, r, sizeof r);
}

LDC_ENGINE inline void square(const Mat &m, Mat &out) {
  for (int k = 0; k < 160; k++) apply(m, m.col[k], out.col[k]);
}

struct Jumps {
  Mat offset[64];      // M^(2^k)
  Mat subsequence[64]; // M^(2^(67+k))
};

LDC_ENGINE inline Jumps *build_jumps() {
  Jumps *j = (Jumps *)malloc(sizeof(Jumps));
  if (!j) abort();
  Mat *m = (Mat *)malloc(sizeof(Mat));
  if (!m) abort();
  for (int k = 0; k < 160; k++) {
    unsigned int v[5] = {0, 0, 0, 0, 0};
    v[k / 32] = 1u << (k % 32);
    xorshift(v);
    memcpy(j->offset[0].col[k], v, sizeof v);
  }
  for (int k = 1; k < 64; k++) square(j->offset[k - 1], j->offset[k]);
  // M^(2^67) = (M^(2^63))^(2^4)
  *m = j->offset[63];
  for (int i = 0; i < 4; i++) {
    square(*m, j->subsequence[0]);
    *m = j->subsequence[0];
  }
  for (int k = 1; k < 64; k++) square(j->subsequence[k - 1], j->subsequence[k]);
  free(m);
  return j;
}

// The tables, built once per process by whichever thread asks first (a
// thread that loses the race frees its own copy).
LDC_ENGINE inline const Jumps *jumps() {
  static Jumps *table = nullptr;
  Jumps *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
  if (t) return t;
  Jumps *mine = build_jumps(), *expected = nullptr;
  if (__atomic_compare_exchange_n(&table, &expected, mine, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return mine;
  free(mine);
  return expected;
}

LDC_ENGINE inline void jump(curandStateXORWOW_t *s, unsigned long long n, bool subsequence) {
  if (n == 0) return;
  const Jumps *j = jumps();
  const Mat *tab = subsequence ? j->subsequence : j->offset;
  if (!subsequence) s->d += 362437u * (unsigned int)n;
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) apply(tab[k], s->v, s->v);
}

LDC_ENGINE inline unsigned int next(curandStateXORWOW_t *s) {
  xorshift(s->v);
  s->d += 362437u;
  return s->v[4] + s->d;
}

// ---- Philox4x32-10 ----------------------------------------------------

LDC_ENGINE inline uint4 philox(uint4 c, uint2 k) {
  for (int round = 0; round < 10; round++) {
    if (round > 0) {
      k.x += 0x9E3779B9u;
      k.y += 0xBB67AE85u;
    }
    unsigned long long p0 = (unsigned long long)0xD2511F53u * c.x;
    unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c.z;
    uint4 n;
    n.x = (unsigned int)(p1 >> 32) ^ c.y ^ k.x;
    n.y = (unsigned int)p1;
    n.z = (unsigned int)(p0 >> 32) ^ c.w ^ k.y;
    n.w = (unsigned int)p0;
    c = n;
  }
  return c;
}

// Adds n to the 128-bit counter's low 64 bits (x, y), carrying into z, w.
LDC_ENGINE inline void counter_add(uint4 &c, unsigned long long n) {
  unsigned long long lo = ((unsigned long long)c.y << 32 | c.x), sum = lo + n;
  c.x = (unsigned int)sum;
  c.y = (unsigned int)(sum >> 32);
  if (sum < lo && ++c.z == 0) ++c.w;
}

LDC_ENGINE inline void counter_add_high(uint4 &c, unsigned long long n) {
  unsigned long long hi = ((unsigned long long)c.w << 32 | c.z) + n;
  c.z = (unsigned int)hi;
  c.w = (unsigned int)(hi >> 32);
}

LDC_ENGINE inline unsigned int word(uint4 v, unsigned int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

LDC_ENGINE inline void skip(curandStatePhilox4_32_10_t *s, unsigned long long n) {
  unsigned long long pos = s->STATE + (n & 3);
  counter_add(s->ctr, (n >> 2) + (pos >> 2));
  s->STATE = (unsigned int)(pos & 3);
  s->output = philox(s->ctr, s->key);
}

LDC_ENGINE inline unsigned int next(curandStatePhilox4_32_10_t *s) {
  unsigned int r = word(s->output, s->STATE);
  if (++s->STATE == 4) {
    s->STATE = 0;
    counter_add(s->ctr, 1);
    s->output = philox(s->ctr, s->key);
  }
  return r;
}

// ---- Distributions ------------------------------------------------------

LDC_ENGINE inline float uniform(unsigned int x) {
  return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
}
LDC_ENGINE inline double uniform_double(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}
LDC_ENGINE inline float2 box_muller(unsigned int x, unsigned int y) {
  float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
  float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2.0f);
  float s = sqrtf(-2.0f * logf(u));
  float2 r;
  r.x = sinf(v) * s;
  r.y = cosf(v) * s;
  return r;
}
LDC_ENGINE inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << (53 - 32));
  double u = zx * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
  unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
  double v = zy * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE;
  double s = sqrt(-2.0 * log(u));
  double2 r;
  r.x = sin(v * CURAND_PI_DOUBLE) * s;
  r.y = cos(v * CURAND_PI_DOUBLE) * s;
  return r;
}

template <class S> LDC_ENGINE inline float normal(S *s) {
  if (s->boxmuller_flag != 1) {
    unsigned int x = next(s), y = next(s);
    float2 v = box_muller(x, y);
    s->boxmuller_extra = v.y;
    s->boxmuller_flag = 1;
    return v.x;
  }
  s->boxmuller_flag = 0;
  return s->boxmuller_extra;
}
template <class S> LDC_ENGINE inline double normal_double(S *s) {
  if (s->boxmuller_flag_double != 1) {
    unsigned int x0 = next(s), x1 = next(s), y0 = next(s), y1 = next(s);
    double2 v = box_muller_double(x0, x1, y0, y1);
    s->boxmuller_extra_double = v.y;
    s->boxmuller_flag_double = 1;
    return v.x;
  }
  s->boxmuller_flag_double = 0;
  return s->boxmuller_extra_double;
}
// Log-normal values have a cache of their own: the flag says which kind the
// cached value is (1 normal, 2 log-normal, as cuRAND's states have it), and a
// call of the other kind drops it and draws afresh. So curand_normal then
// curand_log_normal takes two new draws, not the cached normal.
template <class S> LDC_ENGINE inline float log_normal(S *s, float mean, float stddev) {
  if (s->boxmuller_flag != 2) {
    unsigned int x = next(s), y = next(s);
    float2 v = box_muller(x, y);
    s->boxmuller_extra = expf(mean + stddev * v.y);
    s->boxmuller_flag = 2;
    return expf(mean + stddev * v.x);
  }
  s->boxmuller_flag = 0;
  return s->boxmuller_extra;
}
template <class S> LDC_ENGINE inline double log_normal_double(S *s, double mean, double stddev) {
  if (s->boxmuller_flag_double != 2) {
    unsigned int x0 = next(s), x1 = next(s), y0 = next(s), y1 = next(s);
    double2 v = box_muller_double(x0, x1, y0, y1);
    s->boxmuller_extra_double = exp(mean + stddev * v.y);
    s->boxmuller_flag_double = 2;
    return exp(mean + stddev * v.x);
  }
  s->boxmuller_flag_double = 0;
  return s->boxmuller_extra_double;
}
template <class S> LDC_ENGINE inline unsigned int poisson(S *s, double lambda) {
  if (lambda <= 0) return 0;
  if (lambda < 64) { // Knuth: count uniforms until their product drops below e^-lambda
    unsigned int k = 0;
    float p = expf((float)lambda);
    do {
      k++;
      p *= uniform(next(s));
    } while (p > 1.0f);
    return k - 1;
  }
  if (lambda > 4000) {
    double x = normal_double(s);
    return (unsigned int)((sqrt(lambda) * x) + lambda + 0.5);
  }
  // Between the two: inversion of the CDF from 0, one uniform per value.
  // Terms in logs, so that e^-lambda does not underflow.
  double u = uniform_double(next(s), next(s));
  double logp = -lambda, cdf = 0;
  unsigned int k = 0;
  for (;; k++) {
    cdf += exp(logp);
    if (cdf >= u || k > 100000u) return k;
    logp += log(lambda) - log((double)(k + 1));
  }
}

} // namespace ldc_curand

// ---- The API ------------------------------------------------------------

LDC_ENGINE inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, curandStateXORWOW_t *state) {
  unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u;
  unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  ldc_curand::jump(state, subsequence, true);
  ldc_curand::jump(state, offset, false);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

LDC_ENGINE inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, curandStatePhilox4_32_10_t *state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key.x = (unsigned int)seed;
  state->key.y = (unsigned int)(seed >> 32);
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  ldc_curand::counter_add_high(state->ctr, subsequence);
  ldc_curand::skip(state, offset);
}

LDC_ENGINE inline void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  ldc_curand::jump(state, n, false);
}
LDC_ENGINE inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  ldc_curand::jump(state, n, true);
}
LDC_ENGINE inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  ldc_curand::skip(state, n);
}
LDC_ENGINE inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  ldc_curand::counter_add_high(state->ctr, n);
  state->output = ldc_curand::philox(state->ctr, state->key);
}

LDC_ENGINE inline unsigned int curand(curandStateXORWOW_t *state) { return ldc_curand::next(state); }
LDC_ENGINE inline unsigned int curand(curandStatePhilox4_32_10_t *state) { return ldc_curand::next(state); }
LDC_ENGINE inline uint4 curand4(curandStatePhilox4_32_10_t *state) {
  uint4 r;
  r.x = ldc_curand::next(state);
  r.y = ldc_curand::next(state);
  r.z = ldc_curand::next(state);
  r.w = ldc_curand::next(state);
  return r;
}

#define LDC_CURAND_DISTRIBUTIONS(S)                                                                \
  LDC_ENGINE inline float curand_uniform(S *state) { return ldc_curand::uniform(ldc_curand::next(state)); } \
  LDC_ENGINE inline double curand_uniform_double(S *state) {                                       \
    unsigned int x = ldc_curand::next(state), y = ldc_curand::next(state);                         \
    return ldc_curand::uniform_double(x, y);                                                       \
  }                                                                                                \
  LDC_ENGINE inline float curand_normal(S *state) { return ldc_curand::normal(state); }            \
  LDC_ENGINE inline double curand_normal_double(S *state) { return ldc_curand::normal_double(state); } \
  LDC_ENGINE inline float2 curand_normal2(S *state) {                                              \
    unsigned int x = ldc_curand::next(state), y = ldc_curand::next(state);                         \
    return ldc_curand::box_muller(x, y);                                                           \
  }                                                                                                \
  LDC_ENGINE inline double2 curand_normal2_double(S *state) {                                      \
    unsigned int x0 = ldc_curand::next(state), x1 = ldc_curand::next(state);                       \
    unsigned int y0 = ldc_curand::next(state), y1 = ldc_curand::next(state);                       \
    return ldc_curand::box_muller_double(x0, x1, y0, y1);                                          \
  }                                                                                                \
  LDC_ENGINE inline float curand_log_normal(S *state, float mean, float stddev) {                  \
    return ldc_curand::log_normal(state, mean, stddev);                                            \
  }                                                                                                \
  LDC_ENGINE inline double curand_log_normal_double(S *state, double mean, double stddev) {        \
    return ldc_curand::log_normal_double(state, mean, stddev);                                     \
  }                                                                                                \
  LDC_ENGINE inline double2 curand_log_normal2_double(S *state, double mean, double stddev) {      \
    double2 v = curand_normal2_double(state);                                                      \
    v.x = exp(mean + stddev * v.x);                                                                \
    v.y = exp(mean + stddev * v.y);                                                                \
    return v;                                                                                      \
  }                                                                                                \
  LDC_ENGINE inline float2 curand_log_normal2(S *state, float mean, float stddev) {                \
    float2 v = curand_normal2(state);                                                              \
    v.x = expf(mean + stddev * v.x);                                                               \
    v.y = expf(mean + stddev * v.y);                                                               \
    return v;                                                                                      \
  }                                                                                                \
  LDC_ENGINE inline unsigned int curand_poisson(S *state, double lambda) {                         \
    return ldc_curand::poisson(state, lambda);                                                     \
  }
LDC_CURAND_DISTRIBUTIONS(curandStateXORWOW_t)
LDC_CURAND_DISTRIBUTIONS(curandStatePhilox4_32_10_t)
#undef LDC_CURAND_DISTRIBUTIONS

LDC_ENGINE inline float4 curand_uniform4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  return make_float4(ldc_curand::uniform(x.x), ldc_curand::uniform(x.y), ldc_curand::uniform(x.z),
                     ldc_curand::uniform(x.w));
}
LDC_ENGINE inline float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  float2 a = ldc_curand::box_muller(x.x, x.y), b = ldc_curand::box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
LDC_ENGINE inline float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  float4 v = curand_normal4(state);
  return make_float4(expf(mean + stddev * v.x), expf(mean + stddev * v.y), expf(mean + stddev * v.z),
                     expf(mean + stddev * v.w));
}
LDC_ENGINE inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  double2 r;
  r.x = ldc_curand::uniform_double(x.x, x.y);
  r.y = ldc_curand::uniform_double(x.z, x.w);
  return r;
}
LDC_ENGINE inline uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda) {
  uint4 r;
  if (lambda > 4000) { // two fresh Box-Muller pairs: the cached normal is neither used nor kept
    unsigned int w[8];
    for (int i = 0; i < 8; i++) w[i] = ldc_curand::next(state);
    double2 a = ldc_curand::box_muller_double(w[0], w[1], w[2], w[3]);
    double2 b = ldc_curand::box_muller_double(w[4], w[5], w[6], w[7]);
    double sl = sqrt(lambda);
    r.x = (unsigned int)(sl * a.x + lambda + 0.5);
    r.y = (unsigned int)(sl * a.y + lambda + 0.5);
    r.z = (unsigned int)(sl * b.x + lambda + 0.5);
    r.w = (unsigned int)(sl * b.y + lambda + 0.5);
    return r;
  }
  r.x = ldc_curand::poisson(state, lambda);
  r.y = ldc_curand::poisson(state, lambda);
  r.z = ldc_curand::poisson(state, lambda);
  r.w = ldc_curand::poisson(state, lambda);
  return r;
}

#endif
