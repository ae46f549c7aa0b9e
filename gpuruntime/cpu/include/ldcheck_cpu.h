// ldcheck_cpu.h: CUDA device code as C++17 on the CPU (ldcheck's CPU backend).
//
// Contract with the instrumenter and with gpuruntime/cpu (Go):
//
//   * The kernel source is compiled as exactly one translation unit with this
//     header force-included and this directory on the include path:
//       c++ -std=c++17 -O2 -fPIC -fno-strict-aliasing -ffp-contract=off
//           -fsanitize=thread -c -I<dir> -include <dir>/ldcheck_cpu.h
//           -x c++ FILE.cu -o FILE.o
//       c++ -shared FILE.o -o FILE.so -lpthread
//     (-fsanitize=thread only for lockstep steps, see LDC_STEPS; never link
//     the sanitizer's runtime.)
//     The launch engine below is defined here (not just declared), so a second
//     translation unit including this header would define it twice.
//   * Each kernel NAME gets an entry point taking its parameters by address:
//       extern "C" void ldc_entry_NAME(void **args) {
//         NAME(*(T0 *)args[0], *(T1 *)args[1], ...);
//       }
//   * `extern __shared__ T name[];` is rewritten to `LDC_DYNAMIC_SHARED(T, name);`
//     (at function or namespace scope).
//   * ldc_cpu_launch() runs one grid and returns 0, or non-zero with a one-line
//     message (deadlock, failed assert, bad launch configuration). While it
//     runs, it publishes how far it got in the caller's LaunchProgress (see
//     there), which another thread may read at any time.
//
// Execution model:
//   * Blocks are taken from an atomic counter by `workers` OS threads created
//     for this launch; a worker runs one block at a time, start to finish.
//     Each worker maps one fiber stack (with its guard page) per thread of a
//     block: with 1024-thread blocks that is 1024 x (LDC_FIBER_STACK_SIZE +
//     a page) of address space per worker (260 MiB by default), reserved
//     with MAP_NORESERVE, of which only the pages a thread touches are
//     memory (a few KiB per thread for usual kernels). Each stack is two
//     mappings, and a process may have 65530: a launch uses at most
//     30000 / (2 x threads per block + 8) workers (14 for 1024 threads),
//     whatever `workers` asks.
//   * Every GPU thread of a block is a fiber (our own context switch on
//     x86-64, ucontext elsewhere) on its worker's OS
//     thread. Fibers are scheduled cooperatively: a fiber runs until it waits
//     on a barrier or a warp intrinsic, or returns. So:
//       - __shared__ is `thread_local`: one copy per worker = per running block;
//       - accesses by threads of one block never overlap in time. Built
//         with steps (LDC_STEPS, the default), the threads of a block take
//         turns at every memory access, in order of linear id, so a warp's
//         lanes run in lockstep as on a GPU; built without, code between
//         two synchronisation points runs one thread after another. Both
//         are schedules a GPU allows;
//       - blocks on different workers run truly in parallel, so atomics are
//         real atomics.
//   * A warp is 32 consecutive linear thread ids (x fastest, then y, then z).
//     A warp intrinsic completes when every lane of its mask has called one
//     with the same mask; a mask naming a lane that exited deadlocks, lanes
//     past the end of a partial last warp are ignored, and a mask without the
//     calling lane fails the launch.
//   * When every live fiber of a block waits and nothing can complete, the
//     launch fails with a "deadlock" message instead of hanging.
//
// Known differences from a GPU (by design of the model):
//   * Without steps, warp-synchronous code that relies on lockstep
//     execution without __syncwarp or a *_sync intrinsic sees a fiber run
//     ahead of its lanes. With steps, lanes that diverge interleave access
//     by access instead of running one branch after the other.
//   * Spinning on a value that a block not yet started will write never
//     ends (no preemption); without steps, neither does spinning on another
//     thread of the same block, unless the loop backs off with __nanosleep(),
//     which yields.
//   * __activemask() returns the lanes of the warp that are waiting in
//     __activemask() once the whole block has nothing else to run: lanes that
//     took another branch are excluded, lanes in two different __activemask()
//     call sites are merged.
//   * A kernel thread that faults (an access outside every mapping, such as
//     the guard pages gpuruntime/cpu puts around each buffer, or a fiber
//     stack overflow into its guard page) fails the launch with the address;
//     the process lives on. Stacks are LDC_FIBER_STACK_SIZE bytes (default
//     256 KiB; -D to change).
//   * clock() is the C library's (process CPU time); clock64() counts
//     nanoseconds of CLOCK_MONOTONIC.

#ifndef LDCHECK_CPU_H
#define LDCHECK_CPU_H

#ifndef __cplusplus
#error "ldcheck_cpu.h: compile CUDA sources as C++17 (-x c++ -std=c++17)"
#endif

// System headers come first: the CUDA qualifiers defined below (__noinline__
// in particular) would otherwise clash with attribute spellings inside them.
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fenv.h>
#include <limits>
#include <math.h>
#include <new>
#include <type_traits>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

// Lockstep warps. ldcheck compiles kernels with -fsanitize=thread and no
// sanitizer runtime: the compiler then calls __tsan_readN/__tsan_writeN (and
// the atomic variants) before every memory access of the kernel's code, and
// the definitions below turn each call into a step: the thread lets every
// other ready thread of its block do its next access first. Threads of a
// block thus advance one memory access at a time, so a warp's lanes do all
// their loads of a statement before any of its stores, as on a GPU. Without
// that, `s[t] = s[t - 1]` inside one warp reads values a GPU never shows, and
// the CPU and CUDA backends would report different racy bytes.
// Nothing in this header steps (LDC_ENGINE): the engine's bookkeeping must
// not be interleaved, and the device runtime's checking code (ldcheck_rt.h,
// marked the same way) is race-free by construction and need not pay for it.
#if defined(__SANITIZE_THREAD__)
#define LDC_STEPS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LDC_STEPS 1
#endif
#endif
#if defined(LDC_STEPS) && defined(__clang__)
// clang instruments atomics even where the sanitizer is off.
#define LDC_ENGINE                                                             \
  __attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
#elif defined(LDC_STEPS)
#define LDC_ENGINE __attribute__((no_sanitize("thread")))
#else
#define LDC_ENGINE
#endif

#include "assert.h"

// ---------------------------------------------------------------------------
// Qualifiers and predefined macros
// ---------------------------------------------------------------------------

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
// All fibers of a block share one OS thread and a worker runs one block at a
// time, so a thread_local is exactly one block's shared memory.
#define __shared__ thread_local
// Empty rather than `inline`: g++ rejects `inline __forceinline__` as a
// duplicate specifier, and inlining does not change meaning here.
#define __forceinline__
// Empty rather than an attribute: libstdc++ spells `__attribute__((__noinline__))`,
// which stays valid (`__attribute__(())`) only if this expands to nothing.
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
// __restrict__ is a keyword of both g++ and clang++; nothing to define.

// Device code compiled here takes its device-side branches.
#define __CUDACC__ 1
#define __CUDA_ARCH__ 800

#ifndef LDC_FIBER_STACK_SIZE
#define LDC_FIBER_STACK_SIZE (256 * 1024)
#endif

// The short names CUDA code takes from the toolkit's headers.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;

// ---------------------------------------------------------------------------
// Vector types (sizes and alignments as in CUDA's vector_types.h)
// ---------------------------------------------------------------------------

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define LDC_VEC2(name, T, align)                                               \
  struct alignas(align) name {                                                 \
    T x, y;                                                                    \
  };                                                                           \
  LDC_ENGINE inline name make_##name(T x, T y) { return name{x, y}; }
#define LDC_VEC3(name, T)                                                      \
  struct name {                                                                \
    T x, y, z;                                                                 \
  };                                                                           \
  LDC_ENGINE inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define LDC_VEC4(name, T, align)                                               \
  struct alignas(align) name {                                                 \
    T x, y, z, w;                                                              \
  };                                                                           \
  LDC_ENGINE inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

LDC_VEC2(char2, signed char, 2)
LDC_VEC4(char4, signed char, 4)
LDC_VEC2(uchar2, unsigned char, 2)
LDC_VEC4(uchar4, unsigned char, 4)
LDC_VEC2(short2, short, 4)
LDC_VEC4(short4, short, 8)
LDC_VEC2(ushort2, unsigned short, 4)
LDC_VEC4(ushort4, unsigned short, 8)
LDC_VEC2(int2, int, 8)
LDC_VEC3(int3, int)
LDC_VEC4(int4, int, 16)
LDC_VEC2(uint2, unsigned int, 8)
LDC_VEC4(uint4, unsigned int, 16)
LDC_VEC2(float2, float, 8)
LDC_VEC3(float3, float)
LDC_VEC4(float4, float, 16)
LDC_VEC2(double2, double, 16)
LDC_VEC3(double3, double)
LDC_VEC4(double4, double, 16)
LDC_VEC2(longlong2, long long, 16)
LDC_VEC2(ulonglong2, unsigned long long, 16)
LDC_ENGINE inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  return uint3{x, y, z};
}

#undef LDC_VEC2
#undef LDC_VEC3
#undef LDC_VEC4

// ---------------------------------------------------------------------------
// Engine state
// ---------------------------------------------------------------------------

