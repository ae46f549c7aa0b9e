// ldcheck_rt.h: the device side of ldcheck, compiled into the same module
// as the instrumented kernel, so the CUDA and CPU backends run one
// implementation. The instrumenter (privatize) emits calls to what is
// defined here; the host (gpuruntime) fills ldc_g before each launch.
//
// Modes (ldc_g.mode):
//   LDC_MODE_PLAIN   the kernel as written: barriers are barriers, no copies.
//   LDC_MODE_BLOCK   level 1: unit = block, region = the whole kernel; global
//                    targets are redirected to the block's private copy; the
//                    host runs the two passes and the fused checks.
//   LDC_MODE_REPLAY  level 2: unit = warp, regions between barriers; shared
//                    targets get a copy per warp; each region runs twice and
//                    the block checks it at the barrier that ends it.
#pragma once
#if defined(LDC_CPU)
// ldcheck_cpu.h is force-included by the CPU backend's compile.
#elif defined(__NVCC__)
#include <cuda_runtime.h>
#elif !defined(__LDCHECK_PRELUDE__)
#error "ldcheck_rt.h: compile with nvcc, with the CPU backend, or with clang -include ldcheck_prelude.h"
#endif

// Functions here never take lockstep steps on the CPU backend (see
// LDC_STEPS in ldcheck_cpu.h); elsewhere the mark means nothing.
#ifndef LDC_ENGINE
#define LDC_ENGINE
#endif

#ifndef LDC_CPU
#define LDC_DYNAMIC_SHARED(T, name) extern __shared__ T name[]
#define LDC_INLINE_ASM(...) __VA_ARGS__
#else
#define LDC_INLINE_ASM(...) __trap() /* inline PTX cannot run on the CPU backend */
#endif

#define LDC_MODE_PLAIN 0
#define LDC_MODE_BLOCK 1
#define LDC_MODE_REPLAY 2

#define LDC_MAX_ALLOCS 16
#define LDC_MAX_SHARED 16
#define LDC_ATOMIC_SLOTS 16

// Race record kinds and spaces (shared with gpuruntime's Go side).
#define LDC_RACE_WW 1
#define LDC_RACE_RW 2
#define LDC_SPACE_SHARED 1
#define LDC_SPACE_GLOBAL 2
#define LDC_SPACE_LOCAL 3

struct ldc_alloc {
  unsigned long long base, size; // the original allocation
  unsigned long long copies;     // private copy u is at copies + u * size
};

struct ldc_record {
  int kind, space, target;         // target: shared table slot, allocation, or -1 for locals
  int from, to;                    // region: barrier IDs, -1 entry/exit
  int unit_a, unit_b;              // warps (level 2) or blocks (level 1)
  int block;                       // linear block index
  int thread;                      // linear thread index in the block (locals), else -1
  long long offset;                // byte offset in the target
  unsigned int values;             // original, unit a's, unit b's byte (8 bits each)
};

// A byte range of a global target that a block owns (wrote in level 1).
struct ldc_range {
  int alloc, pad;
  unsigned long long start, len;
};

struct ldc_trace {
  int block, thread, pass, from, to, differ;
};

struct ldc_ctx {
  int mode;
  int pass; // level 1: which host-driven pass this launch is
  int nallocs;
  struct ldc_alloc allocs[LDC_MAX_ALLOCS];
  // Level 2: copies of shared target i for warp w of block b live at
  // shared_scratch + b * shared_per_block + shared_off[i] + w * shared_bytes[i].
  unsigned long long shared_scratch, shared_per_block;
  unsigned long long shared_off[LDC_MAX_SHARED], shared_bytes[LDC_MAX_SHARED];
  int nshared;
  // Atomics run once: atomic_mode 1 runs and logs each thread's results,
  // 2 replays them from the log (one row of LDC_ATOMIC_SLOTS per thread).
  int atomic_mode;
  unsigned long long *atomic_log;
  int *atomic_overflow;
  struct ldc_record *records;
  int *nrecords;
  int max_records;
  struct ldc_trace *trace; // optional: one entry per region end per thread
  int *ntrace;
  int max_trace;
  // Level 2: the global bytes block b owns are ranges[index[b] .. index[b+1]).
  unsigned long long *footprint_index;
  struct ldc_range *footprint;
  // The warps' shared copies live in dynamic shared memory, dyn_offset
  // bytes after the kernel's own, when they fit the per-block limit
  // (shared_in_dyn); else in shared_scratch in global memory.
  int shared_in_dyn, pad2;
  unsigned long long dyn_offset;
};

