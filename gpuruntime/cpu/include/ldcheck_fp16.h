// ldcheck's half precision types and functions (<cuda_fp16.h> and
// <cuda_bf16.h>): __half, __half2, __nv_bfloat16, __nv_bfloat162 and the
// device API a CUDA developer uses on them, written by ldcheck from the
// CUDA Math API's documented names and semantics.
//
// The same file serves the front end and clang's PTX
// (passes/include/ldcheck_fp16.h, under the prelude: __LDCHECK_PRELUDE__)
// and the CPU backend (gpuruntime/cpu/include/ldcheck_fp16.h, under
// ldcheck_cpu.h); a test keeps the two copies identical. On a GPU machine
// nvcc compiles against the toolkit's own headers instead.
//
// A value is 16 bits of storage. Conversions from float and double round
// as named (_rn: to nearest even, the default; _rz, _rd, _ru), with
// infinities, NaNs (a conversion's NaN is the canonical 0x7fff) and
// subnormals as the hardware gives them. Arithmetic is done exactly or in
// float (whose 24 bits make one rounding to 11 or 8 bits exact: add,
// subtract, multiply, divide, square root) and rounded once to nearest
// even; __hfma rounds a*b+c once. Transcendental functions (hexp, hsin,
// ...) go through the float functions and may differ from a GPU's in the
// last bit.
#pragma once

#ifdef __LDCHECK_PRELUDE__
#define LDC_HF __host__ __device__ __forceinline__
#define LDC_HALIGN(n) __attribute__((aligned(n)))
#else
#define LDC_HF LDC_ENGINE inline
#define LDC_HALIGN(n) alignas(n)
#endif

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};
struct __half;
struct __nv_bfloat16;

// ---- rounding, the one place that knows the formats ----
// Formats: M fraction bits, E exponent bits (half 10/5, bfloat16 7/8).
// Modes: 0 nearest even, 1 toward zero, 2 down, 3 up.
enum { LDC_H_RN = 0, LDC_H_RZ = 1, LDC_H_RD = 2, LDC_H_RU = 3 };

// ldc_h_round rounds x to the format's bits. sticky is the sign of what
// the exact value has beyond x's magnitude (a fused multiply-add's
// remainder), used to break a tie that x alone would see; 0 for an exact x.
LDC_HF unsigned short ldc_h_round(double x, int M, int E, int mode, int sticky) {
  unsigned long long b;
  __builtin_memcpy(&b, &x, sizeof b);
  unsigned sign = (unsigned)(b >> 63);
  int ex = (int)((b >> 52) & 0x7ff);
  unsigned long long man = b & ((1ull << 52) - 1);
  unsigned signbit = sign << (M + E);
  unsigned infbits = ((1u << E) - 1) << M;
  if (ex == 0x7ff)
    return (unsigned short)(man ? (infbits | ((1u << M) - 1)) : (signbit | infbits));
  if (ex == 0 && man == 0)
    return (unsigned short)signbit;
  unsigned long long sig = ex ? (man | (1ull << 52)) : man;
  int e = ex ? ex - 1075 : -1074; // x = sig * 2^e
  int bias = (1 << (E - 1)) - 1;
  int top = 63 - __builtin_clzll(sig);
  int ue = e + top; // floor(log2 |x|)
  int qexp = (ue < 1 - bias ? 1 - bias : ue) - M; // the result's quantum
  int shift = qexp - e;                           // > 0 always
  unsigned long long I;
  int cmp, inexact;
  if (shift > 63) {
    I = 0;
    cmp = -1;
    inexact = 1;
  } else {
    I = sig >> shift;
    unsigned long long rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    cmp = rem > half ? 1 : rem == half ? 0 : -1;
    inexact = rem != 0;
  }
  int up = 0;
  switch (mode) {
  case LDC_H_RN:
    up = cmp > 0 || (cmp == 0 && (sticky > 0 || (sticky == 0 && (I & 1))));
    break;
  case LDC_H_RD:
    up = sign && (inexact || sticky);
    break;
  case LDC_H_RU:
    up = !sign && (inexact || sticky);
    break;
  }
  I += (unsigned long long)up;
  if (I >> (M + 1)) {
    I >>= 1;
    qexp++;
  }
  if (I < (1ull << M))
    return (unsigned short)(signbit | (unsigned)I); // subnormal (or zero)
  int biased = qexp + M + bias;
  if (biased >= (1 << E) - 1) { // overflow
    int toinf = mode == LDC_H_RN || (mode == LDC_H_RU && !sign) || (mode == LDC_H_RD && sign);
    return (unsigned short)(signbit | (toinf ? infbits : infbits - 1));
  }
  return (unsigned short)(signbit | ((unsigned)biased << M) | (unsigned)(I - (1ull << M)));
}

LDC_HF float ldc_h_bits2float(unsigned short h, int M) {
  unsigned f;
  if (M == 7) {
    f = (unsigned)h << 16;
  } else {
    unsigned s = (unsigned)(h >> 15) << 31, ex = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (ex == 0x1f) {
      f = s | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0u);
    } else if (ex == 0) {
      float v = (float)man * 5.9604644775390625e-8f; // exact: man * 2^-24
      return s ? -v : v;
    } else {
      f = s | ((ex + 112) << 23) | (man << 13);
    }
  }
  float r;
  __builtin_memcpy(&r, &f, sizeof r);
  return r;
}

// a*b+c rounded once: the product of two 11-bit (or 8-bit) values is exact
// in double, and the sum's rounding error, exact by TwoSum, breaks ties.
LDC_HF unsigned short ldc_h_fma(float a, float b, float c, int M, int E) {
  double p = (double)a * (double)b;
  double s = p + (double)c;
  int sticky = 0;
  if (s - s == 0) { // finite
    double bb = s - p;
    double err = (p - (s - bb)) + ((double)c - bb);
    if (err != 0)
      sticky = ((err > 0) == (s > 0)) ? 1 : -1;
  }
  return ldc_h_round(s, M, E, LDC_H_RN, sticky);
}