namespace ldc {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxBlockThreads = 1024;
constexpr unsigned kFullMask = 0xffffffffu;

struct Worker;

// Execution contexts. Lockstep steps switch fibers at every memory access,
// so a switch must cost a few instructions, not swapcontext's two system
// calls (it saves the signal mask): on x86-64 a switch saves the
// callee-saved registers and the floating-point control words on the old
// stack and loads the new stack pointer.
#if defined(__x86_64__) && !defined(LDC_UCONTEXT)
struct Context {
  void *sp;
};
extern "C" void ldc_switch_stack(void **save_sp, void *new_sp);
extern "C" void ldc_fiber_start();
__asm__(".text\n"
        ".p2align 4\n"
        ".hidden ldc_switch_stack\n"
        ".globl ldc_switch_stack\n"
        ".type ldc_switch_stack,@function\n"
        "ldc_switch_stack:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size ldc_switch_stack, .-ldc_switch_stack\n"
        // A fresh fiber's first switch returns here with the function in
        // r12 and the stack 16-byte aligned; the function never returns.
        ".p2align 4\n"
        ".hidden ldc_fiber_start\n"
        ".globl ldc_fiber_start\n"
        ".type ldc_fiber_start,@function\n"
        "ldc_fiber_start:\n"
        "  callq *%r12\n"
        "  ud2\n"
        ".size ldc_fiber_start, .-ldc_fiber_start\n");
LDC_ENGINE inline void context_init(Context *) {}
// Arms c to run fn (which must never return) on [stack, stack+size).
LDC_ENGINE inline void context_arm(Context *c, char *stack, size_t size, void (*fn)()) {
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  void **sp = (void **)(top - 64);
  uint32_t csr[2];
  __asm__ __volatile__("stmxcsr %0" : "=m"(csr[0]));
  __asm__ __volatile__("fnstcw %0" : "=m"(csr[1]));
  memcpy(&sp[0], csr, 8); // the running thread's control words
  sp[1] = nullptr;        // r15
  sp[2] = nullptr;        // r14
  sp[3] = nullptr;        // r13
  sp[4] = (void *)fn;     // r12
  sp[5] = nullptr;        // rbx
  sp[6] = nullptr;        // rbp
  sp[7] = (void *)ldc_fiber_start;
  c->sp = sp;
}
LDC_ENGINE inline void context_switch(Context *from, Context *to) {
  ldc_switch_stack(&from->sp, to->sp);
}
#else
struct Context {
  ucontext_t uc;
};
// getcontext once per fiber; makecontext re-arms the context for every block.
// Out of line: getcontext returns twice as far as the compiler knows.
__attribute__((noinline)) LDC_ENGINE inline void context_init(Context *c) {
  getcontext(&c->uc);
}
LDC_ENGINE inline void context_arm(Context *c, char *stack, size_t size, void (*fn)()) {
  c->uc.uc_stack.ss_sp = stack;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = nullptr; // fn never returns
  makecontext(&c->uc, fn, 0);
}
LDC_ENGINE inline void context_switch(Context *from, Context *to) {
  swapcontext(&from->uc, &to->uc);
}
#endif

enum class FiberState : unsigned char {
  ready,        // in the run queue
  running,      //
  at_barrier,   // __syncthreads*
  in_warp_op,   // __syncwarp, __shfl*_sync, __ballot_sync, ...
  at_activemask,
  exited,
};

// One GPU thread.
struct Fiber {
  Context ctx;
  char *stack; // lowest usable byte, just above the guard page
  uint3 thread_idx;
  unsigned linear; // x fastest, then y, then z
  FiberState state;
  Worker *worker;
};

enum class WarpOp : unsigned char {
  sync,
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  match_any,
  match_all,
  reduce_add,
  reduce_min,
  reduce_max,
  reduce_and,
  reduce_or,
  reduce_xor,
};

struct WarpResult {
  uint64_t value;
  bool pred;
};

// What one lane brought to a warp intrinsic, and what it gets back.
struct LaneCall {
  WarpOp op;
  const char *name;
  unsigned mask; // already restricted to the lanes that exist
  uint64_t value;
  int arg; // source lane, delta or lane mask
  int width;
  bool is_signed;
  WarpResult result;
};

struct Warp {
  unsigned present;       // lanes that exist (the last warp may be partial)
  unsigned exited;        // lanes that have returned from the kernel
  unsigned waiting;       // lanes waiting in a warp intrinsic
  unsigned at_activemask; // lanes waiting in __activemask()
  LaneCall lane[kWarpSize];
};

// How far a launch got, for a host that waits on it (a --timeout that
// expires must tell a slow run from a hung one). The caller of
// ldc_cpu_launch owns the memory; each worker writes only its own slot
// (relaxed atomic stores: plain moves, no contention), and any thread may
// read the counters while the launch runs. Layout (ABI): 64-byte header,
// then nslots 64-byte slots.
struct ProgressSlot {
  unsigned long long blocks_done; // blocks this worker finished
  unsigned long long barriers;    // __syncthreads its blocks completed
  unsigned long long waiting;     // threads of its block at a __syncthreads now
  unsigned long long block;       // 1 + the linear id of its block; 0: none
  unsigned long long pad[4];
};
struct LaunchProgress {
  unsigned long long nslots; // workers beyond nslots are not started
  unsigned long long nblocks;
  unsigned long long workers; // started
  unsigned long long pad[5];
  ProgressSlot slot[1]; // nslots of them
};
static_assert(sizeof(ProgressSlot) == 64 && sizeof(LaunchProgress) == 128,
              "LaunchProgress layout is ABI (gpuruntime/cpu/module.go)");

LDC_ENGINE inline void progress_store(unsigned long long *p, unsigned long long v) {
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

// FaultRecord is an out-of-bounds access as the host reads it, field by
// field (ldc_cpu_launch writes it at the start of the error buffer, the
// message after it): the host must not parse the message to name the
// buffer. The layout is mirrored by package cpu (faultRecordBytes).
struct FaultRecord {
  unsigned kind;      // 0 none, 1 out-of-bounds access
  unsigned access;    // 0 unknown, 1 read, 2 write
  unsigned block[3];
  unsigned thread[3];
  unsigned long long addr;
};
static_assert(sizeof(FaultRecord) == 40, "FaultRecord layout is mirrored by the host");

struct Launch {
  void (*entry)(void **);
  void **args;
  dim3 grid, block;
  unsigned long long nblocks;
  unsigned nthreads; // per block
  size_t dyn_shared;
  LaunchProgress *progress; // may be null
  unsigned long long started_workers; // atomic: hands out progress slots
  unsigned long long next_block; // atomic
  int failed;                    // atomic: some block failed
  // The lowest block that failed (atomic): its message is the one kept, so
  // the error does not depend on how the workers raced. Blocks are handed
  // out in order, so every lower block is already running somewhere.
  unsigned long long fail_block;
  pthread_mutex_t mu;
  char message[1024];
  FaultRecord fault; // the kept failure's fault, kind 0 when it was none
};

// A worker OS thread and the block it is running. Everything here belongs to
// one OS thread; only Launch is shared.
struct Worker {
  Launch *launch;
  ProgressSlot *progress; // this worker's slot, or a private dummy
  ProgressSlot own_progress;
  Context scheduler;
  bool aborted; // a fiber failed (assert, bad warp intrinsic call)

  Fiber *fibers; // launch->nthreads of them, reused for every block
  char *stacks;  // one mapping: [guard][stack] per fiber
  size_t stacks_len;
  char *dyn_shared;

  uint3 block_idx;
  unsigned live; // fibers of this block that have not exited

  // Run queue: a ring of fiber ids; a fiber is in it at most once.
  unsigned *queue;
  unsigned qhead, qlen;

  // The block barrier (Volta+: threads that exited count as arrived).
  unsigned bar_arrived, bar_count;
  bool bar_and, bar_or;
  unsigned *bar_waiters;
  unsigned bar_nwaiters;
  // Reductions of the last completed barrier, read by the released threads.
  unsigned res_count;
  bool res_and, res_or;

  Warp *warps;
  unsigned nwarps;
};

// The running fiber of this OS thread (null outside kernels).
static thread_local Fiber *current_fiber = nullptr;
// This worker's dynamic shared memory; valid for the whole launch.
static thread_local char *current_dyn_shared = nullptr;

// Keeps the compiler from caching shared or global memory across a
// synchronisation point, including function-local statics (__shared__) whose
// address never escapes.
LDC_ENGINE inline void compiler_barrier() { __asm__ __volatile__("" ::: "memory"); }

LDC_ENGINE inline const uint3 &thread_idx() { return current_fiber->thread_idx; }
LDC_ENGINE inline const uint3 &block_idx() { return current_fiber->worker->block_idx; }
LDC_ENGINE inline const dim3 &block_dim() { return current_fiber->worker->launch->block; }
LDC_ENGINE inline const dim3 &grid_dim() { return current_fiber->worker->launch->grid; }
LDC_ENGINE inline char *dynamic_shared() { return current_dyn_shared; }

// The fault the failing fiber is reporting, set just before its message is
// recorded; null for every other failure.
static thread_local const FaultRecord *pending_fault = nullptr;

// The block this worker runs (0 before its first), for record_error.
static thread_local unsigned long long current_block = 0;

__attribute__((format(printf, 2, 0))) LDC_ENGINE inline void
record_error_v(Launch *L, const char *fmt, va_list ap) {
  pthread_mutex_lock(&L->mu);
  if (!L->failed || current_block < L->fail_block) {
    vsnprintf(L->message, sizeof L->message, fmt, ap);
    if (pending_fault != nullptr)
      L->fault = *pending_fault;
    else
      memset(&L->fault, 0, sizeof L->fault);
    __atomic_store_n(&L->fail_block, current_block, __ATOMIC_RELEASE);
    __atomic_store_n(&L->failed, 1, __ATOMIC_RELEASE);
  }
  pending_fault = nullptr;
  pthread_mutex_unlock(&L->mu);
}

__attribute__((format(printf, 2, 3))) LDC_ENGINE inline void
record_error(Launch *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record_error_v(L, fmt, ap);
  va_end(ap);
}

// Fails the launch from inside a kernel thread; the fiber never resumes.
__attribute__((format(printf, 1, 2), noreturn)) LDC_ENGINE inline void
fail_fiber(const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  Fiber *f = current_fiber;
  if (f == nullptr) {
    fprintf(stderr, "ldcheck: %s (outside a kernel)\n", what);
    abort();
  }
  Worker *w = f->worker;
  record_error(w->launch, "block (%u,%u,%u) thread (%u,%u,%u): %s",
               w->block_idx.x, w->block_idx.y, w->block_idx.z,
               f->thread_idx.x, f->thread_idx.y, f->thread_idx.z, what);
  w->aborted = true;
  Context dead;
  context_switch(&dead, &w->scheduler);
  abort(); // the scheduler never resumes a failed fiber
}

// launch_failed says, inside a kernel thread, whether some block of the
// launch has failed: a thread waiting for another block must then give up,
// since that block may never release what it holds.
LDC_ENGINE inline bool launch_failed() {
  Fiber *f = current_fiber;
  return f != nullptr && __atomic_load_n(&f->worker->launch->failed, __ATOMIC_ACQUIRE) != 0;
}

LDC_ENGINE inline void make_ready(Worker *w, unsigned id) {
  Fiber &f = w->fibers[id];
  f.state = FiberState::ready;
  unsigned n = w->launch->nthreads;
  w->queue[(w->qhead + w->qlen) % n] = id;
  w->qlen++;
}

// Gives the OS thread back to the scheduler until someone makes f ready.
LDC_ENGINE inline void suspend(FiberState why) {
  Fiber *f = current_fiber;
  f->state = why;
  context_switch(&f->ctx, &f->worker->scheduler);
}

// ---------------------------------------------------------------------------
// Block barrier
// ---------------------------------------------------------------------------

struct BarrierResult {
  unsigned count;
  bool all, any;
};

LDC_ENGINE inline void release_barrier(Worker *w) {
  w->res_count = w->bar_count;
  w->res_and = w->bar_and;
  w->res_or = w->bar_or;
  for (unsigned i = 0; i < w->bar_nwaiters; i++)
    make_ready(w, w->bar_waiters[i]);
  w->bar_nwaiters = 0;
  progress_store(&w->progress->waiting, 0);
  progress_store(&w->progress->barriers, w->progress->barriers + 1);
  w->bar_arrived = 0;
  w->bar_count = 0;
  w->bar_and = true;
  w->bar_or = false;
}

LDC_ENGINE inline BarrierResult block_barrier(int pred) {
  compiler_barrier();
  Fiber *f = current_fiber;
  Worker *w = f->worker;
  bool p = pred != 0;
  w->bar_arrived++;
  w->bar_count += p;
  w->bar_and = w->bar_and && p;
  w->bar_or = w->bar_or || p;
  if (w->bar_arrived == w->live) {
    release_barrier(w); // the last to arrive goes on without a switch
  } else {
    w->bar_waiters[w->bar_nwaiters++] = f->linear;
    progress_store(&w->progress->waiting, w->bar_nwaiters);
    suspend(FiberState::at_barrier);
  }
  // res_* stay valid until this thread arrives at the next barrier: that
  // barrier cannot complete without it.
  BarrierResult r{w->res_count, w->res_and, w->res_or};
  compiler_barrier();
  return r;
}

// ---------------------------------------------------------------------------
// Warp intrinsics: a rendezvous of the lanes named in the mask
// ---------------------------------------------------------------------------

LDC_ENGINE inline uint64_t lane_value(const Warp &wp, unsigned lane, unsigned mask,
                           unsigned src) {
  // A source lane outside the group (or past the segment) yields the
  // caller's own value, as the hardware does for out-of-range lanes.
  if (src < kWarpSize && (mask >> src & 1u))
    return wp.lane[src].value;
  return wp.lane[lane].value;
}

LDC_ENGINE inline WarpResult compute_lane(const Warp &wp, unsigned mask, unsigned l) {
  const LaneCall &c = wp.lane[l];
  unsigned width = (unsigned)c.width;
  unsigned seg = l & ~(width - 1); // first lane of l's segment
  unsigned lw = l - seg;           // l's index within its segment
  unsigned arg = (unsigned)c.arg;
  WarpResult r{0, false};
  switch (c.op) {
  case WarpOp::sync:
    break;
  case WarpOp::shfl_idx:
    r.value = lane_value(wp, l, mask, seg + (arg & (width - 1)));
    break;
  case WarpOp::shfl_up:
    r.value = arg > lw ? c.value : lane_value(wp, l, mask, l - arg);
    break;
  case WarpOp::shfl_down:
    r.value = arg >= width - lw ? c.value : lane_value(wp, l, mask, l + arg);
    break;
  case WarpOp::shfl_xor: {
    // Lanes of earlier segments may be read, later ones may not.
    unsigned src = l ^ arg;
    r.value = src > seg + width - 1 ? c.value : lane_value(wp, l, mask, src);
    break;
  }
  case WarpOp::ballot:
  case WarpOp::any:
  case WarpOp::all: {
    unsigned ballot = 0;
    for (unsigned k = 0; k < kWarpSize; k++)
      if ((mask >> k & 1u) && wp.lane[k].value != 0)
        ballot |= 1u << k;
    if (c.op == WarpOp::ballot)
      r.value = ballot;
    else if (c.op == WarpOp::any)
      r.value = ballot != 0;
    else
      r.value = ballot == mask;
    break;
  }
  case WarpOp::match_any:
  case WarpOp::match_all: {
    unsigned same = 0;
    for (unsigned k = 0; k < kWarpSize; k++)
      if ((mask >> k & 1u) && wp.lane[k].value == c.value)
        same |= 1u << k;
    if (c.op == WarpOp::match_any) {
      r.value = same;
    } else {
      r.pred = same == mask;
      r.value = r.pred ? mask : 0;
    }
    break;
  }
  default: { // reductions over the group's 32-bit values
    bool first = true;
    uint32_t acc = 0;
    for (unsigned k = 0; k < kWarpSize; k++) {
      if (!(mask >> k & 1u))
        continue;
      uint32_t v = (uint32_t)wp.lane[k].value;
      if (first) {
        acc = v;
        first = false;
        continue;
      }
      switch (c.op) {
      case WarpOp::reduce_add: acc += v; break;
      case WarpOp::reduce_and: acc &= v; break;
      case WarpOp::reduce_or: acc |= v; break;
      case WarpOp::reduce_xor: acc ^= v; break;
      case WarpOp::reduce_min:
        if (c.is_signed ? (int32_t)v < (int32_t)acc : v < acc) acc = v;
        break;
      case WarpOp::reduce_max:
        if (c.is_signed ? (int32_t)v > (int32_t)acc : v > acc) acc = v;
        break;
      default: break;
      }
    }
    r.value = acc;
    break;
  }
  }
  return r;
}

LDC_ENGINE inline WarpResult warp_call(WarpOp op, const char *name, unsigned mask,
                            uint64_t value, int arg = 0, int width = 32,
                            bool is_signed = false) {
  compiler_barrier();
  Fiber *f = current_fiber;
  Worker *w = f->worker;
  unsigned lane = f->linear % kWarpSize;
  unsigned base = f->linear - lane;
  Warp &wp = w->warps[f->linear / kWarpSize];
  unsigned self = 1u << lane;
  if (!(mask & self))
    fail_fiber("%s(mask 0x%08x): the mask does not include the calling lane %u",
               name, mask, lane);
  if (width < 1 || width > 32 || (width & (width - 1)) != 0)
    fail_fiber("%s: width %d is not a power of two in [1, 32]", name, width);
  // Lanes past the end of a partial last warp do not exist; naming them in a
  // full mask is common and harmless on hardware.
  mask &= wp.present;

  LaneCall &c = wp.lane[lane];
  c.op = op;
  c.name = name;
  c.mask = mask;
  c.value = value;
  c.arg = arg;
  c.width = width;
  c.is_signed = is_signed;
  wp.waiting |= self;

  // The group completes when every lane of the mask waits with that same mask.
  bool complete = (wp.waiting & mask) == mask;
  for (unsigned k = 0; complete && k < kWarpSize; k++)
    if ((mask >> k & 1u) && wp.lane[k].mask != mask)
      complete = false;
  if (complete) {
    WarpResult results[kWarpSize];
    for (unsigned k = 0; k < kWarpSize; k++)
      if (mask >> k & 1u)
        results[k] = compute_lane(wp, mask, k);
    wp.waiting &= ~mask;
    for (unsigned k = 0; k < kWarpSize; k++) {
      if (!(mask >> k & 1u))
        continue;
      wp.lane[k].result = results[k];
      if (k != lane)
        make_ready(w, base + k);
    }
  } else {
    suspend(FiberState::in_warp_op);
  }
  compiler_barrier();
  return c.result;
}

LDC_ENGINE inline unsigned activemask() {
  compiler_barrier();
  Fiber *f = current_fiber;
  Worker *w = f->worker;
  unsigned lane = f->linear % kWarpSize;
  Warp &wp = w->warps[f->linear / kWarpSize];
  wp.at_activemask |= 1u << lane;
  suspend(FiberState::at_activemask);
  compiler_barrier();
  return (unsigned)wp.lane[lane].result.value;
}

// Lets the other fibers of the block run before this one goes on.
// Switches straight to the next ready fiber, without a round trip through
// the scheduler: a lockstep step is one switch.
LDC_ENGINE inline void yield() {
  compiler_barrier();
  Fiber *f = current_fiber;
  Worker *w = f->worker;
  make_ready(w, f->linear);
  Fiber *next = &w->fibers[w->queue[w->qhead]];
  w->qhead = (w->qhead + 1) % w->launch->nthreads;
  w->qlen--;
  if (next != f) {
    next->state = FiberState::running;
    current_fiber = next;
    context_switch(&f->ctx, &next->ctx);
    current_fiber = f; // whoever switched back here set it too
  }
  f->state = FiberState::running;
  compiler_barrier();
}

// Set by the device runtime (ldcheck_rt.h) to check each access of kernel
// code against its private copies; null in plain builds.
static void (*access_check)(const void *p) = nullptr;

// One lockstep step before an access to p (see LDC_STEPS). The thread's own
// stack is private (locals whose address is taken), so it needs no step.
LDC_ENGINE inline void step(const void *p) {
  Fiber *f = current_fiber;
  if (f == nullptr)
    return; // host code, or the scheduler
  if ((uintptr_t)p - (uintptr_t)f->stack < (uintptr_t)LDC_FIBER_STACK_SIZE)
    return;
  if (access_check != nullptr)
    access_check(p);
  if (f->worker->qlen == 0)
    return; // nobody else can run
  yield();
}

template <typename T> LDC_ENGINE inline uint64_t to_bits(T v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp intrinsics take values of at most 8 bytes");
  uint64_t bits = 0;
  memcpy(&bits, &v, sizeof v);
  return bits;
}

template <typename T> LDC_ENGINE inline T from_bits(uint64_t bits) {
  T v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

} // namespace ldc

// ---------------------------------------------------------------------------
// Builtin variables
// ---------------------------------------------------------------------------

#define threadIdx (::ldc::thread_idx())
#define blockIdx (::ldc::block_idx())
#define blockDim (::ldc::block_dim())
#define gridDim (::ldc::grid_dim())
static constexpr int warpSize = 32;

// The worker's dynamic shared buffer is allocated once per launch and its
// threads are created per launch, so a thread_local initialised on first use
// points at the right buffer for every block the worker runs.
#define LDC_DYNAMIC_SHARED(T, name)                                            \
  static thread_local T *const name =                                          \
      reinterpret_cast<T *>(::ldc::dynamic_shared())

// ---------------------------------------------------------------------------
// Barriers and warp intrinsics
// ---------------------------------------------------------------------------

LDC_ENGINE inline void __syncthreads() { ldc::block_barrier(1); }
LDC_ENGINE inline int __syncthreads_count(int pred) {
  return (int)ldc::block_barrier(pred).count;
}
LDC_ENGINE inline int __syncthreads_and(int pred) { return ldc::block_barrier(pred).all; }
LDC_ENGINE inline int __syncthreads_or(int pred) { return ldc::block_barrier(pred).any; }

LDC_ENGINE inline void __syncwarp(unsigned mask = 0xffffffffu) {
  ldc::warp_call(ldc::WarpOp::sync, "__syncwarp", mask, 0);
}

template <typename T>
LDC_ENGINE inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  return ldc::from_bits<T>(ldc::warp_call(ldc::WarpOp::shfl_idx, "__shfl_sync",
                                          mask, ldc::to_bits(var), src_lane,
                                          width)
                               .value);
}
template <typename T>
LDC_ENGINE inline T __shfl_up_sync(unsigned mask, T var, unsigned delta,
                        int width = warpSize) {
  return ldc::from_bits<T>(ldc::warp_call(ldc::WarpOp::shfl_up,
                                          "__shfl_up_sync", mask,
                                          ldc::to_bits(var), (int)delta, width)
                               .value);
}
template <typename T>
LDC_ENGINE inline T __shfl_down_sync(unsigned mask, T var, unsigned delta,
                          int width = warpSize) {
  return ldc::from_bits<T>(ldc::warp_call(ldc::WarpOp::shfl_down,
                                          "__shfl_down_sync", mask,
                                          ldc::to_bits(var), (int)delta, width)
                               .value);
}
template <typename T>
LDC_ENGINE inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask,
                         int width = warpSize) {
  return ldc::from_bits<T>(ldc::warp_call(ldc::WarpOp::shfl_xor,
                                          "__shfl_xor_sync", mask,
                                          ldc::to_bits(var), lane_mask, width)
                               .value);
}