#ifdef LDC_CPU
extern "C" {
struct ldc_ctx ldc_g;
// The host checks these against its own view of the layouts.
unsigned long ldc_ctx_size(void) { return sizeof(struct ldc_ctx); }
unsigned long ldc_record_size(void) { return sizeof(struct ldc_record); }
}
#else
extern "C" __device__ struct ldc_ctx ldc_g;
__device__ struct ldc_ctx ldc_g;
#endif

// Per-thread state of the instrumented kernel.
struct ldc_thread {
  int mode, pass;
  int start, end1; // the region's start barrier; where pass 1 ended
  int differ;      // pass 2 ended with other locals, or elsewhere, than pass 1
  int done;        // returned from the kernel and checked
  int natomic, atomic_start;
};

// ldc_check's pass value for level 1: merge the warps' shared copies at a
// barrier (no replay, no check), so that a block's result does not depend
// on how its warps were scheduled; level 1's two passes then differ only
// through other blocks.
#define LDC_MERGE 3

struct ldc_block_state {
  void *shared_orig[LDC_MAX_SHARED];
  int pass, from, to;
};

static __device__ LDC_ENGINE __forceinline__ unsigned ldc_block_linear() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_thread_linear() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_warps() { return (ldc_block_threads() + 31) / 32; }

static __device__ LDC_ENGINE __forceinline__ void ldc_copy_bytes(void *dst, const void *src, unsigned long n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  for (unsigned long i = 0; i < n; i++) d[i] = s[i];
}
static __device__ LDC_ENGINE __forceinline__ int ldc_bytes_differ(const void *a, const void *b, unsigned long n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (unsigned long i = 0; i < n; i++)
    if (x[i] != y[i]) return 1;
  return 0;
}
#define LDC_PUT(q, x) (ldc_copy_bytes((q), &(x), sizeof(x)), (q) += sizeof(x))
#define LDC_GET(q, x) (ldc_copy_bytes(&(x), (q), sizeof(x)), (q) += sizeof(x))
#define LDC_CMP(q, d, x) ((d) |= ldc_bytes_differ((q), &(x), sizeof(x)), (q) += sizeof(x))

// The checker's own barriers. A finished thread waits for the others in
// ldc_idle while lanes of its warp may still be at a barrier in the user's
// code: __syncthreads() is PTX bar.sync, which is .aligned (every lane of a
// warp at the same instruction, together), so it could hang. The
// non-aligned barrier instructions (sm_70 and later) allow the divergence.
#if defined(LDC_CPU)
static __device__ LDC_ENGINE __forceinline__ void ldc_bar() { __syncthreads(); }
static __device__ LDC_ENGINE __forceinline__ int ldc_bar_and(int p) { return __syncthreads_and(p); }
#else
static __device__ LDC_ENGINE __forceinline__ void ldc_bar() { asm volatile("barrier.sync 0;" ::: "memory"); }
static __device__ LDC_ENGINE __forceinline__ int ldc_bar_and(int p) {
  int out;
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\tbarrier.red.and.pred q, 0, p;\n\tselp.s32 %0, 1, 0, q;\n\t}" : "=r"(out) : "r"(p) : "memory");
  return out;
}
#endif

static __device__ LDC_ENGINE __forceinline__ struct ldc_block_state *ldc_block() {
  __shared__ struct ldc_block_state bs;
  return &bs;
}

// ldc_record_race appends a race record. This is the only atomic in the
// checks, and it runs only when a race is found.
static __device__ LDC_ENGINE void ldc_record_race(struct ldc_record r) {
  if (!ldc_g.records) return;
  int k = atomicAdd(ldc_g.nrecords, 1);
  if (k < ldc_g.max_records) ldc_g.records[k] = r;
}

static __device__ LDC_ENGINE void ldc_begin(struct ldc_thread *t) {
  t->mode = ldc_g.mode;
  t->pass = 1;
  t->start = -1;
  t->end1 = -1;
  t->differ = 0;
  t->done = 0;
  t->natomic = 0;
  t->atomic_start = 0;
}