// An integer as a double that rounds as the integer would: beyond 53 bits,
// the bits shifted out are kept in the last one (round to odd), which
// leaves every later rounding to 11 or 8 bits, in any mode, exact.
LDC_HF double ldc_h_ull2d(unsigned long long v) {
  int k = 0;
  while (v >> 53) {
    v = (v >> 1) | (v & 1);
    k++;
  }
  double d = (double)v;
  while (k-- > 0)
    d *= 2.0;
  return d;
}
LDC_HF double ldc_h_ll2d(long long v) {
  return v < 0 ? -ldc_h_ull2d(0ull - (unsigned long long)v) : ldc_h_ull2d((unsigned long long)v);
}

// Float to integer with a rounding mode, saturating, NaN to 0 (as cvt does).
LDC_HF double ldc_h_rint_mode(double x, int mode) {
  if (x >= 4503599627370496.0 || x <= -4503599627370496.0)
    return x; // 2^52 and beyond: an integer already
  double t = (double)(long long)x;
  if (t == x)
    return t;
  switch (mode) {
  case LDC_H_RZ:
    return t;
  case LDC_H_RD:
    return x < 0 ? t - 1 : t;
  case LDC_H_RU:
    return x > 0 ? t + 1 : t;
  }
  double d = x - t; // in (-1, 1)
  if (d > 0.5 || (d == 0.5 && ((long long)t & 1)))
    return t + 1;
  if (d < -0.5 || (d == -0.5 && ((long long)t & 1)))
    return t - 1;
  return t;
}
LDC_HF long long ldc_h_to_int(float f, int mode, long long lo, long long hi) {
  if (f != f)
    return 0;
  double x = (double)f;
  if (x >= 9.2233720368547758e18)
    return hi;
  if (x < -9.2233720368547758e18)
    return lo;
  double r = ldc_h_rint_mode(x, mode);
  if (r >= (double)hi)
    return hi;
  if (r <= (double)lo)
    return lo;
  return (long long)r;
}
LDC_HF unsigned long long ldc_h_to_uint(float f, int mode, unsigned long long hi) {
  if (f != f || f <= 0)
    return 0;
  double x = (double)f;
  if (x >= 1.8446744073709552e19)
    return hi;
  double r = ldc_h_rint_mode(x, mode);
  if (r >= (double)hi)
    return hi;
  return (unsigned long long)r;
}