LDC_ENGINE inline unsigned __ballot_sync(unsigned mask, int pred) {
  return (unsigned)ldc::warp_call(ldc::WarpOp::ballot, "__ballot_sync", mask,
                                  pred != 0)
      .value;
}
LDC_ENGINE inline int __any_sync(unsigned mask, int pred) {
  return (int)ldc::warp_call(ldc::WarpOp::any, "__any_sync", mask, pred != 0)
      .value;
}
LDC_ENGINE inline int __all_sync(unsigned mask, int pred) {
  return (int)ldc::warp_call(ldc::WarpOp::all, "__all_sync", mask, pred != 0)
      .value;
}
LDC_ENGINE inline unsigned __activemask() { return ldc::activemask(); }

template <typename T> LDC_ENGINE inline unsigned __match_any_sync(unsigned mask, T value) {
  return (unsigned)ldc::warp_call(ldc::WarpOp::match_any, "__match_any_sync",
                                  mask, ldc::to_bits(value))
      .value;
}
template <typename T>
LDC_ENGINE inline unsigned __match_all_sync(unsigned mask, T value, int *pred) {
  ldc::WarpResult r = ldc::warp_call(ldc::WarpOp::match_all,
                                     "__match_all_sync", mask,
                                     ldc::to_bits(value));
  *pred = r.pred;
  return (unsigned)r.value;
}

#define LDC_WARP_REDUCE(fn, op)                                                \
  LDC_ENGINE inline unsigned fn(unsigned mask, unsigned value) {                          \
    return (unsigned)ldc::warp_call(op, #fn, mask, value).value;               \
  }                                                                            \
  LDC_ENGINE inline int fn(unsigned mask, int value) {                                    \
    return (int)(uint32_t)ldc::warp_call(op, #fn, mask, (uint32_t)value, 0,    \
                                         32, true)                             \
        .value;                                                                \
  }
LDC_WARP_REDUCE(__reduce_add_sync, ldc::WarpOp::reduce_add)
LDC_WARP_REDUCE(__reduce_min_sync, ldc::WarpOp::reduce_min)
LDC_WARP_REDUCE(__reduce_max_sync, ldc::WarpOp::reduce_max)
#undef LDC_WARP_REDUCE
LDC_ENGINE inline unsigned __reduce_and_sync(unsigned mask, unsigned value) {
  return (unsigned)ldc::warp_call(ldc::WarpOp::reduce_and, "__reduce_and_sync",
                                  mask, value)
      .value;
}
LDC_ENGINE inline unsigned __reduce_or_sync(unsigned mask, unsigned value) {
  return (unsigned)ldc::warp_call(ldc::WarpOp::reduce_or, "__reduce_or_sync",
                                  mask, value)
      .value;
}
LDC_ENGINE inline unsigned __reduce_xor_sync(unsigned mask, unsigned value) {
  return (unsigned)ldc::warp_call(ldc::WarpOp::reduce_xor, "__reduce_xor_sync",
                                  mask, value)
      .value;
}

LDC_ENGINE inline void __nanosleep(unsigned) { ldc::yield(); }
[[noreturn]] LDC_ENGINE inline void __trap() { ldc::fail_fiber("__trap() called"); }

// ---------------------------------------------------------------------------
// Atomics and fences
// ---------------------------------------------------------------------------

namespace ldc {
// Read-modify-write through compare-and-swap, for operations the compiler
// has no builtin for (float add, min/max, inc/dec).
template <typename T, typename F> LDC_ENGINE inline T atomic_update(T *addr, F op) {
  T old;
  __atomic_load(addr, &old, __ATOMIC_RELAXED);
  T desired;
  do {
    desired = op(old);
  } while (!__atomic_compare_exchange(addr, &old, &desired, true,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  return old;
}
} // namespace ldc

#define LDC_ATOMIC_FETCH(fn, builtin, T)                                       \
  LDC_ENGINE inline T fn(T *addr, T val) { return builtin(addr, val, __ATOMIC_SEQ_CST); }
LDC_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, int)
LDC_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, unsigned int)
LDC_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, unsigned long long)
LDC_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, int)
LDC_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, unsigned int)
LDC_ATOMIC_FETCH(atomicExch, __atomic_exchange_n, int)
LDC_ATOMIC_FETCH(atomicExch, __atomic_exchange_n, unsigned int)
LDC_ATOMIC_FETCH(atomicExch, __atomic_exchange_n, unsigned long long)
LDC_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, int)
LDC_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, unsigned int)
LDC_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, unsigned long long)
LDC_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, int)
LDC_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, unsigned int)
LDC_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, unsigned long long)
LDC_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, int)
LDC_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, unsigned int)
LDC_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, unsigned long long)
#undef LDC_ATOMIC_FETCH