// ldc_redirect maps a pointer into a target allocation to the current
// unit's private copy of it: in level 1 the block's copy; in level 2 the
// copy of the thread's warp index, shared by all blocks (each block only
// writes the bytes it owns, so blocks do not meet in it).
static __device__ LDC_ENGINE void *ldc_redirect(void *p) {
  unsigned long long unit;
  if (ldc_g.mode == LDC_MODE_BLOCK) unit = ldc_block_linear();
  else if (ldc_g.mode == LDC_MODE_REPLAY) unit = ldc_thread_linear() / 32;
  else return p;
  unsigned long long a = (unsigned long long)p;
  for (int i = 0; i < ldc_g.nallocs; i++) {
    const struct ldc_alloc *al = &ldc_g.allocs[i];
    if (a >= al->base && a < al->base + al->size)
      return (void *)(al->copies + unit * al->size + (a - al->base));
  }
  return p;
}

// LDC_GLOBAL_VAR(x) is the current unit's copy of module-scope variable x.
#define LDC_GLOBAL_VAR(x) ((decltype(&(x)))ldc_redirect((void *)&(x)))

// ldc_shared_copies returns where warp 0's copy of shared target i starts
// for the calling block (the others follow, shared_bytes[i] apart).
static __device__ LDC_ENGINE __forceinline__ unsigned char *ldc_shared_copies(int i) {
  if (ldc_g.shared_in_dyn) {
    LDC_DYNAMIC_SHARED(unsigned char, ldc_dyn_shared);
    return (unsigned char *)ldc_dyn_shared + ldc_g.dyn_offset + ldc_g.shared_off[i];
  }
  return (unsigned char *)(ldc_g.shared_scratch + (unsigned long long)ldc_block_linear() * ldc_g.shared_per_block + ldc_g.shared_off[i]);
}

// ldc_shared_copy returns the calling warp's copy of shared target i (the
// original in other modes) and initialises every warp's copy from the
// original. Every thread of the block calls it at the same place.
static __device__ LDC_ENGINE void *ldc_shared_copy(struct ldc_thread *t, int i, void *orig, unsigned long bytes) {
  if (t->mode == LDC_MODE_PLAIN) return orig;
  // Checked runs compare runs of the same code: shared memory must start
  // the same each time, whatever the previous block left there (a read of
  // it before any write is undefined in CUDA anyway).
  if (bytes == 0) bytes = ldc_g.shared_bytes[i];
  unsigned tid = ldc_thread_linear(), n = ldc_block_threads(), w = ldc_warps();
  ldc_bar();
  for (unsigned long j = tid; j < bytes; j += n) ((unsigned char *)orig)[j] = 0;
  unsigned char *base = ldc_shared_copies(i);
  if (tid == 0) ldc_block()->shared_orig[i] = orig;
  for (unsigned long j = tid; j < bytes * w; j += n) base[j] = 0;
  ldc_bar();
  return base + (tid / 32) * bytes;
}

// ldc_check_byte checks one byte of a target at the end of a region: s is
// the original (which holds U after pass 1), c the byte in warp 0's copy,
// the copies stride bytes apart.
static __device__ LDC_ENGINE __forceinline__ void ldc_check_byte(int p, int space, int target, unsigned char *s, unsigned char *c, unsigned long long stride,
                                                      unsigned W, long long offset, const struct ldc_block_state *bs, int block) {
  unsigned char orig = *s;
  if (p == 1) {
    unsigned char u = orig;
    int writer = -1, raced = 0;
    for (unsigned w = 0; w < W; w++) {
      unsigned char v = c[w * stride];
      if (v != orig) {
        if (writer >= 0) {
          struct ldc_record r = {LDC_RACE_WW, space, target, bs->from, bs->to, writer, (int)w, block, -1, offset,
                                 (unsigned)orig | ((unsigned)u << 8) | ((unsigned)v << 16)};
          ldc_record_race(r);
          raced = 1;
        }
        writer = (int)w;
        u = v;
      }
    }
    // U with each warp's own change reverted (every writer's, after a race).
    for (unsigned w = 0; w < W; w++) c[w * stride] = (raced ? c[w * stride] != orig : (int)w == writer) ? orig : u;
    *s = u;
  } else if (p == 2) {
    for (unsigned w = 0; w < W; w++) {
      unsigned char v = c[w * stride];
      if (v != orig) {
        struct ldc_record r = {LDC_RACE_RW, space, target, bs->from, bs->to, (int)w, -1, block, -1, offset, (unsigned)orig | ((unsigned)v << 8)};
        ldc_record_race(r);
        c[w * stride] = orig;
      }
    }
  } else if (p == LDC_MERGE) {
    // Deterministic merge: the warps' changes in increasing warp order.
    unsigned char u = orig;
    for (unsigned w = 0; w < W; w++) {
      unsigned char v = c[w * stride];
      if (v != orig) u = v;
    }
    for (unsigned w = 0; w < W; w++) c[w * stride] = u;
    *s = u;
  }
}

