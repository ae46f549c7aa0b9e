// Kernels for the CPU backend's tests. The ldc_entry_* functions are what the
// instrumenter generates; here they are written by hand.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdint.h>

#define ENTRY1(k, T0) \
  extern "C" void ldc_entry_##k(void **a) { k(*(T0 *)a[0]); }
#define ENTRY2(k, T0, T1) \
  extern "C" void ldc_entry_##k(void **a) { k(*(T0 *)a[0], *(T1 *)a[1]); }
#define ENTRY3(k, T0, T1, T2) \
  extern "C" void ldc_entry_##k(void **a) { k(*(T0 *)a[0], *(T1 *)a[1], *(T2 *)a[2]); }
#define ENTRY4(k, T0, T1, T2, T3)                                  \
  extern "C" void ldc_entry_##k(void **a) {                        \
    k(*(T0 *)a[0], *(T1 *)a[1], *(T2 *)a[2], *(T3 *)a[3]);         \
  }

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
ENTRY4(vadd, const float *, const float *, float *, int)

// Tree reduction in shared memory, a barrier inside the loop.
__global__ void reduce_sum(const int *in, int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
ENTRY2(reduce_sum, const int *, int *)

// Per thread: threadIdx, blockIdx, blockDim, gridDim, the linear id of lane 0
// of its warp (read with a shuffle) and its lane.
__global__ void layout(unsigned *out) {
  unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  unsigned tid = threadIdx.x + threadIdx.y * blockDim.x +
                 threadIdx.z * blockDim.x * blockDim.y;
  unsigned bid = blockIdx.x + blockIdx.y * gridDim.x +
                 blockIdx.z * gridDim.x * gridDim.y;
  unsigned *o = out + (bid * nthreads + tid) * 14;
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockIdx.x;  o[4] = blockIdx.y;  o[5] = blockIdx.z;
  o[6] = blockDim.x;  o[7] = blockDim.y;  o[8] = blockDim.z;
  o[9] = gridDim.x;   o[10] = gridDim.y;  o[11] = gridDim.z;
  o[12] = __shfl_sync(0xffffffff, tid, 0);
  o[13] = tid % warpSize;
}
ENTRY1(layout, unsigned *)

// Reverses each block's slice through dynamic shared memory.
__global__ void dyn_reverse(const int *in, int *out, unsigned *aligned) {
  LDC_DYNAMIC_SHARED(int, buf); // was: extern __shared__ int buf[];
  unsigned t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  buf[t] = in[base + t];
  __syncthreads();
  out[base + t] = buf[n - 1 - t];
  if (t == 0)
    aligned[blockIdx.x] = ((uintptr_t)buf % 16 == 0);
}
ENTRY3(dyn_reverse, const int *, int *, unsigned *)

// Dynamic shared memory declared at namespace scope, sized by the launch.
LDC_DYNAMIC_SHARED(double, gdyn);
__global__ void dyn_global(double *out) {
  unsigned t = threadIdx.x, n = blockDim.x;
  gdyn[t] = 0.5 * t + blockIdx.x;
  __syncthreads();
  out[blockIdx.x * n + t] = gdyn[(t + 1) % n];
}
ENTRY1(dyn_global, double *)

// Warp sums with __shfl_down_sync, and a __ballot_sync of (v % 3 == 0).
__global__ void warp_sum(const int *in, int *sums, unsigned *ballots) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned b = __ballot_sync(0xffffffff, v % 3 == 0);
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffff, v, off);
  if (i % 32 == 0) {
    sums[i / 32] = v;
    ballots[i / 32] = b;
  }
}
ENTRY3(warp_sum, const int *, int *, unsigned *)