LDC_ENGINE inline float atomicAdd(float *addr, float val) {
  return ldc::atomic_update(addr, [val](float old) { return old + val; });
}
LDC_ENGINE inline double atomicAdd(double *addr, double val) {
  return ldc::atomic_update(addr, [val](double old) { return old + val; });
}
LDC_ENGINE inline float atomicExch(float *addr, float val) {
  float old;
  __atomic_exchange(addr, &val, &old, __ATOMIC_SEQ_CST);
  return old;
}

#define LDC_ATOMIC_MINMAX(T)                                                   \
  LDC_ENGINE inline T atomicMin(T *addr, T val) {                                         \
    return ldc::atomic_update(addr,                                            \
                              [val](T old) { return val < old ? val : old; }); \
  }                                                                            \
  LDC_ENGINE inline T atomicMax(T *addr, T val) {                                         \
    return ldc::atomic_update(addr,                                            \
                              [val](T old) { return val > old ? val : old; }); \
  }
LDC_ATOMIC_MINMAX(int)
LDC_ATOMIC_MINMAX(unsigned int)
LDC_ATOMIC_MINMAX(long long)
LDC_ATOMIC_MINMAX(unsigned long long)
#undef LDC_ATOMIC_MINMAX

LDC_ENGINE inline unsigned int atomicInc(unsigned int *addr, unsigned int val) {
  return ldc::atomic_update(
      addr, [val](unsigned int old) { return old >= val ? 0u : old + 1; });
}
LDC_ENGINE inline unsigned int atomicDec(unsigned int *addr, unsigned int val) {
  return ldc::atomic_update(addr, [val](unsigned int old) {
    return (old == 0 || old > val) ? val : old - 1;
  });
}

#define LDC_ATOMIC_CAS(T)                                                      \
  LDC_ENGINE inline T atomicCAS(T *addr, T compare, T val) {                              \
    __atomic_compare_exchange_n(addr, &compare, val, false, __ATOMIC_SEQ_CST,  \
                                __ATOMIC_SEQ_CST);                             \
    return compare; /* the old value, whether or not it matched */            \
  }
LDC_ATOMIC_CAS(int)
LDC_ATOMIC_CAS(unsigned int)
LDC_ATOMIC_CAS(unsigned long long)
LDC_ATOMIC_CAS(unsigned short)
#undef LDC_ATOMIC_CAS

// Scoped variants: every scope is the strongest one here.
#define LDC_ATOMIC_SCOPED(fn)                                                  \
  template <typename... A>                                                     \
  LDC_ENGINE inline auto fn##_block(A... a)->decltype(fn(a...)) {                         \
    return fn(a...);                                                           \
  }                                                                            \
  template <typename... A>                                                     \
  LDC_ENGINE inline auto fn##_system(A... a)->decltype(fn(a...)) {                        \
    return fn(a...);                                                           \
  }
LDC_ATOMIC_SCOPED(atomicAdd)
LDC_ATOMIC_SCOPED(atomicSub)
LDC_ATOMIC_SCOPED(atomicExch)
LDC_ATOMIC_SCOPED(atomicMin)
LDC_ATOMIC_SCOPED(atomicMax)
LDC_ATOMIC_SCOPED(atomicInc)
LDC_ATOMIC_SCOPED(atomicDec)
LDC_ATOMIC_SCOPED(atomicCAS)
LDC_ATOMIC_SCOPED(atomicAnd)
LDC_ATOMIC_SCOPED(atomicOr)
LDC_ATOMIC_SCOPED(atomicXor)
#undef LDC_ATOMIC_SCOPED

LDC_ENGINE inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
LDC_ENGINE inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// A block lives on one OS thread: only the compiler can reorder within it.
LDC_ENGINE inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

template <typename T> LDC_ENGINE inline T __ldg(const T *p) { return *p; }

// ---------------------------------------------------------------------------
// Math and integer intrinsics (the <cmath> float functions come from libm)
// ---------------------------------------------------------------------------

LDC_ENGINE inline float __expf(float x) { return expf(x); }
LDC_ENGINE inline float __exp10f(float x) { return exp10f(x); }
LDC_ENGINE inline float __logf(float x) { return logf(x); }
LDC_ENGINE inline float __log2f(float x) { return log2f(x); }
LDC_ENGINE inline float __log10f(float x) { return log10f(x); }
LDC_ENGINE inline float __sinf(float x) { return sinf(x); }
LDC_ENGINE inline float __cosf(float x) { return cosf(x); }
LDC_ENGINE inline float __tanf(float x) { return tanf(x); }
LDC_ENGINE inline void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
LDC_ENGINE inline float __powf(float x, float y) { return powf(x, y); }
LDC_ENGINE inline float __fdividef(float x, float y) { return x / y; }
LDC_ENGINE inline float fdividef(float x, float y) { return x / y; }
LDC_ENGINE inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
LDC_ENGINE inline double rsqrt(double x) { return 1.0 / sqrt(x); }
LDC_ENGINE inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
LDC_ENGINE inline float __fsqrt_rn(float x) { return sqrtf(x); }
LDC_ENGINE inline float __frcp_rn(float x) { return 1.0f / x; }
LDC_ENGINE inline float __saturatef(float x) { return x > 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }
LDC_ENGINE inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
LDC_ENGINE inline float __fadd_rn(float x, float y) { return x + y; }
LDC_ENGINE inline float __fmul_rn(float x, float y) { return x * y; }
LDC_ENGINE inline float __fdiv_rn(float x, float y) { return x / y; }
LDC_ENGINE inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }


LDC_ENGINE inline int __float_as_int(float x) { return ldc::from_bits<int>(ldc::to_bits(x)); }
LDC_ENGINE inline float __int_as_float(int x) { return ldc::from_bits<float>(ldc::to_bits(x)); }
LDC_ENGINE inline unsigned int __float_as_uint(float x) {
  return ldc::from_bits<unsigned int>(ldc::to_bits(x));
}
LDC_ENGINE inline float __uint_as_float(unsigned int x) {
  return ldc::from_bits<float>(ldc::to_bits(x));
}
LDC_ENGINE inline long long __double_as_longlong(double x) {
  return ldc::from_bits<long long>(ldc::to_bits(x));
}
LDC_ENGINE inline double __longlong_as_double(long long x) {
  return ldc::from_bits<double>(ldc::to_bits(x));
}

LDC_ENGINE inline int __popc(unsigned int x) { return __builtin_popcount(x); }
LDC_ENGINE inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
LDC_ENGINE inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
LDC_ENGINE inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
LDC_ENGINE inline int __ffs(int x) { return __builtin_ffs(x); }
LDC_ENGINE inline int __ffsll(long long x) { return __builtin_ffsll(x); }
LDC_ENGINE inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i++, x >>= 1)
    r = (r << 1) | (x & 1u);
  return r;
}
LDC_ENGINE inline unsigned long long __brevll(unsigned long long x) {
  return (unsigned long long)__brev((unsigned int)x) << 32 | __brev((unsigned int)(x >> 32));
}
// Low 32 bits of the product of the low 24 bits (sign-extended for __mul24).
LDC_ENGINE inline int __mul24(int x, int y) {
  int64_t a = (int32_t)((uint32_t)x << 8) >> 8, b = (int32_t)((uint32_t)y << 8) >> 8;
  return (int)(uint32_t)(uint64_t)(a * b);
}
LDC_ENGINE inline unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
LDC_ENGINE inline int __mulhi(int x, int y) { return (int)(((int64_t)x * y) >> 32); }
LDC_ENGINE inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((uint64_t)x * y) >> 32);
}
LDC_ENGINE inline long long __mul64hi(long long x, long long y) {
  return (long long)(((__int128)x * y) >> 64);
}
LDC_ENGINE inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
LDC_ENGINE inline unsigned int __sad(int x, int y, unsigned int z) {
  return (x > y ? (unsigned)x - (unsigned)y : (unsigned)y - (unsigned)x) + z;
}
LDC_ENGINE inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}


// ---------------------------------------------------------------------------
// The rest of the CUDA Math API (passes/testdata/math_api.txt lists it;
// TestMathAPI checks it is all here). Directed rounding (_rz, _ru, _rd)
// runs the operation under fesetround, through volatiles so that the
// compiler neither folds it nor moves it out of the rounding mode.
// ---------------------------------------------------------------------------