// ldc_check is the block-cooperative check at the end of a region: every
// thread of the block calls it, those that reached the barrier (or the
// exit) with pass 1 or 2 and those already done with pass 0. It returns 1
// when every thread of the block is done.
//
// Pass 1, for every byte j of every shared target (U kept in the original
// S): a warp wrote j if its copy differs from S; two writers are a
// write-write race; S becomes the last writer's value; each warp's copy
// becomes the pass-2 state (U, with its own change reverted).
// Pass 2: a warp whose copy differs from U read something another warp
// wrote: a read-write race. Every copy is reset to U for the next region.
static __device__ LDC_ENGINE int ldc_check(struct ldc_thread *t, int pass, int id) {
  struct ldc_block_state *bs = ldc_block();
  if (pass) {
    bs->pass = pass;
    bs->from = t->start;
    bs->to = id;
  }
  if (ldc_bar_and(t->done)) return 1;
  int p = bs->pass;
  unsigned tid = ldc_thread_linear(), n = ldc_block_threads(), W = ldc_warps();
  int block = (int)ldc_block_linear();
  for (int i = 0; i < ldc_g.nshared; i++) {
    unsigned long bytes = ldc_g.shared_bytes[i];
    unsigned char *s = (unsigned char *)bs->shared_orig[i];
    unsigned char *c = ldc_shared_copies(i);
    if (!s) continue;
    for (unsigned long j = tid; j < bytes; j += n) ldc_check_byte(p, LDC_SPACE_SHARED, i, s + j, c + j, bytes, W, (long long)j, bs, block);
  }
  if (ldc_g.footprint && p != LDC_MERGE) {
    for (unsigned long long r = ldc_g.footprint_index[block]; r < ldc_g.footprint_index[block + 1]; r++) {
      const struct ldc_range *rg = &ldc_g.footprint[r];
      const struct ldc_alloc *al = &ldc_g.allocs[rg->alloc];
      unsigned char *s = (unsigned char *)al->base + rg->start;
      unsigned char *c = (unsigned char *)al->copies + rg->start;
      for (unsigned long long j = tid; j < rg->len; j += n)
        ldc_check_byte(p, LDC_SPACE_GLOBAL, rg->alloc, s + j, c + j, al->size, W, (long long)(rg->start + j), bs, block);
    }
  }
  if (p == LDC_MERGE) {
    ldc_bar();
    return 0;
  }
  if (p == 2 && pass == 2 && t->differ) {
    struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_LOCAL, -1, t->start, id, (int)(tid / 32), -1, block, (int)tid, 0, 0};
    ldc_record_race(r);
  }
  if (pass && ldc_g.trace) {
    int k = atomicAdd(ldc_g.ntrace, 1);
    if (k < ldc_g.max_trace) {
      struct ldc_trace tr = {block, (int)tid, pass, t->start, id, t->differ};
      ldc_g.trace[k] = tr;
    }
  }
  ldc_bar();
  return 0;
}

// ldc_boundary is called by a thread that reached barrier id (or the exit,
// -1) in replay mode. It returns 1 when the thread must restore its locals
// and run the region again (end of pass 1).
static __device__ LDC_ENGINE int ldc_boundary(struct ldc_thread *t, int id) {
  if (t->pass == 1) {
    t->end1 = id;
    t->differ = 0;
    ldc_check(t, 1, id);
    t->pass = 2;
    t->natomic = t->atomic_start;
    return 1;
  }
  if (id != t->end1) t->differ = 1;
  ldc_check(t, 2, id);
  t->pass = 1;
  t->start = id;
  t->differ = 0;
  t->atomic_start = t->natomic;
  return 0;
}

// ldc_idle keeps a finished thread in its block's checks until all are done.
static __device__ LDC_ENGINE void ldc_idle(struct ldc_thread *t) {
  t->done = 1;
  while (!ldc_check(t, 0, -1)) {
  }
}