// One row of results per lane, from the other warp intrinsics.
__global__ void warp_variants(long long *out) {
  unsigned lane = threadIdx.x % 32;
  long long *o = out + threadIdx.x * 12;
  o[0] = __shfl_sync(0xffffffff, (int)lane * 10, 3);
  o[1] = __shfl_up_sync(0xffffffff, (int)lane, 2);
  o[2] = __shfl_down_sync(0xffffffff, (int)lane, 2, 8);
  o[3] = __shfl_xor_sync(0xffffffff, (int)lane, 1);
  o[4] = (long long)__shfl_xor_sync(0xffffffff, 1.5 * lane, 16);
  o[5] = (long long)__shfl_sync(0xffffffff, (float)lane, 31 - (int)lane);
  o[6] = __shfl_sync(0xffffffff, (unsigned long long)lane << 40, 7) >> 40;
  o[7] = __any_sync(0xffffffff, lane == 17);
  o[8] = __all_sync(0xffffffff, lane < 31);
  o[9] = __match_any_sync(0xffffffff, lane / 8);
  o[10] = __reduce_add_sync(0xffffffff, lane);
  // Only the even lanes take part: a partial mask.
  if (lane % 2 == 0)
    o[11] = __shfl_down_sync(0x55555555, (int)lane, 2);
  else
    o[11] = -1;
  __syncwarp();
}
ENTRY1(warp_variants, long long *)

// __activemask among lanes that diverged from others waiting at a barrier.
__global__ void active_mask(unsigned *out) {
  unsigned lane = threadIdx.x % 32;
  out[threadIdx.x] = 0;
  if (lane < 10)
    out[threadIdx.x] = __activemask();
  __syncthreads();
}
ENTRY1(active_mask, unsigned *)

__global__ void atomic_count(int *ci, float *cf, unsigned long long *cu,
                             unsigned *maxid) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(ci, 1);
  atomicAdd(cf, 1.0f);
  atomicAdd_block(cu, 2ull);
  atomicMax(maxid, id);
}
ENTRY4(atomic_count, int *, float *, unsigned long long *, unsigned *)

__global__ void atomic_misc(int *v) {
  // One thread per operation keeps the expected values simple.
  switch (threadIdx.x) {
  case 0: atomicSub(&v[0], 5); break;
  case 1: atomicExch(&v[1], 42); break;
  case 2: atomicMin(&v[2], -7); break;
  case 3: atomicCAS(&v[3], 3, 33); break;
  case 4: atomicCAS(&v[4], 0, 44); break; // does not match
  case 5: atomicAnd(&v[5], 0x0f); break;
  case 6: atomicOr(&v[6], 0x100); break;
  case 7: atomicXor(&v[7], 0xff); break;
  case 8: atomicInc((unsigned *)&v[8], 9u); break;  // 9 >= 9: wraps to 0
  case 9: atomicDec((unsigned *)&v[9], 20u); break; // 0: becomes 20
  }
}
ENTRY1(atomic_misc, int *)

// Half the threads return early; the rest still pass two barriers.
__global__ void early_exit(int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x, half = blockDim.x / 2;
  if (t >= half)
    return;
  s[t] = (int)t * 3;
  __syncthreads();
  int v = s[(t + 1) % half];
  __syncthreads();
  s[t] = v;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[t];
}
ENTRY1(early_exit, int *)

__global__ void sync_count(const int *pred, int *out) {
  unsigned t = threadIdx.x;
  int p = pred[t];
  out[t * 3 + 0] = __syncthreads_count(p);
  out[t * 3 + 1] = __syncthreads_and(p);
  out[t * 3 + 2] = __syncthreads_or(p);
}
ENTRY2(sync_count, const int *, int *)

// 2 * iters barriers; each round rotates the block's values by one place.
__global__ void barrier_loop(int *out, int iters) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x, n = blockDim.x;
  s[t] = (int)t;
  for (int i = 0; i < iters; i++) {
    __syncthreads();
    int v = s[(t + 1) % n];
    __syncthreads();
    s[t] = v;
  }
  out[t] = s[t];
}
ENTRY2(barrier_loop, int *, int)

// Thread 0 spins until the host sets *flag while the others wait at the
// barrier: a launch that makes no progress, for as long as the host likes.
__global__ void wait_for_host(volatile int *flag, int *out) {
  if (threadIdx.x == 0)
    while (*flag == 0)
      __nanosleep(1000);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = *flag;
}
ENTRY2(wait_for_host, volatile int *, int *)

__device__ int dev_counter;
__device__ int dev_scale = 3;
__device__ float dev_table[8];
__global__ void device_vars() {
  atomicAdd(&dev_counter, 1);
  if (threadIdx.x < 8)
    dev_table[threadIdx.x] = threadIdx.x * 0.5f * dev_scale;
}
extern "C" void ldc_entry_device_vars(void **) { device_vars(); }