namespace ldc {
template <class T, class F> LDC_ENGINE inline T rounded(int mode, F op) {
  int old = fegetround();
  fesetround(mode);
  volatile T r = op();
  fesetround(old);
  return r;
}
// CUDA's float-to-integer conversions: round as the mode says, saturate at
// the integer type's range, NaN gives 0.
template <class I, class F> LDC_ENGINE inline I convert(F x, int mode) {
  if (x != x) return 0;
  F r = mode == FE_TOWARDZERO ? std::trunc(x) : mode == FE_UPWARD ? std::ceil(x) : mode == FE_DOWNWARD ? std::floor(x) : std::nearbyint(x);
  if (r <= (F)std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  if (r >= (F)std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  return (I)r;
}
LDC_ENGINE inline double sinpi(double x) {
  double r = std::fmod(x, 2.0); // exact
  if (r == 0 || r == 1 || r == -1) return std::copysign(0.0, x);
  return std::sin(M_PI * r);
}
LDC_ENGINE inline double cospi(double x) {
  double r = std::fmod(std::fabs(x), 2.0);
  if (r == 0.5 || r == 1.5) return 0.0;
  return std::cos(M_PI * r);
}
// Inverse error function: Winitzki's approximation, then Newton steps on erf.
LDC_ENGINE inline double erfinv(double y) {
  if (y != y || y < -1 || y > 1) return NAN;
  if (y == 1 || y == -1) return y * INFINITY;
  if (y == 0) return y;
  const double a = 0.147, l = std::log((1 - y) * (1 + y)), t = 2 / (M_PI * a) + l / 2;
  double x = std::copysign(std::sqrt(std::sqrt(t * t - l / a) - t), y);
  for (int i = 0; i < 4; i++) x -= (std::erf(x) - y) / (M_2_SQRTPI * std::exp(-x * x));
  return x;
}
LDC_ENGINE inline double erfcinv(double y) {
  if (y != y || y < 0 || y > 2) return NAN;
  if (y == 0) return INFINITY;
  if (y == 2) return -INFINITY;
  if (y > 0.0625 && y < 1.9375) return erfinv(1 - y);
  double z = y < 1 ? y : 2 - y, x = std::sqrt(-std::log(z * std::sqrt(M_PI) * std::sqrt(-std::log(z))));
  for (int i = 0; i < 8; i++) x -= (std::erfc(x) - z) / (-M_2_SQRTPI * std::exp(-x * x));
  return y < 1 ? x : -x;
}
LDC_ENGINE inline double erfcx(double x) {
  if (x < 25) return std::exp(x * x) * std::erfc(x);
  double r = 1 / (x * x), s = 1 - r / 2 + 3 * r * r / 4 - 15 * r * r * r / 8 + 105 * r * r * r * r / 16;
  return s / (x * std::sqrt(M_PI));
}
LDC_ENGINE inline double bessel_i0(double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }
LDC_ENGINE inline double bessel_i1(double x) { return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x); }
} // namespace ldc

#define LDC_ROUNDINGS(M)                                                       \
  M(rn, FE_TONEAREST) M(rz, FE_TOWARDZERO) M(ru, FE_UPWARD) M(rd, FE_DOWNWARD)
#define LDC_ARITH(r, mode)                                                     \
  LDC_ENGINE inline float __fsub_##r(float x, float y) { return ldc::rounded<float>(mode, [&] { volatile float a = x, b = y; return a - b; }); } \
  LDC_ENGINE inline double __dadd_##r(double x, double y) { return ldc::rounded<double>(mode, [&] { volatile double a = x, b = y; return a + b; }); } \
  LDC_ENGINE inline double __dsub_##r(double x, double y) { return ldc::rounded<double>(mode, [&] { volatile double a = x, b = y; return a - b; }); } \
  LDC_ENGINE inline double __dmul_##r(double x, double y) { return ldc::rounded<double>(mode, [&] { volatile double a = x, b = y; return a * b; }); } \
  LDC_ENGINE inline double __ddiv_##r(double x, double y) { return ldc::rounded<double>(mode, [&] { volatile double a = x, b = y; return a / b; }); } \
  LDC_ENGINE inline double __drcp_##r(double x) { return ldc::rounded<double>(mode, [&] { volatile double a = x; return 1.0 / a; }); } \
  LDC_ENGINE inline double __dsqrt_##r(double x) { return ldc::rounded<double>(mode, [&] { volatile double a = x; return std::sqrt(a); }); } \
  LDC_ENGINE inline float __double2float_##r(double x) { return ldc::rounded<float>(mode, [&] { volatile double a = x; return (float)a; }); } \
  LDC_ENGINE inline int __float2int_##r(float x) { return ldc::convert<int>(x, mode); } \
  LDC_ENGINE inline unsigned int __float2uint_##r(float x) { return ldc::convert<unsigned int>(x, mode); } \
  LDC_ENGINE inline long long __float2ll_##r(float x) { return ldc::convert<long long>(x, mode); } \
  LDC_ENGINE inline unsigned long long __float2ull_##r(float x) { return ldc::convert<unsigned long long>(x, mode); } \
  LDC_ENGINE inline int __double2int_##r(double x) { return ldc::convert<int>(x, mode); } \
  LDC_ENGINE inline unsigned int __double2uint_##r(double x) { return ldc::convert<unsigned int>(x, mode); } \
  LDC_ENGINE inline long long __double2ll_##r(double x) { return ldc::convert<long long>(x, mode); } \
  LDC_ENGINE inline unsigned long long __double2ull_##r(double x) { return ldc::convert<unsigned long long>(x, mode); } \
  LDC_ENGINE inline float __int2float_##r(int x) { return ldc::rounded<float>(mode, [&] { volatile int a = x; return (float)a; }); } \
  LDC_ENGINE inline float __uint2float_##r(unsigned int x) { return ldc::rounded<float>(mode, [&] { volatile unsigned int a = x; return (float)a; }); } \
  LDC_ENGINE inline float __ll2float_##r(long long x) { return ldc::rounded<float>(mode, [&] { volatile long long a = x; return (float)a; }); } \
  LDC_ENGINE inline float __ull2float_##r(unsigned long long x) { return ldc::rounded<float>(mode, [&] { volatile unsigned long long a = x; return (float)a; }); } \
  LDC_ENGINE inline double __ll2double_##r(long long x) { return ldc::rounded<double>(mode, [&] { volatile long long a = x; return (double)a; }); } \
  LDC_ENGINE inline double __ull2double_##r(unsigned long long x) { return ldc::rounded<double>(mode, [&] { volatile unsigned long long a = x; return (double)a; }); }
#define LDC_ARITH_DIRECTED(r, mode)                                            \
  LDC_ENGINE inline float __fadd_##r(float x, float y) { return ldc::rounded<float>(mode, [&] { volatile float a = x, b = y; return a + b; }); } \
  LDC_ENGINE inline float __fmul_##r(float x, float y) { return ldc::rounded<float>(mode, [&] { volatile float a = x, b = y; return a * b; }); } \
  LDC_ENGINE inline float __fdiv_##r(float x, float y) { return ldc::rounded<float>(mode, [&] { volatile float a = x, b = y; return a / b; }); } \
  LDC_ENGINE inline float __frcp_##r(float x) { return ldc::rounded<float>(mode, [&] { volatile float a = x; return 1.0f / a; }); } \
  LDC_ENGINE inline float __fsqrt_##r(float x) { return ldc::rounded<float>(mode, [&] { volatile float a = x; return std::sqrt(a); }); } \
  LDC_ENGINE inline float __fmaf_##r(float x, float y, float z) { return ldc::rounded<float>(mode, [&] { volatile float a = x, b = y, c = z; return std::fma(a, b, c); }); } \
  LDC_ENGINE inline double __fma_##r(double x, double y, double z) { return ldc::rounded<double>(mode, [&] { volatile double a = x, b = y, c = z; return std::fma(a, b, c); }); }
LDC_ROUNDINGS(LDC_ARITH)
LDC_ARITH_DIRECTED(rz, FE_TOWARDZERO)
LDC_ARITH_DIRECTED(ru, FE_UPWARD)
LDC_ARITH_DIRECTED(rd, FE_DOWNWARD)
#undef LDC_ARITH
#undef LDC_ARITH_DIRECTED
#undef LDC_ROUNDINGS
LDC_ENGINE inline double __int2double_rn(int x) { return (double)x; }
LDC_ENGINE inline double __uint2double_rn(unsigned int x) { return (double)x; }
LDC_ENGINE inline int __double2hiint(double x) { return (int)(ldc::to_bits(x) >> 32); }
LDC_ENGINE inline int __double2loint(double x) { return (int)(uint32_t)ldc::to_bits(x); }
LDC_ENGINE inline double __hiloint2double(int hi, int lo) {
  return ldc::from_bits<double>((uint64_t)(uint32_t)hi << 32 | (uint32_t)lo);
}
LDC_ENGINE inline double fdivide(double x, double y) { return x / y; }

LDC_ENGINE inline float sinpif(float x) { return (float)ldc::sinpi(x); }
LDC_ENGINE inline double sinpi(double x) { return ldc::sinpi(x); }
LDC_ENGINE inline float cospif(float x) { return (float)ldc::cospi(x); }
LDC_ENGINE inline double cospi(double x) { return ldc::cospi(x); }
LDC_ENGINE inline void sincospif(float x, float *s, float *c) { *s = sinpif(x), *c = cospif(x); }
LDC_ENGINE inline void sincospi(double x, double *s, double *c) { *s = ldc::sinpi(x), *c = ldc::cospi(x); }
LDC_ENGINE inline float erfinvf(float x) { return (float)ldc::erfinv(x); }
LDC_ENGINE inline double erfinv(double x) { return ldc::erfinv(x); }
LDC_ENGINE inline float erfcinvf(float x) { return (float)ldc::erfcinv(x); }
LDC_ENGINE inline double erfcinv(double x) { return ldc::erfcinv(x); }
LDC_ENGINE inline float erfcxf(float x) { return (float)ldc::erfcx(x); }
LDC_ENGINE inline double erfcx(double x) { return ldc::erfcx(x); }
LDC_ENGINE inline float normcdff(float x) { return (float)(0.5 * std::erfc(-x * M_SQRT1_2)); }
LDC_ENGINE inline double normcdf(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }
LDC_ENGINE inline float normcdfinvf(float p) { return (float)(-M_SQRT2 * ldc::erfcinv(2.0 * p)); }
LDC_ENGINE inline double normcdfinv(double p) { return -M_SQRT2 * ldc::erfcinv(2 * p); }
LDC_ENGINE inline float cyl_bessel_i0f(float x) { return (float)ldc::bessel_i0(x); }
LDC_ENGINE inline double cyl_bessel_i0(double x) { return ldc::bessel_i0(x); }
LDC_ENGINE inline float cyl_bessel_i1f(float x) { return (float)ldc::bessel_i1(x); }
LDC_ENGINE inline double cyl_bessel_i1(double x) { return ldc::bessel_i1(x); }
LDC_ENGINE inline float rcbrtf(float x) { return (float)(1.0 / std::cbrt((double)x)); }
LDC_ENGINE inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
LDC_ENGINE inline float rhypotf(float x, float y) { return (float)(1.0 / std::hypot((double)x, (double)y)); }
LDC_ENGINE inline double rhypot(double x, double y) { return (double)(1.0L / std::hypot((long double)x, (long double)y)); }
LDC_ENGINE inline float norm3df(float a, float b, float c) { return (float)std::sqrt((double)a * a + (double)b * b + (double)c * c); }
LDC_ENGINE inline float rnorm3df(float a, float b, float c) { return (float)(1.0 / std::sqrt((double)a * a + (double)b * b + (double)c * c)); }
LDC_ENGINE inline float norm4df(float a, float b, float c, float d) { return (float)std::sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d); }
LDC_ENGINE inline float rnorm4df(float a, float b, float c, float d) { return (float)(1.0 / std::sqrt((double)a * a + (double)b * b + (double)c * c + (double)d * d)); }
LDC_ENGINE inline double norm3d(double a, double b, double c) { return (double)std::sqrt((long double)a * a + (long double)b * b + (long double)c * c); }
LDC_ENGINE inline double rnorm3d(double a, double b, double c) { return (double)(1.0L / std::sqrt((long double)a * a + (long double)b * b + (long double)c * c)); }
LDC_ENGINE inline double norm4d(double a, double b, double c, double d) { return (double)std::sqrt((long double)a * a + (long double)b * b + (long double)c * c + (long double)d * d); }
LDC_ENGINE inline double rnorm4d(double a, double b, double c, double d) { return (double)(1.0L / std::sqrt((long double)a * a + (long double)b * b + (long double)c * c + (long double)d * d)); }
LDC_ENGINE inline float normf(int n, const float *a) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)a[i] * a[i];
  return (float)std::sqrt(s);
}
LDC_ENGINE inline float rnormf(int n, const float *a) { return 1.0f / normf(n, a); }
LDC_ENGINE inline double norm(int n, const double *a) {
  long double s = 0;
  for (int i = 0; i < n; i++) s += (long double)a[i] * a[i];
  return (double)std::sqrt(s);
}
LDC_ENGINE inline double rnorm(int n, const double *a) { return 1.0 / norm(n, a); }

// Integer intrinsics.
LDC_ENGINE inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  uint64_t v = (uint64_t)y << 32 | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
LDC_ENGINE inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int sh) {
  return (unsigned int)((((uint64_t)hi << 32 | lo) << (sh & 31)) >> 32);
}
LDC_ENGINE inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int sh) {
  return sh >= 32 ? lo : __funnelshift_l(lo, hi, sh);
}
LDC_ENGINE inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int sh) {
  return (unsigned int)(((uint64_t)hi << 32 | lo) >> (sh & 31));
}
LDC_ENGINE inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int sh) {
  return sh >= 32 ? hi : __funnelshift_r(lo, hi, sh);
}
// The offset-th set bit of mask counting from bit base (towards the most
// significant bit for offset > 0, the least for offset < 0; offset 0: base
// itself if set), else 0xffffffff.
LDC_ENGINE inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (base > 31) return 0xffffffffu;
  if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
  for (int pos = (int)base; pos >= 0 && pos < 32; pos += offset > 0 ? 1 : -1)
    if ((mask >> pos) & 1 && (offset > 0 ? --offset : ++offset) == 0) return (unsigned int)pos;
  return 0xffffffffu;
}
LDC_ENGINE inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
LDC_ENGINE inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
LDC_ENGINE inline unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x + y) >> 1); }
LDC_ENGINE inline unsigned int __urhadd(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x + y + 1) >> 1); }
LDC_ENGINE inline int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 4; i++) c += (int)(int8_t)(a >> (8 * i)) * (int)(int8_t)(b >> (8 * i));
  return c;
}
LDC_ENGINE inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int i = 0; i < 4; i++) c += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
  return c;
}
LDC_ENGINE inline int __dp2a_lo(int a, int b, int c) {
  return c + (int)(int16_t)a * (int)(int8_t)b + (int)(int16_t)(a >> 16) * (int)(int8_t)(b >> 8);
}
LDC_ENGINE inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a & 0xffff) * (b & 0xff) + (a >> 16) * ((b >> 8) & 0xff);
}
LDC_ENGINE inline int __dp2a_hi(int a, int b, int c) {
  return c + (int)(int16_t)a * (int)(int8_t)(b >> 16) + (int)(int16_t)(a >> 16) * (int)(int8_t)(b >> 24);
}
LDC_ENGINE inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a & 0xffff) * ((b >> 16) & 0xff) + (a >> 16) * (b >> 24);
}

// ---------------------------------------------------------------------------
// Texture objects: a handle is the address of a descriptor that gpuruntime
// puts in front of the buffer given with --arg (the layout is mirrored by
// gpuruntime/launch: magic, then counts, then the data at byte 64). Point
// sampling, unnormalized coordinates, clamp to the edge; tex1Dfetch out of
// range reads 0, as a GPU's linear texture does.
// ---------------------------------------------------------------------------