static __device__ LDC_ENGINE __forceinline__ void ldc_finish(struct ldc_thread *t) { (void)t; }

// Atomics take effect once per checked run: the first execution logs each
// result in the thread's row; replays return the logged value.
static __device__ LDC_ENGINE __forceinline__ int ldc_atomic_replaying(struct ldc_thread *t) {
  return ldc_g.atomic_mode == 2 || (t->mode == LDC_MODE_REPLAY && t->pass == 2);
}
static __device__ LDC_ENGINE __forceinline__ unsigned long long *ldc_atomic_slot(struct ldc_thread *t) {
  if (!ldc_g.atomic_log) return 0;
  if (t->natomic >= LDC_ATOMIC_SLOTS) {
    *ldc_g.atomic_overflow = 1;
    return 0;
  }
  unsigned long long row = (unsigned long long)ldc_block_linear() * ldc_block_threads() + ldc_thread_linear();
  return ldc_g.atomic_log + row * LDC_ATOMIC_SLOTS + t->natomic++;
}
template <class T> static __device__ LDC_ENGINE T ldc_atomic_record(struct ldc_thread *t, T v) {
  unsigned long long *slot = ldc_atomic_slot(t);
  if (slot) {
    unsigned long long raw = 0;
    ldc_copy_bytes(&raw, &v, sizeof(T));
    *slot = raw;
  }
  return v;
}
template <class T> static __device__ LDC_ENGINE T ldc_atomic_replay(struct ldc_thread *t) {
  T v;
  unsigned long long *slot = ldc_atomic_slot(t);
  unsigned long long raw = slot ? *slot : 0;
  ldc_copy_bytes(&v, &raw, sizeof(T));
  return v;
}
#define LDC_ATOMIC(E) (ldc_atomic_replaying(&ldc_t) ? ldc_atomic_replay<decltype(E)>(&ldc_t) : ldc_atomic_record<decltype(E)>(&ldc_t, (E)))
// Shared memory is fresh in every launch: its atomics replay only within a
// launch (the second pass of a region), never across launches.
#define LDC_ATOMIC_SHARED(E) \
  ((ldc_t.mode == LDC_MODE_REPLAY && ldc_t.pass == 2) ? ldc_atomic_replay<decltype(E)>(&ldc_t) : ldc_atomic_record<decltype(E)>(&ldc_t, (E)))
#define LDC_ONCE(E) (((ldc_t.mode == LDC_MODE_REPLAY && ldc_t.pass == 2) || (ldc_t.mode == LDC_MODE_BLOCK && ldc_g.pass == 2)) ? 0 : (E))

#define LDC_BARRIER(K, ID)                                      \
  do {                                                          \
    if (ldc_t.mode == LDC_MODE_PLAIN) {                         \
      __syncthreads();                                          \
    } else if (ldc_t.mode == LDC_MODE_BLOCK) {                  \
      ldc_check(&ldc_t, LDC_MERGE, ID);                         \
    } else {                                                    \
      if (ldc_t.pass == 2) LDC_DIFF_##K(ldc_end);               \
      else LDC_SAVE_##K(ldc_end);                               \
      if (ldc_boundary(&ldc_t, ID)) {                           \
        LDC_LOAD_##K(ldc_start);                                \
        goto ldc_dispatch_##K;                                  \
      }                                                         \
      LDC_SAVE_##K(ldc_start);                                  \
    }                                                           \
  } while (0)

#define LDC_EXIT(K)                                             \
  do {                                                          \
    if (ldc_t.mode == LDC_MODE_REPLAY) {                        \
      if (ldc_t.pass == 2) LDC_DIFF_##K(ldc_end);               \
      else LDC_SAVE_##K(ldc_end);                               \
      if (ldc_boundary(&ldc_t, -1)) {                           \
        LDC_LOAD_##K(ldc_start);                                \
        goto ldc_dispatch_##K;                                  \
      }                                                         \
    }                                                           \
    if (ldc_t.mode != LDC_MODE_PLAIN) ldc_idle(&ldc_t);         \
    ldc_finish(&ldc_t);                                         \
  } while (0)