// Lane 5 returns; the others wait in a shuffle that needs it: a deadlock.
__global__ void deadlock_shfl(int *out) {
  if (threadIdx.x == 5)
    return;
  out[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 1);
}
ENTRY1(deadlock_shfl, int *)

// Warp 1's low half waits in a shuffle for its high half, which waits at the
// block barrier for the low half: a deadlock across both kinds of wait.
__global__ void deadlock_mixed(int *out) {
  if (threadIdx.x < 32) {
    __syncwarp();
    return;
  }
  if (threadIdx.x < 48)
    out[threadIdx.x] = __shfl_sync(0xffffffff, 1, 0);
  __syncthreads();
}
ENTRY1(deadlock_mixed, int *)

__global__ void failing_assert(const int *in) {
  assert(in[threadIdx.x] < 10);
}
ENTRY1(failing_assert, const int *)

// Integer and float intrinsics, min/max overloads, vector types.
__global__ void intrinsics(long long *o, float *f) {
  o[0] = __popc(0xf0f0u);
  o[1] = __popcll(0xffffffffffull);
  o[2] = __clz(1);
  o[3] = __clz(0);
  o[4] = __clzll(1ll << 40);
  o[5] = __ffs(0x50);
  o[6] = __ffsll(1ll << 40);
  o[7] = __brev(1u);
  o[8] = __mulhi(0x40000000, 8);
  o[9] = __umulhi(0xffffffffu, 0xffffffffu);
  o[10] = __mul24(-3, 5);
  o[11] = __umul24(0x1000002u, 3u);
  o[12] = __float_as_int(1.0f);
  o[13] = __double_as_longlong(2.0);
  o[14] = min(-1, 2u);  // mixed: unsigned, as in CUDA
  o[15] = max(3ll, -4ll);
  o[16] = alignof(float4) * 100 + alignof(int2) * 10 + sizeof(float3);
  o[17] = alignof(double2) * 100 + alignof(longlong2) * 10 + alignof(uchar4);
  dim3 d(4, 2);
  uint3 u = d;
  o[18] = u.x * 100 + u.y * 10 + u.z;
  o[19] = clock64() > 0;
  f[0] = __saturatef(1.5f);
  f[1] = __saturatef(-2.0f);
  f[2] = rsqrtf(4.0f);
  f[3] = __fdividef(1.0f, 4.0f);
  f[4] = __int_as_float(__float_as_int(2.5f));
  f[5] = __fmaf_rn(2.0f, 3.0f, 1.0f);
  f[6] = min(2.0f, 1.5f);
  f[7] = __expf(0.0f) + __logf(1.0f) + __sinf(0.0f) + __cosf(0.0f) + __powf(2.0f, 3.0f);
  float4 v = make_float4(1, 2, 3, 4);
  f[8] = v.x + v.y + v.z + v.w;
  f[9] = sqrtf(16.0f) + fabsf(-1.0f) + expf(0.0f);
}
ENTRY2(intrinsics, long long *, float *)

// Each warp shifts its slice of s up by one in a single statement. In
// lockstep (a GPU, or the CPU backend with steps) every lane loads before any
// lane stores, so lane k ends with the value lane k-1 started with; lanes run
// one after another would copy lane 0's value all the way up.
__global__ void warp_shift(int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = (int)t;
  __syncthreads();
  if (t % 32 != 31)
    s[t + 1] = s[t];
  __syncthreads();
  out[t] = s[t];
}
ENTRY1(warp_shift, int *)

// Writes one element past the end of a buffer of n elements.
__global__ void write_past_end(int *out, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 1)
    out[n] = 1;
}
ENTRY2(write_past_end, int *, int)

// Recursion deep enough to overflow any fiber stack.
__device__ int deep(int n) {
  volatile char pad[1024];
  pad[0] = (char)n;
  return n == 0 ? pad[0] : deep(n - 1) + pad[0];
}
__global__ void overflow_stack(int *out) { out[threadIdx.x] = deep(1 << 20); }
ENTRY1(overflow_stack, int *)
