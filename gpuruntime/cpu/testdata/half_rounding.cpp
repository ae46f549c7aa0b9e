// The CPU backend's half precision rounding against references of its own
// (TestHalfRounding compiles and runs it): every half and bfloat16 back and
// forth; random floats in all four rounding modes against the nearest value
// found among all finite values; __hfma against the exact a*b+c in 128-bit
// integers (one rounding); integer conversions and saturation.
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>
#define LDC_ENGINE
struct float2 { float x, y; };
inline float2 make_float2(float x, float y) { return float2{x, y}; }
namespace ldc { template <class T, class F> T atomic_update(T *a, F op) { T o = *a; *a = op(o); return o; } }
#include "ldcheck_fp16.h"
typedef __int128 i128;
struct Fmt { int M, E; std::vector<std::pair<double, unsigned>> pos; };
static double decode(unsigned h, int M, int E) { // independent decode
  int bias = (1 << (E - 1)) - 1; unsigned ex = (h >> M) & ((1u << E) - 1), man = h & ((1u << M) - 1);
  double v = ex == 0 ? ldexp((double)man, 1 - bias - M) : ldexp((double)(man | (1u << M)), (int)ex - bias - M);
  return (h >> (M + E)) ? -v : v;
}
static int fails = 0;
static unsigned ref_round(double x, int M, int E, int mode) {
  // nearest among all finite values of the format, by exhaustive table
  static std::vector<double> vals[2]; int k = M == 10 ? 0 : 1;
  unsigned maxbits = ((1u << E) - 1) << M; // inf
  if (vals[k].empty()) for (unsigned h = 0; h < maxbits; h++) vals[k].push_back(decode(h, M, E));
  auto &v = vals[k];
  if (std::isnan(x)) return maxbits | ((1u << M) - 1);
  unsigned s = std::signbit(x) ? 1u << (M + E) : 0; double a = fabs(x);
  if (std::isinf(a)) return s | maxbits;
  double maxv = v.back(), ulp = maxv - v[v.size() - 2];
  size_t i = std::upper_bound(v.begin(), v.end(), a) - v.begin(); // v[i-1] <= a < v[i]
  bool neg = s != 0;
  if (i == v.size()) { // a >= max
    if (a == maxv) return s | (unsigned)(i - 1);
    bool inf;
    if (mode == 0) inf = a >= maxv + ulp / 2; else if (mode == 1) inf = false; else if (mode == 2) inf = neg; else inf = !neg;
    return s | (inf ? maxbits : (unsigned)(i - 1));
  }
  unsigned lo = (unsigned)(i - 1), hi = (unsigned)i;
  if (v[lo] == a) return s | lo;
  if (mode == 1) return s | lo;
  if (mode == 2) return s | (neg ? hi : lo);
  if (mode == 3) return s | (neg ? lo : hi);
  double dl = a - v[lo], dh = v[hi] - a;
  if (dl < dh) return s | lo; if (dh < dl) return s | hi;
  return s | ((lo & 1) ? hi : lo);
}
int main() {
  // 1. round trip
  for (unsigned h = 0; h < 65536; h++) for (int f = 0; f < 2; f++) {
    int M = f ? 7 : 10, E = f ? 8 : 5;
    float x = ldc_h_bits2float((unsigned short)h, M);
    unsigned r = ldc_h_round((double)x, M, E, 0, 0);
    bool nan = ((h & 0x7fff) > (((1u << E) - 1) << M)), inf = (h & 0x7fff) == (((1u << E) - 1) << M);
    if (!nan && (r != h || (!inf && (double)x != decode(h, M, E)))) { if (fails++ < 10) printf("roundtrip f%d %04x -> %g -> %04x\n", f, h, x, r); }
    if (nan && r != 0x7fff) { if (fails++ < 10) printf("nan %04x -> %04x\n", h, r); }
  }
  // 2. random floats, all modes, both formats; plus every float near the half range sampled densely
  std::mt19937_64 g(1);
  for (long n = 0; n < 2000000; n++) {
    uint32_t u = (uint32_t)g(); if (n & 1) u = (u & 0x80000000u) | (0x33000000u + (u & 0x0fffffffu) % 0x0c000000u); // concentrate on half's range
    float x; memcpy(&x, &u, 4);
    for (int f = 0; f < 2; f++) for (int mode = 0; mode < 4; mode++) {
      int M = f ? 7 : 10, E = f ? 8 : 5;
      unsigned a = ldc_h_round((double)x, M, E, mode, 0), b = ref_round((double)x, M, E, mode);
      if (a != b && fails++ < 20) printf("f%d mode %d x=%a got %04x want %04x\n", f, mode, x, a, b);
    }
  }
  // 3. known values
  struct { float x; unsigned want; } kv[] = {{1.0f / 3, 0x3555}, {65520.0f, 0x7c00}, {65519.0f, 0x7bff}, {5.96e-8f, 0x0001}, {2.98e-8f, 0x0000}, {2.99e-8f, 0x0001}, {-0.0f, 0x8000}, {1.0f, 0x3c00}, {65504.0f, 0x7bff}, {6.103515625e-05f, 0x0400}};
  for (auto k : kv) if (__float2half(k.x).__x != k.want && fails++ < 30) printf("known %a got %04x want %04x\n", k.x, __float2half(k.x).__x, k.want);
  if (__float2bfloat16(1.0f / 3).__x != 0x3eab) { fails++; printf("bf16 1/3 %04x\n", __float2bfloat16(1.0f / 3).__x); }
  // 4. fma exact, random halves (and bf16)
  std::vector<i128> sc; // half finite positives * 2^48
  for (int f = 0; f < 2; f++) {
    int M = f ? 7 : 10, E = f ? 8 : 5;
    for (long n = 0; n < 400000; n++) {
      unsigned ha = g() & 0xffff, hb = g() & 0xffff, hc = g() & 0xffff;
      if (n % 3 == 0) { hc = (hb ^ 0x8000) + (g() % 5) - 2; }
      double a = decode(ha, M, E), b = decode(hb, M, E), c = decode(hc, M, E);
      unsigned maxbits = ((1u << E) - 1) << M;
      if ((ha & 0x7fff) >= maxbits || (hb & 0x7fff) >= maxbits || (hc & 0x7fff) >= maxbits) continue;
      unsigned got = ldc_h_fma((float)a, (float)b, (float)c, M, E);
      // exact: as long double sums are not exact, decide via int128 scaled for half only
      if (f == 0) {
        i128 P = (i128)llround(a * 16777216.0) * (i128)llround(b * 16777216.0); // a*b*2^48
        i128 C = (i128)llround(c * 16777216.0) << 24;
        i128 N = P + C; // exact * 2^48
        // reference: nearest half to N/2^48
        bool neg = N < 0; i128 A = neg ? -N : N;
        unsigned best = 0; // scan via binary search on magnitudes
        unsigned lo = 0, hi = maxbits; // values of bits in [0, maxbits) increasing
        while (hi - lo > 1) { unsigned mid = (lo + hi) / 2; i128 vm = (i128)llround(decode(mid, M, E) * 16777216.0) << 24; if (vm <= A) lo = mid; else hi = mid; }
        i128 vl = (i128)llround(decode(lo, M, E) * 16777216.0) << 24;
        i128 vh = hi < maxbits ? (i128)llround(decode(hi, M, E) * 16777216.0) << 24 : ((i128)65536 << 48);
        if (A == vl) best = lo; else { i128 dl = A - vl, dh = vh - A; best = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo); }
        if (N == 0) { best = 0; if (std::signbit(a * b) && std::signbit(c)) best = 0x8000; }
        else if (neg) best |= 0x8000;
        if (got != best && fails++ < 40) printf("fma %04x %04x %04x got %04x want %04x\n", ha, hb, hc, got, best);
      }
    }
  }
  // 4b. a bfloat16 fma whose double sum is inexact and lands on a tie:
  // 7*37 = 259 lies halfway between 258 and 260, and -2^-50 puts the exact
  // result below it: 258 (0x4381), where rounding the double 259 would give
  // the even 260.
  {
    __nv_bfloat16 r = __hfma(__float2bfloat16(7), __float2bfloat16(37), __float2bfloat16(-0x1p-50f));
    __nv_bfloat16 r2 = __hfma(__float2bfloat16(7), __float2bfloat16(37), __float2bfloat16(0x1p-50f));
    if (r.__x != 0x4381 || r2.__x != 0x4382) { fails++; printf("bf16 fma tie: %04x %04x, want 4381 4382\n", r.__x, r2.__x); }
  }
  // 5. integer conversions and saturation
  if (__half2int_rn(__float2half(2.5f)) != 2 || __half2int_rn(__float2half(3.5f)) != 4 || __half2int_rz(__float2half(-2.7f)) != -2 || __half2int_rd(__float2half(-2.5f)) != -3 || __half2int_ru(__float2half(2.1f)) != 3) { fails++; puts("half2int"); }
  if (__half2int_rz(CUDART_INF_FP16) != 2147483647 || __half2int_rz(CUDART_NAN_FP16) != 0 || __half2uint_rz(__float2half(-3.0f)) != 0) { fails++; puts("half2int sat"); }
  if (__int2half_rn(2049).__x != __float2half(2048.0f).__x || __int2half_ru(2049).__x != __float2half(2050.0f).__x || __int2half_rn(70000).__x != 0x7c00 || __int2half_rz(70000).__x != 0x7bff) { fails++; puts("int2half"); }
  if (__ll2bfloat16_rn((1ll << 62) + (1ll << 54) + 1).__x != __float2bfloat16_ru(4.625e18f).__x) { fails++; printf("ll2bf16 %04x %04x\n", __ll2bfloat16_rn((1ll << 62) + (1ll << 54) + 1).__x, __float2bfloat16_ru(4.625e18f).__x); }
  __half h = __float2half(1.5f); h += __float2half(0.25f); if ((float)h != 1.75f) { fails++; puts("+="); }
  __half2 p = __floats2half2_rn(1, 2); p = p * p + p; if (__low2float(p) != 2 || __high2float(p) != 6) { fails++; puts("half2 ops"); }
  if (!__hisnan(__hadd(CUDART_INF_FP16, __hneg(CUDART_INF_FP16))) || __hmax(CUDART_NAN_FP16, __float2half(1)).__x != 0x3c00) { fails++; puts("nan ops"); }
  printf("fails %d\n", fails);
  return fails != 0;
}