// Level 1 (unit = block), driven by the host between launches. Each thread
// owns bytes (grid-stride, consecutive threads on consecutive bytes, so the
// loads coalesce) and replays the units in order: no atomics, no divergence
// but on a race.
//
// ldc_fused_ww: write detection, conflict detection, the union U and the
// pass-2 copies (U with the unit's own changes reverted), in one pass over
// the data. writer[j] is the unit that changed byte j, or -1: the blocks'
// footprints for level 2.
extern "C" __global__ LDC_ENGINE void ldc_fused_ww(const unsigned char *s, unsigned char *copies, unsigned long long size, int units, unsigned char *u,
                                        int *writer, int alloc) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < size; j += stride) {
    unsigned char orig = s[j], uv = orig;
    int w = -1, raced = 0;
    for (int i = 0; i < units; i++) {
      unsigned char v = copies[(unsigned long long)i * size + j];
      if (v != orig) {
        if (w >= 0) {
          struct ldc_record r = {LDC_RACE_WW, LDC_SPACE_GLOBAL, alloc, -1, -1, w, i, -1, -1, (long long)j,
                                 (unsigned)orig | ((unsigned)uv << 8) | ((unsigned)v << 16)};
          ldc_record_race(r);
          raced = 1;
        }
        w = i;
        uv = v;
      }
    }
    u[j] = uv;
    writer[j] = w;
    // Each unit's pass-2 state is U with its own change reverted. Without a
    // race only the writer changed the byte; after a race every unit whose
    // copy differs from S wrote it (the rare path re-reads the copies).
    for (int i = 0; i < units; i++) {
      unsigned long long k = (unsigned long long)i * size + j;
      copies[k] = (raced ? copies[k] != orig : i == w) ? orig : uv;
    }
  }
}

// The word-wide versions (targets whose size is a multiple of 4) do the
// same per byte with masks, four bytes per load: fewer instructions per
// byte, same results (tested against the model like the byte versions).
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_bytemask(unsigned d) { // 0xff in each nonzero byte of d
  unsigned t = ((d & 0x7f7f7f7fu) + 0x7f7f7f7fu) | d;
  return ((t & 0x80808080u) >> 7) * 0xffu;
}

#define LDC_PREFETCH 8
// ldc_prefetch_units loads word k of units i .. i+LDC_PREFETCH-1 (those
// that exist) into pre.
static __device__ LDC_ENGINE __forceinline__ void ldc_prefetch_units(unsigned *pre, const unsigned *copies, unsigned long long words,
                                                                     unsigned long long k, int i, int units) {
#pragma unroll
  for (int q = 0; q < LDC_PREFETCH; q++)
    if (i + q < units) pre[q] = copies[(unsigned long long)(i + q) * words + k];
}

extern "C" __global__ LDC_ENGINE void ldc_fused_ww4(const unsigned *s, unsigned *copies, unsigned long long words, int units, unsigned *u, int *writer,
                                         int alloc) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long k = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; k < words; k += stride) {
    unsigned orig = s[k], uv = orig, written = 0;
    int w[4] = {-1, -1, -1, -1}, raced = 0;
    // Loads for LDC_PREFETCH units are issued together: with few words
    // there are few threads, and one load at a time per thread leaves most
    // of the memory bandwidth unused. (Constant indices keep pre in
    // registers.)
    for (int i0 = 0; i0 < units; i0 += LDC_PREFETCH) {
      unsigned pre[LDC_PREFETCH];
      ldc_prefetch_units(pre, copies, words, k, i0, units);
#pragma unroll
      for (int q = 0; q < LDC_PREFETCH; q++) {
        int i = i0 + q;
        if (i >= units) break;
        unsigned v = pre[q];
        if (v == orig) continue;
        unsigned m = ldc_bytemask(v ^ orig);
        if (m & written) {
          raced = 1;
          for (int b = 0; b < 4; b++) {
            unsigned sh = 8 * b;
            if ((m >> sh & 0xffu) && (written >> sh & 0xffu)) {
              struct ldc_record r = {LDC_RACE_WW, LDC_SPACE_GLOBAL, alloc, -1, -1, w[b], i, -1, -1, (long long)(4 * k + b),
                                     (orig >> sh & 0xffu) | ((uv >> sh & 0xffu) << 8) | ((v >> sh & 0xffu) << 16)};
              ldc_record_race(r);
            }
          }
        }
        written |= m;
        uv = (uv & ~m) | (v & m);
        for (int b = 0; b < 4; b++)
          if (m >> (8 * b) & 0xffu) w[b] = i;
      }
    }
    u[k] = uv;
    for (int b = 0; b < 4; b++) writer[4 * k + b] = w[b];
    for (int i = 0; i < units; i++) {
      unsigned long long idx = (unsigned long long)i * words + k;
      unsigned own;
      if (raced) own = ldc_bytemask(copies[idx] ^ orig);
      else own = (w[0] == i ? 0xffu : 0) | (w[1] == i ? 0xff00u : 0) | (w[2] == i ? 0xff0000u : 0) | (w[3] == i ? 0xff000000u : 0);
      copies[idx] = (uv & ~own) | (orig & own);
    }
  }
}

