// ldcheck's CUDA prelude: what CUDA device code needs from the toolkit's
// headers, written for clang in CUDA mode with -nocudainc, so that ldcheck can
// parse kernels (and, without nvcc, compile them to PTX with clang) on a
// machine with no CUDA toolkit. Force-included before the user's file.
//
// Fast-math intrinsics map to the PTX approximate instructions; the precise
// libm functions (expf, sinf, ...) are only declared, so PTX that uses them
// needs nvcc (which ldcheck prefers whenever it is on PATH).
#pragma once
#define __LDCHECK_PRELUDE__ 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))

typedef __SIZE_TYPE__ size_t;
// The short names CUDA code takes from the toolkit's headers.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
#ifndef NULL
#define NULL __null
#endif

// Vector types, with CUDA's alignment.
#define LDC_VEC2(T, N, A) struct __attribute__((aligned(A))) N##2 { T x, y; }; \
  static __host__ __device__ __forceinline__ N##2 make_##N##2(T x, T y) { N##2 v = {x, y}; return v; }
#define LDC_VEC3(T, N) struct N##3 { T x, y, z; }; \
  static __host__ __device__ __forceinline__ N##3 make_##N##3(T x, T y, T z) { N##3 v = {x, y, z}; return v; }
#define LDC_VEC4(T, N, A) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; }; \
  static __host__ __device__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 v = {x, y, z, w}; return v; }