typedef unsigned long long cudaTextureObject_t;
namespace ldc {
struct Texture {
  uint64_t magic, count, elem_size, width, height, pad[3];
};
static_assert(sizeof(Texture) == 64, "the texture descriptor is mirrored by gpuruntime/launch");
constexpr uint64_t texture_magic = 0x3130584554434c44ull; // "LDCTEX01"
LDC_ENGINE inline const Texture *texture(cudaTextureObject_t t, const char *fn) {
  const Texture *d = (const Texture *)t;
  if (!d || d->magic != texture_magic)
    fail_fiber("%s: %#llx is not a texture object of ldcheck's: give the parameter as --arg NAME=TYPE[COUNT]:INIT", fn, t);
  return d;
}
template <class T> LDC_ENGINE inline T texel(const Texture *d, long long i) {
  long long n = (long long)(d->count * d->elem_size / sizeof(T));
  if (i < 0 || i >= n) return T();
  T v;
  memcpy(&v, (const char *)(d + 1) + i * sizeof(T), sizeof v);
  return v;
}
LDC_ENGINE inline long long clamp_coord(float x, long long n) {
  long long i = (long long)floorf(x);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}
} // namespace ldc
template <class T> LDC_ENGINE inline T tex1Dfetch(cudaTextureObject_t t, int i) {
  return ldc::texel<T>(ldc::texture(t, "tex1Dfetch"), i);
}
template <class T> LDC_ENGINE inline T tex1D(cudaTextureObject_t t, float x) {
  const ldc::Texture *d = ldc::texture(t, "tex1D");
  return ldc::texel<T>(d, ldc::clamp_coord(x, (long long)(d->count * d->elem_size / sizeof(T))));
}
template <class T> LDC_ENGINE inline T tex2D(cudaTextureObject_t t, float x, float y) {
  const ldc::Texture *d = ldc::texture(t, "tex2D");
  if (d->height == 0)
    ldc::fail_fiber("tex2D: the texture is 1-D (ldcheck's --arg makes linear textures; 2-D textures are not supported yet)");
  long long w = (long long)d->width, h = (long long)d->height;
  return ldc::texel<T>(d, ldc::clamp_coord(y, h) * w + ldc::clamp_coord(x, w));
}
template <class T> LDC_ENGINE inline void tex1Dfetch(T *r, cudaTextureObject_t t, int i) { *r = tex1Dfetch<T>(t, i); }
template <class T> LDC_ENGINE inline void tex1D(T *r, cudaTextureObject_t t, float x) { *r = tex1D<T>(t, x); }
template <class T> LDC_ENGINE inline void tex2D(T *r, cudaTextureObject_t t, float x, float y) { *r = tex2D<T>(t, x, y); }

// SIMD intrinsics: the operation on each halfword (…2) or byte (…4) of the
// operands. "s" lanes are signed, "u" unsigned; ss/us saturate; __vcmp*
// sets a lane to all ones where true, __vset* to 1; __vsad* add up the
// lanes' absolute differences; __vavgu* round up ((a + b + 1) >> 1),
// __vavgs* round halves away from zero, __vhaddu* truncate.
namespace ldc {
template <int W> LDC_ENGINE inline int lane_s(unsigned int v, int i) {
  return (int)(v << (32 - W * (i + 1))) >> (32 - W);
}
template <int W> LDC_ENGINE inline unsigned int lane_u(unsigned int v, int i) {
  return (v >> (W * i)) & ((1u << W) - 1);
}
template <int W, class F> LDC_ENGINE inline unsigned int simd(unsigned int a, unsigned int b, F f) {
  unsigned int r = 0;
  for (int i = 0; i < 32 / W; i++) r |= ((unsigned int)f(i, a, b) & ((1u << W) - 1)) << (W * i);
  return r;
}
template <int W> LDC_ENGINE inline long long sat_s(long long v) {
  long long hi = (1ll << (W - 1)) - 1, lo = -(1ll << (W - 1));
  return v > hi ? hi : v < lo ? lo : v;
}
template <int W> LDC_ENGINE inline long long sat_u(long long v) {
  long long hi = (1ll << W) - 1;
  return v > hi ? hi : v < 0 ? 0 : v;
}
} // namespace ldc
#define LDC_SIMD2(name, W, expr)                                               \
  LDC_ENGINE inline unsigned int name(unsigned int a, unsigned int b) {        \
    return ldc::simd<W>(a, b, [](int i, unsigned int a, unsigned int b) {      \
      long long s = ldc::lane_s<W>(a, i), t = ldc::lane_s<W>(b, i);            \
      long long u = ldc::lane_u<W>(a, i), v = ldc::lane_u<W>(b, i);            \
      (void)s, (void)t, (void)u, (void)v;                                      \
      return (long long)(expr);                                                \
    });                                                                        \
  }
#define LDC_SIMD1(name, W, expr)                                               \
  LDC_ENGINE inline unsigned int name(unsigned int a) {                        \
    return ldc::simd<W>(a, 0u, [](int i, unsigned int a, unsigned int) {       \
      long long s = ldc::lane_s<W>(a, i);                                      \
      return (long long)(expr);                                                \
    });                                                                        \
  }
#define LDC_SIMD_BOTH(M, base, expr) M(base##2, 16, expr) M(base##4, 8, expr)
LDC_SIMD_BOTH(LDC_SIMD1, __vabs, s < 0 ? -s : s)
LDC_SIMD_BOTH(LDC_SIMD1, __vneg, -s)
LDC_SIMD_BOTH(LDC_SIMD2, __vabsdiffs, s > t ? s - t : t - s)
LDC_SIMD_BOTH(LDC_SIMD2, __vabsdiffu, u > v ? u - v : v - u)
LDC_SIMD_BOTH(LDC_SIMD2, __vadd, u + v)
LDC_SIMD_BOTH(LDC_SIMD2, __vsub, u - v)
// Signed averages round halves away from zero (as the GPU's do).
LDC_SIMD_BOTH(LDC_SIMD2, __vavgs, s + t >= 0 ? (s + t + 1) >> 1 : -((-(s + t) + 1) >> 1))
LDC_SIMD_BOTH(LDC_SIMD2, __vavgu, (u + v + 1) >> 1)
LDC_SIMD_BOTH(LDC_SIMD2, __vhaddu, (u + v) >> 1)
LDC_SIMD_BOTH(LDC_SIMD2, __vmaxs, s > t ? s : t)
LDC_SIMD_BOTH(LDC_SIMD2, __vmaxu, u > v ? u : v)
LDC_SIMD_BOTH(LDC_SIMD2, __vmins, s < t ? s : t)
LDC_SIMD_BOTH(LDC_SIMD2, __vminu, u < v ? u : v)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpeq, u == v ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpne, u != v ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpges, s >= t ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpgeu, u >= v ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpgts, s > t ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpgtu, u > v ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmples, s <= t ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpleu, u <= v ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmplts, s < t ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vcmpltu, u < v ? -1 : 0)
LDC_SIMD_BOTH(LDC_SIMD2, __vseteq, u == v)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetne, u != v)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetges, s >= t)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetgeu, u >= v)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetgts, s > t)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetgtu, u > v)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetles, s <= t)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetleu, u <= v)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetlts, s < t)
LDC_SIMD_BOTH(LDC_SIMD2, __vsetltu, u < v)
#undef LDC_SIMD_BOTH
#undef LDC_SIMD1
#undef LDC_SIMD2
#define LDC_SIMD_SAT(name, W, expr)                                            \
  LDC_ENGINE inline unsigned int name(unsigned int a, unsigned int b) {        \
    return ldc::simd<W>(a, b, [](int i, unsigned int a, unsigned int b) {      \
      long long s = ldc::lane_s<W>(a, i), t = ldc::lane_s<W>(b, i);            \
      long long u = ldc::lane_u<W>(a, i), v = ldc::lane_u<W>(b, i);            \
      (void)s, (void)t, (void)u, (void)v;                                      \
      return expr;                                                             \
    });                                                                        \
  }
LDC_SIMD_SAT(__vaddss2, 16, ldc::sat_s<16>(s + t))
LDC_SIMD_SAT(__vaddss4, 8, ldc::sat_s<8>(s + t))
LDC_SIMD_SAT(__vaddus2, 16, ldc::sat_u<16>(u + v))
LDC_SIMD_SAT(__vaddus4, 8, ldc::sat_u<8>(u + v))
LDC_SIMD_SAT(__vsubss2, 16, ldc::sat_s<16>(s - t))
LDC_SIMD_SAT(__vsubss4, 8, ldc::sat_s<8>(s - t))
LDC_SIMD_SAT(__vsubus2, 16, ldc::sat_u<16>(u - v))
LDC_SIMD_SAT(__vsubus4, 8, ldc::sat_u<8>(u - v))
#undef LDC_SIMD_SAT
#define LDC_SIMD_SAT1(name, W, expr)                                           \
  LDC_ENGINE inline unsigned int name(unsigned int a) {                        \
    return ldc::simd<W>(a, 0u, [](int i, unsigned int a, unsigned int) {       \
      long long s = ldc::lane_s<W>(a, i);                                      \
      return expr;                                                             \
    });                                                                        \
  }
LDC_SIMD_SAT1(__vabsss2, 16, ldc::sat_s<16>(s < 0 ? -s : s))
LDC_SIMD_SAT1(__vabsss4, 8, ldc::sat_s<8>(s < 0 ? -s : s))
LDC_SIMD_SAT1(__vnegss2, 16, ldc::sat_s<16>(-s))
LDC_SIMD_SAT1(__vnegss4, 8, ldc::sat_s<8>(-s))
#undef LDC_SIMD_SAT1
#define LDC_SIMD_SAD(name, W, get)                                             \
  LDC_ENGINE inline unsigned int name(unsigned int a, unsigned int b) {        \
    unsigned int r = 0;                                                        \
    for (int i = 0; i < 32 / W; i++) {                                         \
      long long x = ldc::get<W>(a, i), y = ldc::get<W>(b, i);                  \
      r += (unsigned int)(x > y ? x - y : y - x);                              \
    }                                                                          \
    return r;                                                                  \
  }
LDC_SIMD_SAD(__vsads2, 16, lane_s)
LDC_SIMD_SAD(__vsads4, 8, lane_s)
LDC_SIMD_SAD(__vsadu2, 16, lane_u)
LDC_SIMD_SAD(__vsadu4, 8, lane_u)
#undef LDC_SIMD_SAD

// min/max as CUDA overloads them (mixed signed/unsigned goes unsigned).
#define LDC_MINMAX(R, A, B)                                                    \
  LDC_ENGINE inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                 \
  LDC_ENGINE inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
LDC_MINMAX(int, int, int)
LDC_MINMAX(unsigned int, unsigned int, unsigned int)
LDC_MINMAX(unsigned int, int, unsigned int)
LDC_MINMAX(unsigned int, unsigned int, int)
LDC_MINMAX(long, long, long)
LDC_MINMAX(unsigned long, unsigned long, unsigned long)
LDC_MINMAX(unsigned long, long, unsigned long)
LDC_MINMAX(unsigned long, unsigned long, long)
LDC_MINMAX(long long, long long, long long)
LDC_MINMAX(unsigned long long, unsigned long long, unsigned long long)
LDC_MINMAX(unsigned long long, long long, unsigned long long)
LDC_MINMAX(unsigned long long, unsigned long long, long long)
#undef LDC_MINMAX
LDC_ENGINE inline float min(float a, float b) { return fminf(a, b); }
LDC_ENGINE inline float max(float a, float b) { return fmaxf(a, b); }
LDC_ENGINE inline double min(double a, double b) { return fmin(a, b); }
LDC_ENGINE inline double max(double a, double b) { return fmax(a, b); }
LDC_ENGINE inline double min(float a, double b) { return fmin(a, b); }
LDC_ENGINE inline double max(float a, double b) { return fmax(a, b); }
LDC_ENGINE inline double min(double a, float b) { return fmin(a, b); }
LDC_ENGINE inline double max(double a, float b) { return fmax(a, b); }
LDC_ENGINE inline unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
LDC_ENGINE inline unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
LDC_ENGINE inline long long llmin(long long a, long long b) { return min(a, b); }
LDC_ENGINE inline long long llmax(long long a, long long b) { return max(a, b); }
LDC_ENGINE inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
LDC_ENGINE inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// clock() is the C library's (process CPU time: monotonic, coarse).
LDC_ENGINE inline long long clock64() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#ifdef LDC_STEPS
// The hooks the compiler calls (ThreadSanitizer's ABI). Hidden: each kernel
// library binds to its own, which knows its own running fiber.
#define LDC_HOOK extern "C" LDC_ENGINE __attribute__((visibility("hidden"))) void
#define LDC_ACCESS_HOOKS(n)                                                    \
  LDC_HOOK __tsan_read##n(void *p) { ldc::step(p); }                           \
  LDC_HOOK __tsan_write##n(void *p) { ldc::step(p); }                          \
  LDC_HOOK __tsan_unaligned_read##n(void *p) { ldc::step(p); }                 \
  LDC_HOOK __tsan_unaligned_write##n(void *p) { ldc::step(p); }                \
  LDC_HOOK __tsan_volatile_read##n(void *p) { ldc::step(p); }                  \
  LDC_HOOK __tsan_volatile_write##n(void *p) { ldc::step(p); }                 \
  LDC_HOOK __tsan_unaligned_volatile_read##n(void *p) { ldc::step(p); }        \
  LDC_HOOK __tsan_unaligned_volatile_write##n(void *p) { ldc::step(p); }