// With fewer words than threads, the threads split the units of a word
// between them (chunks of units): the read-write check of one unit does not
// depend on the others. Every chunk of word k writes the same U into s[k].
extern "C" __global__ LDC_ENGINE void ldc_fused_rw4(unsigned *s, const unsigned *copies, unsigned long long words, int units, const unsigned *u, int alloc) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long chunks = stride / words;
  if (chunks < 1) chunks = 1;
  if (chunks > (unsigned long long)units) chunks = units;
  for (unsigned long long item = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; item < words * chunks; item += stride) {
    unsigned long long k = item % words, c = item / words;
    int first = (int)(c * units / chunks), last = (int)((c + 1) * units / chunks);
    unsigned uv = u[k];
    for (int i0 = first; i0 < last; i0 += LDC_PREFETCH) {
      unsigned pre[LDC_PREFETCH];
      ldc_prefetch_units(pre, copies, words, k, i0, last);
#pragma unroll
      for (int q = 0; q < LDC_PREFETCH; q++) {
        int i = i0 + q;
        if (i >= last) break;
        unsigned v = pre[q];
        if (v == uv) continue;
        unsigned m = ldc_bytemask(v ^ uv);
        for (int b = 0; b < 4; b++) {
          unsigned sh = 8 * b;
          if (m >> sh & 0xffu) {
            struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_GLOBAL, alloc, -1, -1, i, -1, -1, -1, (long long)(4 * k + b), (uv >> sh & 0xffu) | ((v >> sh & 0xffu) << 8)};
            ldc_record_race(r);
          }
        }
      }
    }
    s[k] = uv;
  }
}

// ldc_fill_copies sets every unit's copy to S in one launch.
extern "C" __global__ LDC_ENGINE void ldc_fill_copies(const unsigned char *s, unsigned char *copies, unsigned long long size, int units) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x, total = size * (unsigned long long)units;
  unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (size % 16 == 0) {
    const uint4 *s4 = (const uint4 *)s;
    uint4 *c4 = (uint4 *)copies;
    unsigned long long n = size / 16;
    for (unsigned long long j = t; j < total / 16; j += stride) c4[j] = s4[j % n];
  } else {
    for (unsigned long long j = t; j < total; j += stride) copies[j] = s[j % size];
  }
}

// ldc_fused_rw: after pass 2 a unit's copy that differs from U read what
// another unit wrote. U is then copied back into the original.
extern "C" __global__ LDC_ENGINE void ldc_fused_rw(unsigned char *s, const unsigned char *copies, unsigned long long size, int units, const unsigned char *u,
                                        int alloc) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < size; j += stride) {
    unsigned char uv = u[j];
    for (int i = 0; i < units; i++) {
      unsigned char v = copies[(unsigned long long)i * size + j];
      if (v != uv) {
        struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_GLOBAL, alloc, -1, -1, i, -1, -1, -1, (long long)j, (unsigned)uv | ((unsigned)v << 8)};
        ldc_record_race(r);
      }
    }
    s[j] = uv;
  }
}

// ldc_fused_repeat: after level 1 found read-write differences, each block
// ran pass 1 once more from the same state. A block whose copy now differs
// from its first pass (U where it was the writer, S elsewhere) is not
// reproducible on its own: an intra-block race, not evidence about other
// blocks. Marks such blocks in unstable[] (plain stores of 1: no atomics).
extern "C" __global__ LDC_ENGINE void ldc_fused_repeat(const unsigned char *s, const unsigned char *copies, unsigned long long size, int units,
                                            const unsigned char *u, const int *writer, int *unstable) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < size; j += stride) {
    for (int i = 0; i < units; i++) {
      unsigned char want = writer[j] == i ? u[j] : s[j];
      if (copies[(unsigned long long)i * size + j] != want) unstable[i] = 1;
    }
  }
}

