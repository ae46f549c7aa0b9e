// expect: none
// launch: --kernel k --grid 2 --block 64 --arg in=half[128]:rand --arg pairs=half[256]:rand:3 --arg out=half[128]:zero --arg bout=bfloat16[128]:zero --arg hsum=half[2]:zero --arg bsum=bfloat16[2]:zero --arg psum=half[2]:zero --arg f=float[128]:zero
// Half precision as kernels use it (<cuda_fp16.h>, <cuda_bf16.h>):
// conversions, __half2 arithmetic, C++ operators, warp shuffles of __half
// and __half2, a shared __half tile, and atomicAdd on __half, __half2 and
// __nv_bfloat16. Race-free. Checks itself where the value is exactly known
// (rounding to nearest even, overflow, subnormals, a once-rounded fma); the
// atomics add values whose sums are exact in any order, so the outputs do
// not depend on the order threads run in.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <assert.h>

__device__ __half scale_add(__half a, __half s, __half b) { return __hfma(a, s, b); }

__global__ void k(const __half *in, __half2 *pairs, __half *out, __nv_bfloat16 *bout,
                  __half *hsum, __nv_bfloat16 *bsum, __half2 *psum, float *f) {
  __shared__ __half tile[64];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;

  // Conversions whose bits are known.
  assert(__half_as_ushort(__float2half(1.0f / 3)) == 0x3555);
  assert(__half_as_ushort(__float2half_rn(1.0f / 3)) == 0x3555);
  assert(__half_as_ushort(__float2half_rz(1.0f / 3)) == 0x3555);
  assert(__half_as_ushort(__float2half_ru(1.0f / 3)) == 0x3556);
  assert(__half_as_ushort(__float2half_rd(-1.0f / 3)) == 0xb556);
  assert(__half_as_ushort(__float2half(65520.0f)) == 0x7c00);   // rounds to +Inf
  assert(__half_as_ushort(__float2half(65519.0f)) == 0x7bff);   // 65504
  assert(__half_as_ushort(__float2half_rz(1e6f)) == 0x7bff);    // toward zero: no Inf
  assert(__half_as_ushort(__float2half(5.96e-8f)) == 0x0001);   // the smallest subnormal
  assert(__half_as_ushort(__float2half(2.98023224e-8f)) == 0);  // 2^-25, a tie: to even, zero
  assert(__half_as_ushort(__float2half(1.00048828125f)) == 0x3c00); // 1+2^-11, a tie: down to even
  assert(__half_as_ushort(__float2half(1.00146484375f)) == 0x3c02); // 1+3*2^-11, a tie: up to even
  assert(__half2float(__ushort_as_half(0x0001)) == 5.9604644775390625e-8f);
  assert(__half2float(__ushort_as_half(0x7bff)) == 65504.0f);
  assert(__hisinf(__float2half(-1e9f)) == -1 && __hisnan(__float2half(__int_as_float(0x7fc00000))));
  assert(__bfloat16_as_ushort(__float2bfloat16(1.0f / 3)) == 0x3eab);
  assert(__bfloat16_as_ushort(__float2bfloat16_rz(1.0f / 3)) == 0x3eaa);
  assert(__bfloat16_as_ushort(__float2bfloat16(3.0e38f)) == 0x7f62);
  assert(__half2int_rn(__float2half(2.5f)) == 2 && __half2int_rz(__float2half(-2.75f)) == -2);
  assert(__half_as_ushort(__int2half_rn(2049)) == 0x6800 && __half_as_ushort(__int2half_ru(2049)) == 0x6801);

  // fma rounds once: (1+2^-10)^2 - (1+2^-10) is 2^-10 + 2^-20, a half;
  // a multiply and an add round twice and lose the 2^-20. The _rn forms
  // keep the two roundings: the GPU's compiler may contract a plain
  // __hadd(__hmul(...)) into an fma (it does on the H100).
  __half a = __ushort_as_half(0x3c01);
  assert(__half2float(__hfma(a, a, __hneg(a))) == 0x1p-10f + 0x1p-20f);
  assert(__half2float(__hadd_rn(__hmul_rn(a, a), __hneg(a))) == 0x1p-10f);
  assert(__half2float(scale_add(a, a, -a)) == 0x1p-10f + 0x1p-20f);
  // bfloat16: 7*37 = 259 is halfway between 258 and 260; -2^-50 puts the
  // exact result below the tie (a sum that is inexact in double).
  assert(__bfloat16_as_ushort(__hfma(__float2bfloat16(7.0f), __float2bfloat16(37.0f), __float2bfloat16(-0x1p-50f))) == 0x4381);

  // Operators, comparisons, math.
  __half two = 2.0f, x = in[g];
  float xf = __half2float(x);
  assert(__half_as_ushort(__float2half(xf)) == __half_as_ushort(x)); // exact both ways
  __half y = x * two + two;                 // x*2 is exact
  y -= two;
  assert(y == x + x && __heq(y, __hmul(x, two)));
  assert(hsqrt(__float2half(2.25f)) == __float2half(1.5f));
  assert(__hmax(two, x) == two && __hmin(two, x) == x && two > x && __hlt(x, two) && !(x >= two));
  __half inc = x;
  inc += __float2half(1.0f);
  assert(inc > x || __hisinf(x));

  // __half2 arithmetic: p*(2, 0.5) + (1, 1), all in one rounding each.
  __half2 p = pairs[g];
  __half2 q = __hfma2(p, __floats2half2_rn(2.0f, 0.5f), __float2half2_rn(1.0f));
  __half2 r = p * __floats2half2_rn(2.0f, 0.5f) + __float2half2_rn(1.0f); // the products are exact
  assert(q == r && __hbeq2(q, r));
  assert(__low2float(q) == __half2float(__hadd(__hmul(__low2half(p), two), __float2half(1.0f))));
  float2 qf = __half22float2(q);
  assert(qf.y == __high2float(q));
  pairs[g] = __lowhigh2highlow(q);

  // Warp shuffles of __half and __half2: sums of small integers, exact in
  // any order.
  __half v = __int2half_rn(t & 31);
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  assert(__half2float(v) == 496.0f);
  __half2 w = __shfl_sync(0xffffffff, __floats2half2_rn((float)t, -(float)t), 0);
  assert(__low2float(w) == (float)(t & ~31) && __high2float(w) == -(float)(t & ~31));
  __half d = __shfl_down_sync(0xffffffff, __int2half_rn(t), 1);
  __half u = __shfl_up_sync(0xffffffff, __int2half_rn(t), 1);
  assert(__half2int_rn(d) == ((t & 31) == 31 ? t : t + 1) && __half2int_rn(u) == ((t & 31) == 0 ? t : t - 1));

  // A shared tile: each thread writes its own element, reads its
  // neighbour's after the barrier.
  tile[t] = x * x;
  __syncthreads();
  __half nb = tile[(t + 1) % 64];
  out[g] = nb - tile[t];

  // bfloat16 arithmetic and conversions.
  __nv_bfloat16 bx = __float2bfloat16(xf);
  __nv_bfloat16 by = bx * __float2bfloat16(2.0f) + __float2bfloat16(0.5f);
  __nv_bfloat16 bz = __hfma(bx, __float2bfloat16(2.0f), __float2bfloat16(0.5f));
  assert(__bfloat16_as_ushort(by) == __bfloat16_as_ushort(bz)); // bx*2 is exact
  bout[g] = bz;

  // Atomics: sums of ones, exact in any order.
  atomicAdd(hsum, __float2half(1.0f));
  atomicAdd(&bsum[1], __float2bfloat16(1.0f));
  atomicAdd(psum, __floats2half2_rn(1.0f, 0.5f));
  f[g] = __half2float(out[g]) + __bfloat162float(bout[g]) + __low2float(pairs[g]);
}