LDC_ACCESS_HOOKS(1)
LDC_ACCESS_HOOKS(2)
LDC_ACCESS_HOOKS(4)
LDC_ACCESS_HOOKS(8)
LDC_ACCESS_HOOKS(16)
LDC_HOOK __tsan_read_range(void *p, unsigned long) { ldc::step(p); }
LDC_HOOK __tsan_write_range(void *p, unsigned long) { ldc::step(p); }
LDC_HOOK __tsan_init(void) {}
LDC_HOOK __tsan_func_entry(void *) {}
LDC_HOOK __tsan_func_exit(void) {}
LDC_HOOK __tsan_vptr_read(void **) {}
LDC_HOOK __tsan_vptr_update(void **, void *) {}

// Atomics in kernel code (the header's own atomicAdd etc. are not
// instrumented): a step, then the operation, always sequentially consistent
// (stronger than asked, which is allowed). The order argument is ignored.
#define LDC_ATOMIC_HOOKS(bits, T)                                              \
  extern "C" LDC_ENGINE __attribute__((visibility("hidden"))) T               \
      __tsan_atomic##bits##_load(const volatile T *p, int) {                   \
    ldc::step((const void *)p);                                                \
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);                               \
  }                                                                            \
  LDC_HOOK __tsan_atomic##bits##_store(volatile T *p, T v, int) {              \
    ldc::step((const void *)p);                                                \
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);                                  \
  }                                                                            \
  LDC_ATOMIC_RMW(bits, T, exchange, __atomic_exchange_n)                       \
  LDC_ATOMIC_RMW(bits, T, fetch_add, __atomic_fetch_add)                       \
  LDC_ATOMIC_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                       \
  LDC_ATOMIC_RMW(bits, T, fetch_and, __atomic_fetch_and)                       \
  LDC_ATOMIC_RMW(bits, T, fetch_or, __atomic_fetch_or)                         \
  LDC_ATOMIC_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                       \
  LDC_ATOMIC_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                     \
  extern "C" LDC_ENGINE __attribute__((visibility("hidden"))) int             \
      __tsan_atomic##bits##_compare_exchange_strong(volatile T *p, T *expected, \
                                                    T desired, int, int) {     \
    ldc::step((const void *)p);                                                \
    return __atomic_compare_exchange_n(p, expected, desired, false,            \
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);    \
  }                                                                            \
  extern "C" LDC_ENGINE __attribute__((visibility("hidden"))) int             \
      __tsan_atomic##bits##_compare_exchange_weak(volatile T *p, T *expected,  \
                                                  T desired, int a, int b) {   \
    /* never failing spuriously is allowed */                                  \
    return __tsan_atomic##bits##_compare_exchange_strong(p, expected, desired, \
                                                         a, b);                \
  }                                                                            \
  extern "C" LDC_ENGINE __attribute__((visibility("hidden"))) T               \
      __tsan_atomic##bits##_compare_exchange_val(volatile T *p, T expected,    \
                                                 T desired, int, int) {        \
    ldc::step((const void *)p);                                                \
    __atomic_compare_exchange_n(p, &expected, desired, false,                  \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    return expected;                                                           \
  }
#define LDC_ATOMIC_RMW(bits, T, op, builtin)                                   \
  extern "C" LDC_ENGINE __attribute__((visibility("hidden"))) T               \
      __tsan_atomic##bits##_##op(volatile T *p, T v, int) {                    \
    ldc::step((const void *)p);                                                \
    return builtin(p, v, __ATOMIC_SEQ_CST);                                    \
  }
LDC_ATOMIC_HOOKS(8, uint8_t)
LDC_ATOMIC_HOOKS(16, uint16_t)
LDC_ATOMIC_HOOKS(32, uint32_t)
LDC_ATOMIC_HOOKS(64, uint64_t)
LDC_HOOK __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
LDC_HOOK __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
#undef LDC_ATOMIC_RMW
#undef LDC_ATOMIC_HOOKS
#undef LDC_ACCESS_HOOKS
#undef LDC_HOOK
#endif // LDC_STEPS

extern "C" LDC_ENGINE void ldc_assert_fail(const char *expr, const char *file, int line,
                               const char *func) {
  ldc::fail_fiber("%s:%d: %s: assertion `%s' failed", file, line, func, expr);
}

// ---------------------------------------------------------------------------
// The launch engine
// ---------------------------------------------------------------------------