// ---- the types ----
struct LDC_HALIGN(2) __half {
  unsigned short __x;
  __half() = default;
  LDC_HF __half(const __half_raw &r) : __x(r.x) {}
  LDC_HF __half(float f) : __x(ldc_h_round((double)f, 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(double f) : __x(ldc_h_round(f, 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(short v) : __x(ldc_h_round((double)v, 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(unsigned short v) : __x(ldc_h_round((double)v, 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(int v) : __x(ldc_h_round(ldc_h_ll2d(v), 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(unsigned int v) : __x(ldc_h_round(ldc_h_ull2d(v), 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(long long v) : __x(ldc_h_round(ldc_h_ll2d(v), 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half(unsigned long long v) : __x(ldc_h_round(ldc_h_ull2d(v), 10, 5, LDC_H_RN, 0)) {}
  LDC_HF __half &operator=(const __half_raw &r) {
    __x = r.x;
    return *this;
  }
  LDC_HF __half &operator=(float f) {
    __x = ldc_h_round((double)f, 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(double f) {
    __x = ldc_h_round(f, 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(short v) {
    __x = ldc_h_round((double)v, 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(unsigned short v) {
    __x = ldc_h_round((double)v, 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(int v) {
    __x = ldc_h_round((double)v, 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(unsigned int v) {
    __x = ldc_h_round((double)v, 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(long long v) {
    __x = ldc_h_round(ldc_h_ll2d(v), 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __half &operator=(unsigned long long v) {
    __x = ldc_h_round(ldc_h_ull2d(v), 10, 5, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF operator __half_raw() const {
    __half_raw r;
    r.x = __x;
    return r;
  }
  LDC_HF operator float() const { return ldc_h_bits2float(__x, 10); }
  LDC_HF operator short() const { return (short)ldc_h_to_int(ldc_h_bits2float(__x, 10), LDC_H_RZ, -32768, 32767); }
  LDC_HF operator unsigned short() const { return (unsigned short)ldc_h_to_uint(ldc_h_bits2float(__x, 10), LDC_H_RZ, 65535ull); }
  LDC_HF operator int() const { return (int)ldc_h_to_int(ldc_h_bits2float(__x, 10), LDC_H_RZ, -2147483647 - 1, 2147483647); }
  LDC_HF operator unsigned int() const { return (unsigned int)ldc_h_to_uint(ldc_h_bits2float(__x, 10), LDC_H_RZ, 4294967295ull); }
  LDC_HF operator long long() const { return ldc_h_to_int(ldc_h_bits2float(__x, 10), LDC_H_RZ, -9223372036854775807ll - 1, 9223372036854775807ll); }
  LDC_HF operator unsigned long long() const { return ldc_h_to_uint(ldc_h_bits2float(__x, 10), LDC_H_RZ, 18446744073709551615ull); }
  LDC_HF explicit operator bool() const { return (__x & 0x7fff) != 0; }
};

struct LDC_HALIGN(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  LDC_HF __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  LDC_HF __nv_bfloat16(float f) : __x(ldc_h_round((double)f, 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(double f) : __x(ldc_h_round(f, 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(short v) : __x(ldc_h_round((double)v, 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(unsigned short v) : __x(ldc_h_round((double)v, 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(int v) : __x(ldc_h_round((double)v, 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(unsigned int v) : __x(ldc_h_round((double)v, 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(long long v) : __x(ldc_h_round(ldc_h_ll2d(v), 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16(unsigned long long v) : __x(ldc_h_round(ldc_h_ull2d(v), 7, 8, LDC_H_RN, 0)) {}
  LDC_HF __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(float f) {
    __x = ldc_h_round((double)f, 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(double f) {
    __x = ldc_h_round(f, 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(short v) {
    __x = ldc_h_round((double)v, 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(unsigned short v) {
    __x = ldc_h_round((double)v, 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(int v) {
    __x = ldc_h_round((double)v, 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(unsigned int v) {
    __x = ldc_h_round((double)v, 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(long long v) {
    __x = ldc_h_round(ldc_h_ll2d(v), 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF __nv_bfloat16 &operator=(unsigned long long v) {
    __x = ldc_h_round(ldc_h_ull2d(v), 7, 8, LDC_H_RN, 0);
    return *this;
  }
  LDC_HF operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
  LDC_HF operator float() const { return ldc_h_bits2float(__x, 7); }
  LDC_HF operator short() const { return (short)ldc_h_to_int(ldc_h_bits2float(__x, 7), LDC_H_RZ, -32768, 32767); }
  LDC_HF operator unsigned short() const { return (unsigned short)ldc_h_to_uint(ldc_h_bits2float(__x, 7), LDC_H_RZ, 65535ull); }
  LDC_HF operator int() const { return (int)ldc_h_to_int(ldc_h_bits2float(__x, 7), LDC_H_RZ, -2147483647 - 1, 2147483647); }
  LDC_HF operator unsigned int() const { return (unsigned int)ldc_h_to_uint(ldc_h_bits2float(__x, 7), LDC_H_RZ, 4294967295ull); }
  LDC_HF operator long long() const { return ldc_h_to_int(ldc_h_bits2float(__x, 7), LDC_H_RZ, -9223372036854775807ll - 1, 9223372036854775807ll); }
  LDC_HF operator unsigned long long() const { return ldc_h_to_uint(ldc_h_bits2float(__x, 7), LDC_H_RZ, 18446744073709551615ull); }
  LDC_HF explicit operator bool() const { return (__x & 0x7fff) != 0; }
};

struct LDC_HALIGN(4) __half2 {
  __half x, y;
  __half2() = default;
  LDC_HF __half2(const __half &a, const __half &b) : x(a), y(b) {}
  LDC_HF __half2(const __half2_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  LDC_HF __half2 &operator=(const __half2_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
    return *this;
  }
  LDC_HF operator __half2_raw() const {
    __half2_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};

struct LDC_HALIGN(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  LDC_HF __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  LDC_HF __nv_bfloat162(const __nv_bfloat162_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  LDC_HF __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
    return *this;
  }
  LDC_HF operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};

typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

// ---- conversions (half) ----
LDC_HF __half ldc_h_mk(unsigned short bits) {
  __half h;
  h.__x = bits;
  return h;
}
LDC_HF __nv_bfloat16 ldc_b_mk(unsigned short bits) {
  __nv_bfloat16 h;
  h.__x = bits;
  return h;
}
LDC_HF __half __float2half(const float a) { return ldc_h_mk(ldc_h_round((double)a, 10, 5, LDC_H_RN, 0)); }
LDC_HF __half __float2half_rn(const float a) { return ldc_h_mk(ldc_h_round((double)a, 10, 5, LDC_H_RN, 0)); }
LDC_HF __half __float2half_rz(const float a) { return ldc_h_mk(ldc_h_round((double)a, 10, 5, LDC_H_RZ, 0)); }
LDC_HF __half __float2half_rd(const float a) { return ldc_h_mk(ldc_h_round((double)a, 10, 5, LDC_H_RD, 0)); }
LDC_HF __half __float2half_ru(const float a) { return ldc_h_mk(ldc_h_round((double)a, 10, 5, LDC_H_RU, 0)); }
LDC_HF __half __double2half(const double a) { return ldc_h_mk(ldc_h_round(a, 10, 5, LDC_H_RN, 0)); }
LDC_HF float __half2float(const __half a) { return ldc_h_bits2float(a.__x, 10); }
LDC_HF __half2 __float2half2_rn(const float a) { return __half2(__float2half_rn(a), __float2half_rn(a)); }
LDC_HF __half2 __floats2half2_rn(const float a, const float b) { return __half2(__float2half_rn(a), __float2half_rn(b)); }
LDC_HF __half2 __float22half2_rn(const float2 a) { return __half2(__float2half_rn(a.x), __float2half_rn(a.y)); }
LDC_HF float2 __half22float2(const __half2 a) { return make_float2(__half2float(a.x), __half2float(a.y)); }
LDC_HF __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
LDC_HF __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }
LDC_HF __half2 __half2half2(const __half a) { return __half2(a, a); }
LDC_HF __half __low2half(const __half2 a) { return a.x; }
LDC_HF __half __high2half(const __half2 a) { return a.y; }
LDC_HF float __low2float(const __half2 a) { return __half2float(a.x); }
LDC_HF float __high2float(const __half2 a) { return __half2float(a.y); }
LDC_HF __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
LDC_HF __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
LDC_HF __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
LDC_HF __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }
LDC_HF __half2 __lowhigh2highlow(const __half2 a) { return __half2(a.y, a.x); }
LDC_HF short __half_as_short(const __half h) { return (short)h.__x; }
LDC_HF unsigned short __half_as_ushort(const __half h) { return h.__x; }
LDC_HF __half __short_as_half(const short i) { return ldc_h_mk((unsigned short)i); }
LDC_HF __half __ushort_as_half(const unsigned short i) { return ldc_h_mk(i); }

// ---- conversions (bfloat16) ----
LDC_HF __nv_bfloat16 __float2bfloat16(const float a) { return ldc_b_mk(ldc_h_round((double)a, 7, 8, LDC_H_RN, 0)); }
LDC_HF __nv_bfloat16 __float2bfloat16_rn(const float a) { return ldc_b_mk(ldc_h_round((double)a, 7, 8, LDC_H_RN, 0)); }
LDC_HF __nv_bfloat16 __float2bfloat16_rz(const float a) { return ldc_b_mk(ldc_h_round((double)a, 7, 8, LDC_H_RZ, 0)); }
LDC_HF __nv_bfloat16 __float2bfloat16_rd(const float a) { return ldc_b_mk(ldc_h_round((double)a, 7, 8, LDC_H_RD, 0)); }
LDC_HF __nv_bfloat16 __float2bfloat16_ru(const float a) { return ldc_b_mk(ldc_h_round((double)a, 7, 8, LDC_H_RU, 0)); }
LDC_HF __nv_bfloat16 __double2bfloat16(const double a) { return ldc_b_mk(ldc_h_round(a, 7, 8, LDC_H_RN, 0)); }
LDC_HF float __bfloat162float(const __nv_bfloat16 a) { return ldc_h_bits2float(a.__x, 7); }
LDC_HF __nv_bfloat162 __float2bfloat162_rn(const float a) { return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(a)); }
LDC_HF __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) { return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b)); }
LDC_HF __nv_bfloat162 __float22bfloat162_rn(const float2 a) { return __nv_bfloat162(__float2bfloat16_rn(a.x), __float2bfloat16_rn(a.y)); }
LDC_HF float2 __bfloat1622float2(const __nv_bfloat162 a) { return make_float2(__bfloat162float(a.x), __bfloat162float(a.y)); }
LDC_HF __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
LDC_HF __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
LDC_HF __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
LDC_HF __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
LDC_HF __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
LDC_HF float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
LDC_HF float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }
LDC_HF __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
LDC_HF __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
LDC_HF __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
LDC_HF __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
LDC_HF __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }
LDC_HF short __bfloat16_as_short(const __nv_bfloat16 h) { return (short)h.__x; }
LDC_HF unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) { return h.__x; }
LDC_HF __nv_bfloat16 __short_as_bfloat16(const short i) { return ldc_b_mk((unsigned short)i); }
LDC_HF __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) { return ldc_b_mk(i); }

// ---- integer conversions, every rounding mode ----
#define LDC_H_INTCONV(PFX, H, MK, TOF, M, E)                                                                 \
  LDC_HF H __int2##PFX##_rn(int i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RN, 0)); }          \
  LDC_HF H __int2##PFX##_rz(int i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RZ, 0)); }          \
  LDC_HF H __int2##PFX##_rd(int i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RD, 0)); }          \
  LDC_HF H __int2##PFX##_ru(int i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RU, 0)); }          \
  LDC_HF H __uint2##PFX##_rn(unsigned int i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __uint2##PFX##_rz(unsigned int i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RZ, 0)); } \
  LDC_HF H __uint2##PFX##_rd(unsigned int i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RD, 0)); } \
  LDC_HF H __uint2##PFX##_ru(unsigned int i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RU, 0)); } \
  LDC_HF H __short2##PFX##_rn(short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RN, 0)); }             \
  LDC_HF H __short2##PFX##_rz(short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RZ, 0)); }             \
  LDC_HF H __short2##PFX##_rd(short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RD, 0)); }             \
  LDC_HF H __short2##PFX##_ru(short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RU, 0)); }             \
  LDC_HF H __ushort2##PFX##_rn(unsigned short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RN, 0)); }   \
  LDC_HF H __ushort2##PFX##_rz(unsigned short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RZ, 0)); }   \
  LDC_HF H __ushort2##PFX##_rd(unsigned short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RD, 0)); }   \
  LDC_HF H __ushort2##PFX##_ru(unsigned short i) { return MK(ldc_h_round((double)i, M, E, LDC_H_RU, 0)); }   \
  LDC_HF H __ll2##PFX##_rn(long long i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RN, 0)); }     \
  LDC_HF H __ll2##PFX##_rz(long long i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RZ, 0)); }     \
  LDC_HF H __ll2##PFX##_rd(long long i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RD, 0)); }     \
  LDC_HF H __ll2##PFX##_ru(long long i) { return MK(ldc_h_round(ldc_h_ll2d(i), M, E, LDC_H_RU, 0)); }     \
  LDC_HF H __ull2##PFX##_rn(unsigned long long i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __ull2##PFX##_rz(unsigned long long i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RZ, 0)); } \
  LDC_HF H __ull2##PFX##_rd(unsigned long long i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RD, 0)); } \
  LDC_HF H __ull2##PFX##_ru(unsigned long long i) { return MK(ldc_h_round(ldc_h_ull2d(i), M, E, LDC_H_RU, 0)); } \
  LDC_HF int __##PFX##2int_rn(H h) { return (int)ldc_h_to_int(TOF(h), LDC_H_RN, -2147483647 - 1, 2147483647); } \
  LDC_HF int __##PFX##2int_rz(H h) { return (int)ldc_h_to_int(TOF(h), LDC_H_RZ, -2147483647 - 1, 2147483647); } \
  LDC_HF int __##PFX##2int_rd(H h) { return (int)ldc_h_to_int(TOF(h), LDC_H_RD, -2147483647 - 1, 2147483647); } \
  LDC_HF int __##PFX##2int_ru(H h) { return (int)ldc_h_to_int(TOF(h), LDC_H_RU, -2147483647 - 1, 2147483647); } \
  LDC_HF unsigned int __##PFX##2uint_rn(H h) { return (unsigned int)ldc_h_to_uint(TOF(h), LDC_H_RN, 4294967295ull); } \
  LDC_HF unsigned int __##PFX##2uint_rz(H h) { return (unsigned int)ldc_h_to_uint(TOF(h), LDC_H_RZ, 4294967295ull); } \
  LDC_HF unsigned int __##PFX##2uint_rd(H h) { return (unsigned int)ldc_h_to_uint(TOF(h), LDC_H_RD, 4294967295ull); } \
  LDC_HF unsigned int __##PFX##2uint_ru(H h) { return (unsigned int)ldc_h_to_uint(TOF(h), LDC_H_RU, 4294967295ull); } \
  LDC_HF short __##PFX##2short_rn(H h) { return (short)ldc_h_to_int(TOF(h), LDC_H_RN, -32768, 32767); }     \
  LDC_HF short __##PFX##2short_rz(H h) { return (short)ldc_h_to_int(TOF(h), LDC_H_RZ, -32768, 32767); }     \
  LDC_HF short __##PFX##2short_rd(H h) { return (short)ldc_h_to_int(TOF(h), LDC_H_RD, -32768, 32767); }     \
  LDC_HF short __##PFX##2short_ru(H h) { return (short)ldc_h_to_int(TOF(h), LDC_H_RU, -32768, 32767); }     \
  LDC_HF unsigned short __##PFX##2ushort_rn(H h) { return (unsigned short)ldc_h_to_uint(TOF(h), LDC_H_RN, 65535ull); } \
  LDC_HF unsigned short __##PFX##2ushort_rz(H h) { return (unsigned short)ldc_h_to_uint(TOF(h), LDC_H_RZ, 65535ull); } \
  LDC_HF unsigned short __##PFX##2ushort_rd(H h) { return (unsigned short)ldc_h_to_uint(TOF(h), LDC_H_RD, 65535ull); } \
  LDC_HF unsigned short __##PFX##2ushort_ru(H h) { return (unsigned short)ldc_h_to_uint(TOF(h), LDC_H_RU, 65535ull); } \
  LDC_HF long long __##PFX##2ll_rn(H h) { return ldc_h_to_int(TOF(h), LDC_H_RN, -9223372036854775807ll - 1, 9223372036854775807ll); } \
  LDC_HF long long __##PFX##2ll_rz(H h) { return ldc_h_to_int(TOF(h), LDC_H_RZ, -9223372036854775807ll - 1, 9223372036854775807ll); } \
  LDC_HF long long __##PFX##2ll_rd(H h) { return ldc_h_to_int(TOF(h), LDC_H_RD, -9223372036854775807ll - 1, 9223372036854775807ll); } \
  LDC_HF long long __##PFX##2ll_ru(H h) { return ldc_h_to_int(TOF(h), LDC_H_RU, -9223372036854775807ll - 1, 9223372036854775807ll); } \
  LDC_HF unsigned long long __##PFX##2ull_rn(H h) { return ldc_h_to_uint(TOF(h), LDC_H_RN, 18446744073709551615ull); } \
  LDC_HF unsigned long long __##PFX##2ull_rz(H h) { return ldc_h_to_uint(TOF(h), LDC_H_RZ, 18446744073709551615ull); } \
  LDC_HF unsigned long long __##PFX##2ull_rd(H h) { return ldc_h_to_uint(TOF(h), LDC_H_RD, 18446744073709551615ull); } \
  LDC_HF unsigned long long __##PFX##2ull_ru(H h) { return ldc_h_to_uint(TOF(h), LDC_H_RU, 18446744073709551615ull); }
LDC_H_INTCONV(half, __half, ldc_h_mk, __half2float, 10, 5)
LDC_H_INTCONV(bfloat16, __nv_bfloat16, ldc_b_mk, __bfloat162float, 7, 8)
#undef LDC_H_INTCONV

// ---- arithmetic, comparisons, math and operators, for both types ----
LDC_HF float ldc_h_sat(float v) { return v != v ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

#define LDC_H_OPS(H, H2, MK, TOF, M, E)                                                                    \
  LDC_HF H ldc_h_from(H *, float v) { return MK(ldc_h_round((double)v, M, E, LDC_H_RN, 0)); }             \
  LDC_HF int ldc_h_isnan(H a) { return (a.__x & 0x7fff) > (((1u << E) - 1) << M); }                        \
  LDC_HF H ldc_h_nan(H *) { return MK((unsigned short)((((1u << E) - 1) << M) | ((1u << M) - 1))); }         \
  LDC_HF H __hadd(const H a, const H b) { return MK(ldc_h_round((double)(TOF(a) + TOF(b)), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hsub(const H a, const H b) { return MK(ldc_h_round((double)(TOF(a) - TOF(b)), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hmul(const H a, const H b) { return MK(ldc_h_round((double)(TOF(a) * TOF(b)), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hdiv(const H a, const H b) { return MK(ldc_h_round((double)(TOF(a) / TOF(b)), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hadd_rn(const H a, const H b) { return __hadd(a, b); }                                        \
  LDC_HF H __hsub_rn(const H a, const H b) { return __hsub(a, b); }                                        \
  LDC_HF H __hmul_rn(const H a, const H b) { return __hmul(a, b); }                                        \
  LDC_HF H __hfma(const H a, const H b, const H c) { return MK(ldc_h_fma(TOF(a), TOF(b), TOF(c), M, E)); }  \
  LDC_HF H __hadd_sat(const H a, const H b) { return MK(ldc_h_round((double)ldc_h_sat(TOF(__hadd(a, b))), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hsub_sat(const H a, const H b) { return MK(ldc_h_round((double)ldc_h_sat(TOF(__hsub(a, b))), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hmul_sat(const H a, const H b) { return MK(ldc_h_round((double)ldc_h_sat(TOF(__hmul(a, b))), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hfma_sat(const H a, const H b, const H c) { return MK(ldc_h_round((double)ldc_h_sat(TOF(__hfma(a, b, c))), M, E, LDC_H_RN, 0)); } \
  LDC_HF H __hfma_relu(const H a, const H b, const H c) {                                                  \
    H r = __hfma(a, b, c);                                                                                 \
    return ldc_h_isnan(r) ? ldc_h_nan((H *)0) : (r.__x & 0x8000) ? MK(0) : r;                               \
  }                                                                                                        \
  LDC_HF H __hneg(const H a) { return MK((unsigned short)(a.__x ^ 0x8000)); }                              \
  LDC_HF H __habs(const H a) { return MK((unsigned short)(a.__x & 0x7fff)); }                              \
  LDC_HF H __hmax(const H a, const H b) {                                                                  \
    if (ldc_h_isnan(a) && ldc_h_isnan(b)) return ldc_h_nan((H *)0);                                        \
    if (ldc_h_isnan(a)) return b;                                                                          \
    if (ldc_h_isnan(b)) return a;                                                                          \
    float x = TOF(a), y = TOF(b);                                                                          \
    if (x == y) return (a.__x & 0x8000) ? b : a;                                                           \
    return x > y ? a : b;                                                                                  \
  }                                                                                                        \
  LDC_HF H __hmin(const H a, const H b) {                                                                  \
    if (ldc_h_isnan(a) && ldc_h_isnan(b)) return ldc_h_nan((H *)0);                                        \
    if (ldc_h_isnan(a)) return b;                                                                          \
    if (ldc_h_isnan(b)) return a;                                                                          \
    float x = TOF(a), y = TOF(b);                                                                          \
    if (x == y) return (a.__x & 0x8000) ? a : b;                                                           \
    return x < y ? a : b;                                                                                  \
  }                                                                                                        \
  LDC_HF H __hmax_nan(const H a, const H b) { return (ldc_h_isnan(a) || ldc_h_isnan(b)) ? ldc_h_nan((H *)0) : __hmax(a, b); } \
  LDC_HF H __hmin_nan(const H a, const H b) { return (ldc_h_isnan(a) || ldc_h_isnan(b)) ? ldc_h_nan((H *)0) : __hmin(a, b); } \
  LDC_HF bool __heq(const H a, const H b) { return TOF(a) == TOF(b); }                                     \
  LDC_HF bool __hne(const H a, const H b) { return TOF(a) < TOF(b) || TOF(a) > TOF(b); }                   \
  LDC_HF bool __hle(const H a, const H b) { return TOF(a) <= TOF(b); }                                     \
  LDC_HF bool __hge(const H a, const H b) { return TOF(a) >= TOF(b); }                                     \
  LDC_HF bool __hlt(const H a, const H b) { return TOF(a) < TOF(b); }                                      \
  LDC_HF bool __hgt(const H a, const H b) { return TOF(a) > TOF(b); }                                      \
  LDC_HF bool __hequ(const H a, const H b) { return !(TOF(a) < TOF(b) || TOF(a) > TOF(b)); }               \
  LDC_HF bool __hneu(const H a, const H b) { return !(TOF(a) == TOF(b)); }                                 \
  LDC_HF bool __hleu(const H a, const H b) { return !(TOF(a) > TOF(b)); }                                  \
  LDC_HF bool __hgeu(const H a, const H b) { return !(TOF(a) < TOF(b)); }                                  \
  LDC_HF bool __hltu(const H a, const H b) { return !(TOF(a) >= TOF(b)); }                                 \
  LDC_HF bool __hgtu(const H a, const H b) { return !(TOF(a) <= TOF(b)); }                                 \
  LDC_HF bool __hisnan(const H a) { return ldc_h_isnan(a) != 0; }                                          \
  LDC_HF int __hisinf(const H a) {                                                                         \
    if ((a.__x & 0x7fff) != (((1u << E) - 1) << M)) return 0;                                              \
    return (a.__x & 0x8000) ? -1 : 1;                                                                      \
  }                                                                                                        \
  LDC_HF H hsqrt(const H a) { return ldc_h_from((H *)0, sqrtf(TOF(a))); }                                  \
  LDC_HF H hrsqrt(const H a) { return ldc_h_from((H *)0, 1.0f / sqrtf(TOF(a))); }                          \
  LDC_HF H hrcp(const H a) { return ldc_h_from((H *)0, 1.0f / TOF(a)); }                                   \
  LDC_HF H hexp(const H a) { return ldc_h_from((H *)0, expf(TOF(a))); }                                    \
  LDC_HF H hexp2(const H a) { return ldc_h_from((H *)0, exp2f(TOF(a))); }                                  \
  LDC_HF H hexp10(const H a) { return ldc_h_from((H *)0, exp2f(TOF(a) * 3.32192809488736235f)); }          \
  LDC_HF H hlog(const H a) { return ldc_h_from((H *)0, logf(TOF(a))); }                                    \
  LDC_HF H hlog2(const H a) { return ldc_h_from((H *)0, log2f(TOF(a))); }                                  \
  LDC_HF H hlog10(const H a) { return ldc_h_from((H *)0, log10f(TOF(a))); }                                \
  LDC_HF H hsin(const H a) { return ldc_h_from((H *)0, sinf(TOF(a))); }                                    \
  LDC_HF H hcos(const H a) { return ldc_h_from((H *)0, cosf(TOF(a))); }                                    \
  LDC_HF H htanh(const H a) { return ldc_h_from((H *)0, tanhf(TOF(a))); }                                  \
  LDC_HF H htrunc(const H a) { return ldc_h_from((H *)0, truncf(TOF(a))); }                                \
  LDC_HF H hceil(const H a) { return ldc_h_from((H *)0, ceilf(TOF(a))); }                                  \
  LDC_HF H hfloor(const H a) { return ldc_h_from((H *)0, floorf(TOF(a))); }                                \
  LDC_HF H hrint(const H a) { return ldc_h_from((H *)0, rintf(TOF(a))); }                                  \
  /* pairs: each half on its own */                                                                        \
  LDC_HF H2 __hadd2(const H2 a, const H2 b) { return H2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }            \
  LDC_HF H2 __hsub2(const H2 a, const H2 b) { return H2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }            \
  LDC_HF H2 __hmul2(const H2 a, const H2 b) { return H2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }            \
  LDC_HF H2 __h2div(const H2 a, const H2 b) { return H2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }            \
  LDC_HF H2 __hadd2_rn(const H2 a, const H2 b) { return __hadd2(a, b); }                                  \
  LDC_HF H2 __hsub2_rn(const H2 a, const H2 b) { return __hsub2(a, b); }                                  \
  LDC_HF H2 __hmul2_rn(const H2 a, const H2 b) { return __hmul2(a, b); }                                  \
  LDC_HF H2 __hfma2(const H2 a, const H2 b, const H2 c) { return H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); } \
  LDC_HF H2 __hadd2_sat(const H2 a, const H2 b) { return H2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)); } \
  LDC_HF H2 __hsub2_sat(const H2 a, const H2 b) { return H2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y)); } \
  LDC_HF H2 __hmul2_sat(const H2 a, const H2 b) { return H2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)); } \
  LDC_HF H2 __hfma2_sat(const H2 a, const H2 b, const H2 c) { return H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)); } \
  LDC_HF H2 __hfma2_relu(const H2 a, const H2 b, const H2 c) { return H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)); } \
  LDC_HF H2 __hneg2(const H2 a) { return H2(__hneg(a.x), __hneg(a.y)); }                                   \
  LDC_HF H2 __habs2(const H2 a) { return H2(__habs(a.x), __habs(a.y)); }                                   \
  LDC_HF H2 __hmax2(const H2 a, const H2 b) { return H2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }            \
  LDC_HF H2 __hmin2(const H2 a, const H2 b) { return H2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }            \
  LDC_HF H2 __hmax2_nan(const H2 a, const H2 b) { return H2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y)); } \
  LDC_HF H2 __hmin2_nan(const H2 a, const H2 b) { return H2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y)); } \
  LDC_HF H2 __hisnan2(const H2 a) { return H2(MK(__hisnan(a.x) ? ldc_h_round(1.0, M, E, 0, 0) : 0), MK(__hisnan(a.y) ? ldc_h_round(1.0, M, E, 0, 0) : 0)); } \
  LDC_H_CMP2(H, H2, MK, M, E, eq) LDC_H_CMP2(H, H2, MK, M, E, ne) LDC_H_CMP2(H, H2, MK, M, E, le)             \
  LDC_H_CMP2(H, H2, MK, M, E, ge) LDC_H_CMP2(H, H2, MK, M, E, lt) LDC_H_CMP2(H, H2, MK, M, E, gt)             \
  LDC_H_CMP2(H, H2, MK, M, E, equ) LDC_H_CMP2(H, H2, MK, M, E, neu) LDC_H_CMP2(H, H2, MK, M, E, leu)          \
  LDC_H_CMP2(H, H2, MK, M, E, geu) LDC_H_CMP2(H, H2, MK, M, E, ltu) LDC_H_CMP2(H, H2, MK, M, E, gtu)          \
  LDC_H_MATH2(H2, sqrt) LDC_H_MATH2(H2, rsqrt) LDC_H_MATH2(H2, rcp) LDC_H_MATH2(H2, exp)                      \
  LDC_H_MATH2(H2, exp2) LDC_H_MATH2(H2, exp10) LDC_H_MATH2(H2, log) LDC_H_MATH2(H2, log2)                     \
  LDC_H_MATH2(H2, log10) LDC_H_MATH2(H2, sin) LDC_H_MATH2(H2, cos) LDC_H_MATH2(H2, tanh)                      \
  LDC_H_MATH2(H2, trunc) LDC_H_MATH2(H2, ceil) LDC_H_MATH2(H2, floor) LDC_H_MATH2(H2, rint)                   \
  /* C++ operators */                                                                                      \
  LDC_HF H operator+(const H &a, const H &b) { return __hadd(a, b); }                                      \
  LDC_HF H operator-(const H &a, const H &b) { return __hsub(a, b); }                                      \
  LDC_HF H operator*(const H &a, const H &b) { return __hmul(a, b); }                                      \
  LDC_HF H operator/(const H &a, const H &b) { return __hdiv(a, b); }                                      \
  LDC_HF H &operator+=(H &a, const H &b) { return a = __hadd(a, b); }                                      \
  LDC_HF H &operator-=(H &a, const H &b) { return a = __hsub(a, b); }                                      \
  LDC_HF H &operator*=(H &a, const H &b) { return a = __hmul(a, b); }                                      \
  LDC_HF H &operator/=(H &a, const H &b) { return a = __hdiv(a, b); }                                      \
  LDC_HF H &operator++(H &a) { return a = __hadd(a, MK(ldc_h_round(1.0, M, E, 0, 0))); }                   \
  LDC_HF H &operator--(H &a) { return a = __hsub(a, MK(ldc_h_round(1.0, M, E, 0, 0))); }                   \
  LDC_HF H operator++(H &a, int) { H r = a; ++a; return r; }                                               \
  LDC_HF H operator--(H &a, int) { H r = a; --a; return r; }                                               \
  LDC_HF H operator+(const H &a) { return a; }                                                             \
  LDC_HF H operator-(const H &a) { return __hneg(a); }                                                     \
  LDC_HF bool operator==(const H &a, const H &b) { return __heq(a, b); }                                   \
  LDC_HF bool operator!=(const H &a, const H &b) { return __hneu(a, b); }                                  \
  LDC_HF bool operator<(const H &a, const H &b) { return __hlt(a, b); }                                    \
  LDC_HF bool operator>(const H &a, const H &b) { return __hgt(a, b); }                                    \
  LDC_HF bool operator<=(const H &a, const H &b) { return __hle(a, b); }                                   \
  LDC_HF bool operator>=(const H &a, const H &b) { return __hge(a, b); }                                   \
  LDC_HF H2 operator+(const H2 &a, const H2 &b) { return __hadd2(a, b); }                                  \
  LDC_HF H2 operator-(const H2 &a, const H2 &b) { return __hsub2(a, b); }                                  \
  LDC_HF H2 operator*(const H2 &a, const H2 &b) { return __hmul2(a, b); }                                  \
  LDC_HF H2 operator/(const H2 &a, const H2 &b) { return __h2div(a, b); }                                  \
  LDC_HF H2 &operator+=(H2 &a, const H2 &b) { return a = __hadd2(a, b); }                                  \
  LDC_HF H2 &operator-=(H2 &a, const H2 &b) { return a = __hsub2(a, b); }                                  \
  LDC_HF H2 &operator*=(H2 &a, const H2 &b) { return a = __hmul2(a, b); }                                  \
  LDC_HF H2 &operator/=(H2 &a, const H2 &b) { return a = __h2div(a, b); }                                  \
  LDC_HF H2 operator+(const H2 &a) { return a; }                                                           \
  LDC_HF H2 operator-(const H2 &a) { return __hneg2(a); }                                                  \
  LDC_HF bool operator==(const H2 &a, const H2 &b) { return __hbeq2(a, b); }                               \
  LDC_HF bool operator!=(const H2 &a, const H2 &b) { return __hbneu2(a, b); }                              \
  LDC_HF bool operator<(const H2 &a, const H2 &b) { return __hblt2(a, b); }                                \
  LDC_HF bool operator>(const H2 &a, const H2 &b) { return __hbgt2(a, b); }                                \
  LDC_HF bool operator<=(const H2 &a, const H2 &b) { return __hble2(a, b); }                               \
  LDC_HF bool operator>=(const H2 &a, const H2 &b) { return __hbge2(a, b); }

// __heq2 (1.0 or 0.0 in each half), __hbeq2 (both), __heq2_mask (0xffff
// in each half where true), and the other comparisons likewise.
#define LDC_H_CMP2(H, H2, MK, M, E, OP)                                                                    \
  LDC_HF H2 __h##OP##2(const H2 a, const H2 b) {                                                           \
    unsigned short one = ldc_h_round(1.0, M, E, 0, 0);                                                     \
    return H2(MK(__h##OP(a.x, b.x) ? one : 0), MK(__h##OP(a.y, b.y) ? one : 0));                            \
  }                                                                                                        \
  LDC_HF bool __hb##OP##2(const H2 a, const H2 b) { return __h##OP(a.x, b.x) && __h##OP(a.y, b.y); }         \
  LDC_HF unsigned __h##OP##2_mask(const H2 a, const H2 b) {                                                \
    return (__h##OP(a.x, b.x) ? 0xffffu : 0u) | (__h##OP(a.y, b.y) ? 0xffff0000u : 0u);                     \
  }
#define LDC_H_MATH2(H2, FN) \
  LDC_HF H2 h2##FN(const H2 a) { return H2(h##FN(a.x), h##FN(a.y)); }

LDC_H_OPS(__half, __half2, ldc_h_mk, __half2float, 10, 5)
LDC_H_OPS(__nv_bfloat16, __nv_bfloat162, ldc_b_mk, __bfloat162float, 7, 8)
#undef LDC_H_OPS
#undef LDC_H_CMP2
#undef LDC_H_MATH2

// ---- atomics ----
// Read-modify-write of the 16-bit value (or the pair's 32 bits) by
// compare-and-swap, returning the old value, as atomicAdd does.
#ifdef __LDCHECK_PRELUDE__
#define LDC_H_ATOMIC16(H, FN, OP)                                                                          \
  static __device__ __forceinline__ H FN(H *address, H val) {                                              \
    unsigned short *p = (unsigned short *)address;                                                         \
    unsigned short old = *p, assumed;                                                                      \
    do {                                                                                                   \
      assumed = old;                                                                                       \
      H cur;                                                                                               \
      cur.__x = assumed;                                                                                   \
      old = atomicCAS(p, assumed, OP(cur, val).__x);                                                       \
    } while (old != assumed);                                                                              \
    H r;                                                                                                   \
    r.__x = old;                                                                                           \
    return r;                                                                                              \
  }
#define LDC_H_ATOMIC32(H2, FN, OP)                                                                         \
  static __device__ __forceinline__ H2 FN(H2 *address, H2 val) {                                           \
    unsigned *p = (unsigned *)address;                                                                     \
    unsigned old = *p, assumed;                                                                            \
    do {                                                                                                   \
      assumed = old;                                                                                       \
      H2 cur = __builtin_bit_cast(H2, assumed);                                                            \
      old = atomicCAS(p, assumed, __builtin_bit_cast(unsigned, OP(cur, val)));                             \
    } while (old != assumed);                                                                              \
    return __builtin_bit_cast(H2, old);                                                                    \
  }
#else
#define LDC_H_ATOMIC16(H, FN, OP) \
  LDC_ENGINE inline H FN(H *address, H val) { return ldc::atomic_update(address, [val](H old) { return OP(old, val); }); }
#define LDC_H_ATOMIC32(H2, FN, OP) \
  LDC_ENGINE inline H2 FN(H2 *address, H2 val) { return ldc::atomic_update(address, [val](H2 old) { return OP(old, val); }); }
#endif
LDC_H_ATOMIC16(__half, atomicAdd, __hadd)
LDC_H_ATOMIC16(__nv_bfloat16, atomicAdd, __hadd)
LDC_H_ATOMIC32(__half2, atomicAdd, __hadd2)
LDC_H_ATOMIC32(__nv_bfloat162, atomicAdd, __hadd2)
LDC_H_ATOMIC16(__half, atomicMax, __hmax)
LDC_H_ATOMIC16(__nv_bfloat16, atomicMax, __hmax)
LDC_H_ATOMIC16(__half, atomicMin, __hmin)
LDC_H_ATOMIC16(__nv_bfloat16, atomicMin, __hmin)
#undef LDC_H_ATOMIC16
#undef LDC_H_ATOMIC32

// ---- warp shuffles ----
// The CPU backend's shuffles are templates that move any value of up to 8
// bytes; the prelude's are overloads, so the half types get theirs here.
#ifdef __LDCHECK_PRELUDE__
// The names are in parentheses: ldcheck's runtime header may have made
// them macros (the intra-warp check's hooks) by the time this is read.
#define LDC_H_SHFL(NAME, LANE_T)                                                                           \
  static __device__ __forceinline__ __half(NAME)(unsigned m, __half v, LANE_T l, int w = 32) {             \
    return __ushort_as_half((unsigned short)(NAME)(m, (int)v.__x, l, w));                                  \
  }                                                                                                        \
  static __device__ __forceinline__ __nv_bfloat16(NAME)(unsigned m, __nv_bfloat16 v, LANE_T l, int w = 32) { \
    return __ushort_as_bfloat16((unsigned short)(NAME)(m, (int)v.__x, l, w));                              \
  }                                                                                                        \
  static __device__ __forceinline__ __half2(NAME)(unsigned m, __half2 v, LANE_T l, int w = 32) {           \
    return __builtin_bit_cast(__half2, (NAME)(m, __builtin_bit_cast(int, v), l, w));                       \
  }                                                                                                        \
  static __device__ __forceinline__ __nv_bfloat162(NAME)(unsigned m, __nv_bfloat162 v, LANE_T l, int w = 32) { \
    return __builtin_bit_cast(__nv_bfloat162, (NAME)(m, __builtin_bit_cast(int, v), l, w));                \
  }
LDC_H_SHFL(__shfl_sync, int)
LDC_H_SHFL(__shfl_up_sync, unsigned)
LDC_H_SHFL(__shfl_down_sync, unsigned)
LDC_H_SHFL(__shfl_xor_sync, int)
#undef LDC_H_SHFL
#endif

// ---- constants (cuda_fp16.h's and cuda_bf16.h's macros) ----
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#undef LDC_HF
#undef LDC_HALIGN