// ldc_fused_stray: after level 2, a byte no block owned in level 1 (no
// footprint holds it, so no barrier merged it) must be unchanged in every
// warp's copy. A warp that changed it there wrote something in level 2 it
// did not write when it could not see the other warps' writes: a race.
extern "C" __global__ LDC_ENGINE void ldc_fused_stray(const unsigned char *s, const unsigned char *copies, unsigned long long size, int units,
                                           const int *writer, int alloc) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long j = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; j < size; j += stride) {
    if (writer[j] >= 0) continue;
    unsigned char orig = s[j];
    for (int i = 0; i < units; i++) {
      unsigned char v = copies[(unsigned long long)i * size + j];
      if (v != orig) {
        struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_GLOBAL, alloc, -1, -1, i, -1, -1, -1, (long long)j, (unsigned)orig | ((unsigned)v << 8)};
        ldc_record_race(r);
      }
    }
  }
}

#ifdef LDC_CPU
// Private copies of one target lie end to end, so an index past the end of
// the unit's copy lands in the next unit's copy, not in a guard page. The
// CPU engine calls this before every access of kernel code (a lockstep
// step): an access to another unit's copy fails the launch with the address
// (gpuruntime names the variable), before it corrupts that copy.
static LDC_ENGINE void ldc_cpu_check_access(const void *p) {
  int mode = ldc_g.mode;
  if (mode == LDC_MODE_PLAIN) return;
  unsigned long long unit, units;
  if (mode == LDC_MODE_BLOCK) {
    unit = ldc_block_linear();
    units = (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  } else {
    unit = ldc_thread_linear() / 32;
    units = ldc_warps();
  }
  unsigned long long a = (unsigned long long)p;
  for (int i = 0; i < ldc_g.nallocs; i++) {
    const struct ldc_alloc *al = &ldc_g.allocs[i];
    if (a - al->copies < units * al->size && (a - al->copies) / al->size != unit)
      ::ldc::fail_fiber("out-of-bounds access to address 0x%llx", a);
  }
}
static const int ldc_cpu_check_installed = (::ldc::access_check = ldc_cpu_check_access, 1);

extern "C" LDC_ENGINE void ldc_entry_ldc_fused_ww4(void **a) {
  ldc_fused_ww4(*(const unsigned **)a[0], *(unsigned **)a[1], *(unsigned long long *)a[2], *(int *)a[3], *(unsigned **)a[4], *(int **)a[5], *(int *)a[6]);
}
extern "C" LDC_ENGINE void ldc_entry_ldc_fused_rw4(void **a) {
  ldc_fused_rw4(*(unsigned **)a[0], *(const unsigned **)a[1], *(unsigned long long *)a[2], *(int *)a[3], *(const unsigned **)a[4], *(int *)a[5]);
}
extern "C" LDC_ENGINE void ldc_entry_ldc_fill_copies(void **a) {
  ldc_fill_copies(*(const unsigned char **)a[0], *(unsigned char **)a[1], *(unsigned long long *)a[2], *(int *)a[3]);
}
extern "C" LDC_ENGINE void ldc_entry_ldc_fused_stray(void **a) {
  ldc_fused_stray(*(const unsigned char **)a[0], *(const unsigned char **)a[1], *(unsigned long long *)a[2], *(int *)a[3], *(const int **)a[4], *(int *)a[5]);
}
extern "C" LDC_ENGINE void ldc_entry_ldc_fused_repeat(void **a) {
  ldc_fused_repeat(*(const unsigned char **)a[0], *(const unsigned char **)a[1], *(unsigned long long *)a[2], *(int *)a[3], *(const unsigned char **)a[4],
                   *(const int **)a[5], *(int **)a[6]);
}
extern "C" LDC_ENGINE void ldc_entry_ldc_fused_ww(void **a) {
  ldc_fused_ww(*(const unsigned char **)a[0], *(unsigned char **)a[1], *(unsigned long long *)a[2], *(int *)a[3], *(unsigned char **)a[4], *(int **)a[5], *(int *)a[6]);
}
extern "C" LDC_ENGINE void ldc_entry_ldc_fused_rw(void **a) {
  ldc_fused_rw(*(unsigned char **)a[0], *(const unsigned char **)a[1], *(unsigned long long *)a[2], *(int *)a[3], *(const unsigned char **)a[4], *(int *)a[5]);
}
#endif