namespace ldc {

LDC_ENGINE inline void fiber_main() {
  Fiber *f = current_fiber;
  Launch *L = f->worker->launch;
  try {
    L->entry(L->args);
  } catch (...) {
    fail_fiber("the kernel threw a C++ exception");
  }
  // Exited threads count as arrived at the block barrier (Volta+), so this
  // exit may be what the others wait for.
  compiler_barrier();
  f = current_fiber;
  Worker *w = f->worker;
  f->state = FiberState::exited;
  w->live--;
  w->warps[f->linear / kWarpSize].exited |= 1u << (f->linear % kWarpSize);
  if (w->bar_arrived > 0 && w->bar_arrived == w->live)
    release_barrier(w);
  Context dead;
  context_switch(&dead, &w->scheduler); // never resumed
  abort();
}

// Appends printf-style text to a fixed buffer, silently truncating.
struct Text {
  char *buf;
  size_t cap, len;
  __attribute__((format(printf, 2, 3))) void add(const char *fmt, ...) {
    if (len + 1 >= cap)
      return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    if (n > 0)
      len = len + (size_t)n < cap ? len + (size_t)n : cap - 1;
  }
  // Writes the set bits of a bitset as ranges: "0-4,6,8-31".
  void ranges(const unsigned *bits, unsigned nbits) {
    bool first = true;
    for (unsigned i = 0; i < nbits;) {
      if (!(bits[i / 32] >> (i % 32) & 1u)) {
        i++;
        continue;
      }
      unsigned j = i;
      while (j + 1 < nbits && (bits[(j + 1) / 32] >> ((j + 1) % 32) & 1u))
        j++;
      if (j == i)
        add("%s%u", first ? "" : ",", i);
      else
        add("%s%u-%u", first ? "" : ",", i, j);
      first = false;
      i = j + 1;
    }
  }
};

// Explains, on one line, why no fiber of the block can run.
LDC_ENGINE inline void report_deadlock(Worker *w) {
  Launch *L = w->launch;
  char msg[sizeof L->message];
  Text t{msg, sizeof msg, 0};
  t.add("block (%u,%u,%u): deadlock:", w->block_idx.x, w->block_idx.y,
        w->block_idx.z);
  const char *sep = " ";
  for (unsigned wi = 0; wi < w->nwarps; wi++) {
    Warp &wp = w->warps[wi];
    unsigned pending = wp.waiting;
    while (pending != 0) {
      unsigned l = (unsigned)__builtin_ctz(pending);
      const LaneCall &c = wp.lane[l];
      unsigned group = 0;
      for (unsigned k = 0; k < kWarpSize; k++)
        if ((pending >> k & 1u) && wp.lane[k].mask == c.mask &&
            wp.lane[k].name == c.name)
          group |= 1u << k;
      pending &= ~group;
      t.add("%swarp %u lanes ", sep, wi);
      t.ranges(&group, kWarpSize);
      t.add(" wait in %s(mask 0x%08x)", c.name, c.mask);
      // Why the rest of the mask is not there.
      unsigned missing = c.mask & ~group, exited = 0, at_barrier = 0, other = 0;
      for (unsigned k = 0; k < kWarpSize; k++) {
        if (!(missing >> k & 1u))
          continue;
        FiberState s = w->fibers[wi * kWarpSize + k].state;
        if (s == FiberState::exited)
          exited |= 1u << k;
        else if (s == FiberState::at_barrier)
          at_barrier |= 1u << k;
        else
          other |= 1u << k;
      }
      const unsigned sets[] = {exited, at_barrier, other};
      const char *why[] = {"exited", "wait at __syncthreads",
                           "wait in another warp intrinsic call"};
      for (int i = 0; i < 3; i++) {
        if (sets[i] == 0)
          continue;
        t.add(", lane%s ", __builtin_popcount(sets[i]) > 1 ? "s" : "");
        t.ranges(&sets[i], kWarpSize);
        t.add(" %s", why[i]);
      }
      sep = "; ";
    }
  }
  if (w->bar_nwaiters > 0) {
    unsigned bits[kMaxBlockThreads / 32] = {};
    for (unsigned i = 0; i < w->bar_nwaiters; i++)
      bits[w->bar_waiters[i] / 32] |= 1u << (w->bar_waiters[i] % 32);
    t.add("%sthreads ", sep);
    t.ranges(bits, L->nthreads);
    t.add(" wait at __syncthreads (%u of %u live threads arrived)",
          w->bar_arrived, w->live);
  }
  record_error(L, "%s", msg);
}

// Hands every lane waiting in __activemask() the set of such lanes of its warp.
LDC_ENGINE inline bool resolve_activemask(Worker *w) {
  bool any = false;
  for (unsigned wi = 0; wi < w->nwarps; wi++) {
    Warp &wp = w->warps[wi];
    unsigned m = wp.at_activemask;
    if (m == 0)
      continue;
    for (unsigned k = 0; k < kWarpSize; k++) {
      if (m >> k & 1u) {
        wp.lane[k].result.value = m;
        make_ready(w, wi * kWarpSize + k);
      }
    }
    wp.at_activemask = 0;
    any = true;
  }
  return any;
}

// Runs block `id` to completion; false when the launch failed.
LDC_ENGINE inline bool run_block(Worker *w, unsigned long long id) {
  Launch *L = w->launch;
  unsigned long long gx = L->grid.x, gy = L->grid.y;
  w->block_idx = uint3{(unsigned)(id % gx), (unsigned)(id / gx % gy),
                       (unsigned)(id / (gx * gy))};
  w->live = L->nthreads;
  w->qhead = w->qlen = 0;
  w->bar_arrived = w->bar_count = w->bar_nwaiters = 0;
  w->bar_and = true;
  w->bar_or = false;
  progress_store(&w->progress->waiting, 0);
  progress_store(&w->progress->block, id + 1);
  for (unsigned i = 0; i < w->nwarps; i++) {
    w->warps[i].exited = w->warps[i].waiting = w->warps[i].at_activemask = 0;
    for (unsigned k = 0; k < kWarpSize; k++)
      w->warps[i].lane[k].mask = 0;
  }
  for (unsigned i = 0; i < L->nthreads; i++) {
    Fiber &f = w->fibers[i];
    context_arm(&f.ctx, f.stack, LDC_FIBER_STACK_SIZE, fiber_main);
    make_ready(w, i);
  }
  for (;;) {
    while (w->qlen > 0) {
      Fiber *f = &w->fibers[w->queue[w->qhead]];
      w->qhead = (w->qhead + 1) % L->nthreads;
      w->qlen--;
      f->state = FiberState::running;
      current_fiber = f;
      context_switch(&w->scheduler, &f->ctx);
      current_fiber = nullptr;
      if (w->aborted || __atomic_load_n(&L->fail_block, __ATOMIC_RELAXED) < id)
        return false;
    }
    if (w->live == 0) {
      progress_store(&w->progress->block, 0);
      progress_store(&w->progress->blocks_done, w->progress->blocks_done + 1);
      return true;
    }
    if (resolve_activemask(w))
      continue;
    report_deadlock(w);
    return false;
  }
}

LDC_ENGINE inline size_t page_size() { return (size_t)sysconf(_SC_PAGESIZE); }
LDC_ENGINE inline size_t stack_slot() {
  size_t page = page_size();
  return (LDC_FIBER_STACK_SIZE + page - 1) / page * page + page;
}

LDC_ENGINE inline void worker_free(Worker *w) {
  if (w->stacks)
    munmap(w->stacks, w->stacks_len);
  delete[] w->fibers;
  delete[] w->queue;
  delete[] w->bar_waiters;
  delete[] w->warps;
  free(w->dyn_shared);
}


LDC_ENGINE inline bool worker_init(Worker *w, Launch *L) {
  unsigned n = L->nthreads;
  w->launch = L;
  w->nwarps = (n + kWarpSize - 1) / kWarpSize;
  w->fibers = new (std::nothrow) Fiber[n];
  w->queue = new (std::nothrow) unsigned[n];
  w->bar_waiters = new (std::nothrow) unsigned[n];
  w->warps = new (std::nothrow) Warp[w->nwarps];
  // Zeroed, 16-byte aligned, never null (even for 0 bytes), like the GPU's.
  size_t dyn = (L->dyn_shared + 15) / 16 * 16;
  if (dyn == 0)
    dyn = 16;
  if (posix_memalign((void **)&w->dyn_shared, 16, dyn) != 0)
    w->dyn_shared = nullptr;
  if (!w->fibers || !w->queue || !w->bar_waiters || !w->warps || !w->dyn_shared) {
    record_error(L, "out of memory setting up a worker for %u threads", n);
    return false;
  }
  memset(w->dyn_shared, 0, dyn);

  size_t page = page_size(), slot = stack_slot();
  w->stacks_len = slot * n;
  void *m = mmap(nullptr, w->stacks_len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (m == MAP_FAILED) {
    w->stacks = nullptr;
    record_error(L, "cannot map %zu bytes of fiber stacks: %s", w->stacks_len,
                 strerror(errno));
    return false;
  }
  w->stacks = (char *)m;
  for (unsigned i = 0; i < n; i++) {
    // Guard page below each stack: an overflow faults instead of silently
    // corrupting the neighbouring thread's stack.
    if (mprotect(w->stacks + i * slot, page, PROT_NONE) != 0) {
      record_error(L, "cannot protect a fiber stack guard page: %s", strerror(errno));
      return false;
    }
    Fiber &f = w->fibers[i];
    f.stack = w->stacks + i * slot + page;
    f.linear = i;
    f.worker = w;
    f.thread_idx = uint3{i % L->block.x, i / L->block.x % L->block.y,
                         i / (L->block.x * L->block.y)};
    f.state = FiberState::exited;
    context_init(&f.ctx);
  }
  for (unsigned i = 0; i < w->nwarps; i++) {
    unsigned lanes = n - i * kWarpSize < kWarpSize ? n - i * kWarpSize : kWarpSize;
    w->warps[i].present = lanes == kWarpSize ? kFullMask : (1u << lanes) - 1;
  }
  current_dyn_shared = w->dyn_shared;
  return true;
}

// ---------------------------------------------------------------------------
// Faults: an out-of-bounds access by a kernel thread fails the launch with
// the address (gpuruntime names the buffer), instead of killing the process
// ---------------------------------------------------------------------------

// The handlers that were installed before ours, called for faults that are
// not a kernel thread's of this library (Go's own, another module's).
static struct sigaction previous_segv, previous_bus;

LDC_ENGINE inline void chain_fault(int sig, siginfo_t *info, void *uctx) {
  struct sigaction *prev = sig == SIGBUS ? &previous_bus : &previous_segv;
  if (prev->sa_flags & SA_SIGINFO) {
    prev->sa_sigaction(sig, info, uctx);
  } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
    prev->sa_handler(sig);
  } else {
    signal(sig, SIG_DFL); // the fault repeats and ends the process
  }
}

LDC_ENGINE inline void on_fault(int sig, siginfo_t *info, void *uctx) {
  Fiber *f = current_fiber;
  if (f == nullptr) {
    chain_fault(sig, info, uctx);
    return;
  }
  uintptr_t addr = (uintptr_t)info->si_addr;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  Worker *w = f->worker;
  for (unsigned i = 0; i < w->launch->nthreads; i++) {
    uintptr_t lo = (uintptr_t)w->fibers[i].stack - page;
    if (addr >= lo && addr < lo + page)
      fail_fiber("stack overflow: a thread used more than its %zu-byte stack "
                 "(deep recursion or large local arrays; rebuild with "
                 "-DLDC_FIBER_STACK_SIZE=N)",
                 (size_t)LDC_FIBER_STACK_SIZE);
  }
  const char *how = "";
  static thread_local FaultRecord fr;
  fr = FaultRecord{};
  fr.kind = 1;
#if defined(__x86_64__)
  // The page-fault error code says whether the access was a write.
  bool wrote = ((ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2;
  how = wrote ? " (write)" : " (read)";
  fr.access = wrote ? 2 : 1;
#endif
  fr.block[0] = w->block_idx.x, fr.block[1] = w->block_idx.y, fr.block[2] = w->block_idx.z;
  fr.thread[0] = f->thread_idx.x, fr.thread[1] = f->thread_idx.y, fr.thread[2] = f->thread_idx.z;
  fr.addr = (unsigned long long)addr;
  pending_fault = &fr;
  fail_fiber("out-of-bounds access to address 0x%llx%s",
             (unsigned long long)addr, how);
}

// Installs on_fault once per library, in front of whatever was there, and
// keeps the library loaded for good: the handlers installed after it may
// chain to it.
LDC_ENGINE inline void install_fault_handler() {
  static int installed;
  if (__atomic_exchange_n(&installed, 1, __ATOMIC_ACQ_REL))
    return;
  Dl_info self;
  if (dladdr((void *)&install_fault_handler, &self) && self.dli_fname)
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
  sigaction(SIGBUS, &sa, &previous_bus);
}

LDC_ENGINE inline void *worker_main(void *arg) {
  Launch *L = (Launch *)arg;
  Worker w;
  memset((void *)&w, 0, sizeof w);
  unsigned long long slot = __atomic_fetch_add(&L->started_workers, 1, __ATOMIC_RELAXED);
  w.progress = L->progress && slot < L->progress->nslots ? &L->progress->slot[slot]
                                                         : &w.own_progress;
  // The fault handler runs on its own stack: a fault may be a fiber's
  // stack overflow.
  stack_t alt, old_alt;
  alt.ss_size = 64 * 1024;
  alt.ss_sp = malloc(alt.ss_size);
  alt.ss_flags = 0;
  if (alt.ss_sp != nullptr && sigaltstack(&alt, &old_alt) != 0) {
    free(alt.ss_sp);
    alt.ss_sp = nullptr;
  }
  if (worker_init(&w, L)) {
    for (;;) {
      unsigned long long id = __atomic_fetch_add(&L->next_block, 1, __ATOMIC_RELAXED);
      if (id >= L->nblocks || id > __atomic_load_n(&L->fail_block, __ATOMIC_RELAXED))
        break;
      current_block = id;
      if (!run_block(&w, id))
        break;
    }
  }
  current_dyn_shared = nullptr;
  worker_free(&w);
  if (alt.ss_sp != nullptr) {
    stack_t off;
    memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    free(alt.ss_sp);
  }
  return nullptr;
}

LDC_ENGINE inline unsigned cpu_count() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return (unsigned)CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1;
}

__attribute__((format(printf, 3, 4))) LDC_ENGINE inline int
launch_error(char *err, unsigned long errlen, const char *fmt, ...) {
  if (err && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return 1;
}

} // namespace ldc

extern "C" __attribute__((visibility("default"))) int ldc_cpu_abi_version(void) {
  return 3;
}

extern "C" __attribute__((visibility("default"))) int
ldc_cpu_launch(void (*entry)(void **args), void **args, const unsigned grid[3],
               const unsigned block[3], unsigned long dyn_shared, int workers,
               char *err, unsigned long errlen, ldc::LaunchProgress *progress) {
  using namespace ldc;
  // The buffer holds the fault record, then the message.
  FaultRecord *fault_out = nullptr;
  if (err && errlen > sizeof(FaultRecord)) {
    fault_out = (FaultRecord *)err;
    memset(fault_out, 0, sizeof *fault_out);
    err += sizeof(FaultRecord);
    errlen -= sizeof(FaultRecord);
  } else {
    err = nullptr;
    errlen = 0;
  }
  if (err && errlen > 0)
    err[0] = '\0';
  if (entry == nullptr)
    return launch_error(err, errlen, "no kernel entry point");
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return launch_error(err, errlen, "empty grid (%u,%u,%u)", grid[0], grid[1], grid[2]);
  if (grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535)
    return launch_error(err, errlen,
                        "grid (%u,%u,%u) exceeds the limits (2147483647,65535,65535)",
                        grid[0], grid[1], grid[2]);
  if (block[0] == 0 || block[1] == 0 || block[2] == 0)
    return launch_error(err, errlen, "empty block (%u,%u,%u)", block[0], block[1], block[2]);
  unsigned long long nthreads = (unsigned long long)block[0] * block[1] * block[2];
  if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 || nthreads > kMaxBlockThreads)
    return launch_error(err, errlen,
                        "block (%u,%u,%u) has %llu threads; the limits are 1024 "
                        "threads and (1024,1024,64)",
                        block[0], block[1], block[2], nthreads);
  if (dyn_shared > (1ul << 30))
    return launch_error(err, errlen, "%lu bytes of dynamic shared memory is too much",
                        dyn_shared);

  install_fault_handler();
  Launch L;
  memset((void *)&L, 0, sizeof L);
  L.entry = entry;
  L.args = args;
  L.grid = dim3(grid[0], grid[1], grid[2]);
  L.block = dim3(block[0], block[1], block[2]);
  L.nblocks = (unsigned long long)grid[0] * grid[1] * grid[2];
  L.nthreads = (unsigned)nthreads;
  L.dyn_shared = dyn_shared;
  L.fail_block = ~0ull;
  L.progress = progress;
  pthread_mutex_init(&L.mu, nullptr);

  unsigned long long n = workers > 0 ? (unsigned)workers : cpu_count();
  if (n > L.nblocks)
    n = L.nblocks;
  // Each fiber stack with its guard page is two memory mappings; stay well
  // inside the kernel's default limit of 65530 mappings per process.
  unsigned long long by_maps = 30000 / (2 * nthreads + 8);
  if (n > by_maps)
    n = by_maps > 0 ? by_maps : 1;
  if (progress != nullptr) {
    if (progress->nslots > 0 && n > progress->nslots)
      n = progress->nslots; // one slot per worker
    progress_store(&progress->nblocks, L.nblocks);
    progress_store(&progress->workers, n);
  }

  pthread_t *threads = new (std::nothrow) pthread_t[n];
  if (threads == nullptr)
    return launch_error(err, errlen, "out of memory");
  // Workers block asynchronous signals: they are not Go threads, and the
  // host's signals must go to threads that can handle them.
  sigset_t all, old;
  sigfillset(&all);
  static const int synchronous[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                    SIGTRAP, SIGABRT, SIGSYS};
  for (int s : synchronous)
    sigdelset(&all, s);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  unsigned long long started = 0;
  int create_err = 0;
  for (; started < n; started++) {
    create_err = pthread_create(&threads[started], nullptr, worker_main, &L);
    if (create_err != 0)
      break;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  for (unsigned long long i = 0; i < started; i++)
    pthread_join(threads[i], nullptr);
  delete[] threads;
  fflush(stdout); // kernel printf: the Go host never flushes C's stdio

  pthread_mutex_destroy(&L.mu);

  if (started == 0)
    return launch_error(err, errlen, "cannot start worker threads: %s",
                        strerror(create_err));
  if (L.failed) {
    if (fault_out != nullptr)
      *fault_out = L.fault;
    return launch_error(err, errlen, "%s", L.message);
  }
  return 0;
}

#endif // LDCHECK_CPU_H