LDC_VEC2(signed char, char, 2) LDC_VEC4(signed char, char, 4)
LDC_VEC2(unsigned char, uchar, 2) LDC_VEC4(unsigned char, uchar, 4)
LDC_VEC2(short, short, 4) LDC_VEC4(short, short, 8)
LDC_VEC2(unsigned short, ushort, 4) LDC_VEC4(unsigned short, ushort, 8)
LDC_VEC2(int, int, 8) LDC_VEC3(int, int) LDC_VEC4(int, int, 16)
LDC_VEC2(unsigned int, uint, 8) LDC_VEC3(unsigned int, uint) LDC_VEC4(unsigned int, uint, 16)
LDC_VEC2(float, float, 8) LDC_VEC3(float, float) LDC_VEC4(float, float, 16)
LDC_VEC2(double, double, 16) LDC_VEC3(double, double) LDC_VEC4(double, double, 16)
LDC_VEC2(long long, longlong, 16) LDC_VEC2(unsigned long long, ulonglong, 16)
#undef LDC_VEC2
#undef LDC_VEC3
#undef LDC_VEC4

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Builtin variables: reads of x/y/z become PTX special-register reads.
#define LDC_BUILTIN_VAR(TYPE, NAME, REG)                                                   \
  struct TYPE {                                                                           \
    static __device__ __forceinline__ unsigned int get_x() { return __nvvm_read_ptx_sreg_##REG##_x(); } \
    static __device__ __forceinline__ unsigned int get_y() { return __nvvm_read_ptx_sreg_##REG##_y(); } \
    static __device__ __forceinline__ unsigned int get_z() { return __nvvm_read_ptx_sreg_##REG##_z(); } \
    __declspec(property(get = get_x)) unsigned int x;                                     \
    __declspec(property(get = get_y)) unsigned int y;                                     \
    __declspec(property(get = get_z)) unsigned int z;                                     \
    __device__ operator dim3() const { return dim3(x, y, z); }                            \
    __device__ operator uint3() const { return uint3{x, y, z}; }                          \
  };                                                                                      \
  extern const __device__ __attribute__((weak)) TYPE NAME;
LDC_BUILTIN_VAR(__ldc_threadIdx_t, threadIdx, tid)
LDC_BUILTIN_VAR(__ldc_blockIdx_t, blockIdx, ctaid)
LDC_BUILTIN_VAR(__ldc_blockDim_t, blockDim, ntid)
LDC_BUILTIN_VAR(__ldc_gridDim_t, gridDim, nctaid)
#undef LDC_BUILTIN_VAR
#define warpSize 32

// Barriers. __syncthreads itself is a clang builtin.
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
static __device__ __forceinline__ void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
static __device__ __forceinline__ void __threadfence() { __nvvm_membar_gl(); }
static __device__ __forceinline__ void __threadfence_block() { __nvvm_membar_cta(); }
static __device__ __forceinline__ void __threadfence_system() { __nvvm_membar_sys(); }
static __device__ __forceinline__ unsigned __activemask() { unsigned m; asm volatile("activemask.b32 %0;" : "=r"(m)); return m; }

// Warp vote and shuffle.
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
static __device__ __forceinline__ int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
#define LDC_SHFL(NAME, OP, LANE_T, CLAMP)                                                                   \
  static __device__ __forceinline__ int NAME(unsigned m, int v, LANE_T l, int w = 32) {                     \
    return __nvvm_shfl_sync_##OP##_i32(m, v, l, CLAMP); }                                                  \
  static __device__ __forceinline__ unsigned NAME(unsigned m, unsigned v, LANE_T l, int w = 32) {           \
    return (unsigned)__nvvm_shfl_sync_##OP##_i32(m, (int)v, l, CLAMP); }                                   \
  static __device__ __forceinline__ float NAME(unsigned m, float v, LANE_T l, int w = 32) {                 \
    return __nvvm_shfl_sync_##OP##_f32(m, v, l, CLAMP); }                                                  \
  static __device__ __forceinline__ long long NAME(unsigned m, long long v, LANE_T l, int w = 32) {         \
    int lo = __nvvm_shfl_sync_##OP##_i32(m, (int)v, l, CLAMP);                                             \
    int hi = __nvvm_shfl_sync_##OP##_i32(m, (int)(v >> 32), l, CLAMP);                                     \
    return ((long long)hi << 32) | (unsigned)lo; }                                                         \
  static __device__ __forceinline__ unsigned long long NAME(unsigned m, unsigned long long v, LANE_T l, int w = 32) { \
    return (unsigned long long)NAME(m, (long long)v, l, w); }                                              \
  static __device__ __forceinline__ double NAME(unsigned m, double v, LANE_T l, int w = 32) {               \
    return __builtin_bit_cast(double, NAME(m, __builtin_bit_cast(long long, v), l, w)); }
LDC_SHFL(__shfl_sync, idx, int, ((32 - w) << 8) | 0x1f)
LDC_SHFL(__shfl_up_sync, up, unsigned, (32 - w) << 8)
LDC_SHFL(__shfl_down_sync, down, unsigned, ((32 - w) << 8) | 0x1f)
LDC_SHFL(__shfl_xor_sync, bfly, int, ((32 - w) << 8) | 0x1f)
#undef LDC_SHFL

// Atomics.
static __device__ __forceinline__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ __forceinline__ double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
static __device__ __forceinline__ int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
static __device__ __forceinline__ unsigned atomicSub(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, -(int)v); }
static __device__ __forceinline__ int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicExch(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_xchg_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ unsigned long long atomicExch(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_xchg_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ float atomicExch(float *p, float v) { return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v))); }
static __device__ __forceinline__ int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicMin(unsigned *p, unsigned v) { return __nvvm_atom_min_gen_ui(p, v); }
static __device__ __forceinline__ int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
static __device__ __forceinline__ unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
static __device__ __forceinline__ unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }
static __device__ __forceinline__ int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
static __device__ __forceinline__ unsigned atomicCAS(unsigned *p, unsigned c, unsigned v) { return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v); }
static __device__ __forceinline__ unsigned long long atomicCAS(unsigned long long *p, unsigned long long c, unsigned long long v) { return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c, (long long)v); }
static __device__ __forceinline__ int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicAnd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_and_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicOr(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_or_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicXor(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_xor_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ long long atomicMin(long long *p, long long v) { return __nvvm_atom_min_gen_ll(p, v); }
static __device__ __forceinline__ unsigned long long atomicMin(unsigned long long *p, unsigned long long v) { return __nvvm_atom_min_gen_ull(p, v); }
static __device__ __forceinline__ long long atomicMax(long long *p, long long v) { return __nvvm_atom_max_gen_ll(p, v); }
static __device__ __forceinline__ unsigned long long atomicMax(unsigned long long *p, unsigned long long v) { return __nvvm_atom_max_gen_ull(p, v); }
static __device__ __forceinline__ unsigned long long atomicAnd(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_and_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ unsigned long long atomicOr(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_or_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ unsigned long long atomicXor(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_xor_gen_ll((long long *)p, (long long)v); }
// 16-bit compare-and-swap through the 32-bit word that holds it.
static __device__ __forceinline__ unsigned short atomicCAS(unsigned short *p, unsigned short c, unsigned short v) {
  unsigned *w = (unsigned *)((size_t)p & ~(size_t)3);
  unsigned shift = ((size_t)p & 2) * 8, old = *w;
  for (;;) {
    unsigned short cur = (unsigned short)(old >> shift);
    if (cur != c) return cur;
    unsigned want = (old & ~(0xffffu << shift)) | ((unsigned)v << shift);
    unsigned seen = (unsigned)__nvvm_atom_cas_gen_i((int *)w, (int)old, (int)want);
    if (seen == old) return cur;
    old = seen;
  }
}
// Scoped atomics (_block, _system): done at device scope, which is stronger.
#define LDC_ATOMIC_SCOPED(fn) \
  template <class... A> static __device__ __forceinline__ auto fn##_block(A... a) -> decltype(fn(a...)) { return fn(a...); } \
  template <class... A> static __device__ __forceinline__ auto fn##_system(A... a) -> decltype(fn(a...)) { return fn(a...); }
LDC_ATOMIC_SCOPED(atomicAdd) LDC_ATOMIC_SCOPED(atomicSub) LDC_ATOMIC_SCOPED(atomicExch)
LDC_ATOMIC_SCOPED(atomicMin) LDC_ATOMIC_SCOPED(atomicMax) LDC_ATOMIC_SCOPED(atomicInc)
LDC_ATOMIC_SCOPED(atomicDec) LDC_ATOMIC_SCOPED(atomicCAS) LDC_ATOMIC_SCOPED(atomicAnd)
LDC_ATOMIC_SCOPED(atomicOr) LDC_ATOMIC_SCOPED(atomicXor)
#undef LDC_ATOMIC_SCOPED

// Integer and bit intrinsics.
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ __forceinline__ int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static __device__ __forceinline__ int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static __device__ __forceinline__ int __ffs(int x) { return __builtin_ffs(x); }
static __device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
static __device__ __forceinline__ unsigned __umul24(unsigned a, unsigned b) { return __nvvm_mul24_ui(a, b); }
static __device__ __forceinline__ int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
static __device__ __forceinline__ unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }
static __host__ __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __host__ __device__ __forceinline__ unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static __host__ __device__ __forceinline__ long long min(long long a, long long b) { return a < b ? a : b; }
static __host__ __device__ __forceinline__ float min(float a, float b) { return a < b ? a : b; }
static __host__ __device__ __forceinline__ double min(double a, double b) { return a < b ? a : b; }
static __host__ __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
static __host__ __device__ __forceinline__ unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static __host__ __device__ __forceinline__ long long max(long long a, long long b) { return a > b ? a : b; }
static __host__ __device__ __forceinline__ float max(float a, float b) { return a > b ? a : b; }
static __host__ __device__ __forceinline__ double max(double a, double b) { return a > b ? a : b; }

// Absolute values: the C library's abs, labs and llabs, and the overloads
// CUDA adds for device code. __device__ only, so that they overload beside a
// host declaration from <stdlib.h> or <cmath> instead of clashing with it.
static __device__ __forceinline__ int abs(int a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ long abs(long a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ long long abs(long long a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ float abs(float a) { return __builtin_fabsf(a); }
static __device__ __forceinline__ double abs(double a) { return __builtin_fabs(a); }
static __device__ __forceinline__ long labs(long a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ long long llabs(long long a) { return a < 0 ? -a : a; }

// Bit casts.
static __device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ __forceinline__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
static __device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static __device__ __forceinline__ double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }

// Floating point: exact operations through PTX instructions, fast-math
// intrinsics through the approximate ones.
static __device__ __forceinline__ float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
static __device__ __forceinline__ double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
static __device__ __forceinline__ float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
static __device__ __forceinline__ float fabsf(float x) { return __nvvm_fabs_f(x); }
static __device__ __forceinline__ double fabs(double x) { return __nvvm_fabs_d(x); }
static __device__ __forceinline__ float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
static __device__ __forceinline__ float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
static __device__ __forceinline__ double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
static __device__ __forceinline__ double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
static __device__ __forceinline__ float floorf(float x) { return __nvvm_floor_f(x); }
static __device__ __forceinline__ float ceilf(float x) { return __nvvm_ceil_f(x); }
static __device__ __forceinline__ float truncf(float x) { return __nvvm_trunc_f(x); }
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
static __device__ __forceinline__ float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
static __device__ __forceinline__ float __fadd_rn(float a, float b) { return __nvvm_add_rn_f(a, b); }
static __device__ __forceinline__ float __fmul_rn(float a, float b) { return __nvvm_mul_rn_f(a, b); }
static __device__ __forceinline__ float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
static __device__ __forceinline__ float __saturatef(float x) { return __nvvm_saturate_f(x); }
static __device__ __forceinline__ float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
static __device__ __forceinline__ float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
static __device__ __forceinline__ float __sinf(float x) { return __nvvm_sin_approx_f(x); }
static __device__ __forceinline__ float __cosf(float x) { return __nvvm_cos_approx_f(x); }
static __device__ __forceinline__ float __powf(float a, float b) { return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a)); }
extern "C" {
__device__ float expf(float);
__device__ float logf(float);
__device__ float sinf(float);
__device__ float cosf(float);
__device__ float tanhf(float);
__device__ float powf(float, float);
__device__ double exp(double);
__device__ double log(double);
__device__ double sin(double);
__device__ double cos(double);
__device__ double pow(double, double);
__device__ int printf(const char *, ...);
__device__ void *malloc(size_t);
__device__ void free(void *);
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
__device__ void __assertfail(const char *, const char *, unsigned, const char *, size_t);
}

// The rest of the CUDA Math API (passes/testdata/math_api.txt lists it, and
// TestMathAPI checks that each is declared here and defined for the CPU
// backend): declared only, like expf above, so PTX that clang makes from a
// kernel that calls them needs nvcc's math library to run.
extern "C" {
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ double __dadd_rd(double, double);
__device__ double __dadd_rn(double, double);
__device__ double __dadd_ru(double, double);
__device__ double __dadd_rz(double, double);
__device__ double __ddiv_rd(double, double);
__device__ double __ddiv_rn(double, double);
__device__ double __ddiv_ru(double, double);
__device__ double __ddiv_rz(double, double);
__device__ double __dmul_rd(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __dmul_ru(double, double);
__device__ double __dmul_rz(double, double);
__device__ float __double2float_rd(double);
__device__ float __double2float_rn(double);
__device__ float __double2float_ru(double);
__device__ float __double2float_rz(double);
__device__ int __double2hiint(double);
__device__ int __double2int_rd(double);
__device__ int __double2int_rn(double);
__device__ int __double2int_ru(double);
__device__ int __double2int_rz(double);
__device__ long long __double2ll_rd(double);
__device__ long long __double2ll_rn(double);
__device__ long long __double2ll_ru(double);
__device__ long long __double2ll_rz(double);
__device__ int __double2loint(double);
__device__ unsigned int __double2uint_rd(double);
__device__ unsigned int __double2uint_rn(double);
__device__ unsigned int __double2uint_ru(double);
__device__ unsigned int __double2uint_rz(double);
__device__ unsigned long long __double2ull_rd(double);
__device__ unsigned long long __double2ull_rn(double);
__device__ unsigned long long __double2ull_ru(double);
__device__ unsigned long long __double2ull_rz(double);
__device__ double __drcp_rd(double);
__device__ double __drcp_rn(double);
__device__ double __drcp_ru(double);
__device__ double __drcp_rz(double);
__device__ double __dsqrt_rd(double);
__device__ double __dsqrt_rn(double);
__device__ double __dsqrt_ru(double);
__device__ double __dsqrt_rz(double);
__device__ double __dsub_rd(double, double);
__device__ double __dsub_rn(double, double);
__device__ double __dsub_ru(double, double);
__device__ double __dsub_rz(double, double);
__device__ float __exp10f(float);
__device__ float __fadd_rd(float, float);
__device__ float __fadd_ru(float, float);
__device__ float __fadd_rz(float, float);
__device__ float __fdiv_rd(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __fdiv_ru(float, float);
__device__ float __fdiv_rz(float, float);
__device__ int __ffsll(long long);
__device__ int __float2int_rd(float);
__device__ int __float2int_rn(float);
__device__ int __float2int_ru(float);
__device__ int __float2int_rz(float);
__device__ long long __float2ll_rd(float);
__device__ long long __float2ll_rn(float);
__device__ long long __float2ll_ru(float);
__device__ long long __float2ll_rz(float);
__device__ unsigned int __float2uint_rd(float);
__device__ unsigned int __float2uint_rn(float);
__device__ unsigned int __float2uint_ru(float);
__device__ unsigned int __float2uint_rz(float);
__device__ unsigned long long __float2ull_rd(float);
__device__ unsigned long long __float2ull_rn(float);
__device__ unsigned long long __float2ull_ru(float);
__device__ unsigned long long __float2ull_rz(float);
__device__ double __fma_rd(double, double, double);
__device__ double __fma_rn(double, double, double);
__device__ double __fma_ru(double, double, double);
__device__ double __fma_rz(double, double, double);
__device__ float __fmaf_rd(float, float, float);
__device__ float __fmaf_ru(float, float, float);
__device__ float __fmaf_rz(float, float, float);
__device__ float __fmul_rd(float, float);
__device__ float __fmul_ru(float, float);
__device__ float __fmul_rz(float, float);
__device__ unsigned int __fns(unsigned int, unsigned int, int);
__device__ float __frcp_rd(float);
__device__ float __frcp_rn(float);
__device__ float __frcp_ru(float);
__device__ float __frcp_rz(float);
__device__ float __frsqrt_rn(float);
__device__ float __fsqrt_rd(float);
__device__ float __fsqrt_rn(float);
__device__ float __fsqrt_ru(float);
__device__ float __fsqrt_rz(float);
__device__ float __fsub_rd(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fsub_ru(float, float);
__device__ float __fsub_rz(float, float);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_lc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_rc(unsigned int, unsigned int, unsigned int);
__device__ int __hadd(int, int);
__device__ double __hiloint2double(int, int);
__device__ double __int2double_rn(int);
__device__ float __int2float_rd(int);
__device__ float __int2float_rn(int);
__device__ float __int2float_ru(int);
__device__ float __int2float_rz(int);
__device__ double __ll2double_rd(long long);
__device__ double __ll2double_rn(long long);
__device__ double __ll2double_ru(long long);
__device__ double __ll2double_rz(long long);
__device__ float __ll2float_rd(long long);
__device__ float __ll2float_rn(long long);
__device__ float __ll2float_ru(long long);
__device__ float __ll2float_rz(long long);
__device__ float __log10f(float);
__device__ float __log2f(float);
__device__ long long __mul64hi(long long, long long);
__device__ int __rhadd(int, int);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ void __sincosf(float, float *, float *);
__device__ float __tanf(float);
__device__ unsigned int __uhadd(unsigned int, unsigned int);
__device__ double __uint2double_rn(unsigned int);
__device__ float __uint2float_rd(unsigned int);
__device__ float __uint2float_rn(unsigned int);
__device__ float __uint2float_ru(unsigned int);
__device__ float __uint2float_rz(unsigned int);
__device__ double __ull2double_rd(unsigned long long);
__device__ double __ull2double_rn(unsigned long long);
__device__ double __ull2double_ru(unsigned long long);
__device__ double __ull2double_rz(unsigned long long);
__device__ float __ull2float_rd(unsigned long long);
__device__ float __ull2float_rn(unsigned long long);
__device__ float __ull2float_ru(unsigned long long);
__device__ float __ull2float_rz(unsigned long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ unsigned int __urhadd(unsigned int, unsigned int);
__device__ unsigned int __usad(unsigned int, unsigned int, unsigned int);
__device__ double acos(double);
__device__ float acosf(float);
__device__ double acosh(double);
__device__ float acoshf(float);
__device__ double asin(double);
__device__ float asinf(float);
__device__ double asinh(double);
__device__ float asinhf(float);
__device__ double atan(double);
__device__ double atan2(double, double);
__device__ float atan2f(float, float);
__device__ float atanf(float);
__device__ double atanh(double);
__device__ float atanhf(float);
__device__ double cbrt(double);
__device__ float cbrtf(float);
__device__ double ceil(double);
__device__ double copysign(double, double);
__device__ float copysignf(float, float);
__device__ double cosh(double);
__device__ float coshf(float);
__device__ double cospi(double);
__device__ float cospif(float);
__device__ double cyl_bessel_i0(double);
__device__ float cyl_bessel_i0f(float);
__device__ double cyl_bessel_i1(double);
__device__ float cyl_bessel_i1f(float);
__device__ double erf(double);
__device__ double erfc(double);
__device__ float erfcf(float);
__device__ double erfcinv(double);
__device__ float erfcinvf(float);
__device__ double erfcx(double);
__device__ float erfcxf(float);
__device__ float erff(float);
__device__ double erfinv(double);
__device__ float erfinvf(float);
__device__ double exp10(double);
__device__ float exp10f(float);
__device__ double exp2(double);
__device__ float exp2f(float);
__device__ double expm1(double);
__device__ float expm1f(float);
__device__ double fdim(double, double);
__device__ float fdimf(float, float);
__device__ double fdivide(double, double);
__device__ float fdividef(float, float);
__device__ double floor(double);
__device__ double fmod(double, double);
__device__ float fmodf(float, float);
__device__ double frexp(double, int *);
__device__ float frexpf(float, int *);
__device__ double hypot(double, double);
__device__ float hypotf(float, float);
__device__ int ilogb(double);
__device__ int ilogbf(float);
__device__ double j0(double);
__device__ float j0f(float);
__device__ double j1(double);
__device__ float j1f(float);
__device__ double jn(int, double);
__device__ float jnf(int, float);
__device__ double ldexp(double, int);
__device__ float ldexpf(float, int);
__device__ double lgamma(double);
__device__ float lgammaf(float);
__device__ long long llmax(long long, long long);
__device__ long long llmin(long long, long long);
__device__ long long llrint(double);
__device__ long long llrintf(float);
__device__ long long llround(double);
__device__ long long llroundf(float);
__device__ double log10(double);
__device__ float log10f(float);
__device__ double log1p(double);
__device__ float log1pf(float);
__device__ double log2(double);
__device__ float log2f(float);
__device__ double logb(double);
__device__ float logbf(float);
__device__ long lrint(double);
__device__ long lrintf(float);
__device__ long lround(double);
__device__ long lroundf(float);
__device__ double modf(double, double *);
__device__ float modff(float, float *);
__device__ double nan(const char *);
__device__ float nanf(const char *);
__device__ double nearbyint(double);
__device__ float nearbyintf(float);
__device__ double nextafter(double, double);
__device__ float nextafterf(float, float);
__device__ double norm(int, const double *);
__device__ double norm3d(double, double, double);
__device__ float norm3df(float, float, float);
__device__ double norm4d(double, double, double, double);
__device__ float norm4df(float, float, float, float);
__device__ double normcdf(double);
__device__ float normcdff(float);
__device__ double normcdfinv(double);
__device__ float normcdfinvf(float);
__device__ float normf(int, const float *);
__device__ double rcbrt(double);
__device__ float rcbrtf(float);
__device__ double remainder(double, double);
__device__ float remainderf(float, float);
__device__ double remquo(double, double, int *);
__device__ float remquof(float, float, int *);
__device__ double rhypot(double, double);
__device__ float rhypotf(float, float);
__device__ double rint(double);
__device__ float rintf(float);
__device__ double rnorm(int, const double *);
__device__ double rnorm3d(double, double, double);
__device__ float rnorm3df(float, float, float);
__device__ double rnorm4d(double, double, double, double);
__device__ float rnorm4df(float, float, float, float);
__device__ float rnormf(int, const float *);
__device__ double round(double);
__device__ float roundf(float);
__device__ double rsqrt(double);
__device__ double scalbln(double, long);
__device__ float scalblnf(float, long);
__device__ double scalbn(double, int);
__device__ float scalbnf(float, int);
__device__ void sincos(double, double *, double *);
__device__ void sincosf(float, float *, float *);
__device__ void sincospi(double, double *, double *);
__device__ void sincospif(float, float *, float *);
__device__ double sinh(double);
__device__ float sinhf(float);
__device__ double sinpi(double);
__device__ float sinpif(float);
__device__ double tan(double);
__device__ float tanf(float);
__device__ double tanh(double);
__device__ double tgamma(double);
__device__ float tgammaf(float);
__device__ double trunc(double);
__device__ unsigned long long ullmax(unsigned long long, unsigned long long);
__device__ unsigned long long ullmin(unsigned long long, unsigned long long);
__device__ unsigned int umax(unsigned int, unsigned int);
__device__ unsigned int umin(unsigned int, unsigned int);
__device__ double y0(double);
__device__ float y0f(float);
__device__ double y1(double);
__device__ float y1f(float);
__device__ double yn(int, double);
__device__ float ynf(int, float);
}
__device__ int __dp2a_hi(int, int, int);
__device__ unsigned int __dp2a_hi(unsigned int, unsigned int, unsigned int);
__device__ int __dp2a_lo(int, int, int);
__device__ unsigned int __dp2a_lo(unsigned int, unsigned int, unsigned int);
__device__ int __dp4a(int, int, int);
__device__ unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__device__ bool isfinite(double);
__device__ bool isfinite(float);
__device__ bool isinf(double);
__device__ bool isinf(float);
__device__ bool isnan(double);
__device__ bool isnan(float);
__device__ bool signbit(double);
__device__ bool signbit(float);
// SIMD intrinsics (per halfword: 2, per byte: 4), declared only.
extern "C" {
__device__ unsigned int __vabs2(unsigned int);
__device__ unsigned int __vabs4(unsigned int);
__device__ unsigned int __vabsdiffs2(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffs4(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffu2(unsigned int, unsigned int);
__device__ unsigned int __vabsdiffu4(unsigned int, unsigned int);
__device__ unsigned int __vabsss2(unsigned int);
__device__ unsigned int __vabsss4(unsigned int);
__device__ unsigned int __vadd2(unsigned int, unsigned int);
__device__ unsigned int __vadd4(unsigned int, unsigned int);
__device__ unsigned int __vaddss2(unsigned int, unsigned int);
__device__ unsigned int __vaddss4(unsigned int, unsigned int);
__device__ unsigned int __vaddus2(unsigned int, unsigned int);
__device__ unsigned int __vaddus4(unsigned int, unsigned int);
__device__ unsigned int __vavgs2(unsigned int, unsigned int);
__device__ unsigned int __vavgs4(unsigned int, unsigned int);
__device__ unsigned int __vavgu2(unsigned int, unsigned int);
__device__ unsigned int __vavgu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpeq2(unsigned int, unsigned int);
__device__ unsigned int __vcmpeq4(unsigned int, unsigned int);
__device__ unsigned int __vcmpges2(unsigned int, unsigned int);
__device__ unsigned int __vcmpges4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgeu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgeu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgts2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgts4(unsigned int, unsigned int);
__device__ unsigned int __vcmpgtu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpgtu4(unsigned int, unsigned int);
__device__ unsigned int __vcmples2(unsigned int, unsigned int);
__device__ unsigned int __vcmples4(unsigned int, unsigned int);
__device__ unsigned int __vcmpleu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpleu4(unsigned int, unsigned int);
__device__ unsigned int __vcmplts2(unsigned int, unsigned int);
__device__ unsigned int __vcmplts4(unsigned int, unsigned int);
__device__ unsigned int __vcmpltu2(unsigned int, unsigned int);
__device__ unsigned int __vcmpltu4(unsigned int, unsigned int);
__device__ unsigned int __vcmpne2(unsigned int, unsigned int);
__device__ unsigned int __vcmpne4(unsigned int, unsigned int);
__device__ unsigned int __vhaddu2(unsigned int, unsigned int);
__device__ unsigned int __vhaddu4(unsigned int, unsigned int);
__device__ unsigned int __vmaxs2(unsigned int, unsigned int);
__device__ unsigned int __vmaxs4(unsigned int, unsigned int);
__device__ unsigned int __vmaxu2(unsigned int, unsigned int);
__device__ unsigned int __vmaxu4(unsigned int, unsigned int);
__device__ unsigned int __vmins2(unsigned int, unsigned int);
__device__ unsigned int __vmins4(unsigned int, unsigned int);
__device__ unsigned int __vminu2(unsigned int, unsigned int);
__device__ unsigned int __vminu4(unsigned int, unsigned int);
__device__ unsigned int __vneg2(unsigned int);
__device__ unsigned int __vneg4(unsigned int);
__device__ unsigned int __vnegss2(unsigned int);
__device__ unsigned int __vnegss4(unsigned int);
__device__ unsigned int __vsads2(unsigned int, unsigned int);
__device__ unsigned int __vsads4(unsigned int, unsigned int);
__device__ unsigned int __vsadu2(unsigned int, unsigned int);
__device__ unsigned int __vsadu4(unsigned int, unsigned int);
__device__ unsigned int __vseteq2(unsigned int, unsigned int);
__device__ unsigned int __vseteq4(unsigned int, unsigned int);
__device__ unsigned int __vsetges2(unsigned int, unsigned int);
__device__ unsigned int __vsetges4(unsigned int, unsigned int);
__device__ unsigned int __vsetgeu2(unsigned int, unsigned int);
__device__ unsigned int __vsetgeu4(unsigned int, unsigned int);
__device__ unsigned int __vsetgts2(unsigned int, unsigned int);
__device__ unsigned int __vsetgts4(unsigned int, unsigned int);
__device__ unsigned int __vsetgtu2(unsigned int, unsigned int);
__device__ unsigned int __vsetgtu4(unsigned int, unsigned int);
__device__ unsigned int __vsetles2(unsigned int, unsigned int);
__device__ unsigned int __vsetles4(unsigned int, unsigned int);
__device__ unsigned int __vsetleu2(unsigned int, unsigned int);
__device__ unsigned int __vsetleu4(unsigned int, unsigned int);
__device__ unsigned int __vsetlts2(unsigned int, unsigned int);
__device__ unsigned int __vsetlts4(unsigned int, unsigned int);
__device__ unsigned int __vsetltu2(unsigned int, unsigned int);
__device__ unsigned int __vsetltu4(unsigned int, unsigned int);
__device__ unsigned int __vsetne2(unsigned int, unsigned int);
__device__ unsigned int __vsetne4(unsigned int, unsigned int);
__device__ unsigned int __vsub2(unsigned int, unsigned int);
__device__ unsigned int __vsub4(unsigned int, unsigned int);
__device__ unsigned int __vsubss2(unsigned int, unsigned int);
__device__ unsigned int __vsubss4(unsigned int, unsigned int);
__device__ unsigned int __vsubus2(unsigned int, unsigned int);
__device__ unsigned int __vsubus4(unsigned int, unsigned int);
}
static __device__ __forceinline__ void __trap() { asm volatile("trap;"); }
static __device__ __forceinline__ unsigned int clock() { return __nvvm_read_ptx_sreg_clock(); }
static __device__ __forceinline__ long long clock64() { return __nvvm_read_ptx_sreg_clock64(); }

// Texture objects. A cudaTextureObject_t parameter is given to ldcheck run
// as a buffer (--arg tex=float[1024]:rand): on the CPU backend the handle
// names that buffer; reads through it are reads of a buffer nothing else
// in the launch writes, so they cannot race and are not checked. Declared
// only: PTX that clang makes from them needs nvcc's texture intrinsics.
typedef unsigned long long cudaTextureObject_t;
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int);
template <class T> __device__ T tex1D(cudaTextureObject_t, float);
template <class T> __device__ T tex2D(cudaTextureObject_t, float, float);
template <class T> __device__ void tex1Dfetch(T *, cudaTextureObject_t, int);
template <class T> __device__ void tex1D(T *, cudaTextureObject_t, float);
template <class T> __device__ void tex2D(T *, cudaTextureObject_t, float, float);

// Host side: enough of the runtime API for host code in the same file to
// parse. ldcheck never compiles or runs host code; it launches kernels itself.
typedef enum cudaError { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1 } cudaError_t;
typedef enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 } cudaMemcpyKind;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
extern "C" {
__host__ cudaError_t cudaMalloc(void **, size_t);
__host__ cudaError_t cudaMallocManaged(void **, size_t, unsigned = 1);
__host__ cudaError_t cudaMallocHost(void **, size_t);
__host__ cudaError_t cudaFree(void *);
__host__ cudaError_t cudaFreeHost(void *);
__host__ cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
__host__ cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t = 0);
__host__ cudaError_t cudaMemset(void *, int, size_t);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t);
__host__ const char *cudaGetErrorName(cudaError_t);
__host__ cudaError_t cudaSetDevice(int);
__host__ cudaError_t cudaGetDevice(int *);
__host__ cudaError_t cudaGetDeviceCount(int *);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *);
__host__ cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t);
__host__ cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t);
__host__ cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
}
// Texture objects on the host (parsed, never run).
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
typedef struct cudaArray *cudaArray_t;
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
struct cudaResourceViewDesc;
extern "C" {
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *, const struct cudaResourceDesc *, const struct cudaTextureDesc *, const struct cudaResourceViewDesc *);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t);
__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int, int, int, int, enum cudaChannelFormatKind);
}
template <class T> static __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc();
template <class T> static __host__ cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T> static __host__ cudaError_t cudaMallocManaged(T **p, size_t n, unsigned f = 1) { return cudaMallocManaged((void **)p, n, f); }
template <class T> static __host__ cudaError_t cudaMemcpyToSymbol(const T &, const void *, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyHostToDevice);
template <class T> static __host__ cudaError_t cudaMemcpyFromSymbol(void *, const T &, size_t, size_t = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost);
