// ldcheck_rt.h: the device side of ldcheck, compiled into the same module
// as the instrumented kernel, so the CUDA and CPU backends run one
// implementation. The instrumenter (privatize) emits calls to what is
// defined here; the host (gpuruntime) fills ldc_g before each launch.
//
// Modes (ldc_g.mode):
//   LDC_MODE_PLAIN   the kernel as written: barriers are barriers, no copies.
//   LDC_MODE_BLOCK   level 1: unit = block, region = the whole kernel; the
//                    host runs the two passes and the fused checks over the
//                    pages the blocks wrote.
//   LDC_MODE_REPLAY  level 2: unit = warp, regions between barriers; shared
//                    targets get a copy per warp; each region runs twice and
//                    the block checks it at the barrier that ends it.
//
// Global targets are privatized by page (copy-on-write): the instrumenter
// wraps every global load and store in LDC_R / LDC_W; a unit's first store
// to a page takes a private copy of it, loads read the unit's copy when it
// has one and the shared base (S in pass 1, U in pass 2) otherwise. Memory
// for copies grows with the bytes the units write, not with the array size.
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

// LDC_DET_ON: whether this launch is a deterministic run. The GPU's
// deterministic code lives in its own module (-DLDC_DET): compiled into
// the one kernel every checking mode runs, it cost that kernel registers,
// so occupancy, and made checked runs up to 1.8x slower. The CPU engine
// has no registers to lose and keeps one library for both.
#if defined(LDC_CPU) || defined(LDC_DET)
#define LDC_DET_ON (ldc_g.det.on)
#else
#define LDC_DET_ON 0
#endif

// LDC_IW_BUILT: whether this module carries the intra-warp check's hooks
// (a note at every access to a shared target, a clock step at every warp
// synchronisation). On the GPU they live in their own module (-DLDC_IW),
// loaded by `ldcheck run --intra-warp` only: compiled into the checked
// module they cost every run, checked or not, registers and a call at
// each access (matmul2048's warp level went from 60 ms to 133 ms on the
// H100 with the check off). The deterministic module never checks them.
#if defined(LDC_CPU) || (defined(LDC_IW) && !defined(LDC_DET))
#define LDC_IW_BUILT 1
#else
#define LDC_IW_BUILT 0
#endif

// LDC_REPLAY_BUILT: whether this module can run level 2 (replay mode: the
// regions' saves, restores, second passes and checks at every barrier).
// On the GPU, level 1 runs a module of its own (-DLDC_BLOCK_ONLY) without
// them: compiled in, they held the kernel's registers at the cap, and
// level 1's hooks spilled to local memory on every access (ld_scan's
// level 1 ran 30x its native time, most of it local-memory traffic).
#if defined(LDC_BLOCK_ONLY) && !defined(LDC_CPU)
#define LDC_REPLAY_BUILT 0
#else
#define LDC_REPLAY_BUILT 1
#endif

// LDC_ONE_PASS_ON: whether this launch runs level 2 with one pass a
// region (ldc_g.one_pass: the host does so where every region of the
// launch was proven to end after its first pass, and no check needs a
// second). Its regions keep no saves, restores or second passes: on the
// GPU a module of its own (-DLDC_ONE_PASS) where they are not compiled
// at all. The replays' jumps back into the kernel's loops made every
// local live everywhere: ld_radixsort's level 2 held 250 registers,
// spilled at the cap of 128 (1.1 G local-memory requests, 80% of its
// memory traffic) and ran 210 times its native time. A region that
// cannot end after one pass anyway (a stride its proof tests was 0)
// flags the launch (failed_test), and the host runs level 2 again with
// both passes.
#if defined(LDC_ONE_PASS) && !defined(LDC_CPU)
#define LDC_ONE_PASS_ON 1
#elif defined(LDC_CPU)
#define LDC_ONE_PASS_ON (ldc_g.one_pass)
#else
#define LDC_ONE_PASS_ON 0
#endif
// LDC_MODE and LDC_PASS read a mode (the launch's, ldc_g, or a thread's)
// and a thread's pass. The one-pass module runs level 2 only (ldc_begin
// checks) and only its first pass (a region that wants a second voids the
// launch: ldc_one_pass_end), so there both are constants, and the tests on
// them at every access, atomic and region end fold away: each read of the
// thread's state was a load from local memory, and the other modes' branch
// of a barrier (a plain __syncthreads) cost its region end a warp
// synchronisation and convergence bookkeeping (ld_btree: about 15 of its
// 174 instructions a warp and region).
#if defined(LDC_ONE_PASS) && !defined(LDC_CPU)
#define LDC_MODE(x) LDC_MODE_REPLAY
#define LDC_PASS(t) 1
#else
#define LDC_MODE(x) ((x).mode)
#define LDC_PASS(t) ((t).pass)
#endif
// LDC_RESUME is the barrier a thread resumes at (the instrumented
// kernel's dispatch): none where no region replays, so that the compiler
// sees the kernel's own control flow.
#define LDC_RESUME(s) (LDC_REPLAY_BUILT && !LDC_ONE_PASS_ON ? (s) : -1)
// LDC_PAGE_KERNELS: whether this module carries level 1's check kernels
// (ldc_pages_*, ldc_hot_*). They do not depend on the user's code, yet
// each module compiled them again (clang about 1 s of a trivial kernel's
// 3, g++ 2 of 4; a build's compiles 29.7 -> 24.9 s without them in the
// four modules below). The tracing modules never run level 1; the
// one-pass module runs level 2 only; and level 1's own module (-DLDC_BLOCK_ONLY)
// leaves its checks to the module it was loaded beside, whose context the
// runtime writes at every launch too (a launch of a kernel the module in
// use lacks runs from that one: launchesFrom in gpuruntime/cuda).
#if defined(LDC_TRACE) || (!defined(LDC_CPU) && (defined(LDC_ONE_PASS) || defined(LDC_BLOCK_ONLY)))
#define LDC_PAGE_KERNELS 0
#else
#define LDC_PAGE_KERNELS 1
#endif

#define LDC_MODE_PLAIN 0
#define LDC_MODE_BLOCK 1
#define LDC_MODE_REPLAY 2

#define LDC_MAX_ALLOCS 16
#define LDC_MAX_SHARED 16
// Largest page (bytes); pages hold whole elements of the target.
#define LDC_MAX_PAGE 4096

// Race record kinds and spaces (shared with gpuruntime's Go side).
#define LDC_RACE_WW 1
#define LDC_RACE_RW 2
#define LDC_RACE_AP 3 // atomic-plain: one unit's plain access, another's atomic (struct ldc_ap)
#define LDC_RACE_IWW 4 // intra-warp write-write: two lanes of one warp (struct ldc_iw)
#define LDC_RACE_IRW 5 // intra-warp read-write
#define LDC_SPACE_SHARED 1
#define LDC_SPACE_GLOBAL 2
#define LDC_SPACE_LOCAL 3

// A global target: an allocation cut into pages of whole elements.
struct ldc_alloc {
  unsigned long long base, size;   // the original allocation
  unsigned long long page_bytes;   // a whole number of elements, <= LDC_MAX_PAGE
  unsigned long long first_page;   // global id of its first page
  unsigned long long pages;        // how many
  unsigned long long page_shift;   // log2(page_bytes) when a power of two, else 64
};

struct ldc_record {
  int kind, space, target;         // target: shared table slot, allocation, or -1 for locals
  int from, to;                    // region: barrier IDs, -1 entry/exit
  int unit_a, unit_b;              // warps (level 2) or blocks (level 1)
  int block;                       // linear block index
  int thread;                      // linear thread index in the block (locals), else -1
  int group;                       // level 1: the private copy unit_a ran on (its block unless reshuffled)
  long long offset;                // byte offset in the target
  unsigned int values;             // original, unit a's, unit b's byte (8 bits each)
};

struct ldc_trace {
  int block, thread, pass, from, to, differ;
};

// One private copy of one page.
struct ldc_slot {
  int unit;      // level 1: the copy (the block, or its group when reshuffled); level 2: the warp
  int next;      // the next slot of the same page, -1 ends the chain
  unsigned page; // global page id
  unsigned tab;  // level 1: the block that took the copy; level 2: its table entry
};

// Level 1's copies, for the whole grid: a hash table finds (unit, page)
// -> slot; chains from heads[page] list every unit's slot of a page, for
// the check kernels, which walk the pages listed in pages[].
//
// Every warp that copies a page takes a slot and (for a page's first copy)
// a place in pages[]: one counter each for the whole grid serialized those
// atomics in a single L2 unit, and made pass 1 several times pass 2 on
// kernels that write millions of pages. Both are sharded instead, each
// shard's counter in its own 32-byte sector (ldc_pool_slot_ctr and
// ldc_pool_page_ctr below): slots of unit u come from shard u % shards,
// which owns slots [j * shard_cap, (j + 1) * shard_cap); page p is listed
// by shard p % page_shards in pages[j * page_span, (j + 1) * page_span),
// where page_span is room for every page of that residue (no overflow).
// A shard out of slots makes the pass void, as the whole pool running out
// did; the host sizes the next attempt from every shard's count.
//
// tails[k] is the slot of the first copy of page pages[k] (its chain's
// last): a check kernel can load that copy's chunk with the page's base
// and its chain head, instead of after the head, and where the head is
// the tail (one copy, the common case) it has all it needs after two
// dependent loads instead of three.
struct ldc_pool {
  unsigned char *data;          // slot s at data + s * slot_bytes
  struct ldc_slot *slots;
  unsigned long long *keys;     // (unit+1) << 32 | (page+1); 0: empty
  unsigned *vals;               // slot+1 once its data is ready; 0 while copied; ~0u: no room
  int *heads;                   // per page: newest slot, -1 none, -2 wanted but no room
  unsigned *pages;              // pages with a slot, by shard (see above)
  int *tails;                   // per entry of pages[]: the page's first slot
  unsigned long long *counters; // LDC_POOL_COUNTERS words: [2] no room: 1 slots, 2 table; [0] blocks stopped; [1] order's fill (ldc_pages_index); then the shards' counters
  const int *unit_copy;         // reshuffling: block -> private copy; null: each block its own
  unsigned long long slot_bytes, cap, table_mask;
  unsigned long long shards, shard_cap;     // slot shards (a power of two, at most LDC_POOL_SHARDS), slots each: cap = shards * shard_cap
  unsigned long long page_shards, page_span; // shards of pages[] (a power of two, at most LDC_POOL_SHARDS), entries each
  // Hot pages (ldc_hot_*): the check kernels leave a page whose chain is
  // longer than their hot_len parameter to the hot kernels, listing it in
  // hot[] (hot_cap entries; the count in nrecords[2] for write-write,
  // nrecords[3] for read-write, where the host reads it with the records'
  // counts).
  unsigned *hot;
  unsigned long long hot_cap;
  // order and page_at: each listed page's copies in one array, for the
  // check kernels' chunk paths (ldc_pages_index); page_at null: none.
  unsigned *order;
  unsigned long long *page_at;
};

// The pool's counters (64-bit words): [2] the no-room flag and [0] the
// blocks that stopped at their start (ldc_pool_stopped), alone in the
// first sector; then a sector per slot shard (its slots wanted, which may
// pass shard_cap) and a sector per page shard (its pages listed).
#define LDC_POOL_SHARDS 32
#define LDC_POOL_COUNTERS (4 * (1 + 2 * LDC_POOL_SHARDS))

// Level 2's copies: each resident block holds one segment for its warps,
// emptied at the end of every region. Segment layout (offsets below):
//   counters {slots wanted, pages listed, unused, unused} (unsigned)
//   keys[table_mask+1], vals[table_mask+1]: (warp+1) << 32 | (page+1) -> slot+1,
//     and (page+1) -> entry+1 of the page list
//   slots[cap], page list[cap] {page, head, tab, pad}, written[cap * words] (one
//   byte per 4-byte word: which bytes pass 1 wrote), data[cap], snap[cap]
// A slot's snap is the page as the warp first saw it: other blocks may change
// bytes of the same page meanwhile (they own other bytes), so a warp wrote a
// byte where its data differs from its snap, not from the current base.
struct ldc_segs {
  unsigned char *mem;
  int *busy;                    // per segment: held by a block
  unsigned *status;             // [0] a segment ran out of slots, [1] most slots one region wanted; stores in place (ldc_own) void: [2] two warps on one byte, [3] a table full
  unsigned long long seg_bytes, cap, table_mask;
  unsigned long long off_keys, off_vals, off_slots, off_pages, off_written, off_data, off_snap;
  // in_dyn: each block's segment is in its own dynamic shared memory,
  // dyn_offset bytes in (mem and busy unused). The segment's tables are
  // taken and emptied with a chain of dependent atomics at every region a
  // warp writes a global page in; in global memory each link is a round
  // trip to L2 while the block's other warps wait at the barrier
  // (ld_btree: most of level 2's time).
  int nseg, in_dyn;
  // pristine: when not null, the kernel's global targets as they were
  // before it ran (each at a 16-byte-aligned offset, in allocation order),
  // and there is one segment: every block, when it takes the segment, puts
  // them back into the base, so it runs from the inputs as if it were
  // alone, whatever blocks ran before it (see ldc_seg_acquire).
  const unsigned char *pristine;
  unsigned long long dyn_offset;
  // direct_mask: not 0 in a level 2 of one pass a region whose stores go
  // to the originals, uncopied (the table mask of ldc_own's table, which
  // takes the segment's room from byte 16 on; see ldc_own).
  unsigned long long direct_mask;
};

struct ldc_page_entry {
  unsigned page;
  int head;
  unsigned tab, pad;
};

// A deterministic run (ldcheck run --deterministic) is level 2's first
// pass alone: at every region end the warps' writes are merged in warp
// order (the highest warp's byte kept) and stay: no second pass, every
// warp's copy takes the merged bytes. Blocks run together, each on its
// own copies of the global pages it writes (level 1's pool, one copy per
// block): a block's merges go to its copies, the warps of a region start
// from them, and the host merges the blocks' copies in block order once
// the kernel is done (ldc_pages_ww: the highest block's byte kept).
struct ldc_det {
  int on, pad;
};

// Races between plain accesses and atomics (atomic-plain). Variables that
// atomics update are not privatized: their atomics take effect once and
// their plain reads are read once, so the byte comparisons cannot see a
// unit's plain access racing with another unit's atomic. Instead, during
// pass 2 of every region of level 2, each access to such a variable (the
// atomics and the plain reads and writes the instrumenter wraps) notes its
// 4-byte words in a table keyed by (scope, word): scope is the block for
// the warps of a block (their region: between two barriers) and, for global
// memory only, the grid (the blocks: the whole kernel). An entry holds up
// to two distinct units that accessed the word atomically and two that
// accessed it plainly, each slot stamped with the block's region count
// (epoch): a slot of an older region is empty. A word accessed atomically
// by one unit and plainly by another is reported once per region. A
// kernel with no atomics has no such accesses; mask 0 turns it all off.
struct ldc_ap {
  unsigned long long *keys;  // (scope << 47) | (address >> 2), 0 empty
  unsigned long long *vals;  // LDC_AP_WORDS per entry: atomic slots [0,1], plain slots [2,3], reported [4]
  unsigned long long mask;   // entries - 1; 0: not checked
  unsigned long long *full;  // set to 1 when an access found no entry (the check is then incomplete)
};
#define LDC_AP_WORDS 5

// Intra-warp races. Lanes of a warp are scheduled independently (Volta
// and later): two lanes of one warp that touch the same byte, one of them
// writing, with no warp synchronisation between them (__syncwarp, a
// *_sync shuffle, vote, match or reduction, or a barrier) race. During
// pass 2 of every region of level 2, every access to a shared target
// (LDC_TRS, and the runtime's memcpy/memset) notes itself in a record per
// 4-byte word of the target, per block (ldc_iw_word): the warp, the
// interval, the writing lane and the reading lanes with the bytes each
// touched. A lane touching bytes that another lane of its warp wrote, or
// writing bytes another read, in the same interval is reported.
//
// Intervals: each thread has a clock, region << 32 | lamport, reset to
// (region << 32) where pass 2 of a region starts; at a warp
// synchronisation the lanes of its mask take the largest lamport among
// them plus one (one redux.sync). Lanes whose accesses are ordered by a
// chain of warp synchronisations always have different clocks, so two
// accesses with the same clock are never ordered: no false alarms with
// partial masks either.
//
// Block b's area: at scratch + b * per_block (global memory) or
// dyn_offset bytes into dynamic shared memory (in_dyn); shared target i's
// records at off[i] (LDC_IW_RECORD words a 4-byte word), the threads'
// clocks at clocks. on: 0 turns it all off (level 1, deterministic runs,
// --intra-warp=false).
//
// Global targets have no per-word area (their words are many, and a block
// touches few): a word's record lives in an open-addressing table keyed
// by block and word address (gkeys, LDC_IW_RECORD words of gvals an
// entry, gmask + 1 entries; gmask 0: global memory is not checked). An
// access that finds no room sets *gfull, and the host says the check was
// incomplete. Entries are reused across regions as shared words' records
// are: a record of an earlier interval never matches.
struct ldc_iw {
  unsigned long long scratch, per_block, dyn_offset, clocks;
  unsigned long long off[LDC_MAX_SHARED];
  unsigned long long gkeys, gvals, gmask, gfull;
  int on, in_dyn;
};
#define LDC_IW_RECORD 3

struct ldc_ctx {
  int mode;
  int pass; // level 1: which host-driven pass this launch is
  int nallocs;
  // shared_tracked: every store to a shared target flags its 16-byte
  // granule (the compiler saw them all), so the checks visit flagged
  // granules only. The flags of target i follow its copies.
  int shared_tracked;
  struct ldc_alloc allocs[LDC_MAX_ALLOCS];
  struct ldc_pool pool;
  struct ldc_segs segs;
  // Level 2: copies of shared target i for warp w of block b live at
  // shared_scratch + b * shared_per_block + shared_off[i] + w * shared_bytes[i].
  unsigned long long shared_scratch, shared_per_block;
  unsigned long long shared_off[LDC_MAX_SHARED], shared_bytes[LDC_MAX_SHARED];
  int nshared;
  // Atomics run once: atomic_mode 1 runs and logs each thread's results,
  // 2 replays them from the log (room for atomic_slots results a thread,
  // result n of thread r at n * threads + r: ldc_atomic_slot); a
  // thread's results past its room go to a table after the rows (keys,
  // then values, 1 << atomic_spill_bits of each; 0: none), so that a few
  // threads with many atomics (the high-degree vertices of a graph) need
  // no second run; one that finds the table full raises atomic_overflow
  // to the count it needed and the host runs everything again with rows
  // of that room.
  int atomic_mode;
  unsigned long long *atomic_log;
  int *atomic_overflow;
  struct ldc_record *records;
  int *nrecords; // [0] and [1]: the records of each half; [2] and [3]: the hot pages listed (ldc_hot_note)
  int max_records, atomic_spill_bits;
  struct ldc_trace *trace; // optional: one entry per region end per thread
  int *ntrace;
  // atomic_slots: room in the atomic log for each thread's results.
  int max_trace, atomic_slots;
  // The warps' shared copies live in dynamic shared memory, dyn_offset
  // bytes after the kernel's own, when they fit the per-block limit
  // (shared_in_dyn); else in shared_scratch in global memory.
  int shared_in_dyn;
  // Level 2: bit i set when shared target i runs on the block's own
  // memory, uncopied: the build proved no two threads race on it and every
  // region of this launch runs once (manifest Target.RaceFree).
  unsigned shared_direct;
  unsigned long long dyn_offset;
  // Level 2 adds the bytes its region-end checks compared here (one add
  // per block, at its end): the run's "bytes compared" counts them too.
  unsigned long long *compared;
  // A test an index proof rests on (LDC_COND, LDC_TEST) failed in this
  // launch: the line of one such test, 0 while none has.
  int *failed_test;
  // Level 2 in one pass a region (LDC_ONE_PASS_ON). shared_own: bit i
  // set when shared target i is stored in place, uncopied, each store
  // noting its warp in the target's owner words (ldc_own_shared).
  int one_pass;
  unsigned shared_own;
  // quiet_ends: a one-pass level 2 that notes no accesses (no atomic-plain,
  // intra-warp or trace records, not deterministic) and tracks every store
  // to a shared target, so that a region end where no thread stored to a
  // copy is one barrier (ldc_one_pass_quiet). The host decides it once a
  // launch; each region end tested the five fields it rests on.
  // 2 (bare): such a launch whose stores all go in place (global targets
  // in ldc_own's table or untracked, shared ones in place or uncopied):
  // no region has a copy to merge, so a region end reads nothing before
  // its barrier (ldc_one_pass_quiet). One field: one test at every end.
  int quiet_ends, pad_quiet;
  struct ldc_det det;
  struct ldc_ap ap;
  struct ldc_iw iw;
};

#ifdef LDC_CPU
extern "C" {
struct ldc_ctx ldc_g;
// The host checks these against its own view of the layouts.
unsigned long ldc_ctx_size(void) { return sizeof(struct ldc_ctx); }
unsigned long ldc_record_size(void) { return sizeof(struct ldc_record); }
}
#else
// Constant memory: every hook and region end reads the context, and kernels
// never write it (only through the pointers it holds). As a __device__
// variable each read was a global load; profiled on matmul2048's level 2,
// such loads at every region end were a good part of its time.
extern "C" __constant__ struct ldc_ctx ldc_g;
__constant__ struct ldc_ctx ldc_g;
#endif

// The context's layout as this compiler laid it out: the byte offset of
// every field in declaration order (a nested struct's fields in its place,
// the first element's fields for an array of structs, no padding). The host
// compares it with its own Ctx when it loads a module (gpuruntime/ctx.go,
// CtxLayout), so that a field added, moved or resized on one side only is
// refused before any launch instead of read wrongly.
#define LDC_CTX_FIELDS(X) \
  X(mode) X(pass) X(nallocs) X(shared_tracked) X(allocs[0].base) \
  X(allocs[0].size) X(allocs[0].page_bytes) X(allocs[0].first_page) \
  X(allocs[0].pages) X(allocs[0].page_shift) X(pool.data) X(pool.slots) \
  X(pool.keys) X(pool.vals) X(pool.heads) X(pool.pages) X(pool.tails) X(pool.counters) \
  X(pool.unit_copy) X(pool.slot_bytes) X(pool.cap) X(pool.table_mask) \
  X(pool.shards) X(pool.shard_cap) X(pool.page_shards) X(pool.page_span) \
  X(pool.hot) X(pool.hot_cap) X(pool.order) X(pool.page_at) \
  X(segs.mem) X(segs.busy) X(segs.status) X(segs.seg_bytes) X(segs.cap) \
  X(segs.table_mask) X(segs.off_keys) X(segs.off_vals) X(segs.off_slots) \
  X(segs.off_pages) X(segs.off_written) X(segs.off_data) X(segs.off_snap) \
  X(segs.nseg) X(segs.in_dyn) X(segs.pristine) X(segs.dyn_offset) X(segs.direct_mask) X(shared_scratch) X(shared_per_block) \
  X(shared_off) X(shared_bytes) X(nshared) X(atomic_mode) X(atomic_log) \
  X(atomic_overflow) X(records) X(nrecords) X(max_records) X(atomic_spill_bits) X(trace) X(ntrace) \
  X(max_trace) X(atomic_slots) X(shared_in_dyn) X(shared_direct) X(dyn_offset) X(compared) X(failed_test) X(one_pass) X(shared_own) X(quiet_ends) \
  X(det.on) X(ap.keys) X(ap.vals) X(ap.mask) X(ap.full) X(iw.scratch) \
  X(iw.per_block) X(iw.dyn_offset) X(iw.clocks) X(iw.off) X(iw.gkeys) X(iw.gvals) X(iw.gmask) X(iw.gfull) X(iw.on) X(iw.in_dyn)
#define LDC_CTX_OFFSET(f) ((unsigned long long)__builtin_offsetof(struct ldc_ctx, f)),
#ifdef LDC_CPU
extern "C" const unsigned long long ldc_ctx_layout[] = {LDC_CTX_FIELDS(LDC_CTX_OFFSET)};
#else
extern "C" __device__ unsigned long long ldc_ctx_layout[];
__device__ unsigned long long ldc_ctx_layout[] = {LDC_CTX_FIELDS(LDC_CTX_OFFSET)};
#endif

// Per-thread state of the instrumented kernel.
struct ldc_thread {
  int mode, pass;
  int start, end1; // the region's start barrier; where pass 1 ended
  int differ;      // pass 2 ended with other locals, or elsewhere, than pass 1
  int natomic, atomic_start;
  unsigned ap_epoch; // level 2: 1 + the regions this thread's block has finished (struct ldc_ap)
  unsigned long long ap_scratch[2]; // where a replayed plain store to an atomically updated variable goes (LDC_AP_WRITE)
  unsigned long long compared; // bytes of private copies this thread's checks compared
  // At a predicate barrier (__syncthreads_and/or/count): its LDC_PRED_* op
  // and the thread's predicate, 0 elsewhere; ldc_check leaves the block's
  // result in pred.
  int pred_op, pred;
  // Level 2 in one pass: the segment's counter pair (seg_sel) of the
  // region this thread is ending, read before the region end's barrier
  // (ldc_region_busy): once that barrier is passed, the first thread
  // done merging switches the block's pair (ldc_seg_check) while others
  // have yet to read the counts of the old one.
  unsigned seg_sel;
  // one: the build proved that the region this thread is ending (from its
  // start to this barrier) writes nothing it reads, so its second pass
  // would repeat the first (LDC_ONE_K, set at the end of pass 1).
  int one;
  // cond: every test an index proof needs (LDC_COND) held at the accesses
  // this thread ran in the region so far (1 when there are none).
  int cond;
  // or_gen: 1 + the slot of the block's or_word (ldc_bar_or) that this
  // thread's next reduction uses, 0 before its first.
  unsigned or_gen;
  // uniform_ends: the build proved that the block's threads end each
  // region at one place (passes.Kernel.UniformEnds, LDC_UNIFORM_ENDS_K):
  // the region ends' reductions may be the hardware's (ldc_bar_or).
  int uniform_ends;
};

// ldc_fast is the part of a thread's region state that its region ends
// read and write at every barrier, kept in a local of the kernel
// (LDC_FAST_DECL) so that the one-pass module holds it in registers: in
// struct ldc_thread, whose address the checks' calls take, every region
// end loaded and stored start and ap_epoch in local memory. It is the
// authoritative copy in the one-pass branches of the region ends
// (LDC_BARRIER, LDC_BARRIER_PRED, LDC_EXIT), which store it into the
// thread's state before a call that reads it (ldc_fast_out) and take it
// back after one that moves it on (ldc_fast_in). ok: every stride test
// of the region held (LDC_COND in the one-pass module; elsewhere the
// thread's cond keeps it).
struct ldc_fast {
  int start;
  unsigned epoch;
  unsigned ok;
};
#if defined(LDC_CPU)
#define LDC_FAST_DECL struct ldc_fast ldc_fs = {ldc_t.start, ldc_t.ap_epoch, 1u}
#else
// (On a GPU, a level-1 block that starts once its pass is void returns
// at once: ldc_pool_stopped.)
#define LDC_FAST_DECL                                    \
  if (ldc_pool_stopped()) return;                        \
  struct ldc_fast ldc_fs = {ldc_t.start, ldc_t.ap_epoch, 1u}
#endif
static __device__ LDC_ENGINE __forceinline__ void ldc_fast_out(struct ldc_thread *t, const struct ldc_fast *f) {
  t->start = f->start;
  t->ap_epoch = f->epoch;
}
static __device__ LDC_ENGINE __forceinline__ void ldc_fast_in(const struct ldc_thread *t, struct ldc_fast *f) {
  f->start = t->start;
  f->epoch = t->ap_epoch;
  f->ok = 1u;
}

struct ldc_block_state {
  void *shared_orig[LDC_MAX_SHARED];
  int pass, from, to;
  int pred_op;        // the op of the predicate barrier being checked, 0 none
  int pred_count;     // its threads' predicates added up (0 between checks)
  int seg_index;      // level 2: the segment this block holds, -1 none
  unsigned seg_peak;  // the most slots one of its regions took (told the host once, at the end)
  unsigned long long compared; // bytes its threads' checks compared (told the host once, at the end)
  unsigned char *seg; // and where it is
  // Level 2: the warps that hold a page in the segment (bit w), set as a
  // warp takes its first, cleared when the segment is emptied. A read by
  // a warp with none goes to the original without a table lookup: most
  // reads of a global target come before their warp's first store, or in
  // regions that store nothing.
  unsigned seg_warps;
  // Level 2 in one pass: which pair of the segment's four counters (0 or
  // 2) this region's copies count in. A region end that merged pages
  // switches pairs before its closing barrier and empties the old pair
  // after it, so the threads still reading the old counts after its first
  // barrier need no barrier of their own before the next region counts
  // again (see ldc_seg_check).
  unsigned seg_sel;
  unsigned ndone;     // level 2: threads that have finished (ldc_idle), set to 0 by ldc_begin
  // The intra-warp check, in the region's pass 2 (warp masks): warps two
  // of whose lanes raced (iw_raced), and warps that touched a word another
  // warp of the block touched, or one the check could not follow
  // (iw_shared). A warp in the first and not the second changed its
  // results between the passes only through its own lanes' order: its
  // read-write records would name it alone (ldc_iw_lane_effect).
  unsigned iw_raced, iw_shared;
  // Level 2, tracked shared targets: the tag of the last region in which a
  // warp set some target's dirty word (ldc_flag, ldc_dirty_tag). The quiet
  // end of a one-pass region reads this one word instead of each target's.
  unsigned dirty_any;
  // Level 2: epoch is 1 + the regions the block has finished, as each
  // thread counts them (ldc_thread's ap_epoch: all its threads store the
  // same count at every region end, so a thread that has passed one reads
  // its own); it keys stores in place (ldc_own) and tags the regions that
  // stored to shared copies (ldc_dirty_tag). own_void: two warps stored to one
  // byte in a region, or the table was full: the launch is void (status[2]).
  unsigned epoch, own_void;
  // ldc_bar_or's reductions, in turn (the thread's or_gen).
  unsigned or_word[3];
  // The epoch of the region last named (ldc_name_region), and of the last
  // that a thread ended at a barrier, whose id is in to (ldc_region_to).
  unsigned name_tag, to_tag;
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
// Each local takes a slot of whole 8-byte words in the save areas (which
// are 16-byte aligned), so that every slot is word-aligned: byte offsets
// would make the compiler move and compare locals a byte at a time.
#define LDC_SLOT(n) ((((unsigned long)(n)) + 7ul) & ~7ul)
#if defined(LDC_CPU)
#define LDC_PUT(q, x) (ldc_copy_bytes((q), &(x), sizeof(x)), (q) += LDC_SLOT(sizeof(x)))
#define LDC_GET(q, x) (ldc_copy_bytes(&(x), (q), sizeof(x)), (q) += LDC_SLOT(sizeof(x)))
#define LDC_CMP(q, d, x) ((d) |= ldc_bytes_differ((q), &(x), sizeof(x)), (q) += LDC_SLOT(sizeof(x)))
#else
// On the GPU the save area is thread-local memory: whole-variable copies
// (memcpy of a constant size) and word compares, not byte loops.
template <unsigned long N> static __device__ LDC_ENGINE __forceinline__ int ldc_differs(const void *a, const void *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  int d = 0;
  unsigned long i = 0;
  for (; i + 4 <= N; i += 4) {
    unsigned u, v;
    __builtin_memcpy(&u, x + i, 4);
    __builtin_memcpy(&v, y + i, 4);
    d |= u != v;
  }
  for (; i < N; i++) d |= x[i] != y[i];
  return d;
}
#define LDC_PUT(q, x) (__builtin_memcpy((q), (const void *)&(x), sizeof(x)), (q) += LDC_SLOT(sizeof(x)))
#define LDC_GET(q, x) (__builtin_memcpy((void *)&(x), (q), sizeof(x)), (q) += LDC_SLOT(sizeof(x)))
#define LDC_CMP(q, d, x) ((d) |= ldc_differs<sizeof(x)>((q), (const void *)&(x)), (q) += LDC_SLOT(sizeof(x)))
#endif
// LDC_CMP_AT compares n bytes at off of local x with its saved copy at q
// (the members of a struct with padding, one piece at a time; q is moved
// past the whole slot by the caller).
#if defined(LDC_CPU)
#define LDC_CMP_AT(q, d, x, off, n) ((d) |= ldc_bytes_differ((q) + (off), (const unsigned char *)(const void *)&(x) + (off), (n)))
#else
#define LDC_CMP_AT(q, d, x, off, n) ((d) |= ldc_differs<(n)>((q) + (off), (const unsigned char *)(const void *)&(x) + (off)))
#endif

#if !defined(LDC_CPU)
// Warp primitives as PTX (sm_70 and sm_80 instructions), so that the same
// code compiles with nvcc and with clang-15 against ldcheck's own prelude.
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_lane() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
static __device__ LDC_ENGINE __forceinline__ int ldc_is_global(const void *p) {
  unsigned g;
  asm("{\n\t.reg .pred g;\n\tisspacep.global g, %1;\n\tselp.u32 %0, 1, 0, g;\n\t}" : "=r"(g) : "l"(p));
  return (int)g;
}
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_redux_add(unsigned mask, unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  return r;
}
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_match_any(unsigned mask, unsigned long long v) {
  unsigned r;
  asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(r) : "l"(v), "r"(mask));
  return r;
}
#endif

// The checker's own barriers. A finished thread waits for the others in
// ldc_idle while lanes of its warp may still be at a barrier in the user's
// code: __syncthreads() is PTX bar.sync, which is .aligned (every lane of a
// warp at the same instruction, together), so it could hang. The
// non-aligned barrier instructions (sm_70 and later) allow the divergence.
#if defined(LDC_CPU)
static __device__ LDC_ENGINE __forceinline__ void ldc_bar() { __syncthreads(); }
static __device__ LDC_ENGINE __forceinline__ int ldc_bar_or_hw(int p) { return __syncthreads_or(p); }
#else
static __device__ LDC_ENGINE __forceinline__ void ldc_bar() { asm volatile("barrier.sync 0;" ::: "memory"); }
static __device__ LDC_ENGINE __forceinline__ int ldc_bar_or_hw(int p) { int out; asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\tbarrier.red.or.pred q, 0, p;\n\tselp.s32 %0, 1, 0, q;\n\t}" : "=r"(out) : "r"(p) : "memory"); return out; }
#endif

static __device__ LDC_ENGINE __forceinline__ struct ldc_block_state *ldc_block() {
  __shared__ struct ldc_block_state bs;
  return &bs;
}
// ldc_lds and ldc_sts read and write a word of the block state as shared
// memory, at an address the compiler knows: through the generic pointer
// of a volatile access nvcc 13 rebuilt the shared window's base from
// SR_CgaCtaId at each one (three instructions, and a register that
// spilled at 40), and the one-pass region end and store path make such
// accesses at every barrier and store (ld_radixsort 13.9 -> 12.9 ms on
// the H200). The "memory" clobber keeps them in order with the plain and
// volatile C accesses of the same words (ldc_flag's store of dirty_any
// before the region end's load of it, ldc_own_shared's load of epoch
// after the region end's store): an asm without it may be moved across
// them, and a region that stored to a copy would pass for quiet.
#if !defined(LDC_CPU)
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_shared_addr(const void *p) {
#if defined(__clang__) && !defined(__CUDACC_VER_MAJOR__)
  return (unsigned)(unsigned long)(const __attribute__((address_space(3))) void *)p; // (clang, without nvcc's headers)
#else
  return (unsigned)__cvta_generic_to_shared(p);
#endif
}
#endif
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_lds(const unsigned *p) {
#if defined(LDC_CPU)
  return *(const volatile unsigned *)p;
#else
  unsigned v;
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(ldc_shared_addr(p)) : "memory");
  return v;
#endif
}
static __device__ LDC_ENGINE __forceinline__ void ldc_sts(unsigned *p, unsigned v) {
#if defined(LDC_CPU)
  *(volatile unsigned *)p = v;
#else
  asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(ldc_shared_addr(p)), "r"(v) : "memory");
#endif
}

// ldc_region_to is the barrier that ends the region being checked (named
// by ldc_name_region), -1 where every thread ends it at the exit.
static __device__ LDC_ENGINE __forceinline__ int ldc_region_to(const struct ldc_block_state *bs) { return bs->to_tag == bs->name_tag ? bs->to : -1; }

// ldc_bar_or is a barrier of the whole block that says whether p held in
// any of its threads: ldc_bar_or_words, or where the kernel's proof
// allows, ldc_bar_or_hw (below). Not barrier.red.or in general: a warp whose lanes reach the
// reduction at two places (some ending a region, some waiting in
// ldc_idle since they left the kernel early) is reduced on the H100 as
// two warps, each half with a result of its own (as ldc_check_pred found
// for barrier.red.popc), so that the block's threads disagree on whether
// to check, take different numbers of barriers, and the launch dies
// (CUDA_ERROR_ILLEGAL_INSTRUCTION: a thread storing in place and leaving
// while the rest of its warp waits at a barrier, kept_stores.txtar's
// leave_store, 2026-12-07). Instead a shared word of three, in turn: a
// thread sets the word of this reduction where p holds, and clears the
// next one, which every thread read before the previous reduction's
// barrier and none sets before this one's. The first reduction clears
// its word behind a barrier of its own. The same on the CPU, where it is
// tested.
//
// The words cost ld_btree's region ends a fifth of its run on the H100
// (10.4 -> 12.7 ms; ld_radixsort 12.4 -> 14.0). So where the build proved
// that the threads of a block end every region at one place
// (t->uniform_ends: barriers and returns under block-uniform control), no
// warp can be split that way, and the reduction is the hardware's: every
// thread of the block takes the same one of the two, since the proof is
// the kernel's.
static __device__ LDC_ENGINE __forceinline__ int ldc_bar_or_words(struct ldc_thread *t, struct ldc_block_state *bs, int p) {
  unsigned g = t->or_gen;
  if (g == 0) {
    ldc_sts(&bs->or_word[0], 0u);
    ldc_bar();
    g = 1;
  }
  unsigned next = g == 3 ? 1u : g + 1u;
  ldc_sts(&bs->or_word[next - 1u], 0u);
  if (p) ldc_sts(&bs->or_word[g - 1u], 1u);
  t->or_gen = next;
  ldc_bar();
  return (int)ldc_lds(&bs->or_word[g - 1u]);
}
static __device__ LDC_ENGINE __forceinline__ int ldc_bar_or(struct ldc_thread *t, struct ldc_block_state *bs, int p) {
  if (t->uniform_ends) return ldc_bar_or_hw(p);
  return ldc_bar_or_words(t, bs, p);
}

// ldc_record_race appends a race record. This is the only atomic in the
// checks, and it runs only when a race is found. Write-write and read-write
// records fill their own half of the buffer (nrecords[0] and [1] count
// them): at real sizes one kind alone can fill it, and pass 1's write-write
// records would then hide every read-write race of the same region.
static __device__ LDC_ENGINE __forceinline__ int ldc_records_full(int kind) {
  return ldc_g.nrecords && ((volatile int *)ldc_g.nrecords)[kind == LDC_RACE_RW] > ldc_g.max_records / 2;
}
static __device__ LDC_ENGINE void ldc_record_race(struct ldc_record r) {
  // Once a half is full its count stops (just past it, which tells the
  // host it was truncated): a kernel racing on every byte of a large array
  // must not wrap it around.
  if (!ldc_g.records || ldc_records_full(r.kind)) return;
  int side = r.kind == LDC_RACE_RW, half = ldc_g.max_records / 2;
  int k = atomicAdd(ldc_g.nrecords + side, 1);
  if (k >= 0 && k < half) ldc_g.records[side * half + k] = r;
}

// ---- Intra-warp races: the block's area and the threads' clocks (struct ldc_iw) ----
static __device__ LDC_ENGINE __forceinline__ int ldc_iw_on() { return LDC_IW_BUILT && ldc_g.iw.on && LDC_MODE(ldc_g) == LDC_MODE_REPLAY && !LDC_DET_ON; }
static __device__ LDC_ENGINE __forceinline__ unsigned char *ldc_iw_area() {
  if (ldc_g.iw.in_dyn) {
    LDC_DYNAMIC_SHARED(unsigned char, ldc_dyn_shared);
    return (unsigned char *)ldc_dyn_shared + ldc_g.iw.dyn_offset;
  }
  return (unsigned char *)(ldc_g.iw.scratch + (unsigned long long)ldc_block_linear() * ldc_g.iw.per_block);
}
static __device__ LDC_ENGINE __forceinline__ unsigned long long *ldc_iw_clock() {
  return (unsigned long long *)(ldc_iw_area() + ldc_g.iw.clocks) + ldc_thread_linear();
}
// ldc_iw_reset starts the calling thread's interval count for pass 2 of
// region (the block's region count: the same in every thread).
static __device__ LDC_ENGINE __forceinline__ void ldc_iw_reset(unsigned region) {
  if (ldc_iw_on()) *ldc_iw_clock() = (unsigned long long)region << 32;
}
// ldc_iw_sync follows a warp synchronisation over mask: the lanes of mask
// go on with the largest lamport among them, plus one. Every lane of mask
// calls it, right after the synchronisation it follows.
static __device__ LDC_ENGINE void ldc_iw_sync(unsigned mask) {
  if (!ldc_iw_on()) return;
  unsigned long long *c = ldc_iw_clock();
  unsigned long long v = *c;
  if (!(v >> 32)) return; // pass 1 (every lane of a warp is in the same pass)
  unsigned m;
#if defined(LDC_CPU)
  m = __reduce_max_sync(mask, (unsigned)v);
#else
  asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(m) : "r"((unsigned)v), "r"(mask));
#endif
  *c = (v & ~0xffffffffull) | (unsigned long long)(m + 1);
}

static __device__ LDC_ENGINE void ldc_begin(struct ldc_thread *t, int uniform_ends);

// ---- Copy-on-write pages of global targets ----

// ldc_pause lets other threads run while one waits for a page copy.
#if defined(LDC_CPU)
static __device__ LDC_ENGINE __forceinline__ void ldc_pause() { sched_yield(); }
#else
static __device__ LDC_ENGINE __forceinline__ void ldc_pause() { asm volatile("nanosleep.u32 64;"); }
#endif

static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_hash(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_vload64(const unsigned long long *p) { return *(const volatile unsigned long long *)p; }
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_vload32(const unsigned *p) { return *(const volatile unsigned *)p; }

// ldc_page_of locates byte off of allocation al: its page and the offset in it.
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_page_of(const struct ldc_alloc *al, unsigned long long off, unsigned long long *in) {
  unsigned long long pb = al->page_bytes, pg;
  if (al->page_shift < 64) pg = off >> al->page_shift;
  else pg = off / pb;
  *in = off - pg * pb;
  return pg;
}

// ldc_copy_page copies the valid bytes of page pg of al (the last page may
// be short) from the base into dst: the part of lane rank of np lanes
// copying it together (0 of 1: all of it).
static __device__ LDC_ENGINE void ldc_copy_page(unsigned char *dst, const struct ldc_alloc *al, unsigned long long pg, unsigned rank = 0, unsigned np = 1,
                                                const unsigned char *from = 0) {
  unsigned long long start = pg * al->page_bytes, n = al->size - start;
  if (n > al->page_bytes) n = al->page_bytes;
  const unsigned char *src = from ? from : (const unsigned char *)(al->base + start);
  if (((unsigned long long)src & 15) == 0 && n % 16 == 0) {
    const uint4 *s4 = (const uint4 *)src;
    uint4 *d4 = (uint4 *)dst;
    for (unsigned long long i = rank; i < n / 16; i += np) d4[i] = s4[i];
  } else {
    for (unsigned long long i = rank; i < n; i += np) dst[i] = src[i];
  }
}

// Tables are sized to stay at most half full, where linear probing almost
// never needs more than a few dozen probes; a table that fills up anyway
// (more copies wanted than the pool holds) must not cost every access a
// walk over all of it.
#define LDC_MAX_PROBES 512

// ldc_table_slot finds key in an open-addressing table. It returns the
// entry, with *claimed set when it took an empty one for key (claim only),
// or -1 when key is absent (no claim) or the table is (nearly) full.
static __device__ LDC_ENGINE long long ldc_table_slot(unsigned long long *keys, unsigned long long mask, unsigned long long key, int claim, int *claimed) {
  unsigned long long h = ldc_hash(key) & mask;
  *claimed = 0;
  for (unsigned long long i = 0; i <= mask && i < LDC_MAX_PROBES; i++, h = (h + 1) & mask) {
    unsigned long long k = ldc_vload64(&keys[h]);
    if (k == 0) {
      if (!claim) return -1;
      k = atomicCAS(&keys[h], 0ULL, key);
      if (k == 0) {
        *claimed = 1;
        return (long long)h;
      }
    }
    if (k == key) return (long long)h;
  }
  return -1;
}

// ldc_stuck ends a wait that can only go on forever because memory the
// checker owns was overwritten (a wild store of the kernel).
static __device__ LDC_ENGINE void ldc_stuck(const char *what) {
#if defined(LDC_CPU)
  ::ldc::fail_fiber("%s (ldcheck's own memory was overwritten: look for an out-of-bounds store)", what);
#else
  (void)what;
  __trap();
#endif
}

// ldc_internal ends the run where ldcheck's own bookkeeping disagrees
// with what the kernel did: a wrong verdict would follow.
static __device__ LDC_ENGINE void ldc_internal(const char *what) {
#if defined(LDC_CPU)
  ::ldc::fail_fiber("internal error in ldcheck: %s (please report it, with the kernel)", what);
#else
  (void)what;
  __trap();
#endif
}

// ldc_wait_val waits until entry h's value is published (a thread of the
// same unit is copying the page: microseconds) and returns it.
static __device__ LDC_ENGINE unsigned ldc_wait_val(unsigned *vals, long long h) {
  unsigned v = ldc_vload32(&vals[h]);
  for (long long spins = 0; v == 0; spins++) {
    if (spins > (1LL << 24)) ldc_stuck("a private copy of a page was never published");
    ldc_pause();
    v = ldc_vload32(&vals[h]);
  }
  return v;
}

// Level 1: the block's (or its group's) copy of the page holding p. A load
// of a page the unit never wrote reads the base; so does every access once
// the pool is out of room (the host then reruns with more room).
//
// ldc_grid_find looks the copy up (and claims one for a write): it returns
// the copy's first byte, or null for "use the base". *s >= 0 says the
// caller took slot *s for entry *h and must fill it (ldc_copy_page) and
// publish it (ldc_grid_publish) before anyone else may use it.
static __device__ LDC_ENGINE __forceinline__ unsigned long long *ldc_pool_slot_ctr(const struct ldc_pool *P, unsigned long long j) { return &P->counters[4 * (1 + j)]; }
static __device__ LDC_ENGINE __forceinline__ unsigned long long *ldc_pool_page_ctr(const struct ldc_pool *P, unsigned long long j) {
  return &P->counters[4 * (1 + LDC_POOL_SHARDS + j)];
}
// ldc_pool_count_page counts page, written for the first time, in its
// shard, and returns its place in pages[].
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_pool_count_page(const struct ldc_pool *P, unsigned page) {
  unsigned long long j = page & (P->page_shards - 1);
  return j * P->page_span + atomicAdd(ldc_pool_page_ctr(P, j), 1ULL);
}
// The check kernels walk the pages listed in one dense numbering, the
// shards' lists one after the other. Each warp finds the shards' starts
// in that numbering itself, a shard a lane (there are at most 32), from
// the counts the pass left: the host wrote them before every check kernel
// until the thirty-sixth session, a synchronous copy in the check's time
// (ld_bfs: about 20 of its 127 us).
//
// ldc_warp_starts returns, on lane j, the sum of the other lanes' own
// below j (an exclusive scan). Every lane of the warp calls it.
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_warp_starts(unsigned long long own) {
  unsigned lane = threadIdx.x & 31;
  unsigned long long inc = own;
  for (unsigned d = 1; d < 32; d <<= 1) {
    unsigned long long v = __shfl_up_sync(0xffffffffu, inc, d);
    if (lane >= d) inc += v;
  }
  return inc - own;
}

// ldc_dense_entry is where the i-th entry of a dense numbering of shards
// (span entries apart, their counts' ldc_warp_starts in starts) is.
// Empty shards repeat a start, so the search takes the last shard
// starting at or before i (binary lifting over the lanes). Every lane of
// the warp calls it. ldc_pool_entry is the i-th page listed's place in
// pages[] (and tails[]).
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_dense_entry(unsigned long long starts, unsigned long long i, unsigned long long shards, unsigned long long span) {
  unsigned lo = 0;
  for (unsigned step = 16; step > 0; step >>= 1) {
    unsigned cand = lo + step;
    unsigned long long at = __shfl_sync(0xffffffffu, starts, cand & 31);
    if (cand < shards && at <= i) lo = cand;
  }
  unsigned long long at = __shfl_sync(0xffffffffu, starts, lo);
  return lo * span + (i - at);
}
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_pool_entry(const struct ldc_pool *P, unsigned long long starts, unsigned long long i) { return ldc_dense_entry(starts, i, P->page_shards, P->page_span); }
// ldc_pool_listed is the i-th page listed. Every lane of the warp calls
// it; only those with listed set read the page.
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_pool_listed(const struct ldc_pool *P, unsigned long long starts, unsigned long long i, int listed) {
  unsigned long long k = ldc_pool_entry(P, starts, i);
  return listed ? P->pages[k] : 0;
}

static __device__ LDC_ENGINE unsigned char *ldc_grid_find(unsigned page, int unit, int write, long long *s, long long *h) {
  struct ldc_pool *P = &ldc_g.pool;
  *s = -1;
  if (*(volatile unsigned long long *)&P->counters[2] == 2) {
    // The table is full: the pass is void and runs on to its end as
    // cheaply as it can, counting only the pages written.
    if (write && atomicCAS(&P->heads[page], -1, -2) == -1) ldc_pool_count_page(P, page);
    return 0;
  }
  unsigned long long key = ((unsigned long long)(unit + 1) << 32) | (page + 1ULL);
  int claimed;
  *h = ldc_table_slot(P->keys, P->table_mask, key, write, &claimed);
  if (*h < 0) {
    if (write) {
      // No room even to count this copy: the pass is void, and the count
      // of copies wanted stops here (a lower bound).
      P->counters[2] = 2;
      if (atomicCAS(&P->heads[page], -1, -2) == -1) ldc_pool_count_page(P, page);
    }
    return 0;
  }
  if (!claimed) {
    unsigned v = ldc_vload32(&P->vals[*h]);
    if (v == 0) {
      if (!write) return 0; // being copied: this unit has not written it yet
      v = ldc_wait_val(P->vals, *h);
    }
    if (v == ~0u) return 0;
    return P->data + (unsigned long long)(v - 1) * P->slot_bytes;
  }
  // The unit's shard: a unit's slots all come from one shard, so what the
  // shards ask for does not depend on timing, and the host can size them.
  unsigned long long j = (unsigned long long)unit & (P->shards - 1);
  unsigned long long n = atomicAdd(ldc_pool_slot_ctr(P, j), 1ULL);
  if (n >= P->shard_cap) {
    P->counters[2] = 1;
    if (atomicCAS(&P->heads[page], -1, -2) == -1) ldc_pool_count_page(P, page);
    __threadfence();
    atomicExch(&P->vals[*h], ~0u);
    return 0;
  }
  n += j * P->shard_cap;
  *s = (long long)n;
  return P->data + n * P->slot_bytes;
}
static __device__ LDC_ENGINE void ldc_grid_publish(unsigned page, int unit, int block, long long s, long long h) {
  struct ldc_pool *P = &ldc_g.pool;
  int prev = atomicExch(&P->heads[page], (int)s);
  if (prev == -1) {
    unsigned long long k = ldc_pool_count_page(P, page);
    P->pages[k] = page;
    P->tails[k] = (int)s;
  }
  struct ldc_slot sl = {unit, prev < 0 ? -1 : prev, page, (unsigned)block};
  P->slots[s] = sl;
  __threadfence();
  atomicExch(&P->vals[h], (unsigned)(s + 1));
}
static __device__ LDC_ENGINE void *ldc_cow_grid(const struct ldc_alloc *al, unsigned long long off, const void *p, int write) {
  unsigned long long in, pg = ldc_page_of(al, off, &in);
  unsigned page = (unsigned)(al->first_page + pg);
  int block = (int)ldc_block_linear();
  int unit = ldc_g.pool.unit_copy ? ldc_g.pool.unit_copy[block] : block;
  long long s, h;
#if !defined(LDC_CPU)
  if (!write) {
#endif
    unsigned char *d = ldc_grid_find(page, unit, write, &s, &h);
    if (s >= 0) {
      ldc_copy_page(d, al, pg);
      ldc_grid_publish(page, unit, block, s, h);
    }
    return d ? d + in : (void *)p;
#if !defined(LDC_CPU)
  }
  // The lanes of a warp storing to the same page (a coalesced store: all
  // 32) look it up once, and copy it together when it is new: one lane
  // doing it all while 31 spin on its entry cost the first pass several
  // times the second. (Loads stay a lane's own lookup: matching lanes
  // costs more than it saves where they scatter, as in tree walks.)
  unsigned peers = ldc_match_any(__activemask(), page);
  unsigned lane = ldc_lane(), leader = __ffs(peers) - 1;
  unsigned char *d = 0;
  s = -1;
  if (lane == leader) d = ldc_grid_find(page, unit, write, &s, &h);
  d = (unsigned char *)__shfl_sync(peers, (unsigned long long)d, leader);
  s = __shfl_sync(peers, s, leader);
  if (s >= 0) {
    ldc_copy_page(d, al, pg, __popc(peers & ((1u << lane) - 1u)), __popc(peers));
    __syncwarp(peers);
    if (lane == leader) ldc_grid_publish(page, unit, block, s, h);
  }
  return d ? d + in : (void *)p;
#endif
}

// ldc_pool_stopped says, at a block's start in a level-1 pass on a GPU,
// that the pass is already void (the pool ran out of room): the block
// then returns without running the kernel, and counts itself in
// counters[0], from which the host scales what the blocks that ran asked
// for up to the grid. A void pass used to run to its end, every access
// of the blocks after the room ran out a lookup in a table filling up:
// ld_bfs at 16M vertices, 17.5 ms against the 8.0 ms of the pass that
// followed with room (H200). The decision is the block's, through its
// barrier, so that no thread waits at a barrier for threads gone.
// (The CPU backend runs every block: its counts stay exact.)
static __device__ LDC_ENGINE __forceinline__ int ldc_pool_stopped() {
  if (LDC_MODE(ldc_g) != LDC_MODE_BLOCK || !ldc_g.pool.counters) return 0;
  unsigned long long *flag = &ldc_g.pool.counters[2];
  if (!__syncthreads_or(*(volatile unsigned long long *)flag != 0)) return 0;
  if (ldc_thread_linear() == 0) atomicAdd(&ldc_g.pool.counters[0], 1ULL);
  return 1;
}

// ldc_det_page: in a deterministic run, the calling block's own copy of
// page pg of al (level 1's pool, unit = block), taken and copied from the
// base when create; null when the block has none (the base holds the
// inputs: no block stores there during the kernel) or the pool is out of
// room (the run is then void, and runs again with more).
static __device__ LDC_ENGINE __noinline__ unsigned char *ldc_det_page(const struct ldc_alloc *al, unsigned long long pg, int create) {
  unsigned page = (unsigned)(al->first_page + pg);
  int block = (int)ldc_block_linear();
  long long s, h;
  unsigned char *d = ldc_grid_find(page, block, create, &s, &h);
  if (s >= 0) {
    ldc_copy_page(d, al, pg);
    ldc_grid_publish(page, block, block, s, h);
  }
  return d;
}

// Level 2: segment helpers.
static __device__ LDC_ENGINE __forceinline__ unsigned *ldc_seg_counters(unsigned char *seg) { return (unsigned *)seg + ldc_block()->seg_sel; }
static __device__ LDC_ENGINE __forceinline__ unsigned long long *ldc_seg_keys(unsigned char *seg) { return (unsigned long long *)(seg + ldc_g.segs.off_keys); }
static __device__ LDC_ENGINE __forceinline__ unsigned *ldc_seg_vals(unsigned char *seg) { return (unsigned *)(seg + ldc_g.segs.off_vals); }
static __device__ LDC_ENGINE __forceinline__ struct ldc_slot *ldc_seg_slots(unsigned char *seg) { return (struct ldc_slot *)(seg + ldc_g.segs.off_slots); }
static __device__ LDC_ENGINE __forceinline__ struct ldc_page_entry *ldc_seg_pages(unsigned char *seg) { return (struct ldc_page_entry *)(seg + ldc_g.segs.off_pages); }
static __device__ LDC_ENGINE __forceinline__ unsigned char *ldc_seg_written(unsigned char *seg) { return seg + ldc_g.segs.off_written; }
static __device__ LDC_ENGINE __forceinline__ unsigned char *ldc_seg_data(unsigned char *seg, unsigned long long s) { return seg + ldc_g.segs.off_data + s * ldc_g.pool.slot_bytes; }
static __device__ LDC_ENGINE __forceinline__ unsigned char *ldc_seg_snap(unsigned char *seg, unsigned long long s) { return seg + ldc_g.segs.off_snap + s * ldc_g.pool.slot_bytes; }

// Level 2: the warp's copy of the page holding p, in the block's segment.
// ldc_seg_find and ldc_seg_publish split it as ldc_grid_find and
// ldc_grid_publish do level 1's.
static __device__ LDC_ENGINE unsigned char *ldc_seg_find(unsigned char *seg, unsigned page, int warp, int write, long long *s, long long *h) {
  unsigned long long *keys = ldc_seg_keys(seg), mask = ldc_g.segs.table_mask;
  unsigned *vals = ldc_seg_vals(seg);
  unsigned long long key = ((unsigned long long)(warp + 1) << 32) | (page + 1ULL);
  int claimed;
  *s = -1;
  *h = ldc_table_slot(keys, mask, key, write, &claimed);
  if (*h < 0) {
    if (write) ldc_g.segs.status[0] = 1;
    return 0;
  }
  if (!claimed) {
    unsigned v = ldc_vload32(&vals[*h]);
    if (v == 0) {
      if (!write) return 0;
      v = ldc_wait_val(vals, *h);
    }
    if (v == ~0u) return 0;
    return ldc_seg_data(seg, v - 1);
  }
  unsigned *cnt = ldc_seg_counters(seg);
  unsigned n = atomicAdd(&cnt[0], 1u);
  if (!(*(volatile unsigned *)&ldc_block()->seg_warps >> warp & 1u)) atomicOr(&ldc_block()->seg_warps, 1u << warp);
  if (n >= ldc_g.segs.cap) {
    ldc_g.segs.status[0] = 1;
    __threadfence();
    atomicExch(&vals[*h], ~0u);
    return 0;
  }
  *s = n;
  return ldc_seg_data(seg, n);
}
// ldc_seg_publish enters a filled slot (data and snapshot) in the block's
// page list; 0 when the list is out of room (the launch is then void).
static __device__ LDC_ENGINE int ldc_seg_publish(unsigned char *seg, unsigned page, int warp, long long s, long long h) {
  unsigned long long *keys = ldc_seg_keys(seg), mask = ldc_g.segs.table_mask;
  unsigned *vals = ldc_seg_vals(seg), *cnt = ldc_seg_counters(seg);
  // The page's entry in the block's page list (one per page, whichever
  // warp comes first).
  int claimed;
  long long hp = ldc_table_slot(keys, mask, page + 1ULL, 1, &claimed);
  if (hp < 0) {
    ldc_g.segs.status[0] = 1;
    atomicExch(&vals[h], ~0u);
    return 0;
  }
  struct ldc_page_entry *pl = ldc_seg_pages(seg);
  unsigned q;
  if (claimed) {
    q = atomicAdd(&cnt[1], 1u);
    struct ldc_page_entry e = {page, -1, (unsigned)hp, 0};
    pl[q] = e;
    // Fences of the block: a segment is its block's alone (ldc_seg_acquire),
    // and a fence of the device cost a region's writer microseconds that
    // the block's other warps spent waiting at its barrier.
    __threadfence_block();
    atomicExch(&vals[hp], q + 1);
  } else {
    q = ldc_wait_val(vals, hp) - 1;
  }
  int prev = atomicExch(&pl[q].head, (int)s);
  struct ldc_slot sl = {warp, prev, page, (unsigned)h};
  ldc_seg_slots(seg)[s] = sl;
  __threadfence_block();
  atomicExch(&vals[h], (unsigned)(s + 1));
  return 1;
}
// The snapshot is a copy of the copy, not a second read of the base: other
// blocks may merge into the page in between.
static __device__ LDC_ENGINE __forceinline__ void ldc_seg_snapshot(unsigned char *seg, long long s, unsigned rank, unsigned np) {
  const uint4 *d = (const uint4 *)ldc_seg_data(seg, s);
  uint4 *sn = (uint4 *)ldc_seg_snap(seg, s);
  for (unsigned long long i = rank; i < ldc_g.pool.slot_bytes / 16; i += np) sn[i] = d[i];
}
static __device__ LDC_ENGINE void *ldc_cow_block(const struct ldc_alloc *al, unsigned long long off, const void *p, int write) {
  unsigned char *seg = ldc_block()->seg;
  if (!seg) return (void *)p;
  int warp = (int)(ldc_thread_linear() / 32);
  // (A deterministic run reads its block's own copy where it has one.)
  if (!write && !LDC_DET_ON && !(*(volatile unsigned *)&ldc_block()->seg_warps >> warp & 1u)) return (void *)p;
  unsigned long long in, pg = ldc_page_of(al, off, &in);
  unsigned page = (unsigned)(al->first_page + pg);
  long long s, h;
#if !defined(LDC_CPU)
  if (!write) {
#endif
    unsigned char *d = ldc_seg_find(seg, page, warp, write, &s, &h);
    if (s >= 0) {
      // A deterministic run's warps start from their block's copy.
      ldc_copy_page(d, al, pg, 0, 1, LDC_DET_ON ? ldc_det_page(al, pg, 0) : 0);
      ldc_seg_snapshot(seg, s, 0, 1);
      if (!ldc_seg_publish(seg, page, warp, s, h)) d = 0;
    }
    if (!d && LDC_DET_ON && !write) d = ldc_det_page(al, pg, 0);
    return d ? d + in : (void *)p;
#if !defined(LDC_CPU)
  }
  // One lookup, and one copy made together, per page a warp's lanes
  // store to (as in ldc_cow_grid).
  unsigned peers = ldc_match_any(__activemask(), page);
  unsigned lane = ldc_lane(), leader = __ffs(peers) - 1;
  unsigned char *d = 0, *from = 0;
  s = -1;
  if (lane == leader) {
    d = ldc_seg_find(seg, page, warp, write, &s, &h);
    if (LDC_DET_ON && s >= 0) from = ldc_det_page(al, pg, 0);
  }
  d = (unsigned char *)__shfl_sync(peers, (unsigned long long)d, leader);
  s = __shfl_sync(peers, s, leader);
  if (s >= 0) {
    unsigned rank = __popc(peers & ((1u << lane) - 1u)), np = __popc(peers);
    from = (unsigned char *)__shfl_sync(peers, (unsigned long long)from, leader);
    ldc_copy_page(d, al, pg, rank, np, from);
    __syncwarp(peers);
    ldc_seg_snapshot(seg, s, rank, np);
    __syncwarp(peers);
    int ok = 0;
    if (lane == leader) ok = ldc_seg_publish(seg, page, warp, s, h);
    if (!__shfl_sync(peers, ok, leader)) d = 0;
  }
  return d ? d + in : (void *)p;
#endif
}

// Level 2 in one pass, stores in place (ldc_g.segs.direct_mask). A region
// that runs once checks only that no two warps changed one byte (its proof
// says no warp reads what another writes in it), and a warp's copy of a
// page served only that check: the stores may as well go to the originals,
// where the kernel puts them, if something else tells when two warps store
// to one byte. ldc_own does: a table in the block's segment, one entry per
// word stored to in the region (the key: the word's address, tagged with
// the region's epoch, so that entries of earlier regions count as empty
// and nothing is emptied at a region end), holding for each byte of the
// word the warp that stored to it. A second warp's store to a byte makes
// the launch void (so does a full table): the host runs level 2 again with
// copies, whose check reports what the kernel's values show. Two warps
// storing to one byte are a race of the kernel, or a store of a value
// the byte already held, rare in race-free code; a racy kernel's first
// such region ends its blocks (as ldc_seg_check does with a full segment),
// so its void launch costs little. Stores of one warp's lanes to a word
// update its entry once (the lowest lane).
#define LDC_OWN_PROBES 64
// ldc_own_void also tags the region dirty (dirty_any, as a shared
// target's first store does): the quiet region end then reads one word,
// not two, to know whether the block checks, and the check (no target's
// own dirty word tagged) comes to ldc_seg_check, which ends the block.
static __device__ LDC_ENGINE void ldc_own_void(struct ldc_block_state *bs, int full) {
  *(volatile unsigned *)&bs->own_void = 1;
  *(volatile unsigned *)&bs->dirty_any = *(volatile unsigned *)&bs->epoch + 1u; // (ldc_dirty_tag's)
  atomicExch(&ldc_g.segs.status[full ? 3 : 2], 1u);
}
// ldc_own_bytes makes warp w1 - 1 the owner of the bytes m of a word
// whose owners are cur (6 bits a byte: warp + 1, 0 none) and puts the
// result in *next; 0 when another warp owns one of them. The four fields
// at once, as bit arithmetic: it runs in one lane while the block waits at
// the barrier (ld_btree), and at every store of ld_radixsort's threads to
// their shared keys, where a loop over the bytes took 45 instructions.
// A field is nonzero where its low five bits plus 31 carry into its sixth
// bit, or its sixth bit is set (no carry crosses fields: 31 + 31 < 64).
#define LDC_OWN_LOW5 0x7df7dfu // 0x1f in each 6-bit field
#define LDC_OWN_TOP 0x820820u  // 0x20 in each
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_own_nonzero(unsigned x) { return (((x & LDC_OWN_LOW5) + LDC_OWN_LOW5) | x) & LDC_OWN_TOP; }
static __device__ LDC_ENGINE __forceinline__ int ldc_own_bytes(unsigned cur, unsigned m, unsigned w1, unsigned *next) {
  unsigned fields = ((m & 1u) | (m & 2u) << 5 | (m & 4u) << 10 | (m & 8u) << 15) * 0x3fu; // the fields of the bytes m
  unsigned mine = (w1 * 0x41041u) & fields, o = cur & fields;                               // w1 in each; their owners
  // A clash: a field of m with an owner (nonzero) other than w1 (differs).
  unsigned clash = ldc_own_nonzero(o) & ldc_own_nonzero(o ^ mine);
  *next = cur | mine; // (the fields of m hold 0 or w1: or-ing w1 makes them w1)
  return !clash;
}
// ldc_own_slot is where word's probe starts in ldc_own's table (mask + 1
// entries): a multiplicative hash of its 32-bit halves, a few
// instructions where ldc_hash's two 64-bit products took twenty.
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_own_slot(unsigned long long word, unsigned long long mask) {
  unsigned h = ((unsigned)word ^ (unsigned)(word >> 32)) * 0x9e3779b1u;
  return (h ^ h >> 16) & mask;
}
// ldc_own_key is the 24 bits of word an entry of ldc_own's table keeps.
// Two words of one probe chain with the same key share an entry: a store
// of two warps to them voids the launch (its rerun with copies tells
// whether it races), and no race goes unseen, since every store to a word
// finds the same entry, the first of its chain with its key.
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_own_key(unsigned long long word) {
  return (unsigned)(word ^ word >> 24 ^ word >> 48) & 0xffffffu;
}
// An entry of ldc_own's table is one 64-bit word: the region's epoch (low
// 16 bits) at 48, the word's key at 24, the bytes' owners (ldc_own_bytes)
// below, so that a store takes it with one load and one compare-and-swap
// (a key and an owner word apart took two of each, dependent: ld_btree's
// blocks wait at the barrier for the one lane that stores). An entry with
// no owner is empty, whatever its epoch; one of another epoch is an
// earlier region's, free. (One of 65,536 regions ago passes for this
// region's: at worst a void launch, as with two keys alike.)
// epoch: the region's count where the caller has it in a register (the
// kernel's ldc_fs.epoch, LDC_WK), 0 where it is read from the block's.
static __device__ LDC_ENGINE __forceinline__ void ldc_own_word_at(struct ldc_block_state *bs, unsigned char *seg, unsigned long long word, unsigned m, unsigned w1, unsigned epoch = 0u) {
  unsigned long long mask = ldc_g.segs.direct_mask;
  unsigned long long *table = (unsigned long long *)(seg + 16);
  if (!epoch) epoch = ldc_lds(&bs->epoch);
  const unsigned long long head = (unsigned long long)(epoch & 0xffffu) << 48 | (unsigned long long)ldc_own_key(word) << 24;
  unsigned long long h = ldc_own_slot(word, mask);
  for (unsigned i = 0; i < LDC_OWN_PROBES && i <= mask; i++, h = (h + 1) & mask) {
    unsigned long long e = ldc_vload64(&table[h]);
    for (;;) {
      unsigned cur = (unsigned)e & 0xffffffu;
      int mine = cur != 0 && (e >> 48) == (head >> 48); // (this region's)
      if (mine && (e & ~0xffffffull) != head) break;    // another word's: the next slot
      unsigned next;
      if (!ldc_own_bytes(mine ? cur : 0u, m, w1, &next)) {
        ldc_own_void(bs, 0);
        return;
      }
      unsigned long long want = head | next;
      if (want == e) return;
      unsigned long long old = atomicCAS(&table[h], e, want);
      if (old == e) return;
      e = old;
    }
  }
  ldc_own_void(bs, 1); // no room
}
// ldc_own_word enters a store to the bytes m of word in the table. Where
// the table is in the block's dynamic shared memory, its address is
// derived from the shared array itself, so that the compiler emits shared
// loads and compare-and-swaps: through bs->seg, a generic pointer, they
// were generic (ld_btree: every store's, in the one lane its block waits
// for at the barrier). Where it is not, a block without a segment notes
// nothing. epoch: as ldc_own_word_at's.
static __device__ LDC_ENGINE __forceinline__ void ldc_own_word(struct ldc_block_state *bs, unsigned long long word, unsigned m, unsigned w1, unsigned epoch) {
  if (ldc_g.segs.in_dyn) {
    LDC_DYNAMIC_SHARED(unsigned char, ldc_dyn_shared);
    ldc_own_word_at(bs, (unsigned char *)ldc_dyn_shared + ldc_g.segs.dyn_offset, word, m, w1, epoch);
    return;
  }
  if (bs->seg) ldc_own_word_at(bs, bs->seg, word, m, w1, epoch);
}
// ldc_own_leads says whether the calling lane updates the entry of the
// bytes m of word wd: the lowest of the warp's active lanes that store to
// them (one update a warp); a lane storing alone, without a match.
static __device__ LDC_ENGINE __forceinline__ int ldc_own_leads(unsigned long long wd, unsigned m) {
#if !defined(LDC_CPU)
  unsigned act = __activemask();
  if (act & (act - 1u)) return ldc_lane() == (unsigned)__ffs(ldc_match_any(act, (wd << 4) | m)) - 1;
#endif
  return 1;
}
// ldc_own notes a store of n bytes at p by the calling thread's warp, a
// word at a time: stores of wide types, and misaligned ones (a scalar
// store within one word takes ldc_own_small).
static __device__ LDC_ENGINE __noinline__ void ldc_own(const void *p, unsigned long n) {
  struct ldc_block_state *bs = ldc_block();
  if (!bs->seg || n == 0) return;
#if !defined(LDC_CPU)
  if (!ldc_is_global(p)) return; // (a wrapped pointer to a local or shared variable)
#endif
  unsigned w1 = ldc_thread_linear() / 32 + 1;
  unsigned long long a = (unsigned long long)p, end = a + n;
  for (unsigned long long wd = a >> 2; wd <= (end - 1) >> 2; wd++) {
    unsigned lo = wd * 4 < a ? (unsigned)(a - wd * 4) : 0u, hi = wd * 4 + 4 > end ? (unsigned)(end - wd * 4) : 4u;
    unsigned m = ((1u << hi) - 1u) & ~((1u << lo) - 1u);
    if (ldc_own_leads(wd, m)) ldc_own_word(bs, wd, m, w1, 0u);
  }
}
// ldc_own_small is ldc_own for a store of 1, 2 or 4 bytes (ldc_access's
// of a scalar type), which a natural alignment keeps within one word: no
// loop, and no match of the warp's lanes where one lane stores (ld_btree's:
// one thread a region, while its block waits at the barrier for this
// path's latency). A function of its own: as a branch of ldc_own the
// compiler folded it into the loop's code (nvcc 11.8: masks of both word
// ends, compares of 64-bit bounds, before every store's table entry). A
// store across words (misaligned: a fault on a GPU, not on the CPU) takes
// ldc_own's way. One copy a size: a 4-byte store's bytes are constants.
//
// Where the table is in dynamic shared memory (ldc_g.segs.in_dyn), every
// running block has it (ldc_seg_acquire): no load of bs->seg to test, one
// shared load fewer on the path its block waits for. A 4-byte store is
// aligned by then: its bytes are a constant, where the shift by the
// address's low bits was not folded.
template <unsigned n> static __device__ LDC_ENGINE __noinline__ void ldc_own_small(const void *p, unsigned epoch) {
  unsigned long long a = (unsigned long long)p;
  if ((a & 3u) + n > 4) {
    ldc_own(p, n);
    return;
  }
#if !defined(LDC_CPU)
  if (!ldc_is_global(p)) return; // (a wrapped pointer to a local or shared variable)
#endif
  unsigned m = n == 4 ? 0xfu : ((1u << n) - 1u) << (a & 3u);
  if (!ldc_own_leads(a >> 2, m)) return;
  ldc_own_word(ldc_block(), a >> 2, m, ldc_thread_linear() / 32 + 1, epoch);
}

// ldc_cow is where every wrapped global access goes.
static __device__ LDC_ENGINE void *ldc_cow(const void *p, int write) {
  unsigned long long a = (unsigned long long)p;
  for (int i = 0; i < ldc_g.nallocs; i++) {
    const struct ldc_alloc *al = &ldc_g.allocs[i];
    if (a - al->base < al->size) {
      if (!LDC_REPLAY_BUILT || LDC_MODE(ldc_g) == LDC_MODE_BLOCK) return ldc_cow_grid(al, a - al->base, p, write);
      return ldc_cow_block(al, a - al->base, p, write);
    }
  }
  return (void *)p;
}

// ldc_read_copied is a read of level 2 that may go to the warp's copy: a
// warp that holds none reads the original (as in ldc_cow_block), without
// the walk over the targets. A call of its own in the one-pass module,
// whose launches mostly store in place and read the originals: inline,
// nvcc loaded bs->seg ahead of the test at every read (ld_btree's reads
// of cur[q], sixteen instructions each with the launch's flags spilled).
static __device__ LDC_ENGINE __forceinline__ void *ldc_read_copied_at(const void *p) {
  struct ldc_block_state *bs = ldc_block();
  if (!bs->seg || !(*(volatile unsigned *)&bs->seg_warps >> (ldc_thread_linear() / 32) & 1u)) return (void *)p;
  return ldc_cow(p, 0);
}
static __device__ LDC_ENGINE __noinline__ void *ldc_read_copied(const void *p) { return ldc_read_copied_at(p); }

template <class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_access(T *p, int write, unsigned epoch = 0u) {
  if (LDC_MODE(ldc_g) == LDC_MODE_PLAIN || ldc_g.nallocs == 0) return p;
  if (LDC_REPLAY_BUILT && LDC_MODE(ldc_g) == LDC_MODE_REPLAY && !LDC_DET_ON) {
    if (LDC_ONE_PASS_ON && (unsigned)ldc_g.segs.direct_mask) {
      if (write) {
        if (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4) ldc_own_small<sizeof(T)>((const void *)p, epoch);
        else ldc_own((const void *)p, sizeof(T));
      }
      return p;
    }
    // A read by a warp that holds no copy goes to the original (as in
    // ldc_cow_block), without the walk over the targets: ld_btree's reads
    // of cur[q] spent 45 instructions a warp there.
#if defined(LDC_ONE_PASS) && !defined(LDC_CPU)
    if (!write) return (T *)ldc_read_copied((const void *)p);
#else
    if (!write) return (T *)ldc_read_copied_at((const void *)p);
#endif
  }
  return (T *)ldc_cow((const void *)p, write);
}
#define LDC_R(p) ldc_access((p), 0)
#define LDC_W(p) ldc_access((p), 1)
// A store written in a kernel's body (not in a lambda): the store hook
// takes the region's count from the kernel's registers (ldc_fs), not from
// the block's state in shared memory (a load, after the block's address,
// on the path its block waits for at the barrier: ld_btree's).
#define LDC_WK(p) ldc_access((p), 1, ldc_fs.epoch)

static __device__ LDC_ENGINE void ldc_smark_any(const void *p, unsigned long n);
static __device__ LDC_ENGINE void ldc_iw_any(const void *p, unsigned long n, int write);

// memcpy, memset and memmove in kernels and device functions: byte by byte
// through the hooks, so their stores land in the unit's copies (and flag
// what they write in a warp's copy of a shared target).
static __device__ LDC_ENGINE void *ldc_memcpy(void *dst, const void *src, unsigned long n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  ldc_smark_any(dst, n);
  ldc_iw_any(src, n, 0);
  ldc_iw_any(dst, n, 1);
  for (unsigned long i = 0; i < n; i++) *LDC_W(d + i) = *LDC_R(s + i);
  return dst;
}
static __device__ LDC_ENGINE void *ldc_memmove(void *dst, const void *src, unsigned long n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  ldc_smark_any(dst, n);
  ldc_iw_any(src, n, 0);
  ldc_iw_any(dst, n, 1);
  if (d < s) {
    for (unsigned long i = 0; i < n; i++) *LDC_W(d + i) = *LDC_R(s + i);
  } else {
    for (unsigned long i = n; i > 0; i--) *LDC_W(d + i - 1) = *LDC_R(s + i - 1);
  }
  return dst;
}
static __device__ LDC_ENGINE void *ldc_memset(void *dst, int c, unsigned long n) {
  unsigned char *d = (unsigned char *)dst;
  ldc_smark_any(dst, n);
  ldc_iw_any(dst, n, 1);
  for (unsigned long i = 0; i < n; i++) *LDC_W(d + i) = (unsigned char)c;
  return dst;
}

// Level 2 segments: a block takes one at its start and gives it back when
// all its threads are done. Blocks that find none free wait: the holders
// are running and will finish.
static __device__ LDC_ENGINE void ldc_seg_acquire() {
  struct ldc_block_state *bs = ldc_block();
  if (ldc_thread_linear() == 0) {
    bs->seg_index = -1;
    bs->seg_peak = 0;
    bs->seg = 0;
    bs->seg_warps = 0;
    bs->seg_sel = 0;
    bs->epoch = 1; // (ldc_begin's ap_epoch)
    bs->own_void = 0;
    int n = ldc_g.segs.nseg;
    if (ldc_g.segs.in_dyn) {
      LDC_DYNAMIC_SHARED(unsigned char, ldc_dyn_shared);
      bs->seg = (unsigned char *)ldc_dyn_shared + ldc_g.segs.dyn_offset;
      // -2: another block's segment ran out of room; the launch is void.
      if (*(volatile unsigned *)&ldc_g.segs.status[0] || (ldc_g.segs.direct_mask && (*(volatile unsigned *)&ldc_g.segs.status[2] || *(volatile unsigned *)&ldc_g.segs.status[3]))) bs->seg_index = -2;
    } else {
      int g = (int)(ldc_block_linear() % (unsigned)n);
      while (atomicCAS(&ldc_g.segs.busy[g], 0, 1) != 0) {
        g = (g + 1) % n;
        if (g == (int)(ldc_block_linear() % (unsigned)n)) {
          ldc_pause();
#if defined(LDC_CPU)
          // A block that failed keeps its segment; on the CPU the launch
          // is over then, but the other workers must not wait forever.
          // (With one segment a block waits as long as another runs.)
          if (::ldc::launch_failed()) ::ldc::fail_fiber("gave up waiting for a level-2 segment: another block failed");
#endif
        }
      }
      __threadfence();
      bs->seg_index = g;
      bs->seg = ldc_g.segs.mem + (unsigned long long)g * ldc_g.segs.seg_bytes;
    }
  }
  if (ldc_g.segs.in_dyn) {
    // Shared memory holds whatever the SM's last block left there: the
    // counters, the table and the written flags start empty, as the host
    // leaves a global segment (data and snapshots are written before
    // they are read).
    LDC_DYNAMIC_SHARED(unsigned char, ldc_dyn_shared);
    uint4 *seg = (uint4 *)((unsigned char *)ldc_dyn_shared + ldc_g.segs.dyn_offset);
    const uint4 zero = {0, 0, 0, 0};
    unsigned tid = ldc_thread_linear(), nt = ldc_block_threads();
    if (ldc_g.segs.direct_mask) {
      for (unsigned long long j = tid; j < 1 + (ldc_g.segs.direct_mask + 1) / 2; j += nt) seg[j] = zero; // counters, ldc_own's table
    } else {
      for (unsigned long long j = tid; j < ldc_g.segs.off_slots / 16; j += nt) seg[j] = zero;
      for (unsigned long long j = ldc_g.segs.off_written / 16 + tid; j < ldc_g.segs.off_data / 16; j += nt) seg[j] = zero;
    }
  }
  ldc_bar();
  if (ldc_g.segs.direct_mask && !ldc_g.segs.in_dyn) {
    // A segment in device memory holds its last block's entries, whose
    // epochs this block's would repeat.
    uint4 *seg = (uint4 *)bs->seg;
    const uint4 zero = {0, 0, 0, 0};
    unsigned tid = ldc_thread_linear(), nt = ldc_block_threads();
    for (unsigned long long j = tid; j < 1 + (ldc_g.segs.direct_mask + 1) / 2; j += nt) seg[j] = zero;
    ldc_bar();
  }
#if !defined(LDC_CPU)
  if (ldc_g.segs.in_dyn && bs->seg_index == -2) asm volatile("exit;"); // (see ldc_seg_check)
#endif
  if (ldc_g.segs.pristine) {
    // One block at a time, each from the kernel's inputs. Level 2 compares
    // a block's warps; bytes that other blocks also write (level 1 found
    // them) would otherwise hold those blocks' values when this block's
    // warps first copy them, so whether two warps "changed" a byte, and
    // which warp read what, would depend on which blocks ran first: races
    // missed, or reported for warps that never touched the byte.
    unsigned tid = ldc_thread_linear(), n = ldc_block_threads();
    unsigned long long at = 0;
    for (int i = 0; i < ldc_g.nallocs; i++) {
      const struct ldc_alloc *al = &ldc_g.allocs[i];
      unsigned char *dst = (unsigned char *)al->base;
      const unsigned char *src = ldc_g.segs.pristine + at;
      unsigned long long words = (al->base % 16 == 0) ? al->size / 16 : 0;
      for (unsigned long long j = tid; j < words; j += n) ((uint4 *)dst)[j] = ((const uint4 *)src)[j];
      for (unsigned long long j = words * 16 + tid; j < al->size; j += n) dst[j] = src[j];
      at += (al->size + 15) / 16 * 16;
    }
    __threadfence();
    ldc_bar();
  }
}

// ldc_uses_segments: level 2 with global targets (the same for every
// thread of a launch).
static __device__ LDC_ENGINE __forceinline__ int ldc_uses_segments(int mode) {
  return mode == LDC_MODE_REPLAY && ldc_g.segs.nseg > 0 && ldc_g.nallocs > 0;
}

static __device__ LDC_ENGINE void ldc_seg_release(const struct ldc_thread *t) {
  struct ldc_block_state *bs = ldc_block();
  if (!ldc_uses_segments(LDC_MODE(*t))) return;
  if (ldc_thread_linear() == 0 && bs->seg) {
    __threadfence();
    if (bs->seg_peak) atomicMax(&ldc_g.segs.status[1], bs->seg_peak);
    if (!ldc_g.segs.in_dyn) atomicExch(&ldc_g.segs.busy[bs->seg_index], 0);
    bs->seg = 0;
  }
}

static __device__ LDC_ENGINE void ldc_begin(struct ldc_thread *t, int uniform_ends) {
  t->mode = ldc_g.mode;
  if (!LDC_REPLAY_BUILT && t->mode == LDC_MODE_REPLAY) ldc_internal("the level-1 module was launched for level 2");
  if (LDC_MODE(*t) != t->mode) ldc_internal("the one-pass module was launched for a level other than level 2");
  t->pass = 1;
  t->start = -1;
  t->end1 = -1;
  t->differ = 0;
  t->natomic = 0;
  t->ap_epoch = 1;
  t->compared = 0;
  t->pred_op = t->pred = 0;
  t->seg_sel = 0;
  t->one = 0;
  t->cond = 1;
  t->or_gen = 0;
  t->uniform_ends = uniform_ends;
  // Set before any thread adds to it: every thread passes at least one
  // region end (a barrier) before ldc_idle adds.
  if (LDC_MODE(*t) == LDC_MODE_REPLAY && ldc_thread_linear() == 0) {
    ldc_block()->compared = 0;
    ldc_block()->pred_count = 0;
    ldc_block()->ndone = 0;
    ldc_block()->iw_raced = ldc_block()->iw_shared = 0;
    // Before the first store to a shared target: each comes after the
    // barriers of that target's ldc_shared_copy.
    ldc_block()->dirty_any = 0;
    ldc_block()->epoch = 1; // (t->ap_epoch: see ldc_dirty_tag)
    ldc_block()->to_tag = 0; // (no region ended at a barrier yet: ldc_region_to)
  }
  t->atomic_start = 0;
  // Level 2 with global targets: the block takes a segment (a barrier, so
  // every thread sees it). Otherwise no segment, and no barrier: one here
  // would change the order in which the CPU backend's lockstep threads
  // start, and so which lane of a warp wins an intra-warp race.
  // (Shared memory is not cleared between blocks: every thread stores the
  // same 0 where there is no segment.)
  if (ldc_uses_segments(LDC_MODE(*t))) ldc_seg_acquire();
  else if (LDC_MODE(*t) != LDC_MODE_PLAIN) ldc_block()->seg = 0;
  ldc_iw_reset(0);
}

// Word helpers for the checks: pages of any valid length at any alignment
// of the base, read and written a 4-byte word at a time.
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_bytemask(unsigned d) { // 0xff in each nonzero byte of d
  unsigned t = ((d & 0x7f7f7f7fu) + 0x7f7f7f7fu) | d;
  return ((t & 0x80808080u) >> 7) * 0xffu;
}
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_load_word(const unsigned char *p, unsigned n) {
  if (n == 4 && ((unsigned long long)p & 3) == 0) return *(const unsigned *)p;
  unsigned v = 0;
  for (unsigned b = 0; b < n; b++) v |= (unsigned)p[b] << (8 * b);
  return v;
}
static __device__ LDC_ENGINE __forceinline__ void ldc_store_word(unsigned char *p, unsigned v, unsigned mask) {
  if (mask == 0xffffffffu && ((unsigned long long)p & 3) == 0) {
    *(unsigned *)p = v;
    return;
  }
  for (unsigned b = 0; b < 4; b++)
    if (mask >> (8 * b) & 0xffu) p[b] = (unsigned char)(v >> (8 * b));
}
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_valid_mask(unsigned n) { return n >= 4 ? 0xffffffffu : (1u << (8 * n)) - 1; }
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_byte(unsigned w, unsigned b) { return w >> (8 * b) & 0xffu; }

// ldc_alloc_of_page finds the allocation a global page id belongs to.
static __device__ LDC_ENGINE __forceinline__ int ldc_alloc_of_page(unsigned page) {
  for (int i = 0; i < ldc_g.nallocs; i++)
    if (page - ldc_g.allocs[i].first_page < ldc_g.allocs[i].pages) return i;
  return -1;
}

// ldc_word_at locates word k of a page: the allocation, the base address
// of the word and how many of its bytes are in the allocation (0: none).
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_word_at(unsigned page, unsigned long long k, int *ai, unsigned char **base, unsigned long long *offset) {
  int i = ldc_alloc_of_page(page);
  *ai = i;
  if (i < 0) return 0;
  const struct ldc_alloc *al = &ldc_g.allocs[i];
  unsigned long long start = (page - al->first_page) * al->page_bytes + 4 * k;
  unsigned long long end = (page - al->first_page + 1) * al->page_bytes;
  if (end > al->size) end = al->size;
  if (start >= end) return 0;
  *base = (unsigned char *)(al->base + start);
  *offset = start;
  return end - start >= 4 ? 4 : (unsigned)(end - start);
}

// ldc_shared_copies returns where warp 0's copy of shared target i starts
// for the calling block (the others follow, shared_bytes[i] apart).
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_align16(unsigned long long n) { return (n + 15) & ~15ull; }
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_granules(unsigned long long bytes) { return (bytes + 15) >> 4; }
// The room before a tracked target's writer masks (see ldc_flag).
#define LDC_FLAGS_HEAD 16
static __device__ LDC_ENGINE __forceinline__ unsigned char *ldc_shared_copies(int i) {
  if (ldc_g.shared_in_dyn) {
    LDC_DYNAMIC_SHARED(unsigned char, ldc_dyn_shared);
    return (unsigned char *)ldc_dyn_shared + ldc_g.dyn_offset + ldc_g.shared_off[i];
  }
  return (unsigned char *)(ldc_g.shared_scratch + (unsigned long long)ldc_block_linear() * ldc_g.shared_per_block + ldc_g.shared_off[i]);
}

// Shared targets stored in place (ldc_g.shared_own, host: ownShared): in
// a level 2 of one pass a region, where a region checks only that no two
// warps store to one byte, a target has no copies but an owner word per
// 4-byte word, after a 16-byte head: bits 24-31 the low byte of the tag of
// the region that last stored to it (ldc_dirty_tag), bits 6b..6b+5 warp +
// 1 of the warp that stored to byte b in that region (0: none). A store by
// another warp to a byte with an owner in this region makes the launch
// void (failed_test = LDC_SHARED_OWN_VOID): the host runs it again with
// copies. A word untouched for a multiple of 256 regions may look as if
// stored to in this one: at worst a void launch, never a race missed (a
// store always leaves its warp as the owner of its bytes, or voids).
#define LDC_OWN_HEAD 16
#define LDC_SHARED_OWN_VOID (1 << 30)
static __device__ LDC_ENGINE __noinline__ void ldc_own_shared(unsigned *ow, unsigned long long k, unsigned m) {
  unsigned w1 = ldc_thread_linear() / 32 + 1;
  unsigned tag = ((*(const volatile unsigned *)&ldc_block()->epoch + 1u) & 0xffu) << 24; // (ldc_dirty_tag's)
  unsigned v = *(volatile unsigned *)&ow[k];
  for (;;) {
    unsigned next;
    if (!ldc_own_bytes((v & 0xff000000u) == tag ? v & 0xffffffu : 0u, m, w1, &next)) {
      if (ldc_g.failed_test) atomicMax(ldc_g.failed_test, LDC_SHARED_OWN_VOID);
      return;
    }
    unsigned want = tag | next;
    if (want == v) return;
    unsigned old = atomicCAS(&ow[k], v, want);
    if (old == v) return;
    v = old;
  }
}
// ldc_own_range notes a store to bytes [off, off + n) of a target stored
// in place (n at least 1, off + n within it). Not inlined: ldc_sw is, at
// every store to a shared target of every kernel, and the launches that
// copy the targets must not pay registers for it.
static __device__ LDC_ENGINE __noinline__ void ldc_own_range(unsigned *ow, unsigned long long off, unsigned long long n) {
  // Within one word (every store of 4 bytes or less, aligned): no loop,
  // 32-bit arithmetic (ld_radixsort: four such stores a thread a bit).
  if ((off & 3u) + n <= 4) {
    ldc_own_shared(ow, off >> 2, ((1u << (unsigned)n) - 1u) << (unsigned)(off & 3u));
    return;
  }
  unsigned long long end = off + n;
  for (unsigned long long k = off >> 2; k <= (end - 1) >> 2; k++) {
    unsigned lo = k * 4 < off ? (unsigned)(off - k * 4) : 0u, hi = k * 4 + 4 > end ? (unsigned)(end - k * 4) : 4u;
    ldc_own_shared(ow, k, ((1u << hi) - 1u) & ~((1u << lo) - 1u));
  }
}

// ldc_shared_copy returns the calling warp's copy of shared target i (the
// original in other modes) and initialises every warp's copy from the
// original. Every thread of the block calls it at the same place.
static __device__ LDC_ENGINE void *ldc_shared_copy(struct ldc_thread *t, int i, void *orig, unsigned long bytes) {
  if (LDC_MODE(*t) == LDC_MODE_PLAIN) return orig;
  // Checked runs compare runs of the same code: shared memory must start
  // the same each time, whatever the previous block left there (a read of
  // it before any write is undefined in CUDA anyway).
  if (bytes == 0) bytes = ldc_g.shared_bytes[i];
  unsigned tid = ldc_thread_linear(), n = ldc_block_threads(), w = ldc_warps();
  ldc_bar();
  for (unsigned long j = tid; j < bytes; j += n) ((unsigned char *)orig)[j] = 0;
  if (LDC_MODE(*t) != LDC_MODE_REPLAY) {
    ldc_bar();
    return orig; // level 1: each block on its own shared memory
  }
  if (ldc_g.shared_direct >> i & 1u) {
    // Proven race-free in a launch whose regions all run once: the block's
    // own memory, and nothing for the checks (a null original).
    if (tid == 0) ldc_block()->shared_orig[i] = 0;
    ldc_bar();
    return orig;
  }
  if (ldc_g.shared_own >> i & 1u) {
    // Stored in place (ldc_own_shared): the block's own memory, nothing
    // for the checks, and owner words that start empty after a head
    // holding the original's address (for ldc_smark).
    unsigned char *base = ldc_shared_copies(i);
    if (tid == 0) {
      ldc_block()->shared_orig[i] = 0;
      *(void **)base = orig;
    }
    for (unsigned long long j = tid; j < ldc_align16(bytes) / 16; j += n) ((uint4 *)(base + LDC_OWN_HEAD))[j] = make_uint4(0, 0, 0, 0);
    ldc_bar();
    return orig;
  }
  unsigned char *base = ldc_shared_copies(i);
  if (tid == 0) ldc_block()->shared_orig[i] = orig;
  // The copies, then (when tracked) the writer masks.
  unsigned long long all = ldc_g.shared_tracked ? ldc_align16(bytes * w) + LDC_FLAGS_HEAD + 4 * ldc_granules(bytes) : bytes * w;
  // 16 bytes a store: the room is 16-byte aligned and padded to 16 bytes
  // (SharedCopyBytes); byte stores cost a 1024-thread block 128 each.
  for (unsigned long long j = tid; j < ldc_align16(all) / 16; j += n) ((uint4 *)base)[j] = make_uint4(0, 0, 0, 0);
  if (ldc_iw_on()) { // the intra-warp records of the target
    uint4 *r = (uint4 *)(ldc_iw_area() + ldc_g.iw.off[i]);
    for (unsigned long long j = tid; j < ldc_align16(8ull * LDC_IW_RECORD * ((bytes + 3) / 4)) / 16; j += n) r[j] = make_uint4(0, 0, 0, 0);
  }
  ldc_bar();
  return base + (tid / 32) * bytes;
}

// Each 16-byte granule of a tracked shared target has a writer mask: bit w
// set when warp w stored to the granule in this region (either pass). The
// checks at the barrier then visit the copies of those warps only; every
// other warp's copy holds what the protocol last put there. A warp reads
// the mask before it sets its bit, so a loop of stores to one granule costs
// one atomic, not one each.
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_warp_bit() { return 1u << (ldc_thread_linear() >> 5); }
//
// The word before the masks (the last of a 16-byte head) is the target's
// dirty word: the region's tag (ldc_dirty_tag) when a warp set a first
// bit of any mask in it. The check at the end of a region that runs once
// (see ldc_check_as) reads it to skip a target no warp stored to: most
// regions of a kernel store to few of its targets, and visiting every
// mask and settling the copies cost each of ld_radixsort's 577 barriers a
// block four barriers and loops over its 8 KiB of keys. A tag, not a flag:
// a flag must be cleared once every thread has read it, which took a
// barrier of its own. (The block's dirty_any is the same for any target.)
static __device__ LDC_ENGINE __forceinline__ unsigned *ldc_flags_of(unsigned char *copies, unsigned long long bytes, unsigned W) {
  return (unsigned *)(copies + ldc_align16(bytes * W) + LDC_FLAGS_HEAD);
}
// ldc_dirty_tag is the tag of the block's current region: its epoch (the
// same in every thread: each writes it at a region end, before its next
// store) plus one, never 0, the value of a word no region tagged.
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_dirty_tag(const struct ldc_block_state *bs) { return *(const volatile unsigned *)&bs->epoch + 1u; }
static __device__ LDC_ENGINE __forceinline__ void ldc_flag(unsigned *flags, unsigned long long g, unsigned bit) {
  if (!(*(volatile unsigned *)&flags[g] & bit)) {
    atomicOr(&flags[g], bit);
    struct ldc_block_state *bs = ldc_block();
    unsigned tag = ldc_dirty_tag(bs);
    flags[-1] = tag;
    bs->dirty_any = tag;
  }
}

// ldc_smark flags the granules of bytes [p, p+n) in the calling warp's
// copy of shared target i; addresses outside it are left alone.
static __device__ LDC_ENGINE __forceinline__ void ldc_smark(int i, const void *p, unsigned long n) {
  if (!ldc_g.shared_tracked || LDC_MODE(ldc_g) != LDC_MODE_REPLAY || (ldc_g.shared_direct >> i & 1u)) return;
  unsigned long long bytes = ldc_g.shared_bytes[i];
  unsigned char *c = ldc_shared_copies(i);
  if (ldc_g.shared_own >> i & 1u) {
    unsigned long long off = (unsigned long long)((const unsigned char *)p - *(unsigned char *const *)c);
    if (off < bytes && n) ldc_own_range((unsigned *)(c + LDC_OWN_HEAD), off, off + n > bytes ? bytes - off : n);
    return;
  }
  unsigned long long off = (unsigned long long)((const unsigned char *)p - c) - (unsigned long long)(ldc_thread_linear() / 32) * bytes;
  if (off >= bytes) return;
  unsigned *fl = ldc_flags_of(c, bytes, ldc_warps());
  unsigned long long last = off + (n ? n - 1 : 0);
  if (last >= bytes) last = bytes - 1;
  unsigned bit = ldc_warp_bit();
  for (unsigned long long g = off >> 4; g <= last >> 4; g++) ldc_flag(fl, g, bit);
}
static __device__ LDC_ENGINE void ldc_smark_any(const void *p, unsigned long n) {
  if (!ldc_g.shared_tracked || LDC_MODE(ldc_g) != LDC_MODE_REPLAY) return;
  for (int i = 0; i < ldc_g.nshared; i++) ldc_smark(i, p, n);
}
// ldc_shared_flags is the flags of the calling block's copies of shared
// target i, or null where stores are not flagged (untracked kernels,
// plain runs and level 1, which run on the block's own shared memory).
//
// For a target stored in place it is the owner words (ldc_own_shared):
// ldc_g.shared_own holds every copied target or none, so ldc_sw tells
// the two apart by ldc_g.shared_own alone.
static __device__ LDC_ENGINE __forceinline__ unsigned *ldc_shared_flags(int i) {
  if (!ldc_g.shared_tracked || LDC_MODE(ldc_g) != LDC_MODE_REPLAY || (ldc_g.shared_direct >> i & 1u)) return 0;
  if (ldc_g.shared_own >> i & 1u) return (unsigned *)(ldc_shared_copies(i) + LDC_OWN_HEAD);
  return ldc_flags_of(ldc_shared_copies(i), ldc_g.shared_bytes[i], ldc_warps());
}
// A store to (or atomic on) p in a shared target whose calling warp's copy
// is at copy, bytes long: flag the granules it touches. The compiler keeps
// copy and flags in the kernel's variables, so this is a subtraction, a
// compare and a load of the mask (an atomic the first time).
//
// epoch is the thread's count of regions (ldc_fs.epoch): in the one-pass
// module a store in place within one word takes its owner word inline, a
// load and a compare-and-swap tagged from it, and calls ldc_own_shared
// only when another warp owns a byte or another thread's swap came first
// (ldc_own_range's call, at every store of ld_radixsort's keys, moved its
// arguments, and the call's convergence barrier cost a branch).
template <class C, class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_sw(const C *copy, unsigned *flags, unsigned long long bytes, T *p, unsigned epoch) {
  if (flags) {
    unsigned long long off = (unsigned long long)((const unsigned char *)p - (const unsigned char *)copy);
#if defined(LDC_ONE_PASS) && !defined(LDC_CPU)
    if (sizeof(T) <= 4 && ldc_g.shared_own && off + sizeof(T) <= bytes && (off & 3u) + sizeof(T) <= 4) {
      unsigned m = ((1u << (unsigned)sizeof(T)) - 1u) << (unsigned)(off & 3u), next;
      unsigned *w = flags + (off >> 2);
      unsigned tag = ((epoch + 1u) & 0xffu) << 24; // (ldc_own_shared's)
      unsigned v = *(volatile unsigned *)w;
      int mine = ldc_own_bytes((v & 0xff000000u) == tag ? v & 0xffffffu : 0u, m, ldc_thread_linear() / 32 + 1, &next);
      if (!mine || ((tag | next) != v && atomicCAS(w, v, tag | next) != v)) ldc_own_shared(flags, off >> 2, m);
      return p;
    }
#endif
    (void)epoch;
    if (off < bytes && ldc_g.shared_own) {
      ldc_own_range(flags, off, off + sizeof(T) > bytes ? bytes - off : sizeof(T));
    } else if (off < bytes) {
      unsigned bit = ldc_warp_bit();
      ldc_flag(flags, off >> 4, bit);
      // The granules between the first and the last, for a store wider
      // than 16 bytes (a misaligned double4 spans three).
      if (sizeof(T) > 16)
        for (unsigned long long g = (off >> 4) + 1; g < (off + sizeof(T) - 1) >> 4; g++) ldc_flag(flags, g, bit);
      if ((off + sizeof(T) - 1) >> 4 != off >> 4) ldc_flag(flags, (off + sizeof(T) - 1) >> 4, bit);
    }
  }
  return p;
}
#define LDC_SW(copy, flags, bytes, p) ldc_sw((copy), (flags), (bytes), (p), ldc_fs.epoch)

// ---- Intra-warp races: the records (struct ldc_iw) ----
//
// Record of a 4-byte word of a shared target, LDC_IW_RECORD 64-bit words:
//   [0] (compare-and-swapped) bits 0-5 writer lane + 1, 6-9 the bytes it
//       wrote; 10-15 lowest reader lane + 1, 16-19 the bytes it read; 20
//       other lanes read too, 21-24 the bytes they read; 25-29 the warp;
//       30 several warps touched the word in this region (the word is left
//       alone for the rest of it: any intra-warp race on it is also a race
//       between those warps, which the byte comparisons check, and words
//       that every warp reads cost no compare-and-swap); 31-63 the
//       interval's low bits (region << 18 | lamport)
//   [1] the interval in full (the thread's clock), so that a record of an
//       earlier interval never matches however many intervals passed
//   [2] sites + 1: the writer's (bits 0-15), the lowest reader's (16-31),
//       another reader's (32-47) and its lane + 1 (48-53)
#define LDC_IW_W(v) ((unsigned)((v) & 63))
#define LDC_IW_WM(v) ((unsigned)((v) >> 6 & 15))
#define LDC_IW_R(v) ((unsigned)((v) >> 10 & 63))
#define LDC_IW_RM(v) ((unsigned)((v) >> 16 & 15))
#define LDC_IW_O(v) ((unsigned)((v) >> 20 & 1))
#define LDC_IW_OM(v) ((unsigned)((v) >> 21 & 15))
// ldc_iw_mark adds warp to one of the block's masks (a read first: most
// accesses find it there already).
static __device__ LDC_ENGINE __forceinline__ void ldc_iw_mark(unsigned *mask, unsigned warp) {
  if (!(*(volatile unsigned *)mask >> warp & 1u)) atomicOr(mask, 1u << warp);
}
// ldc_iw_lane_effect says whether a read-write record of warp w at the end
// of this pass 2 is only the effect of a race between its lanes: which
// lane won decides the warp's result, and may differ between the passes
// (on the CPU backend often, on a GPU now and then), while no other warp
// of the block touched any word it did. A report of it would name one
// warp, and depend on the schedule; the intra-warp report says it all.
static __device__ LDC_ENGINE __forceinline__ int ldc_iw_lane_effect(const struct ldc_block_state *bs, unsigned w) {
  return LDC_IW_BUILT && ldc_g.iw.on && ((bs->iw_raced & ~bs->iw_shared) >> w & 1u);
}
static __device__ LDC_ENGINE void ldc_iw_report(int kind, int space, int i, unsigned warp, unsigned lane, int site, unsigned other, int other_site, unsigned long long off) {
  struct ldc_block_state *bs = ldc_block();
  ldc_iw_mark(&bs->iw_raced, warp);
  // Lanes in increasing order, each with its site, so that every order the
  // lanes ran in gives the same records.
  unsigned a = lane, b = other;
  int sa = site, sb = other_site;
  if (a > b) {
    a = other, b = lane;
    sa = other_site, sb = site;
  }
  // Intra-warp records take at most a quarter of the buffer (they go in
  // the write-write half): a racy warp-synchronous loop must not hide the
  // other races.
  if (!ldc_g.records || ((volatile int *)ldc_g.nrecords)[0] > ldc_g.max_records / 4) return;
  struct ldc_record rec = {kind, space, i, bs->from, ldc_region_to(bs), (int)a, (int)b, (int)ldc_block_linear(), (int)(warp * 32), (int)warp,
                           (long long)off, (unsigned)(sa & 0xffff) | (unsigned)(sb & 0xffff) << 16};
  ldc_record_race(rec);
}
static __device__ LDC_ENGINE void ldc_iw_word(unsigned long long *e, int space, int i, unsigned long long clock, unsigned warp, unsigned lane, unsigned m, int site, int write,
                                              unsigned long long word_off) {
  unsigned long long tag = (clock >> 32 & 0x7fffull) << 18 | (clock & 0x3ffffull);
  unsigned me = lane + 1, s = site >= 0 && site < 0xffff ? (unsigned)site + 1 : 0;
  for (;;) {
    unsigned long long v = ldc_vload64(&e[0]);
    if (v & 1ull << 30) {
      if (ldc_vload64(&e[1]) >> 32 == clock >> 32) { // several warps, this region
        ldc_iw_mark(&ldc_block()->iw_shared, warp);
        return;
      }
    } else if (v != 0 && (unsigned)(v >> 25 & 31) != warp && ldc_vload64(&e[1]) >> 32 == clock >> 32) {
      // Another warp touched it in this region.
      if (atomicCAS(&e[0], v, v | 1ull << 30) != v) continue;
      ldc_iw_mark(&ldc_block()->iw_shared, warp);
      ldc_iw_mark(&ldc_block()->iw_shared, (unsigned)(v >> 25 & 31));
      return;
    }
    int same = v != 0 && !(v & 1ull << 30) && (v >> 31) == tag && (unsigned)(v >> 25 & 31) == warp && ldc_vload64(&e[1]) == clock;
    if (!same) {
      unsigned long long nv = tag << 31 | (unsigned long long)warp << 25 | (write ? (unsigned long long)(me | m << 6) : (unsigned long long)(me << 10 | m << 16));
      if (atomicCAS(&e[0], v, nv) != v) continue;
      e[1] = clock;
      e[2] = write ? s : (unsigned long long)s << 16;
      return;
    }
    unsigned w = LDC_IW_W(v), r = LDC_IW_R(v);
    unsigned long long sites = ldc_vload64(&e[2]);
    // A conflict: another lane's write of these bytes, or (for a write)
    // another lane's read of them.
    if (w && w != me && (LDC_IW_WM(v) & m)) {
      ldc_iw_report(write ? LDC_RACE_IWW : LDC_RACE_IRW, space, i, warp, lane, site, w - 1, (int)(sites & 0xffff) - 1, word_off + __ffs(LDC_IW_WM(v) & m) - 1);
    } else if (write && r && r != me && (LDC_IW_RM(v) & m)) {
      ldc_iw_report(LDC_RACE_IRW, space, i, warp, lane, site, r - 1, (int)(sites >> 16 & 0xffff) - 1, word_off + __ffs(LDC_IW_RM(v) & m) - 1);
    } else if (write && r == me && LDC_IW_O(v) && (LDC_IW_OM(v) & m) && (sites >> 48 & 63)) {
      // The lowest reader is this lane: every other reader is another lane.
      ldc_iw_report(LDC_RACE_IRW, space, i, warp, lane, site, (unsigned)(sites >> 48 & 63) - 1, (int)(sites >> 32 & 0xffff) - 1, word_off + __ffs(LDC_IW_OM(v) & m) - 1);
    }
    unsigned long long nv = v, ns = sites;
    if (write) {
      if (!w || (w != me && me < w && (LDC_IW_WM(v) & m))) { // no writer, or a lower lane writing the same bytes: it names the races
        nv = (nv & ~0x3ffull) | me | (unsigned long long)m << 6;
        ns = (ns & ~0xffffull) | s;
      } else if (w == me) {
        nv |= (unsigned long long)m << 6;
      }
    } else if (!r) {
      nv |= (unsigned long long)(me << 10 | m << 16);
      ns = (ns & ~0xffff0000ull) | (unsigned long long)s << 16;
    } else if (r == me) {
      nv |= (unsigned long long)m << 16;
    } else if (me < r) { // the lowest reader moves to the others
      nv = (nv & ~(0x3ffull << 10)) | (unsigned long long)(me << 10 | m << 16) | 1ull << 20 | (unsigned long long)LDC_IW_RM(v) << 21;
      ns = (ns & 0xffffull) | (unsigned long long)s << 16 | (sites >> 16 & 0xffff) << 32 | (unsigned long long)r << 48;
    } else {
      nv |= 1ull << 20 | (unsigned long long)m << 21;
      // The other reader named is the lowest one, whatever order the lanes
      // ran in (the same report on every backend).
      unsigned o = (unsigned)(sites >> 48 & 63);
      if (!o || me < o) ns = (ns & 0xffffffffull) | (unsigned long long)s << 32 | (unsigned long long)me << 48;
    }
    if (nv == v) {
      if (ns != sites) e[2] = ns;
      return;
    }
    if (atomicCAS(&e[0], v, nv) != v) continue;
    e[2] = ns;
    return;
  }
}
// ldc_iw_note notes an access of n bytes at p, made by the calling lane,
// to shared target i (p in its warp's copy; anything else is left alone).
static __device__ LDC_ENGINE __noinline__ void ldc_iw_note(int i, const void *p, unsigned long n, int site, int write) {
  unsigned tid = ldc_thread_linear(), warp = tid >> 5, lane = tid & 31;
  unsigned long long bytes = ldc_g.shared_bytes[i];
  const unsigned char *c = ldc_shared_copies(i) + (unsigned long long)warp * bytes;
  unsigned long long off = (unsigned long long)((const unsigned char *)p - c);
  if (off >= bytes || n == 0) return;
  unsigned long long clock = *ldc_iw_clock();
  if (!(clock >> 32)) return; // pass 1
  unsigned long long last = off + n - 1;
  if (last >= bytes) last = bytes - 1;
  unsigned long long *rec = (unsigned long long *)(ldc_iw_area() + ldc_g.iw.off[i]);
  for (unsigned long long k = off >> 2; k <= last >> 2; k++) {
    unsigned long long lo = k * 4 > off ? k * 4 : off, hi = k * 4 + 3 < last ? k * 4 + 3 : last;
    unsigned m = ((1u << (hi - lo + 1)) - 1) << (lo - k * 4);
    ldc_iw_word(rec + LDC_IW_RECORD * k, LDC_SPACE_SHARED, i, clock, warp, lane, m, site, write, k * 4);
  }
}
// ldc_iw_global notes an access of n bytes at p, made by the calling
// lane, when p is in a global target (allocation i): its words' records
// are in the table (struct ldc_iw), one per block and word.
static __device__ LDC_ENGINE __noinline__ void ldc_iw_global(const void *p, unsigned long n, int site, int write) {
  unsigned long long a = (unsigned long long)p;
  int i = 0;
  while (i < ldc_g.nallocs && a - ldc_g.allocs[i].base >= ldc_g.allocs[i].size) i++;
  if (i == ldc_g.nallocs || n == 0) return;
  unsigned long long clock = *ldc_iw_clock();
  if (!(clock >> 32)) return; // pass 1
  unsigned tid = ldc_thread_linear(), warp = tid >> 5, lane = tid & 31;
  unsigned long long block = ldc_block_linear() + 1ull;
  if (block >= (1ull << 17)) { // the key's room (the host says so)
    ldc_iw_mark(&ldc_block()->iw_shared, warp);
    return;
  }
  const struct ldc_alloc *al = &ldc_g.allocs[i];
  unsigned long long off = a - al->base, last = off + n - 1;
  if (last >= al->size) last = al->size - 1;
  for (unsigned long long w = (a & ~3ull); w <= al->base + last; w += 4) {
    unsigned long long lo = w > a ? w : a, hi = w + 3 < al->base + last ? w + 3 : al->base + last;
    unsigned m = ((1u << (hi - lo + 1)) - 1) << (lo - w);
    int claimed;
    long long h = ldc_table_slot((unsigned long long *)ldc_g.iw.gkeys, ldc_g.iw.gmask, block << 47 | ((w >> 2) & ((1ull << 47) - 1)), 1, &claimed);
    if (h < 0) {
      *(volatile unsigned long long *)ldc_g.iw.gfull = 1;
      ldc_iw_mark(&ldc_block()->iw_shared, warp);
      return;
    }
    // Offsets in the allocation, which may start within a word.
    unsigned long long woff = w - al->base;
    ldc_iw_word((unsigned long long *)ldc_g.iw.gvals + LDC_IW_RECORD * (unsigned long long)h, LDC_SPACE_GLOBAL, i, clock, warp, lane, m, site, write, woff);
  }
}
static __device__ LDC_ENGINE void ldc_iw_any(const void *p, unsigned long n, int write) {
  if (!ldc_iw_on()) return;
  for (int i = 0; i < ldc_g.nshared; i++) ldc_iw_note(i, p, n, -1, write);
  if (ldc_g.iw.gmask) ldc_iw_global(p, n, -1, write);
}
// LDC_TRS wraps the address of every access to a shared target (traced
// as LDC_TR is; W: 1 a store, 2 an lvalue that may be stored to, 0 a
// read): the intra-warp check notes it (W 2 as a read: the instrumenter
// cannot tell, and a read taken for a store would be a false alarm).
template <class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_iw_access(const struct ldc_thread *t, T *p, int site, int w, int i) {
  if (ldc_g.iw.on && LDC_MODE(*t) == LDC_MODE_REPLAY && LDC_PASS(*t) == 2) ldc_iw_note(i, (const void *)p, sizeof(T), site, w == 1);
  return p;
}
#if LDC_IW_BUILT
#define LDC_TRS(p, site, w, i) ldc_iw_access(&ldc_t, LDC_TR_ONLY((p), (site), (w)), (site), (w), (i))
#else
#define LDC_TRS(p, site, w, i) LDC_TR_ONLY((p), (site), (w))
#endif
// Accesses through pointers (volatile float *s = sdata; s[tid] += ...) are
// wrapped as LDC_TR(p, SITE, W) (they may reach global targets too): one
// that lands in the calling warp's copies of the shared targets is noted.
static __device__ LDC_ENGINE __noinline__ void ldc_iw_find(const void *p, unsigned long n, int site, int write) {
  if (ldc_g.nshared && (unsigned long long)((const unsigned char *)p - ldc_shared_copies(0)) < ldc_g.shared_per_block) {
    for (int i = 0; i < ldc_g.nshared; i++) ldc_iw_note(i, p, n, site, write);
  } else if (ldc_g.iw.gmask) {
    ldc_iw_global(p, n, site, write);
  }
}
template <class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_iw_ptr(T *p, int site, int w) {
  if (ldc_g.iw.on && LDC_MODE(ldc_g) == LDC_MODE_REPLAY) ldc_iw_find((const void *)p, sizeof(T), site, w == 1);
  return p;
}
#define LDC_SA(copy, flags, bytes, p) ldc_sw((copy), (flags), (bytes), (p), ldc_fs.epoch)

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
          struct ldc_record r = {LDC_RACE_WW, space, target, bs->from, ldc_region_to(bs), writer, (int)w, block, -1, -1, offset,
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
        if (!ldc_iw_lane_effect(bs, w)) {
          struct ldc_record r = {LDC_RACE_RW, space, target, bs->from, ldc_region_to(bs), (int)w, -1, block, -1, -1, offset, (unsigned)orig | ((unsigned)v << 8)};
          ldc_record_race(r);
        }
        c[w * stride] = orig;
      }
    }
  }
}

// ldc_check_word_masked is ldc_check_byte for 4 bytes at once (targets whose
// size is a multiple of 4), for a word whose granule's writer mask is mask:
// only the warps in the mask can hold anything but S in pass 1 or U in
// pass 2, so only their copies are read (untracked targets pass every
// warp). Pass 1 still stores U in every copy (each warp reads its own in
// pass 2).
static __device__ LDC_ENGINE __forceinline__ void ldc_check_word_masked(int p, int target, unsigned *s, unsigned *c, unsigned long long stride, unsigned W,
                                                                        unsigned mask, long long offset, const struct ldc_block_state *bs, int block, int settle = 0) {
  unsigned orig = *s;
  if (p == 1) {
    unsigned uv = orig, wr = 0, multi = 0, writers = 0, w0 = 0;
    int last[4] = {-1, -1, -1, -1};
    for (unsigned bits = mask; bits; bits &= bits - 1) {
      unsigned w = __ffs(bits) - 1;
      unsigned v = c[w * stride];
      if (v == orig) continue;
      writers++;
      w0 = w;
      unsigned m = ldc_bytemask(v ^ orig), ov = m & wr;
      if (ov) {
        for (unsigned b = 0; b < 4; b++)
          if (ov >> (8 * b) & 0xffu) {
            struct ldc_record r = {LDC_RACE_WW, LDC_SPACE_SHARED, target, bs->from, ldc_region_to(bs), last[b], (int)w, block, -1, -1, offset + b,
                                   ldc_byte(orig, b) | (ldc_byte(uv, b) << 8) | (ldc_byte(v, b) << 16)};
            ldc_record_race(r);
          }
      }
      multi |= ov;
      wr |= m;
      uv = (uv & ~m) | (v & m);
      for (unsigned b = 0; b < 4; b++)
        if (m >> (8 * b) & 0xffu) last[b] = (int)w;
    }
    if (writers == 0) return;
    if (settle) { // a final first pass: U in every copy
      for (unsigned w = 0; w < W; w++) c[w * stride] = uv;
      *s = uv;
      return;
    }
    if (writers == 1) {
      for (unsigned w = 0; w < W; w++) c[w * stride] = w == w0 ? orig : uv;
      *s = uv;
      return;
    }
    // U with each writer's own change reverted (every writer's, after a
    // race); the warps outside the mask held S and get U.
    for (unsigned w = 0; w < W; w++) {
      if (!(mask >> w & 1u)) {
        c[w * stride] = uv;
        continue;
      }
      unsigned v = c[w * stride], own = ldc_bytemask(v ^ orig) & multi;
      for (unsigned b = 0; b < 4; b++)
        if (last[b] == (int)w && !(multi >> (8 * b) & 0xffu)) own |= 0xffu << (8 * b);
      c[w * stride] = (uv & ~own) | (orig & own);
    }
    *s = uv;
  } else if (p == 2) {
    for (unsigned bits = mask; bits; bits &= bits - 1) {
      unsigned w = __ffs(bits) - 1;
      unsigned v = c[w * stride];
      if (v == orig) continue;
      unsigned m = ldc_iw_lane_effect(bs, w) ? 0 : ldc_bytemask(v ^ orig);
      for (unsigned b = 0; b < 4; b++)
        if (m >> (8 * b) & 0xffu) {
          struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_SHARED, target, bs->from, ldc_region_to(bs), (int)w, -1, block, -1, -1, offset + b, ldc_byte(orig, b) | (ldc_byte(v, b) << 8)};
          ldc_record_race(r);
        }
      c[w * stride] = orig;
    }
  }
}

// ldc_seg_check checks, at the end of a region, the global pages the
// block's warps wrote (level 2). Pass 1: a warp wrote a byte where its copy
// differs from its snapshot; two writers race (write-write); the merged
// value (the highest warp's) goes to the base, and each warp's copy becomes
// its pass-2 state (U, with its own writes undone). Pass 2: a warp whose
// copy differs from U where pass 1 wrote, or from its snapshot elsewhere,
// read something another warp wrote (read-write). Then the segment is
// emptied for the next region.
template <int fin> static __device__ LDC_ENGINE unsigned long long ldc_seg_check(int p, struct ldc_block_state *bs, int block, unsigned tid, unsigned n, unsigned sel) {
  unsigned char *seg = bs->seg;
  unsigned long long compared = 0;
  if (!seg) return 0;
  if (ldc_g.segs.direct_mask) {
    // Stores in place: nothing to merge. A void launch (two warps stored
    // to one byte) ends here, all the block's threads together (own_void
    // was set before the barrier that ended the region); in device memory
    // the block must run on to give its segment back.
#if !defined(LDC_CPU)
    if (ldc_g.segs.in_dyn && *(volatile unsigned *)&bs->own_void) asm volatile("exit;");
#endif
    return 0;
  }
  unsigned *cnt = (unsigned *)seg + sel; // (not ldc_seg_counters: see ldc_thread's seg_sel)
  unsigned nslots = cnt[0], npages = cnt[1];
  // No global page written in this region (the same for every thread of
  // the block): nothing to check or empty, and no barrier to wait at.
  if (nslots == 0 && npages == 0) return 0;
#if !defined(LDC_CPU)
  // A segment in shared memory that ran out of room made the launch void:
  // level 2 runs again with its copies in device memory. The block stops
  // here, all its threads together (cnt is the same for all of them after
  // the barrier), and blocks yet to start stop as they start
  // (ldc_seg_acquire), so a void launch costs little more than the
  // regions up to the first that wanted too much. (On the CPU they run on.)
  if (ldc_g.segs.in_dyn && nslots > ldc_g.segs.cap) {
    if (tid == 0) atomicMax(&ldc_g.segs.status[1], nslots);
    asm volatile("exit;");
  }
#endif
  if (nslots > ldc_g.segs.cap) nslots = (unsigned)ldc_g.segs.cap;
  unsigned long long wps = ldc_g.pool.slot_bytes / 4;
  struct ldc_page_entry *pl = ldc_seg_pages(seg);
  struct ldc_slot *slots = ldc_seg_slots(seg);
  unsigned char *written = ldc_seg_written(seg);
  for (unsigned long long item = tid; item < (unsigned long long)npages * wps; item += n) {
    unsigned long long q = item / wps, k = item % wps;
    int ai;
    unsigned char *bp;
    unsigned long long offset;
    unsigned nb = ldc_word_at(pl[q].page, k, &ai, &bp, &offset);
    if (nb == 0) continue;
    unsigned vmask = ldc_valid_mask(nb);
    if (p == 1) {
      unsigned wm[4] = {0, 0, 0, 0}, uv = 0, wr = 0, multi = 0;
      int top[4] = {-1, -1, -1, -1};
      for (int s = pl[q].head; s >= 0; s = slots[s].next) {
        unsigned d = ((const unsigned *)ldc_seg_data(seg, s))[k], sn = ((const unsigned *)ldc_seg_snap(seg, s))[k];
        unsigned m = ldc_bytemask(d ^ sn) & vmask;
        compared += 4;
        if (!m) continue;
        int w = slots[s].unit;
        multi |= m & wr;
        wr |= m;
        for (unsigned b = 0; b < 4; b++) {
          if (!(m >> (8 * b) & 0xffu)) continue;
          wm[b] |= 1u << w;
          if (w > top[b]) {
            top[b] = w;
            uv = (uv & ~(0xffu << (8 * b))) | (d & (0xffu << (8 * b)));
          }
        }
      }
      if (multi && !ldc_records_full(LDC_RACE_WW)) {
        // Consecutive writers in warp order, as the model reports them.
        for (unsigned b = 0; b < 4; b++) {
          if (!(multi >> (8 * b) & 0xffu)) continue;
          unsigned bits = wm[b];
          int prev = -1;
          unsigned pv = 0, orig = 0;
          while (bits) {
            int w = __ffs(bits) - 1;
            bits &= bits - 1;
            unsigned v = 0;
            for (int s = pl[q].head; s >= 0; s = slots[s].next)
              if (slots[s].unit == w) {
                v = ldc_byte(((const unsigned *)ldc_seg_data(seg, s))[k], b);
                orig = ldc_byte(((const unsigned *)ldc_seg_snap(seg, s))[k], b);
              }
            if (prev >= 0) {
              struct ldc_record r = {LDC_RACE_WW, LDC_SPACE_GLOBAL, ai, bs->from, ldc_region_to(bs), prev, w, block, -1, -1, (long long)(offset + b), orig | (pv << 8) | (v << 16)};
              ldc_record_race(r);
            }
            prev = w;
            pv = v;
          }
        }
      }
      if (wr && LDC_DET_ON) {
        // Into the block's own copy: the base keeps the inputs until the
        // host merges the blocks in order.
        const struct ldc_alloc *al = &ldc_g.allocs[ai];
        unsigned char *own = ldc_det_page(al, pl[q].page - al->first_page, 1);
        if (own) ldc_store_word(own + 4 * k, uv, wr);
      } else if (wr) {
        ldc_store_word(bp, uv, wr);
      }
      if (fin) continue; // no second pass: the segment is emptied below
      written[q * wps + k] = (unsigned char)((wr & 1) | (wr >> 7 & 2) | (wr >> 14 & 4) | (wr >> 21 & 8));
      for (int s = pl[q].head; s >= 0; s = slots[s].next) {
        unsigned *dp = (unsigned *)ldc_seg_data(seg, s) + k, *sp = (unsigned *)ldc_seg_snap(seg, s) + k;
        unsigned d = *dp, sn = *sp;
        unsigned own = ldc_bytemask(d ^ sn) & vmask;
        unsigned nv = (sn & own) | (uv & wr & ~own) | (d & ~wr & ~own);
        *dp = nv;
        *sp = nv;
      }
    } else if (p == 2) {
      unsigned wb = written[q * wps + k];
      unsigned wr = ((wb & 1) ? 0xffu : 0) | ((wb & 2) ? 0xff00u : 0) | ((wb & 4) ? 0xff0000u : 0) | ((wb & 8) ? 0xff000000u : 0);
      unsigned u = wr ? ldc_load_word(bp, nb) : 0;
      for (int s = pl[q].head; s >= 0; s = slots[s].next) {
        unsigned d = ((const unsigned *)ldc_seg_data(seg, s))[k], sn = ((const unsigned *)ldc_seg_snap(seg, s))[k];
        unsigned want = (u & wr) | (sn & ~wr);
        unsigned m = ldc_iw_lane_effect(bs, (unsigned)slots[s].unit) ? 0 : ldc_bytemask(d ^ want) & vmask;
        compared += 4;
        for (unsigned b = 0; m && b < 4; b++)
          if (m >> (8 * b) & 0xffu) {
            struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_GLOBAL, ai, bs->from, ldc_region_to(bs), slots[s].unit, -1, block, -1, -1, (long long)(offset + b),
                                   ldc_byte(want, b) | (ldc_byte(d, b) << 8)};
            ldc_record_race(r);
          }
      }
    }
  }
  if (p != 2 && !LDC_DET_ON && !fin) return compared;
  unsigned long long *keys = ldc_seg_keys(seg);
  unsigned *vals = ldc_seg_vals(seg);
  // Empty the segment for the next region. A one-pass region end does it
  // without a barrier first: the merge above reads the page list, the
  // slots and the copies, never the table, so a thread may clear table
  // entries while others still merge; and the counters the others read
  // change pair instead (seg_sel; the old pair is emptied after the
  // closing barrier, ldc_seg_old_counters). The next region's lookups come
  // after the closing barrier. A region end of ld_btree that merges one
  // page took three barriers where the kernel has one.
  const int switch_pair = fin && LDC_ONE_PASS_ON && !LDC_DET_ON;
  if (!switch_pair) ldc_bar();
  for (unsigned s = tid; s < nslots; s += n) {
    keys[slots[s].tab] = 0;
    vals[slots[s].tab] = 0;
  }
  for (unsigned q = tid; q < npages; q += n) {
    keys[pl[q].tab] = 0;
    vals[pl[q].tab] = 0;
  }
  if (!fin) // (a final first pass set none)
    for (unsigned long long j = tid; j < (unsigned long long)npages * wps; j += n) written[j] = 0;
  if (tid == 0) {
    bs->seg_warps = 0;
    if (switch_pair) {
      bs->seg_sel = sel ^ 2;
    } else {
      // One global atomic per block, when it ends: one per region end from
      // every block contends on a single word (matmul2048: 4M of them).
      if (cnt[0] > bs->seg_peak) bs->seg_peak = cnt[0];
      cnt[0] = 0;
      cnt[1] = 0;
    }
  }
  return compared;
}

// ldc_seg_old_counters empties the pair of counters (sel) that a one-pass
// region end switched from (ldc_seg_check), once every thread has read
// them (after its closing barrier), keeping the block's peak.
static __device__ LDC_ENGINE void ldc_seg_old_counters(struct ldc_block_state *bs, unsigned sel) {
  unsigned *old = (unsigned *)bs->seg + sel;
  if (old[0] > bs->seg_peak) bs->seg_peak = old[0];
  old[0] = 0;
  old[1] = 0;
}

// ldc_settle: a region without a second pass (every region of a
// deterministic run, a final first pass): once its writes are merged into
// the originals of the shared targets, every warp's copy takes the merged
// bytes, and the next region starts from them.
static __device__ LDC_ENGINE void ldc_settle(unsigned W, unsigned tid, unsigned n, unsigned dirty) {
  if (!dirty) return; // (the same in every thread of the block)
  ldc_bar();
  for (int i = 0; i < ldc_g.nshared; i++) {
    unsigned long long bytes = ldc_g.shared_bytes[i];
    const unsigned char *s = (const unsigned char *)ldc_block()->shared_orig[i];
    unsigned char *c = ldc_shared_copies(i);
    if (!s || !(dirty >> i & 1)) continue;
    // Only granules with a writer can differ from the original (tracked
    // stores: a writer mask per granule after the copies).
    const unsigned *fl = ldc_g.shared_tracked ? ldc_flags_of(c, bytes, W) : 0;
    if (bytes % 4 == 0 && ((unsigned long long)s & 3) == 0) {
      for (unsigned long long k = tid; k < bytes / 4; k += n)
        if (!fl || fl[k >> 2]) {
          unsigned v = ((const unsigned *)s)[k];
          for (unsigned w = 0; w < W; w++) ((unsigned *)c)[w * (bytes / 4) + k] = v;
        }
    } else {
      for (unsigned long long j = tid; j < bytes; j += n)
        if (!fl || fl[j >> 4])
          for (unsigned w = 0; w < W; w++) c[w * bytes + j] = s[j];
    }
  }
}

// ldc_check_pred reduces the predicates of the threads at a predicate
// barrier over the block (every thread of the block calls it, bs->pred_op
// is block-uniform after ldc_check's first barrier) and gives each of them
// the result in t->pred. Threads elsewhere (done, or at the exit) take no
// part, as exited threads on the hardware: 0 for count and or, ignored by
// and. Run at the end of each pass, so the result a thread goes on with is
// that of the last (checked) pass.
#define LDC_PRED_AND 1
#define LDC_PRED_OR 2
#define LDC_PRED_COUNT 3
static __device__ LDC_ENGINE void ldc_check_pred(struct ldc_thread *t, struct ldc_block_state *bs, unsigned tid, unsigned n) {
  int op = bs->pred_op, at = t->pred_op != 0;
  // Added up in the block state, not with barrier.red.popc: on the H100
  // that gave the lanes of a warp whose other lanes had exited (and wait
  // in ldc_idle, at another call of this function) a count of their own,
  // so __syncthreads_and was false for them alone.
  if (op == LDC_PRED_AND ? (!at || t->pred) : (at && t->pred)) atomicAdd(&bs->pred_count, 1);
  ldc_bar();
  int r = *(volatile int *)&bs->pred_count;
  ldc_bar();
  // Every thread read bs->pred_op and the count before the barrier above;
  // the next adds come after ldc_check's next first barrier.
  if (tid == 0) bs->pred_op = bs->pred_count = 0;
  if (at) t->pred = op == LDC_PRED_AND ? r == (int)n : op == LDC_PRED_OR ? r != 0 : r;
  t->pred_op = 0;
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
// Global pages the warps wrote are checked the same way (ldc_seg_check).
//
// A first pass whose region the build proved to write nothing it reads
// (t->one in every thread that ends it) is final: a second pass would
// repeat it. Its check is pass 1's write-write check, after which every
// copy takes U and the masks and the segment are emptied; ldc_check then
// returns 2 to the threads that ended the pass (idle ones get 0).
// Regions keep both passes where the second pass does more than compare:
// the atomic-plain and intra-warp checks note its accesses (in a launch of
// one pass a region, the atomic-plain check notes them in the only pass).
template <int fin> static __device__ LDC_ENGINE __forceinline__ int ldc_check_as(struct ldc_thread *t, int pass, int id) {
  struct ldc_block_state *bs = ldc_block();
  unsigned tid = ldc_thread_linear(), n = ldc_block_threads(), W = ldc_warps();
  int p = fin ? 1 : bs->pass;
  if (bs->pred_op) ldc_check_pred(t, bs, tid, n);
  int block = (int)ldc_block_linear();
  // Counted in a register, added to the thread's total once: t lives in
  // local memory, and a read-modify-write of it per word cost more than
  // the compare it counted.
  unsigned long long cmp = 0;
  int bytewise = 0; // a tracked target checked a byte a thread: its masks need clearing
  // The targets a warp may have stored to since the last final first pass
  // (bit i: their dirty word, see ldc_flag); the others' masks are all 0
  // and their copies all U. Read by every thread after the barrier that
  // ended the region and before the next (ldc_settle's), so the same in
  // all of them: the checks and barriers they skip are skipped by all.
  // (No shared target: nothing to settle, and no barrier to wait at.)
  unsigned dirty = ldc_g.nshared ? ~0u : 0u;
  if (fin && ldc_g.shared_tracked) {
    dirty = 0;
    unsigned tag = ldc_dirty_tag(bs);
    for (int i = 0; i < ldc_g.nshared; i++)
      if (bs->shared_orig[i] && ldc_flags_of(ldc_shared_copies(i), ldc_g.shared_bytes[i], W)[-1] == tag) dirty |= 1u << i;
  }
  // The dirty targets whose copies this check leaves in U itself (a final
  // first pass over words, flags tracked): the others are settled after.
  unsigned settled = 0;
  for (int i = 0; i < ldc_g.nshared; i++) {
    unsigned long bytes = ldc_g.shared_bytes[i];
    unsigned char *s = (unsigned char *)bs->shared_orig[i];
    unsigned char *c = ldc_shared_copies(i);
    if (!s || !(dirty >> i & 1)) continue;
    int words = bytes % 4 == 0 && ((unsigned long long)s & 3) == 0;
    if (ldc_g.shared_tracked) {
      // Only the granules some warp stored to (in either pass) can differ
      // from S; the others hold S in every copy. The first pass of a
      // region with two checks a word (or byte) per thread, as below: a
      // thread per granule would leave three threads in four idle where
      // every granule was written. The checks that end a region take a
      // granule per thread instead, to clear its mask without a barrier.
      unsigned *fl = ldc_flags_of(c, bytes, W);
      if (words && (p == 2 || fin)) {
        // Pass 2 reads few copies a word (the mask's): a thread per
        // granule, which clears the mask it read, so that no barrier is
        // needed before the masks are cleared for the next region. So
        // does a final first pass, which also puts U in every copy of a
        // word some warp changed: no barrier and loop to settle them
        // after (ld_radixsort's scan: a region end of four barriers took
        // two).
        unsigned long nw = bytes / 4;
        for (unsigned long g = tid; g < (nw + 3) / 4; g += n) {
          unsigned mask = fl[g];
          if (!mask) continue;
          for (unsigned long k = 4 * g; k < 4 * g + 4 && k < nw; k++) {
            ldc_check_word_masked(p, i, (unsigned *)s + k, (unsigned *)c + k, nw, W, mask, (long long)(4 * k), bs, block, fin);
            cmp += 4ull * W;
          }
          fl[g] = 0;
        }
        if (fin) settled |= 1u << i;
      } else if (words) {
        for (unsigned long k = tid; k < bytes / 4; k += n) {
          unsigned mask = fl[k >> 2];
          if (mask) {
            ldc_check_word_masked(p, i, (unsigned *)s + k, (unsigned *)c + k, bytes / 4, W, mask, (long long)(4 * k), bs, block);
            cmp += 4ull * W;
          }
        }
      } else {
        bytewise = 1;
        for (unsigned long j = tid; j < bytes; j += n)
          if (fl[j >> 4]) {
            ldc_check_byte(p, LDC_SPACE_SHARED, i, s + j, c + j, bytes, W, (long long)j, bs, block);
            cmp += W;
          }
      }
    } else if (words) {
      for (unsigned long k = tid; k < bytes / 4; k += n) {
        ldc_check_word_masked(p, i, (unsigned *)s + k, (unsigned *)c + k, bytes / 4, W, W == 32 ? ~0u : (1u << W) - 1u, (long long)(4 * k), bs, block);
        cmp += 4ull * W;
      }
    } else {
      for (unsigned long j = tid; j < bytes; j += n) {
        ldc_check_byte(p, LDC_SPACE_SHARED, i, s + j, c + j, bytes, W, (long long)j, bs, block);
        cmp += W;
      }
    }
  }
  // A final first pass (or a deterministic run's) leaves U in every copy.
  // (After the checks, not in them: the checks' registers decide the
  // kernel's occupancy, and a branch there cost matmul2048 8 registers.)
  dirty &= ~settled;
  if (LDC_DET_ON || fin) ldc_settle(W, tid, n, dirty);
  if (ldc_g.shared_tracked && dirty && ((p != 1 && bytewise) || LDC_DET_ON || fin)) {
    // The region is over in both passes (or in its only one): clear the
    // flags for the next one, once every thread is done
    // reading them (the barrier at the end orders this before the next
    // region's stores). Word targets cleared theirs as they went in pass 2.
    ldc_bar();
    for (int i = 0; i < ldc_g.nshared; i++) {
      if (((ldc_g.shared_direct | ldc_g.shared_own) >> i & 1u) || !(dirty >> i & 1)) continue; // no copies, no flags; or none set
      unsigned long bytes = ldc_g.shared_bytes[i];
      unsigned *fl = ldc_flags_of(ldc_shared_copies(i), bytes, W);
      for (unsigned long long g = tid; g < ldc_granules(bytes); g += n) fl[g] = 0;
    }
  }
  t->compared += cmp + ldc_seg_check<fin>(p, bs, block, tid, n, LDC_ONE_PASS_ON ? t->seg_sel : 0);
  if (p == 2 && pass == 2 && t->differ && !ldc_iw_lane_effect(bs, tid / 32)) {
    struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_LOCAL, -1, t->start, id, (int)(tid / 32), -1, block, (int)tid, -1, 0, 0};
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
  // The next region's pass 2 notes into them after its pass 1's barriers.
  if (p == 2 && tid == 0) bs->iw_raced = bs->iw_shared = 0;
  // (The old pair is counted in again only after tid 0's next region end.)
  if (fin && LDC_ONE_PASS_ON && !LDC_DET_ON && tid == 0 && bs->seg && bs->seg_sel != t->seg_sel) ldc_seg_old_counters(bs, t->seg_sel);
  return fin && pass ? 2 : 0;
}
// ldc_seg_busy says whether the block's segment holds copies of the
// region (pair sel of its counts), where a warp holds a page: the thread
// that takes a warp's first sets its bit in seg_warps after adding to the
// count (ldc_seg_find), and sees both here; the check that merges the
// pages clears the mask and switches to an empty pair before its closing
// barrier. Most regions copy nothing (ld_radixsort stores to its global
// target in its last region only), and the two counts were two loads of
// the segment at every region end.
static __device__ LDC_ENGINE __forceinline__ int ldc_seg_busy(const struct ldc_block_state *bs, unsigned sel) {
  if (!bs->seg || !*(const volatile unsigned *)&bs->seg_warps) return 0;
  const volatile unsigned *cnt = (const volatile unsigned *)bs->seg + sel;
  return cnt[0] || cnt[1];
}

// ldc_region_busy is a thread's part of the reduction that decides, at the
// end of a region of a one-pass level 2, whether the block checks it (1)
// or goes on from that one barrier (0 in every thread). It is read before
// the barrier, and a thread sees its own marks (the segment counters its
// copies added to, the dirty word its first store to a shared granule
// set), so the reduction is 1 where any thread stored to a copy. A
// thread's exit is checked always: ldc_idle counts the thread after the
// check's closing barrier, so that no thread of the block reads the count
// after the reduction while it changes. So are launches whose checks do
// more than merge stores (noted accesses, untracked shared targets, a
// trace), predicate barriers, and a void region (the host runs level 2
// again).
static __device__ LDC_ENGINE __forceinline__ int ldc_region_busy(struct ldc_thread *t, struct ldc_block_state *bs, int pass, int id) {
  t->seg_sel = bs->seg_sel;
  if (pass && (id == -1 || t->pred_op || !t->cond)) return 1;
  if (ldc_g.ap.mask || ldc_iw_on() || LDC_DET_ON || ldc_g.trace || (ldc_g.nshared && !ldc_g.shared_tracked)) return 1;
  if (*(volatile unsigned *)&bs->dirty_any == ldc_dirty_tag(bs)) return 1;
  if (!bs->seg) return 0;
  if (ldc_g.segs.direct_mask) return *(volatile unsigned *)&bs->own_void; // (ldc_seg_check stops the block)
  return ldc_seg_busy(bs, t->seg_sel);
}

// The final first pass and the other checks are two copies of the check
// (fin a constant in each): a run-time flag in one copy held registers
// in its loops, which decide the kernel's occupancy (matmul2048: 128 ->
// 136 registers, two blocks an SM to one).
// ldc_name_region tells the block which region its check is of (the
// pass, the barriers from and to, a predicate barrier's op), for the
// records and ldc_check_as. In a one-pass level 2, only once the
// reduction said there is a check (every thread calls it then, those in
// ldc_idle too), with a barrier of its own: three stores of every thread
// at every region end cost ld_btree's quiet ends more than this barrier
// costs the rare busy ones.
//
// A region that some threads end at a barrier and others at the exit
// (they returned early) is named by its barrier, whatever order the
// threads name it in: on a GPU that order is the hardware's, and the
// reports of the two backends would name the region differently
// (ldc_region_to).
static __device__ LDC_ENGINE __forceinline__ void ldc_name_region(struct ldc_thread *t, struct ldc_block_state *bs, int pass, int id) {
  if (pass) {
    bs->pass = pass;
    bs->from = t->start;
    bs->name_tag = t->ap_epoch;
    if (id != -1) {
      bs->to = id;
      bs->to_tag = t->ap_epoch;
    }
  }
  if (t->pred_op) bs->pred_op = t->pred_op;
}

static __device__ LDC_ENGINE int ldc_check(struct ldc_thread *t, int pass, int id) {
  struct ldc_block_state *bs = ldc_block();
  int want2 = 0;
  if (LDC_ONE_PASS_ON) {
    // No region wants a second pass: the barrier's reduction says instead
    // whether the region needs a check at all (ldc_region_busy), and
    // where none does the block goes on from this one barrier, in every
    // thread, those in ldc_idle too (as in ldc_one_pass_quiet).
    int busy = ldc_bar_or(t, bs, ldc_region_busy(t, bs, pass, id));
    if (*(volatile unsigned *)&bs->ndone == ldc_block_threads()) return 1;
    if (!busy) return pass ? 2 : 0;
    ldc_name_region(t, bs, pass, id);
    ldc_bar();
  } else {
    ldc_name_region(t, bs, pass, id);
    // One barrier tells the block both whether a thread wants the second
    // pass (the reduction) and whether all are done (ldc_idle counts them
    // before it gets here).
    want2 = ldc_bar_or(t, bs, pass == 1 && !t->one);
    if (*(volatile unsigned *)&bs->ndone == ldc_block_threads()) return 1;
  }
  // The host runs targets uncopied only where the manifest says every
  // region runs once: a second pass would apply their writes twice.
  if (want2 && ldc_g.shared_direct) ldc_internal("a region of a launch with uncopied shared targets asked for a second pass");
  // (A one-pass level 2 noted the atomic-plain accesses in its only pass.)
  if (bs->pass == 1 && !want2 && (!ldc_g.ap.mask || LDC_ONE_PASS_ON) && !ldc_iw_on() && !LDC_DET_ON) return ldc_check_as<1>(t, pass, id);
  return ldc_check_as<0>(t, pass, id);
}

// ldc_boundary is called by a thread that reached barrier id (or the exit,
// -1) in replay mode. It returns 1 when the thread must restore its locals
// and run the region again (end of pass 1).
static __device__ LDC_ENGINE int ldc_boundary(struct ldc_thread *t, int id) {
  // One call of ldc_check, not one per case: every call site is a copy of
  // it in the kernel, and the registers of the biggest decide occupancy.
  // A deterministic run's merge at a region end is final (see struct
  // ldc_det): the thread goes on, in pass 1, from there.
  int det = LDC_DET_ON, p = det ? 1 : LDC_PASS(*t);
  if (p == 1) {
    t->end1 = id;
    t->differ = 0;
  } else if (id != t->end1) {
    t->differ = 1;
  }
  int fin = ldc_check(t, p, id) == 2;
  if (p == 1 && !det && !fin) {
    t->pass = 2;
    t->natomic = t->atomic_start;
    ldc_iw_reset(t->ap_epoch);
    return 1;
  }
  t->pass = 1;
  t->start = id;
  t->cond = 1;
  t->differ = 0;
  t->atomic_start = t->natomic;
  t->ap_epoch++;
  ldc_block()->epoch = t->ap_epoch; // (the same in every thread: see ldc_own)
  ldc_iw_reset(0); // pass 1: not noted
  return 0;
}

// ldc_idle keeps a finished thread in its block's checks until all are done.
// Not inlined: called once a thread, and inlined at the kernel's exit its
// copy of the whole check took registers from the kernel's loops
// (ld_btree's one-pass module at 40 registers, nvcc 11.8: 872 bytes of
// spill stores inlined, 304 not).
static __device__ LDC_ENGINE __noinline__ void ldc_idle(struct ldc_thread *t) {
  atomicAdd(&ldc_block()->ndone, 1u);
  while (ldc_check(t, 0, -1) != 1) {
  }
  // Every thread of the block is here (the last check's barrier let them
  // all out together): add the block's count to the launch's, once.
  if (ldc_g.compared) {
    struct ldc_block_state *bs = ldc_block();
    unsigned long long c = t->compared;
#if !defined(LDC_CPU)
    // Summed over the warp first: a 1024-thread block adding to one word
    // of shared memory waits 1024 atomics deep. (Halves of 16 and 48 bits:
    // the warp sum is a 32-bit instruction.)
    unsigned mask = __activemask();
    unsigned lo = ldc_redux_add(mask, (unsigned)(c & 0xffffu)), hi = ldc_redux_add(mask, (unsigned)(c >> 16));
    c = (int)ldc_lane() == __ffs(mask) - 1 ? (unsigned long long)lo + ((unsigned long long)hi << 16) : 0;
#endif
    if (c) atomicAdd(&bs->compared, c);
    ldc_bar();
    if (ldc_thread_linear() == 0 && bs->compared) atomicAdd(ldc_g.compared, bs->compared);
  }
  ldc_seg_release(t);
}

static __device__ LDC_ENGINE __forceinline__ void ldc_finish(struct ldc_thread *t) { (void)t; }

// Atomics take effect once per checked run: the first execution logs each
// result in the thread's row; replays return the logged value.
static __device__ LDC_ENGINE __forceinline__ int ldc_atomic_replaying(struct ldc_thread *t) {
  return ldc_g.atomic_mode == 2 || (LDC_MODE(*t) == LDC_MODE_REPLAY && LDC_PASS(*t) == 2);
}
// ldc_atomic_rows is the log's rows: one a thread of the grid.
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_atomic_rows() {
  return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * ldc_block_threads();
}
// ldc_atomic_spill is result n of thread row past its row of the log:
// recording claims the entry (row, n), a replay finds it.
static __device__ LDC_ENGINE __noinline__ unsigned long long *ldc_atomic_spill(unsigned long long row, int n) {
  if (ldc_g.atomic_spill_bits && n < (1 << 24)) {
    unsigned long long rows = ldc_atomic_rows();
    unsigned long long *keys = ldc_g.atomic_log + rows * (unsigned long long)ldc_g.atomic_slots;
    unsigned long long mask = (1ull << ldc_g.atomic_spill_bits) - 1;
    int claimed;
    long long h = ldc_table_slot(keys, mask, (row + 1) << 24 | (unsigned long long)n, 1, &claimed);
    if (h >= 0) return keys + mask + 1 + h;
  }
  atomicMax(ldc_g.atomic_overflow, n + 1);
  return 0;
}
static __device__ LDC_ENGINE __forceinline__ unsigned long long *ldc_atomic_slot(struct ldc_thread *t) {
  if (!ldc_g.atomic_log) return 0;
  unsigned long long row = (unsigned long long)ldc_block_linear() * ldc_block_threads() + ldc_thread_linear();
  if (t->natomic >= ldc_g.atomic_slots) return ldc_atomic_spill(row, t->natomic++);
  // Result n of every thread side by side (n * rows + row): the lanes of
  // a warp at their n-th atomic log and replay one line, where a row a
  // thread put them atomic_slots * 8 bytes apart, a sector a lane (ld_bfs
  // at 16M vertices, 25M atomicCAS: the pass that logged them took 11.8
  // ms, a replay 8.5).
  unsigned long long rows = ldc_atomic_rows();
  return ldc_g.atomic_log + (unsigned long long)(t->natomic++) * rows + row;
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
// ---- Atomic-plain races (struct ldc_ap) ----
//
// A slot: epoch (20 bits) << 44 | site + 1 (16 bits) << 28 | thread + 1
// (28 bits): the thread in its block (block scope) or in the grid (grid
// scope), which gives its unit (warp or block) and names it in a report.
#define LDC_AP_EPOCH(v) ((unsigned)((v) >> 44))
#define LDC_AP_THREAD(v) ((unsigned)((v) & 0xfffffffull))
#define LDC_AP_SITE(v) ((int)(((v) >> 28) & 0xffffull) - 1)
static __device__ LDC_ENGINE __forceinline__ unsigned ldc_ap_unit(unsigned long long v, int grid) {
  return grid ? (LDC_AP_THREAD(v) - 1) / ldc_block_threads() : (LDC_AP_THREAD(v) - 1) / 32;
}
// ldc_ap_add puts the caller (slot value me, unit u) into a two-slot set
// of distinct units of this epoch (a set already holding two others is
// left as it is: two are enough to name a race).
static __device__ LDC_ENGINE void ldc_ap_add(unsigned long long *set, unsigned long long me, unsigned u, unsigned epoch, int grid) {
  for (int i = 0; i < 2; i++) {
    for (;;) {
      unsigned long long v = ldc_vload64(&set[i]);
      if (v != 0 && LDC_AP_EPOCH(v) == epoch) {
        if (ldc_ap_unit(v, grid) == u) return;
        break;
      }
      if (atomicCAS(&set[i], v, me) == v) return;
    }
  }
}
// ldc_ap_other returns a slot of set, of this epoch, of another unit than
// u; 0 when there is none.
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_ap_other(unsigned long long *set, unsigned u, unsigned epoch, int grid) {
  for (int i = 0; i < 2; i++) {
    unsigned long long v = ldc_vload64(&set[i]);
    if (v != 0 && LDC_AP_EPOCH(v) == epoch && ldc_ap_unit(v, grid) != u) return v;
  }
  return 0;
}
// ldc_ap_word notes one access of the word at address a (4-byte aligned)
// in one scope, and reports a race with another unit's access of the
// other kind.
static __device__ LDC_ENGINE void ldc_ap_word(unsigned long long a, int grid, unsigned epoch, int site, int atomic, int space, const void *base, const void *p,
                                              const struct ldc_thread *t) {
  struct ldc_ap *T = &ldc_g.ap;
  unsigned block = ldc_block_linear();
  unsigned long long scope = grid ? 0 : block + 1ull;
  if (scope >= (1ull << 17)) return;
  unsigned long long key = scope << 47 | ((a >> 2) & ((1ull << 47) - 1));
  int claimed;
  long long h = ldc_table_slot(T->keys, T->mask, key, 1, &claimed);
  if (h < 0) {
    if (T->full) *(volatile unsigned long long *)T->full = 1;
    return;
  }
  unsigned long long *e = T->vals + (unsigned long long)h * LDC_AP_WORDS;
  unsigned tid = ldc_thread_linear();
  unsigned thread = grid ? block * ldc_block_threads() + tid : tid;
  unsigned u = grid ? block : tid / 32;
  unsigned s = site >= 0 && site < 0xffff ? (unsigned)site + 1 : 0;
  unsigned long long me = (unsigned long long)(epoch & 0xfffffu) << 44 | (unsigned long long)s << 28 | ((thread + 1ull) & 0xfffffffull);
  epoch &= 0xfffffu;
  ldc_ap_add(e + (atomic ? 0 : 2), me, u, epoch, grid);
  __threadfence();
  unsigned long long o = ldc_ap_other(e + (atomic ? 2 : 0), u, epoch, grid);
  if (!o) return;
  // Once per word and region.
  unsigned long long r = ldc_vload64(&e[4]), mark = (unsigned long long)epoch << 44 | 1;
  if (r == mark || atomicCAS(&e[4], r, mark) != r) return;
  unsigned long long pl = atomic ? o : me, at = atomic ? me : o;
  int plain_site = LDC_AP_SITE(pl), atomic_site = LDC_AP_SITE(at);
  unsigned long long off = base ? (unsigned long long)((const unsigned char *)p - (const unsigned char *)base) : (unsigned long long)p;
  // target: 1 when offset is in the variable (its base was known), 0 when
  // it is an address (the host finds the buffer); + 2 when the reporting
  // access is the atomic. thread and group: the plain and the atomic
  // access's threads (in the block, or in the grid between blocks).
  struct ldc_record rec = {LDC_RACE_AP, space, (base ? 1 : 0) | (atomic ? 2 : 0), grid ? -1 : t->start, grid ? -1 : t->end1,
                           (int)ldc_ap_unit(pl, grid), (int)ldc_ap_unit(at, grid), grid ? -1 : (int)block, (int)LDC_AP_THREAD(pl) - 1, (int)LDC_AP_THREAD(at) - 1,
                           (long long)off, (unsigned)(plain_site & 0xffff) | (unsigned)(atomic_site & 0xffff) << 16};
  ldc_record_race(rec);
}
// ldc_ap_note notes an access of n bytes at p (a variable that atomics
// update; space: LDC_SPACE_SHARED or LDC_SPACE_GLOBAL; base: the
// variable's first byte where the instrumenter knew it, else null), made
// atomically or not, at a site of the manifest. Only in pass 2 of level 2,
// where every access of the region is made again and the region's end is
// known; or in a level 2 of one pass a region, which the host runs with
// this check only for kernels of one region, from entry to exit (the
// region every note names).
static __device__ LDC_ENGINE __noinline__ void ldc_ap_access(const struct ldc_thread *t, int site, int space, const void *base, const void *p, unsigned long n, int atomic) {
  unsigned long long a = (unsigned long long)p & ~3ull, last = ((unsigned long long)p + (n ? n - 1 : 0)) & ~3ull;
  for (; a <= last; a += 4) {
    ldc_ap_word(a, 0, t->ap_epoch, site, atomic, space, base, p, t);
    // Shared memory is the block's own: only global words are shared
    // between blocks.
    if (space == LDC_SPACE_GLOBAL) ldc_ap_word(a, 1, 1, site, atomic, space, base, p, t);
  }
}
static __device__ LDC_ENGINE __forceinline__ void ldc_ap_note(const struct ldc_thread *t, int site, int space, const void *base, const void *p, unsigned long n, int atomic) {
  // site -2: an access the check leaves out (volatile, a CAS loop's first read).
  if (ldc_g.ap.mask && site != -2 && LDC_MODE(*t) == LDC_MODE_REPLAY && (LDC_PASS(*t) == 2 || LDC_ONE_PASS_ON) && !LDC_DET_ON) ldc_ap_access(t, site, space, base, p, n, atomic);
}
// LDC_AP_PLAIN wraps the address of a plain access to a variable that
// atomics update (SH: 1 for shared memory).
template <class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_ap_plain(const struct ldc_thread *t, int site, int sh, const void *base, T *p) {
  ldc_ap_note(t, site, sh ? LDC_SPACE_SHARED : LDC_SPACE_GLOBAL, base, (const void *)p, sizeof(T), 0);
  return p;
}
#define LDC_AP_PLAIN(SITE, SH, BASE, P) ldc_ap_plain(&ldc_t, (SITE), (SH), (const void *)(BASE), (P))
// LDC_AP_WRITE wraps the address of a plain store to a variable that
// atomics update: noted as LDC_AP_PLAIN, and made once, as the atomics
// are (a replay stores into the thread's scratch instead: the store took
// effect in the first run, and storing again would undo the atomics made
// since, which are not made again).
template <class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_ap_write(struct ldc_thread *t, int site, int sh, const void *base, T *p) {
  ldc_ap_note(t, site, sh ? LDC_SPACE_SHARED : LDC_SPACE_GLOBAL, base, (const void *)p, sizeof(T), 0);
  int rep = sh ? (LDC_MODE(*t) == LDC_MODE_REPLAY && LDC_PASS(*t) == 2) : ldc_atomic_replaying(t);
  if (rep && sizeof(T) <= sizeof(t->ap_scratch)) return (T *)(void *)t->ap_scratch;
  return p;
}
#define LDC_AP_WRITE(SITE, SH, BASE, P) ldc_ap_write(&ldc_t, (SITE), (SH), (const void *)(BASE), (P))

// An atomic call FN(p, args...) becomes LDC_AOP(FN, ...)(p, args...): the
// operands are evaluated in every run, the access noted, and the atomic
// itself run once (its result logged) or replayed from the log. SH: its
// memory is shared (fresh in every launch: it replays only within one);
// NR: its result is not used (nothing to log).
template <int SH, int NR, class F> struct ldc_aop_f {
  struct ldc_thread *t;
  int site;
  const void *base;
  F f;
  template <class P, class... A> __device__ __forceinline__ auto operator()(P p, A... a) -> decltype(f(p, a...)) {
    typedef decltype(f(p, a...)) R;
    ldc_ap_note(t, site, SH ? LDC_SPACE_SHARED : LDC_SPACE_GLOBAL, base, (const void *)p, sizeof(*p), 1);
    int rep = SH ? (LDC_MODE(*t) == LDC_MODE_REPLAY && LDC_PASS(*t) == 2) : ldc_atomic_replaying(t);
    if (NR) {
      if (rep) return R();
      return f(p, a...);
    }
    return rep ? ldc_atomic_replay<R>(t) : ldc_atomic_record<R>(t, f(p, a...));
  }
};
template <int SH, int NR, class F> static __device__ __forceinline__ ldc_aop_f<SH, NR, F> ldc_aop(struct ldc_thread *t, int site, const void *base, F f) {
  ldc_aop_f<SH, NR, F> o = {t, site, base, f};
  return o;
}
#define LDC_AOP(FN, SITE, SH, NR, BASE) ldc_aop<SH, NR>(&ldc_t, (SITE), (const void *)(BASE), [](auto ldc_p, auto... ldc_a) { return FN(ldc_p, ldc_a...); })

#define LDC_ATOMIC(E) (ldc_atomic_replaying(&ldc_t) ? ldc_atomic_replay<decltype(E)>(&ldc_t) : ldc_atomic_record<decltype(E)>(&ldc_t, (E)))
// Shared memory is fresh in every launch: its atomics replay only within a
// launch (the second pass of a region), never across launches.
#define LDC_ATOMIC_SHARED(E) \
  ((LDC_MODE(ldc_t) == LDC_MODE_REPLAY && LDC_PASS(ldc_t) == 2) ? ldc_atomic_replay<decltype(E)>(&ldc_t) : ldc_atomic_record<decltype(E)>(&ldc_t, (E)))
// Atomics whose value is not used need no log: a replay skips them.
#define LDC_ATOMIC_NORET(E) (ldc_atomic_replaying(&ldc_t) ? (void)0 : (void)(E))
#define LDC_ATOMIC_SHARED_NORET(E) ((LDC_MODE(ldc_t) == LDC_MODE_REPLAY && LDC_PASS(ldc_t) == 2) ? (void)0 : (void)(E))
#define LDC_ONCE(E) (((LDC_MODE(ldc_t) == LDC_MODE_REPLAY && LDC_PASS(ldc_t) == 2) || (LDC_MODE(ldc_t) == LDC_MODE_BLOCK && ldc_g.pass == 2)) ? 0 : (E))

// Plain reads of a variable that atomics update run once as well: a
// replay returns what the first run read. Otherwise a unit's own atomics,
// which took effect in the first run, would change what it reads in the
// second and make it look racy with itself (old = c[0]; atomicAdd(c, 1)).
// The read is still made in a replay, only its value is replaced, so the
// log keeps one order for every kind of once-only operation. Values wider
// than a log slot are not logged.
template <class T> static __device__ LDC_ENGINE __forceinline__ T ldc_read_once(struct ldc_thread *t, int replay, T v) {
  if (sizeof(T) > sizeof(unsigned long long)) return v;
  return replay ? ldc_atomic_replay<T>(t) : ldc_atomic_record<T>(t, v);
}
#define LDC_READ_ONCE(E) ldc_read_once(&ldc_t, ldc_atomic_replaying(&ldc_t), (E))
#define LDC_READ_ONCE_SHARED(E) ldc_read_once(&ldc_t, LDC_MODE(ldc_t) == LDC_MODE_REPLAY && LDC_PASS(ldc_t) == 2, (E))

// Device functions with once-only operations (atomics, printf, reads of
// atomically updated variables) reach their thread's replay state, a local
// of the kernel, through a per-block table the kernel fills at entry
// (LDC_SELF_SET): no signature changes, so calls through macros, overloads
// and forward declarations need no rewriting. Only kernels that call such
// functions pay for the table (8 KiB of shared memory at 1024 threads).
static __device__ LDC_ENGINE __forceinline__ struct ldc_thread **ldc_selves() {
  __shared__ struct ldc_thread *selves[1024];
  return selves;
}
#define LDC_SELF_SET() (ldc_selves()[ldc_thread_linear()] = &ldc_t)
// ldc_self is the calling thread's state; a kernel that was not
// instrumented (plain mode: no log, nothing replays) gets the fresh state
// in *plain.
static __device__ LDC_ENGINE __forceinline__ struct ldc_thread *ldc_self(struct ldc_thread *plain) {
  if (LDC_MODE(ldc_g) == LDC_MODE_PLAIN) {
    plain->mode = LDC_MODE_PLAIN;
    plain->pass = 1;
    plain->natomic = plain->atomic_start = 0;
    plain->ap_epoch = 1;
    return plain;
  }
  return ldc_selves()[ldc_thread_linear()];
}
#define LDC_SELF() struct ldc_thread ldc_plain_t; struct ldc_thread &ldc_t = *ldc_self(&ldc_plain_t)
// LDC_COND(c) wraps an access whose region runs once only if c is not 0
// there (an index proof's stride: passes.Condition).
#if LDC_REPLAY_BUILT && defined(LDC_ONE_PASS) && !defined(LDC_CPU)
// The one-pass module keeps the tests' outcome in a register (ldc_fs.ok,
// LDC_COND_OK): an and at the access, no branch, and the region end
// folds it into the reduction it makes anyway (ldc_one_pass_quiet),
// which voids the launch where a test failed. A call at each access
// (to void there) cost ld_radixsort's scan loops a branch and a
// convergence barrier per access, and the thread's cond in local memory
// a load at every region end.
#define LDC_COND(c) ((void)(ldc_fs.ok &= (unsigned)((c) != 0)))
#define LDC_COND_OK ((int)ldc_fs.ok)
#elif LDC_REPLAY_BUILT
#define LDC_COND(c) (ldc_t.cond &= ldc_test((c) != 0, 0))
#else
#define LDC_COND(c) ((void)ldc_test((c) != 0, 0)) // (cond is level 2's)
#endif
#ifndef LDC_COND_OK
#define LDC_COND_OK (ldc_t.cond) // (every module compiles the one-pass branches)
#endif
// LDC_TEST(line, c) wraps an access whose target the build proved free of
// races inside a block only if c is not 0 there (passes.Condition with
// Target): a launch that finds it 0 is flagged, and the host does not
// rely on the proof for it.
#define LDC_TEST(line, c) ((void)ldc_test((c) != 0, line))
static __device__ LDC_ENGINE __forceinline__ int ldc_test(int ok, int line) {
  if (!ok && ldc_g.failed_test) atomicMax(ldc_g.failed_test, line > 0 ? line : 1);
  return ok;
}
// ldc_one_pass_end ends a region of a launch that runs level 2 in one
// pass (LDC_ONE_PASS_ON): one says the build proved that this region
// (from the thread's start to barrier id) ends after its first pass, and
// that the stride tests its proof needs held (LDC_COND_OK). Not inlined:
// where ldc_one_pass_quiet ends the regions it never runs, and a copy of
// the whole check at every barrier of the kernel spread its hot loop
// over more code (ld_btree, H200: 15.0 ms inlined, 12.0 called).
static __device__ LDC_ENGINE __noinline__ void ldc_one_pass_end(struct ldc_thread *t, int one, int id) {
  if (!(one && t->cond)) ldc_test(0, 0); // void: the host runs both passes
  t->one = 1;
  if (ldc_boundary(t, id)) ldc_internal("a region of a one-pass level 2 asked for a second pass");
}

// The check of a region with something to check, after its entry barrier
// (ldc_one_pass_quiet): what ldc_check runs for a final first pass, after
// voiding the launch where the thread's region was not one the build
// proved, or a test of its proof failed (one 0). Not inlined: one copy,
// not one per barrier of the kernel.
static __device__ LDC_ENGINE __noinline__ void ldc_one_pass_rest(struct ldc_thread *t, int one, int id) {
  if (!one) ldc_test(0, 0); // void: the host runs both passes
  ldc_name_region(t, ldc_block(), 1, id);
  ldc_bar(); // (ldc_check's, in the threads in ldc_idle)
  t->cond = 1;
  ldc_check_as<1>(t, 1, id);
}

// ldc_one_pass_quiet ends a region of a one-pass level 2 where the launch
// notes no accesses (no atomic-plain, intra-warp or trace records, not a
// deterministic run) and every shared target's stores are tracked (the
// host's ldc_g.quiet_ends), as ldc_check would but inlined: the entry
// barrier's reduction says whether a thread stored to a copy
// (ldc_region_busy), or ended a region that must void the launch (one
// 0: not proven, or a stride test failed); if none did, the block goes on
// from that barrier, as the kernel does (and as ldc_check does in the
// threads that wait in ldc_idle). Most region ends of ld_radixsort and
// ld_btree are such, and the full check, called, cost them hundreds of
// instructions a warp (spilled registers, a loop over the targets). It
// returns 0, having done nothing, where the launch needs
// ldc_one_pass_end. Its state is the kernel's registers (f), and it
// branches only where the launch's kind says (uniform) and on the
// reduction: ncu counted ld_radixsort's warps stalled on branches more
// than on anything but fixed-latency waits (H200, thirty-eighth session).
static __device__ LDC_ENGINE __forceinline__ int ldc_one_pass_quiet(struct ldc_thread *t, struct ldc_fast *f, int one, int id, int uniform_ends) {
  const int quiet = ldc_g.quiet_ends;
  struct ldc_block_state *bs = ldc_block();
  // ldc_region_busy for such a launch and region, its tests known. The
  // region's tag from the thread's own count of the regions (ldc_dirty_tag
  // reads the block's, the same number: every thread stores its count
  // there at every region end), which the end increments anyway; both
  // words of a region with stores in place read, without a branch.
  // The segment's pair (seg_sel) is the thread's to read before the
  // barrier, and only the check that follows a busy one reads it back.
  // (A store in place that voids the launch tags the region too:
  // ldc_own_void. direct_mask is below 2^32: one 32-bit word to test.)
  // Where every store goes in place (quiet_ends 2, bare), nothing marks a
  // region with a copy to merge: only a region that voids the launch, or
  // a thread in ldc_idle, makes the block check. (A store in place that
  // finds another warp's byte voids the launch itself, ldc_own_void; its
  // block no longer stops at the next region end, and runs on as a void
  // launch's blocks do.) ld_btree's ends read the dirty word and the
  // launch's flags before every barrier.
  unsigned sel = 0;
  int busy = !one;
  if (quiet != 2) { // (one test where the launch's ends are bare)
    if (!quiet) return 0;
    busy |= ldc_lds(&bs->dirty_any) == f->epoch + 1u;
    if (!(unsigned)ldc_g.segs.direct_mask && ldc_g.segs.nseg > 0) { // (none: no global target tracked)
      sel = bs->seg_sel;
      if (*(const volatile unsigned *)&bs->seg_warps) busy |= ldc_seg_busy(bs, sel);
    }
  }
  // The threads waiting in ldc_idle check with the others (ldc_check),
  // and where the block checks, ldc_one_pass_rest names the region.
  // (uniform_ends: the kernel's LDC_UNIFORM_ENDS_K, a constant here, so
  // that the end holds one of ldc_bar_or's two ways, not both.)
  if (uniform_ends ? ldc_bar_or_hw(busy) : ldc_bar_or_words(t, bs, busy)) {
    t->seg_sel = sel;
    ldc_fast_out(t, f);
    ldc_one_pass_rest(t, one, id);
    f->ok = 1u;
  }
  // ldc_boundary's way on from a final first pass, less what a run of one
  // pass a region never changes (pass 1, differ 0) or never reads (where
  // pass 1 ended, the atomics' start for a pass 2).
  f->start = id;
  f->epoch++;
  ldc_sts(&bs->epoch, f->epoch);
  return 1;
}

#define LDC_BARRIER(K, ID)                                      \
  do {                                                          \
    if (!LDC_REPLAY_BUILT || LDC_MODE(ldc_t) != LDC_MODE_REPLAY) {   \
      __syncthreads();                                          \
    } else if (LDC_ONE_PASS_ON) {                               \
      int ldc_one_ok = LDC_ONE_##K(ldc_fs.start, ID) & LDC_COND_OK; \
      if (!ldc_one_pass_quiet(&ldc_t, &ldc_fs, ldc_one_ok, ID, LDC_UNIFORM_ENDS_##K)) { \
        ldc_fast_out(&ldc_t, &ldc_fs);                           \
        ldc_one_pass_end(&ldc_t, ldc_one_ok, ID);               \
        ldc_fast_in(&ldc_t, &ldc_fs);                            \
      }                                                         \
    } else {                                                    \
      if (LDC_PASS(ldc_t) == 2) LDC_DIFF_##K(ldc_end);               \
      else {                                                    \
        LDC_SAVE_##K(ldc_end);                                  \
        ldc_t.one = LDC_ONE_##K(ldc_t.start, ID) && ldc_t.cond; \
      }                                                         \
      if (ldc_boundary(&ldc_t, ID)) {                           \
        LDC_LOAD_##K(ldc_start);                                \
        goto ldc_dispatch_##K;                                  \
      }                                                         \
      LDC_SAVE_##K(ldc_start);                                  \
    }                                                           \
  } while (0)

// LDC_BARRIER_PRED is a predicate barrier (OP one of LDC_PRED_*, F the
// user's call): P, the thread's predicate (a local, 0 or 1, set in the
// region the barrier ends), OUT gets the block's result as the region
// that follows starts.
#define LDC_BARRIER_PRED(K, ID, OP, F, P, OUT)                  \
  do {                                                          \
    if (!LDC_REPLAY_BUILT || LDC_MODE(ldc_t) != LDC_MODE_REPLAY) {   \
      OUT = F(P);                                               \
    } else if (LDC_ONE_PASS_ON) {                               \
      ldc_t.pred = (P);                                         \
      ldc_t.pred_op = OP;                                       \
      ldc_fast_out(&ldc_t, &ldc_fs);                             \
      ldc_one_pass_end(&ldc_t, LDC_ONE_##K(ldc_fs.start, ID) & LDC_COND_OK, ID); \
      ldc_fast_in(&ldc_t, &ldc_fs);                              \
      OUT = ldc_t.pred;                                         \
    } else {                                                    \
      ldc_t.pred = (P);                                         \
      if (LDC_PASS(ldc_t) == 2) LDC_DIFF_##K(ldc_end);               \
      else {                                                    \
        LDC_SAVE_##K(ldc_end);                                  \
        ldc_t.one = LDC_ONE_##K(ldc_t.start, ID) && ldc_t.cond; \
      }                                                         \
      ldc_t.pred_op = OP;                                       \
      if (ldc_boundary(&ldc_t, ID)) {                           \
        LDC_LOAD_##K(ldc_start);                                \
        goto ldc_dispatch_##K;                                  \
      }                                                         \
      OUT = ldc_t.pred;                                         \
      LDC_SAVE_##K(ldc_start);                                  \
    }                                                           \
  } while (0)

#define LDC_EXIT(K)                                             \
  do {                                                          \
    if (LDC_REPLAY_BUILT && LDC_MODE(ldc_t) == LDC_MODE_REPLAY && LDC_ONE_PASS_ON) { \
      ldc_fast_out(&ldc_t, &ldc_fs);                             \
      ldc_one_pass_end(&ldc_t, LDC_ONE_##K(ldc_fs.start, -1) & LDC_COND_OK, -1); \
    } else if (LDC_REPLAY_BUILT && LDC_MODE(ldc_t) == LDC_MODE_REPLAY) { \
      if (LDC_PASS(ldc_t) == 2) LDC_DIFF_##K(ldc_end);               \
      else {                                                    \
        LDC_SAVE_##K(ldc_end);                                  \
        ldc_t.one = LDC_ONE_##K(ldc_t.start, -1) && ldc_t.cond; \
      }                                                         \
      if (ldc_boundary(&ldc_t, -1)) {                           \
        LDC_LOAD_##K(ldc_start);                                \
        goto ldc_dispatch_##K;                                  \
      }                                                         \
    }                                                           \
    if (LDC_REPLAY_BUILT && LDC_MODE(ldc_t) == LDC_MODE_REPLAY) ldc_idle(&ldc_t); \
    ldc_finish(&ldc_t);                                         \
  } while (0)

// ---- Level 1 (unit = block), driven by the host between launches ----
//
// The check kernels walk the pages the blocks wrote (ldc_g.pool.pages, in
// the dense numbering of ldc_pool_listed: npages is the shards' total):
// each thread owns 16-byte chunks of pages, grid-stride, consecutive
// threads on consecutive chunks, and walks the chain of the page's private
// copies. No atomics, no divergence but on a race, where the chunk's words
// go through the exact path, shared out among the warp's lanes.
//
// LDC_WW_UNITS: the writers of a byte that ldc_pages_ww names, the lowest
// units (consecutive ones make the pairs reported).
#define LDC_WW_UNITS 33

// The check kernels' launch bounds, and whether their exact word path is
// inlined, measured on the H200 (RESULTS, thirty-sixth session). Unbounded,
// with the exact path inlined (its arrays of units), they took 70
// registers, 3 blocks of 256 an SM: ld_bfs's write-write check ran at 27%
// of the DRAM bandwidth with 30% of the warps an SM holds (ncu). Bounded
// to 6 blocks with the exact path a call, the exact path spilled and racy
// pools, which spend their time there, checked 35% slower (ld_bfs_racy
// 0.79 -> 1.08 ms); 4 blocks with the path inlined kept them (0.81 ms)
// and checked ld_bfs in 0.117 ms (0.126 unbounded; 0.131 before this
// session). -D overrides both (0: no bounds), for measuring them again:
// a number, as nvcc splits a -D value at its commas.
#ifndef LDC_CHECK_MIN_BLOCKS
#define LDC_CHECK_MIN_BLOCKS 4
#endif
#if LDC_CHECK_MIN_BLOCKS > 0
#define LDC_CHECK_BOUNDS __launch_bounds__(256, LDC_CHECK_MIN_BLOCKS)
#else
#define LDC_CHECK_BOUNDS
#endif
#ifndef LDC_CHECK_EXACT
#define LDC_CHECK_EXACT __forceinline__
#endif

// ldc_ww_word is the write-write check of word k of a listed page, exact
// in every case: any alignment, a page's last partial word, and bytes
// that several copies wrote (named, and U taking the highest unit's
// byte). ldc_pages_ww runs it on the words of a chunk where its 16-byte
// path cannot decide.
static __device__ LDC_ENGINE LDC_CHECK_EXACT void ldc_ww_word(const struct ldc_pool *P, unsigned page, unsigned long long k) {
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, k, &ai, &bp, &offset);
  if (nb == 0) return;
  unsigned vmask = ldc_valid_mask(nb);
  unsigned orig = ldc_load_word(bp, nb), uv = orig, wr = 0, multi = 0;
  int top[4] = {-1, -1, -1, -1};
  // The names of a byte's writers, in one walk with U: consecutive writers
  // in unit order (up to 32 pairs a byte), as the model reports them. The
  // chain is in no particular order, and as long as the grid where every
  // block writes the page (524288 copies of one page in ld_backprop_racy),
  // so each byte keeps its LDC_WW_UNITS lowest units that wrote it (the
  // first slot of a unit) in a ring, highest first: a chain is mostly
  // newest first, blocks in falling order, and each lower unit then joins
  // at the tail and the highest leaves at the head, with nothing moved. A
  // list in rising order moved all of it at every slot, in a walk of its
  // own. (Measured on the H200: a hot page of 8192 copies checked several
  // times faster; ld_backprop_racy's 524,288 copies did not, their time
  // being the one warp's walk itself.)
  int name = !ldc_records_full(LDC_RACE_WW);
  int lo_unit[4][LDC_WW_UNITS], lo_block[4][LDC_WW_UNITS];
  unsigned lo_v[4][LDC_WW_UNITS];
  int n[4] = {0, 0, 0, 0}, head[4] = {0, 0, 0, 0};
  for (int s = P->heads[page]; s >= 0; s = P->slots[s].next) {
    unsigned v = ((const unsigned *)(P->data + (unsigned long long)s * P->slot_bytes))[k];
    unsigned m = ldc_bytemask(v ^ orig) & vmask;
    if (!m) continue;
    int unit = P->slots[s].unit;
    multi |= m & wr;
    wr |= m;
    for (unsigned b = 0; b < 4; b++) {
      if (!(m >> (8 * b) & 0xffu)) continue;
      if (unit > top[b]) {
        top[b] = unit;
        uv = (uv & ~(0xffu << (8 * b))) | (v & (0xffu << (8 * b)));
      }
      if (!name) continue;
      // Ring position i of byte b: (head + i) mod LDC_WW_UNITS.
#define LDC_RING(i) (head[b] + (i) >= LDC_WW_UNITS ? head[b] + (i) - LDC_WW_UNITS : head[b] + (i))
      if (n[b] == LDC_WW_UNITS && unit >= lo_unit[b][head[b]]) continue;
      int j = n[b];
      while (j > 0 && lo_unit[b][LDC_RING(j - 1)] < unit) j--;
      if (j > 0 && lo_unit[b][LDC_RING(j - 1)] == unit) continue;
      if (n[b] == LDC_WW_UNITS) { // the highest makes room
        head[b] = LDC_RING(1);
        n[b]--, j--;
      }
      for (int i = n[b]; i > j; i--) {
        int to = LDC_RING(i), from = LDC_RING(i - 1);
        lo_unit[b][to] = lo_unit[b][from], lo_block[b][to] = lo_block[b][from], lo_v[b][to] = lo_v[b][from];
      }
      int at = LDC_RING(j);
      lo_unit[b][at] = unit, lo_block[b][at] = (int)P->slots[s].tab, lo_v[b][at] = ldc_byte(v, b);
      n[b]++;
    }
  }
  if (multi && name) {
    for (unsigned b = 0; b < 4; b++) {
      if (!(multi >> (8 * b) & 0xffu)) continue;
      // Rising order: ring position n - 1 - a.
      for (int a = 1; a < n[b]; a++) {
        int p0 = LDC_RING(n[b] - a), p1 = LDC_RING(n[b] - 1 - a);
        struct ldc_record r = {LDC_RACE_WW, LDC_SPACE_GLOBAL, ai, -1, -1, lo_block[b][p0], lo_block[b][p1], -1, -1, lo_unit[b][p0], (long long)(offset + b),
                               ldc_byte(orig, b) | (lo_v[b][p0] << 8) | (lo_v[b][p1] << 16)};
        ldc_record_race(r);
      }
    }
  }
#undef LDC_RING
  if (wr) ldc_store_word(bp, uv, wr);
  for (int s = P->heads[page]; s >= 0; s = P->slots[s].next) {
    unsigned *vp = (unsigned *)(P->data + (unsigned long long)s * P->slot_bytes) + k;
    unsigned own = ldc_bytemask(*vp ^ orig) & vmask;
    *vp = (uv & ~own) | (orig & own);
  }
}

// ldc_rw_differ records each byte of vmask where copy s's word v (at
// offset of allocation ai) differs from U's u: a read-write race (the
// word path and the hot kernels).
static __device__ LDC_ENGINE __forceinline__ void ldc_rw_differ(const struct ldc_pool *P, int s, int ai, unsigned long long offset, unsigned u, unsigned v, unsigned vmask) {
  unsigned m = ldc_bytemask(v ^ u) & vmask;
  for (unsigned b = 0; m && b < 4; b++)
    if (m >> (8 * b) & 0xffu) {
      struct ldc_record r = {LDC_RACE_RW, LDC_SPACE_GLOBAL, ai, -1, -1, (int)P->slots[s].tab, -1, -1, -1, P->slots[s].unit, (long long)(offset + b),
                             ldc_byte(u, b) | (ldc_byte(v, b) << 8)};
      ldc_record_race(r);
    }
}

// ldc_rw_word is the read-write check of word k of a listed page, exact
// in every case (see ldc_ww_word): every byte of a copy that differs from
// U is recorded.
static __device__ LDC_ENGINE LDC_CHECK_EXACT void ldc_rw_word(const struct ldc_pool *P, unsigned page, unsigned long long k) {
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, k, &ai, &bp, &offset);
  if (nb == 0) return;
  unsigned vmask = ldc_valid_mask(nb);
  unsigned u = ldc_load_word(bp, nb);
  for (int s = P->heads[page]; s >= 0; s = P->slots[s].next) {
    unsigned v = ((const unsigned *)(P->data + (unsigned long long)s * P->slot_bytes))[k];
    ldc_rw_differ(P, s, ai, offset, u, v, vmask);
  }
}

// The check kernels' items are 16-byte chunks of the listed pages (a
// slot's bytes are a whole number of chunks): consecutive threads on
// consecutive chunks, so that a warp moves 512 bytes of a copy with each
// load, and a thread's page lookups and chain walk serve 16 bytes. Word
// kernels, a thread's 4 bytes behind the same lookups and walk, ran at
// 21-31% of the copy bandwidth on the H100 (RESULTS, twenty-seventh
// session).
//
// ldc_chunk_item splits an item into the listed page's dense index and the
// chunk, in 32-bit arithmetic where the items allow (64-bit division is a
// long instruction sequence on the GPU).
static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_chunk_item(unsigned long long item, unsigned long long cps, unsigned long long total, unsigned long long *c) {
  if (total <= 0xffffffffull) {
    unsigned li = (unsigned)item / (unsigned)cps;
    *c = (unsigned)item - li * (unsigned)cps;
    return li;
  }
  unsigned long long li = item / cps;
  *c = item - li * cps;
  return li;
}

// ldc_chunk_at locates chunk c of page: 2 where its 16 bytes are all in
// the allocation, at a 4-byte aligned address (*base); 1 where only some
// are, or misaligned (a page's tail, elements of an odd size): its words
// go through the exact path; 0 where none are (past the page's end, in a
// slot sized for another allocation's larger pages).
static __device__ LDC_ENGINE __forceinline__ int ldc_chunk_at(unsigned page, unsigned long long c, unsigned char **base) {
  int i = ldc_alloc_of_page(page);
  if (i < 0) return 0;
  const struct ldc_alloc *al = &ldc_g.allocs[i];
  unsigned long long pg = page - al->first_page;
  unsigned long long start = pg * al->page_bytes + 16 * c, end = (pg + 1) * al->page_bytes;
  if (end > al->size) end = al->size;
  if (start >= end) return 0;
  if (start + 16 > end || ((al->base + start) & 3)) return 1;
  *base = (unsigned char *)(al->base + start);
  return 2;
}

// A chunk of the target, one 16-byte access where it is so aligned (pages
// of 12-byte elements are 120 bytes: every other page is not).
static __device__ LDC_ENGINE __forceinline__ uint4 ldc_load_chunk(const unsigned char *p) {
  if (((unsigned long long)p & 15) == 0) return *(const uint4 *)p;
  const unsigned *w = (const unsigned *)p;
  return make_uint4(w[0], w[1], w[2], w[3]);
}
static __device__ LDC_ENGINE __forceinline__ void ldc_store_chunk(unsigned char *p, uint4 v) {
  if (((unsigned long long)p & 15) == 0) {
    *(uint4 *)p = v;
    return;
  }
  unsigned *w = (unsigned *)p;
  w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
}

static __device__ LDC_ENGINE __forceinline__ uint4 *ldc_slot_chunk(const struct ldc_pool *P, int s, unsigned long long c) {
  return (uint4 *)(P->data + (unsigned long long)s * P->slot_bytes) + c;
}

// ldc_lone_ww_word is the write-write check of word k of copy s, its
// page's only copy: U is the copy where it wrote, its pass-2 state S
// (ldc_ww_word's result on a chain of one).
static __device__ LDC_ENGINE __forceinline__ void ldc_lone_ww_word(const struct ldc_pool *P, unsigned page, int s, unsigned long long k) {
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, k, &ai, &bp, &offset);
  if (nb == 0) return;
  unsigned *vp = (unsigned *)(P->data + (unsigned long long)s * P->slot_bytes) + k;
  unsigned orig = ldc_load_word(bp, nb), v = *vp;
  unsigned m = ldc_bytemask(v ^ orig) & ldc_valid_mask(nb);
  unsigned uv = (orig & ~m) | (v & m);
  if (m) ldc_store_word(bp, uv, m);
  *vp = (uv & ~m) | (orig & m);
}

// ldc_slot_rw_word is the read-write check of word k of copy s alone
// (ldc_rw_word's, for one slot of the chain).
static __device__ LDC_ENGINE __forceinline__ void ldc_slot_rw_word(const struct ldc_pool *P, unsigned page, int s, unsigned long long k) {
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, k, &ai, &bp, &offset);
  if (nb == 0) return;
  unsigned v = ((const unsigned *)(P->data + (unsigned long long)s * P->slot_bytes))[k];
  ldc_rw_differ(P, s, ai, offset, ldc_load_word(bp, nb), v, ldc_valid_mask(nb));
}

// ldc_chunk_words runs the exact word path (ldc_ww_word, or ldc_rw_word)
// on the 4 words of every chunk of the warp whose 16-byte path could not
// decide (exact), the warp's lanes sharing those words in order: word j
// of the j/4-th such chunk is lane j % 32's, so that a warp of racy
// chunks walks its chains as 32 lanes, each on a word of its own, with
// coalesced loads. A chunk's 4 words done by its own thread took 4 times
// as long on the H100 (ld_backprop_racy's hot page: 12.4 s against 3.1 s
// a word a thread; saxpy64m_racy's racy pool: 211 GB/s against 758).
// Every lane of the warp calls it, exact or not. slot (the slot kernels):
// each chunk is copy s's alone (ldc_lone_ww_word, ldc_slot_rw_word), not
// its page's chain; s is not read otherwise.
static __device__ LDC_ENGINE __forceinline__ void ldc_chunk_words(const struct ldc_pool *P, unsigned page, int s, unsigned long long c, int exact, int ww, int slot) {
  unsigned need = __ballot_sync(0xffffffffu, exact);
  if (!need) return;
  unsigned lane = threadIdx.x & 31, words = 4 * __popc(need);
  for (unsigned round = 0; round < words; round += 32) {
    unsigned j = round + lane, m = need, src = 0;
    if (j < words) {
      for (unsigned k = j / 4; k > 0; k--) m &= m - 1;
      src = __ffs(m) - 1;
    }
    unsigned p = __shfl_sync(0xffffffffu, page, src);
    int ss = slot ? __shfl_sync(0xffffffffu, s, src) : -1;
    unsigned long long cc = __shfl_sync(0xffffffffu, c, src), k = 4 * cc + j % 4;
    if (j >= words) continue;
    if (slot && ww)
      ldc_lone_ww_word(P, p, ss, k);
    else if (slot)
      ldc_slot_rw_word(P, p, ss, k);
    else if (ww)
      ldc_ww_word(P, p, k);
    else
      ldc_rw_word(P, p, k);
  }
}

// ---- Hot pages ----
// A page every block writes (a flag, a shared accumulator) has a chain as
// long as the grid: one warp walking it took seconds (ld_backprop_racy's
// page of 524,288 copies: 4.3 s on the H200). The check kernels stop at
// hot_len copies and list the page (its chunk 0's thread does); the host
// then runs the hot kernels on each listed page: every thread of a grid
// takes slots of the pool (all of them, skipping other pages') at one word
// of the page, and partial results merge a word a warp. The results are
// the chunk kernels': U, each copy's pass-2 state and, for a byte of two
// writers, its lowest LDC_WW_UNITS writers named in pairs, found one a
// round (ldc_hot_names).

// ldc_hot_note lists page as hot, once (chunk 0's thread): list 0 for the
// write-write check, 1 for read-write.
static __device__ LDC_ENGINE __forceinline__ void ldc_hot_note(const struct ldc_pool *P, unsigned page, unsigned long long c, int list) {
  if (c != 0) return;
  int k = atomicAdd(ldc_g.nrecords + 2 + list, 1);
  if ((unsigned long long)k < P->hot_cap) P->hot[k] = page;
}

// ldc_hot_chain is 1 where page's chain is longer than hot_len (0: no
// limit), listed then: the chunks whose 16 bytes cannot decide (where the
// chunk loop counts) walk it only for that.
static __device__ LDC_ENGINE __forceinline__ int ldc_hot_chain(const struct ldc_pool *P, unsigned page, unsigned long long c, int list, unsigned long long hot_len) {
  if (!hot_len) return 0;
  unsigned long long n = 0;
  for (int s = P->heads[page]; s >= 0; s = P->slots[s].next)
    if (++n > hot_len) {
      ldc_hot_note(P, page, c, list);
      return 1;
    }
  return 0;
}

// ldc_ww_acc merges a chunk's copies for the write-write check: U so far,
// the bytes written (wr, one mask a word) and those written twice (multi).
struct ldc_ww_acc {
  uint4 u, wr;
  unsigned multi;
};
static __device__ LDC_ENGINE __forceinline__ void ldc_ww_add(struct ldc_ww_acc *a, uint4 v, uint4 o) {
  unsigned m0 = ldc_bytemask(v.x ^ o.x), m1 = ldc_bytemask(v.y ^ o.y), m2 = ldc_bytemask(v.z ^ o.z), m3 = ldc_bytemask(v.w ^ o.w);
  a->multi |= (m0 & a->wr.x) | (m1 & a->wr.y) | (m2 & a->wr.z) | (m3 & a->wr.w);
  a->wr = make_uint4(a->wr.x | m0, a->wr.y | m1, a->wr.z | m2, a->wr.w | m3);
  a->u = make_uint4((a->u.x & ~m0) | (v.x & m0), (a->u.y & ~m1) | (v.y & m1), (a->u.z & ~m2) | (v.z & m2), (a->u.w & ~m3) | (v.w & m3));
}
// ldc_ww_pass2 is a copy's pass-2 state: U with the copy's own writes
// (where v differs from S, o) reverted.
static __device__ LDC_ENGINE __forceinline__ uint4 ldc_ww_pass2(uint4 v, uint4 o, uint4 u) {
  unsigned m0 = ldc_bytemask(v.x ^ o.x), m1 = ldc_bytemask(v.y ^ o.y), m2 = ldc_bytemask(v.z ^ o.z), m3 = ldc_bytemask(v.w ^ o.w);
  return make_uint4((u.x & ~m0) | (o.x & m0), (u.y & ~m1) | (o.y & m1), (u.z & ~m2) | (o.z & m2), (u.w & ~m3) | (o.w & m3));
}
static __device__ LDC_ENGINE __forceinline__ int ldc_ww_any(uint4 wr) { return (wr.x | wr.y | wr.z | wr.w) != 0; }

// ---- A page's copies in one array ----
// The chunk paths below walked each page's chain of copies, the load of a
// copy's next waiting for the one before: ld_bfs's write-write check ran
// at 28% of the copy bandwidth on the H200, a warp waiting 8.8 of every
// 14.2 cycles for a load (ncu). ldc_pages_index lists each listed page's
// copies once, a thread a page, in order[] (the pages' lists one after
// the other), and sets page_at[li] to first << 8 | count; 0 leaves the
// page to its chain (more than LDC_LISTED_MAX copies, or than hot_len:
// the hot kernels' pages). The chunk paths then load LDC_LISTED_BATCH
// copies at once. A chunk whose bytes have one writer each is merged in
// any order, so the list's order does not matter. On the H200: ld_bfs's
// check (about ten copies a page) 1.59 -> 1.05 ms, index included; pools
// of one or two copies a page slower by a third (the chains were short
// already, and the index is a pass of its own), so the host lists only
// pools of several copies a page (pageCheck).
#define LDC_LISTED_MAX 255
#ifndef LDC_LISTED_BATCH
#define LDC_LISTED_BATCH 4 // (-D for measuring: 8 checked listed pages slower on the H200, RESULTS 2026-12-03)
#endif
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_ENGINE void ldc_pages_index(unsigned long long npages, unsigned long long hot_len) {
  if (npages == 0) return;
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned lane = threadIdx.x & 31;
  unsigned long long starts = ldc_warp_starts(lane < P->page_shards ? *ldc_pool_page_ctr(P, lane) : 0);
  unsigned limit = hot_len && hot_len < LDC_LISTED_MAX ? (unsigned)hot_len : LDC_LISTED_MAX;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long li = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; li - lane < npages; li += stride) {
    int listed = li < npages;
    unsigned page = ldc_pool_listed(P, starts, li, listed);
    unsigned n = 0;
    if (listed)
      for (int s = P->heads[page]; s >= 0 && n <= limit; s = P->slots[s].next) n++;
    if (n > limit) n = 0;
    // Room for the warp's lists with one atomic (counters[1], zeroed by
    // the host before the launch).
    unsigned inc = n;
    for (unsigned d = 1; d < 32; d <<= 1) {
      unsigned v = __shfl_up_sync(0xffffffffu, inc, d);
      if (lane >= d) inc += v;
    }
    unsigned long long first = 0;
    if (lane == 31 && inc) first = atomicAdd(&P->counters[1], (unsigned long long)inc);
    first = __shfl_sync(0xffffffffu, first, 31) + inc - n;
    if (!listed) continue;
    unsigned k = 0;
    if (n)
      for (int s = P->heads[page]; k < n; s = P->slots[s].next) P->order[first + k++] = (unsigned)s;
    P->page_at[li] = n ? first << 8 | n : 0;
  }
}
#endif

// ldc_listed_load loads chunk c of the listed copies k .. k + BATCH - 1
// of at's list (fill where the list ends: a copy equal to S or U changes
// nothing in the checks).
static __device__ LDC_ENGINE __forceinline__ void ldc_listed_load(const struct ldc_pool *P, unsigned long long at, unsigned k, unsigned long long c, uint4 fill, unsigned *s, uint4 *v) {
  unsigned n = (unsigned)(at & 0xff);
  const unsigned *ord = P->order + (at >> 8);
#pragma unroll
  for (int j = 0; j < LDC_LISTED_BATCH; j++) s[j] = k + j < n ? ord[k + j] : ~0u;
#pragma unroll
  for (int j = 0; j < LDC_LISTED_BATCH; j++) v[j] = s[j] != ~0u ? *ldc_slot_chunk(P, (int)s[j], c) : fill;
}

// ldc_ww_listed is ldc_ww_chunk on a listed page (bp: the chunk in the
// base, all of it in the allocation).
static __device__ LDC_ENGINE __forceinline__ int ldc_ww_listed(const struct ldc_pool *P, unsigned long long at, unsigned char *bp, unsigned long long c, int final) {
  const uint4 o = ldc_load_chunk(bp);
  struct ldc_ww_acc acc = {o, make_uint4(0, 0, 0, 0), 0};
  unsigned n = (unsigned)(at & 0xff), s[LDC_LISTED_BATCH];
  uint4 v[LDC_LISTED_BATCH];
  for (unsigned k = 0; k < n; k += LDC_LISTED_BATCH) {
    ldc_listed_load(P, at, k, c, o, s, v);
#pragma unroll
    for (int j = 0; j < LDC_LISTED_BATCH; j++) ldc_ww_add(&acc, v[j], o);
  }
  if (acc.multi) return 1;
  if (ldc_ww_any(acc.wr)) ldc_store_chunk(bp, acc.u);
  if (final) return 0;
  if (n <= LDC_LISTED_BATCH) { // (its one batch still in registers)
#pragma unroll
    for (int j = 0; j < LDC_LISTED_BATCH; j++)
      if (s[j] != ~0u) *ldc_slot_chunk(P, (int)s[j], c) = ldc_ww_pass2(v[j], o, acc.u);
    return 0;
  }
  for (unsigned k = 0; k < n; k += LDC_LISTED_BATCH) {
    ldc_listed_load(P, at, k, c, o, s, v);
#pragma unroll
    for (int j = 0; j < LDC_LISTED_BATCH; j++)
      if (s[j] != ~0u) *ldc_slot_chunk(P, (int)s[j], c) = ldc_ww_pass2(v[j], o, acc.u);
  }
  return 0;
}

// ldc_rw_listed is ldc_rw_chunk on a listed page.
static __device__ LDC_ENGINE __forceinline__ int ldc_rw_listed(const struct ldc_pool *P, unsigned long long at, unsigned char *bp, unsigned long long c) {
  const uint4 u = ldc_load_chunk(bp);
  unsigned differ = 0, n = (unsigned)(at & 0xff);
  for (unsigned k = 0; k < n; k += LDC_LISTED_BATCH) {
    unsigned s[LDC_LISTED_BATCH];
    uint4 v[LDC_LISTED_BATCH];
    ldc_listed_load(P, at, k, c, u, s, v);
#pragma unroll
    for (int j = 0; j < LDC_LISTED_BATCH; j++) differ |= (v[j].x ^ u.x) | (v[j].y ^ u.y) | (v[j].z ^ u.z) | (v[j].w ^ u.w);
  }
  return differ != 0;
}

// ldc_ww_chunk is the write-write check of chunk c of a listed page where
// its 16 bytes decide it, 0; 1 where they cannot (a byte of two writers,
// a race; a chunk partly in the allocation or misaligned): nothing is
// stored then, and ldc_chunk_words takes its words.
//
// A chunk whose every byte has at most one writer needs no unit order: U
// is S with each copy's written bytes, in any order, and a lone copy's
// pass-2 state is S itself (its loads stay in registers). final: no pass
// 2 follows (the build's BlockOnePass, the deterministic merge), so the
// copies are only read, not turned into their pass-2 states: the check
// reads each copy once and writes nothing but U.
//
// at, first and tail are the page's list (page_at, 0: not listed), chain
// head and chain tail (its first copy, tails[]; -1: not known), loaded by
// the caller (ldc_pages_check). The tail's chunk loads with the base's,
// before the head is known: a page of one copy (head == tail) waits for
// no load of its chain.
static __device__ LDC_ENGINE __forceinline__ int ldc_ww_chunk(const struct ldc_pool *P, unsigned page, unsigned long long at, int first, int tail, unsigned long long c, unsigned long long hot_len, int final) {
  unsigned char *bp;
  int where = ldc_chunk_at(page, c, &bp);
  if (where == 0 || (where == 1 && ldc_hot_chain(P, page, c, 0, hot_len))) return 0;
  if (where == 1) return 1;
  if (at) return ldc_ww_listed(P, at, bp, c, final);
  const uint4 o = ldc_load_chunk(bp);
  const uint4 t = tail >= 0 ? *ldc_slot_chunk(P, tail, c) : o;
  struct ldc_ww_acc acc = {o, make_uint4(0, 0, 0, 0), 0};
  int n = 0;
  for (int s = first; s >= 0 && s != tail; s = P->slots[s].next, n++) {
    if (n == hot_len && hot_len) {
      ldc_hot_note(P, page, c, 0);
      return 0;
    }
    ldc_ww_add(&acc, *ldc_slot_chunk(P, s, c), o);
  }
  if (tail >= 0) {
    if (n == hot_len && hot_len) {
      ldc_hot_note(P, page, c, 0);
      return 0;
    }
    ldc_ww_add(&acc, t, o);
    n++;
  }
  if (acc.multi) return 1;
  if (ldc_ww_any(acc.wr)) ldc_store_chunk(bp, acc.u);
  if (final) return 0;
  if (n == 1) {
    *ldc_slot_chunk(P, first, c) = o;
    return 0;
  }
  for (int s = first; s >= 0; s = P->slots[s].next) {
    uint4 *vp = ldc_slot_chunk(P, s, c);
    *vp = ldc_ww_pass2(*vp, o, acc.u);
  }
  return 0;
}

// ldc_rw_chunk is 0 where every copy of chunk c of a listed page equals U
// (the common case), decided on its 16 bytes; 1 where a copy differs or
// the chunk is partly in the allocation or misaligned: ldc_chunk_words
// records its words then.
static __device__ LDC_ENGINE __forceinline__ int ldc_rw_chunk(const struct ldc_pool *P, unsigned page, unsigned long long at, int first, int tail, unsigned long long c, unsigned long long hot_len) {
  unsigned char *bp;
  int where = ldc_chunk_at(page, c, &bp);
  if (where == 0 || (where == 1 && ldc_hot_chain(P, page, c, 1, hot_len))) return 0;
  if (where == 1) return 1;
  if (at) return ldc_rw_listed(P, at, bp, c);
  const uint4 u = ldc_load_chunk(bp);
  const uint4 t = tail >= 0 ? *ldc_slot_chunk(P, tail, c) : u;
  unsigned differ = 0;
  unsigned long long n = 0;
  for (int s = first; s >= 0 && s != tail; s = P->slots[s].next, n++) {
    if (n == hot_len && hot_len) {
      ldc_hot_note(P, page, c, 1);
      return 0;
    }
    uint4 v = *ldc_slot_chunk(P, s, c);
    differ |= (v.x ^ u.x) | (v.y ^ u.y) | (v.z ^ u.z) | (v.w ^ u.w);
  }
  if (tail >= 0 && n == hot_len && hot_len) {
    ldc_hot_note(P, page, c, 1);
    return 0;
  }
  differ |= (t.x ^ u.x) | (t.y ^ u.y) | (t.z ^ u.z) | (t.w ^ u.w);
  return differ != 0;
}

// The check kernels' flags (their third parameter).
#define LDC_CHECK_LISTED 1 // ldc_pages_index ran before it
#define LDC_CHECK_FINAL 2  // ldc_pages_ww: no pass 2 follows (ldc_ww_chunk)

// LDC_CHECK_TAILS: the plain loop of ldc_pages_check (the write-write
// check's, and read-write's without LDC_RW_PREFETCH) loads each page's
// chain tail with the page (struct ldc_pool). On the H200 (RESULTS,
// 2026-12-04, BenchmarkPageChecks, write-write): one copy a page 0.948 ->
// 0.915 ms, final 0.798 -> 0.754, racy pools 0.449 -> 0.421, 1 to 6
// copies 0.707 -> 0.719. The lookahead loop loads no tails: its read-write
// check with them ran 0.450 -> 0.536 ms (an item carried ahead is bigger).
// 0: chains walked from their heads alone (for measuring).
#ifndef LDC_CHECK_TAILS
#define LDC_CHECK_TAILS 1
#endif

// An item of the check kernels, looked up: chunk c of page, the page's
// list (page_at; 0: its chain), chain head (first) and tail (tails[]; -1
// where the pages were indexed: a page left to its chain there has many
// copies); in: the item is below the total (the rest is meaningless
// otherwise).
struct ldc_check_item {
  unsigned long long c, at;
  unsigned page;
  int first, tail, in;
};
// ldc_check_look looks item up but for its chain head (a load that waits
// for the page's). Every lane of the warp calls it (ldc_pool_listed).
static __device__ LDC_ENGINE __forceinline__ struct ldc_check_item ldc_check_look(const struct ldc_pool *P, unsigned long long starts, unsigned long long item, unsigned long long cps, unsigned long long total, int listed, int tails) {
  struct ldc_check_item it = {0, 0, 0, -1, -1, item < total};
  unsigned long long li = 0;
  if (it.in) li = ldc_chunk_item(item, cps, total, &it.c);
  unsigned long long k = ldc_pool_entry(P, starts, li);
  if (it.in) it.page = P->pages[k];
  if (tails && it.in && !listed) it.tail = P->tails[k];
  it.at = listed && it.in ? P->page_at[li] : 0;
  return it;
}
// ldc_check_head loads the item's chain head (a page not listed).
static __device__ LDC_ENGINE __forceinline__ int ldc_check_head(const struct ldc_pool *P, struct ldc_check_item it) { return it.in && !it.at ? P->heads[it.page] : -1; }
// ldc_check_one checks it (ww: write-write, 0: read-write); every lane of
// the warp calls it (ldc_chunk_words).
static __device__ LDC_ENGINE __forceinline__ void ldc_check_one(const struct ldc_pool *P, struct ldc_check_item it, unsigned long long hot_len, int final, int ww) {
  int exact = 0;
  if (it.in) exact = ww ? ldc_ww_chunk(P, it.page, it.at, it.first, it.tail, it.c, hot_len, final) : ldc_rw_chunk(P, it.page, it.at, it.first, it.tail, it.c, hot_len);
  ldc_chunk_words(P, it.page, -1, it.c, exact, ww, 0);
}

// LDC_RW_PREFETCH: the read-write check's lookups issued one and two
// items ahead of its chunk (a chunk's page lookups are two dependent loads
// before its copies can be loaded; the one-copy check waits on loads 10
// of every 16 cycles it issues, ncu, H200). On the H200 (RESULTS,
// 2026-12-04, BenchmarkPageChecks): one copy a page 0.542 -> 0.451 ms,
// 120-byte pages 0.835 -> 0.771, 1 to 6 copies 0.308 -> 0.295, racy
// pools and 1 to 19 copies the same. The write-write check ran slower
// with it (one copy 0.93 -> 1.12 ms), its exact path inlined or a call,
// so it looks each item up as it checks it. 0: the same for read-write.
#ifndef LDC_RW_PREFETCH
#define LDC_RW_PREFETCH 1
#endif

// ldc_pages_check is both check kernels (ww: 1 write-write, 0
// read-write; flags: LDC_CHECK_*): a thread a 16-byte chunk, launched over npages *
// slot_bytes / 16 items in blocks of whole warps. The loop is warp-uniform
// (item - lane), so that a warp's lanes are all there when
// ldc_chunk_words shares out words. Chunks ran at 69-75% of the copy
// bandwidth on the H100 where 4-byte words a thread ran at 21-31%
// (BenchmarkPageChecks, RESULTS, twenty-seventh session).
static __device__ LDC_ENGINE __forceinline__ void ldc_pages_check(unsigned long long npages, unsigned long long hot_len, unsigned long long flags, int ww, int prefetch) {
  if (npages == 0) return; // (the warm-up's launch: the pool may not be set up yet)
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned long long cps = P->slot_bytes / 16, total = npages * cps;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned lane = threadIdx.x & 31;
  unsigned long long starts = ldc_warp_starts(lane < P->page_shards ? *ldc_pool_page_ctr(P, lane) : 0);
  const int listed = (flags & LDC_CHECK_LISTED) != 0, final = (flags & LDC_CHECK_FINAL) != 0;
  unsigned long long item = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (prefetch) {
    // Two items ahead: an item's chain head is loaded while the one before
    // is checked, the page of the item after it a step earlier.
    struct ldc_check_item now = ldc_check_look(P, starts, item, cps, total, listed, 0), next = ldc_check_look(P, starts, item + stride, cps, total, listed, 0);
    now.first = ldc_check_head(P, now);
    for (; item - lane < total; item += stride) {
      next.first = ldc_check_head(P, next);
      struct ldc_check_item after = ldc_check_look(P, starts, item + 2 * stride, cps, total, listed, 0);
      ldc_check_one(P, now, hot_len, final, ww);
      now = next, next = after;
    }
    return;
  }
  for (; item - lane < total; item += stride) {
    struct ldc_check_item it = ldc_check_look(P, starts, item, cps, total, listed, LDC_CHECK_TAILS);
    it.first = ldc_check_head(P, it);
    ldc_check_one(P, it, hot_len, final, ww);
  }
}

// ldc_pages_ww: write detection, conflicts, the union U (written into the
// base) and each copy's pass-2 state (U with its own changes reverted), in
// one pass over the written pages. A copy wrote a byte where it differs
// from S; U takes the value of the highest copy that wrote it.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_CHECK_BOUNDS LDC_ENGINE void ldc_pages_ww(unsigned long long npages, unsigned long long hot_len, unsigned long long flags) { ldc_pages_check(npages, hot_len, flags, 1, 0); }
#endif

// ldc_pages_rw: after pass 2, a copy that differs from U (now the base)
// read something another copy wrote.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_CHECK_BOUNDS LDC_ENGINE void ldc_pages_rw(unsigned long long npages, unsigned long long hot_len, unsigned long long flags) { ldc_pages_check(npages, hot_len, flags, 0, LDC_RW_PREFETCH); }
#endif

// ---- The checks in slot order ----
// The read-write check compares each copy with U on its own, and a page
// of one copy has nothing to merge: neither needs a page's other copies.
// ldc_slots_rw and ldc_slots_ww take the pool's filled slots in their
// order (the shards' ones after the other, a thread a 16-byte chunk), so
// that the copies stream in the order they lie in and a chunk waits for
// one lookup (its slot's page, for the base's chunk) where the page
// kernels wait for the page listed, then its chain head (and walk its
// chain). No chain is walked, so no page is hot. ldc_slots_ww is the
// write-write check only of a pool whose every page has one copy (the
// host knows: as many copies as pages); ldc_pages_ww does the rest. On
// the H200 (RESULTS, 2026-12-04, BenchmarkPageChecks, 512 MiB of pages of
// one copy): write-write 0.90 -> 0.59 ms (56% -> 87% of the copy
// bandwidth), final 0.75 -> 0.43, read-write 0.45 -> 0.35 (56% -> 74%);
// two copies a page, read-write the same (0.33); 1 to 6, 0.29 -> 0.28;
// 1 to 19, 0.36 -> 0.38 (U read once a copy), left to ldc_pages_rw.

// The slot kernels' launch bounds (blocks of 256 an SM; 0: none; -D for
// measuring). On the H200 (RESULTS, 2026-12-04, BenchmarkPageChecks, one
// copy a page): write-write bounded to 8 blocks (32 registers) 0.603 ->
// 0.586 ms, final 0.474 -> 0.427; read-write bounded so spilled, 0.345 ->
// 0.511, and runs with its 40 registers (6 blocks). A lane keeping its
// place in the shards and its allocation in registers, or taking two or
// four chunks at a time, ran slower than this loop (a chunk at a time,
// looked up afresh): more registers, fewer warps.
#ifndef LDC_SLOT_WW_MIN_BLOCKS
#define LDC_SLOT_WW_MIN_BLOCKS 8
#endif
#ifndef LDC_SLOT_RW_MIN_BLOCKS
#define LDC_SLOT_RW_MIN_BLOCKS 0
#endif
#if LDC_SLOT_WW_MIN_BLOCKS > 0
#define LDC_SLOT_WW_BOUNDS __launch_bounds__(256, LDC_SLOT_WW_MIN_BLOCKS)
#else
#define LDC_SLOT_WW_BOUNDS
#endif
#if LDC_SLOT_RW_MIN_BLOCKS > 0
#define LDC_SLOT_RW_BOUNDS __launch_bounds__(256, LDC_SLOT_RW_MIN_BLOCKS)
#else
#define LDC_SLOT_RW_BOUNDS
#endif

// ldc_slots_check is both slot kernels (ww: 1 write-write, 0 read-write):
// nslots the slots filled (the shards' counts up to their room, in one
// dense numbering), a thread a chunk, grid-stride, warp-uniform (item -
// lane) for ldc_chunk_words. flags: LDC_CHECK_FINAL (write-write: the copy
// is only read).
static __device__ LDC_ENGINE __forceinline__ void ldc_slots_check(unsigned long long nslots, unsigned long long flags, int ww) {
  if (nslots == 0) return; // (the warm-up's launch)
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned long long cps = P->slot_bytes / 16, total = nslots * cps;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned lane = threadIdx.x & 31;
  unsigned long long filled = 0;
  if (lane < P->shards) {
    filled = *ldc_pool_slot_ctr(P, lane);
    if (filled > P->shard_cap) filled = P->shard_cap;
  }
  unsigned long long starts = ldc_warp_starts(filled);
  const int final = (flags & LDC_CHECK_FINAL) != 0;
  for (unsigned long long item = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; item - lane < total; item += stride) {
    int in = item < total, exact = 0;
    unsigned long long c = 0, si = 0;
    if (in) si = ldc_chunk_item(item, cps, total, &c);
    int s = (int)ldc_dense_entry(starts, si, P->shards, P->shard_cap);
    unsigned page = 0;
    if (in) {
      // The copy's chunk does not wait for its page.
      uint4 *vp = ldc_slot_chunk(P, s, c);
      const uint4 v = *vp;
      page = P->slots[s].page;
      unsigned char *bp;
      int where = ldc_chunk_at(page, c, &bp);
      if (where == 1) exact = 1;
      if (where == 2) {
        const uint4 o = ldc_load_chunk(bp);
        if ((v.x ^ o.x) | (v.y ^ o.y) | (v.z ^ o.z) | (v.w ^ o.w)) {
          if (!ww)
            exact = 1;
          else {
            ldc_store_chunk(bp, v);
            if (!final) *vp = o;
          }
        }
      }
    }
    ldc_chunk_words(P, page, s, c, exact, ww, 1);
  }
}

// ldc_slots_ww: ldc_pages_ww's results where every page has one copy: U
// (the copy) and the copy's pass-2 state (S).
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_SLOT_WW_BOUNDS LDC_ENGINE void ldc_slots_ww(unsigned long long nslots, unsigned long long flags) { ldc_slots_check(nslots, flags, 1); }
#endif

// ldc_slots_rw: ldc_pages_rw's results (each copy that differs from U
// recorded) over any pool.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_SLOT_RW_BOUNDS LDC_ENGINE void ldc_slots_rw(unsigned long long nslots, unsigned long long flags) { ldc_slots_check(nslots, flags, 0); }
#endif

// The hot kernels' scratch (unsigned words, a parameter: the host
// allocates it at the first hot page): LDC_HOT_THREADS partial
// results of 16 words, then 16 words a word of the page (its final
// state), then the flag a merge sets to the host's sequence number.
#define LDC_HOT_THREADS (64 * 256)
#define LDC_HOT_FINAL (LDC_HOT_THREADS * 16)
#define LDC_HOT_FLAG (LDC_HOT_FINAL + 1024 * 16)
#define LDC_HOT_SCRATCH_WORDS (LDC_HOT_FLAG + 4)
// A word's final state: [0] S, [1] U, [2] its bytes written, [3] those of
// two writers or more, [4 + b] byte b's last writer named (unit + 1, 0:
// none yet), [8 + b] its block (tab), [12 + b] its byte.

// LDC_HOT_SLOTS runs its last arguments, with s a slot of page and v its
// word w, on the calling thread's share of the slots of page: thread q of Q (one per word's worth of threads) takes every Q-th
// slot of each shard's filled ones.
#define LDC_HOT_SLOTS(P, page, q, Q, ...)                                                             \
  for (unsigned long long j_ = 0; j_ < (P)->shards; j_++) {                                          \
    unsigned long long taken_ = *ldc_pool_slot_ctr(P, j_);                                           \
    if (taken_ > (P)->shard_cap) taken_ = (P)->shard_cap;                                            \
    for (unsigned long long i_ = (q); i_ < taken_; i_ += (Q)) {                                      \
      int s = (int)(j_ * (P)->shard_cap + i_);                                                       \
      if ((P)->slots[s].page != (page)) continue;                                                    \
      unsigned v = ((const unsigned *)((P)->data + (unsigned long long)s * (P)->slot_bytes))[w];     \
      __VA_ARGS__                                                                                    \
    }                                                                                                \
  }

// ldc_hot_scan: each thread's partial result (the grid's threads, at most
// LDC_HOT_THREADS, in whole multiples of the page's words) for word w = t % words of
// page over its share of the slots. names 0: the bytes written, those of
// two writers, each byte's highest writer and its byte (for U); names 1:
// each byte of two writers' lowest writer above the last one named.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_ENGINE void ldc_hot_scan(unsigned page, int names, unsigned *scratch) {
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned long long words = P->slot_bytes / 4, T = (unsigned long long)gridDim.x * blockDim.x / words * words;
  unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  unsigned long long w = t % words, q = t / words, Q = T / words;
  unsigned *part = scratch + t * 16;
  const unsigned *fin = scratch + LDC_HOT_FINAL + w * 16;
  unsigned acc[16];
  for (int i = 0; i < 16; i++) acc[i] = 0;
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, w, &ai, &bp, &offset);
  if (nb) {
    unsigned vmask = ldc_valid_mask(nb);
    if (!names) {
      unsigned orig = ldc_load_word(bp, nb);
      LDC_HOT_SLOTS(P, page, q, Q, {
        unsigned m = ldc_bytemask(v ^ orig) & vmask;
        if (!m) continue;
        unsigned unit1 = (unsigned)P->slots[s].unit + 1;
        acc[1] |= m & acc[0];
        acc[0] |= m;
        for (unsigned b = 0; b < 4; b++)
          if ((m >> (8 * b) & 0xffu) && unit1 > acc[2 + b]) {
            acc[2 + b] = unit1;
            acc[6] = (acc[6] & ~(0xffu << (8 * b))) | (v & (0xffu << (8 * b)));
          }
      })
    } else {
      unsigned orig = fin[0], multi = fin[3];
      LDC_HOT_SLOTS(P, page, q, Q, {
        unsigned m = ldc_bytemask(v ^ orig) & multi;
        if (!m) continue;
        unsigned unit1 = (unsigned)P->slots[s].unit + 1;
        for (unsigned b = 0; b < 4; b++)
          if ((m >> (8 * b) & 0xffu) && unit1 > fin[4 + b] && (acc[4 * b] == 0 || unit1 < acc[4 * b])) {
            acc[4 * b] = unit1;
            acc[4 * b + 1] = P->slots[s].tab;
            acc[4 * b + 2] = ldc_byte(v, b);
          }
      })
    }
  }
  for (int i = 0; i < 16; i++) part[i] = acc[i];
}
#endif

// ldc_hot_fold folds partial result b into a (names as ldc_hot_scan).
static __device__ LDC_ENGINE __forceinline__ void ldc_hot_fold(unsigned *a, const unsigned *b, int names) {
  if (!names) {
    a[1] |= b[1] | (a[0] & b[0]);
    a[0] |= b[0];
    for (unsigned k = 0; k < 4; k++)
      if (b[2 + k] > a[2 + k]) {
        a[2 + k] = b[2 + k];
        a[6] = (a[6] & ~(0xffu << (8 * k))) | (b[6] & (0xffu << (8 * k)));
      }
    return;
  }
  for (unsigned k = 0; k < 4; k++)
    if (b[4 * k] && (a[4 * k] == 0 || b[4 * k] < a[4 * k])) a[4 * k] = b[4 * k], a[4 * k + 1] = b[4 * k + 1], a[4 * k + 2] = b[4 * k + 2];
}

// ldc_hot_merge: a warp a word of page folds the partial results of a scan
// by threads threads (its grid; at most LDC_HOT_THREADS).
// names 0: U into the base, S and the word's state kept, the flag set to
// seq where a byte has two writers; names 1: the next writer of each such
// byte named against the last (a record of the pair), the flag set to seq
// where any was found.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_ENGINE void ldc_hot_merge(unsigned page, int names, unsigned seq, unsigned threads, unsigned *scratch) {
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned long long words = P->slot_bytes / 4, T = threads / words * words;
  unsigned long long w = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned lane = threadIdx.x & 31;
  if (w >= words) return; // (whole warps)
  unsigned acc[16], tmp[16];
  for (int i = 0; i < 16; i++) acc[i] = 0;
  for (unsigned long long t = w + words * lane; t < T; t += 32 * words) ldc_hot_fold(acc, scratch + t * 16, names);
  for (int d = 16; d > 0; d /= 2) {
    for (int i = 0; i < 16; i++) tmp[i] = __shfl_xor_sync(0xffffffffu, acc[i], d);
    ldc_hot_fold(acc, tmp, names);
  }
  if (lane != 0) return;
  unsigned *fin = scratch + LDC_HOT_FINAL + w * 16;
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, w, &ai, &bp, &offset);
  if (!names) {
    for (int i = 0; i < 16; i++) fin[i] = 0;
    if (!nb) return;
    unsigned orig = ldc_load_word(bp, nb), uv = (orig & ~acc[0]) | (acc[6] & acc[0]);
    fin[0] = orig, fin[1] = uv, fin[2] = acc[0], fin[3] = acc[1];
    if (acc[0]) ldc_store_word(bp, uv, acc[0]);
    if (acc[1]) scratch[LDC_HOT_FLAG] = seq;
    return;
  }
  // Once the records are full, the rounds would name no one: the flag
  // stays, and the host stops them.
  if (!nb || ldc_records_full(LDC_RACE_WW)) return;
  for (unsigned b = 0; b < 4; b++) {
    if (!acc[4 * b]) continue;
    if (fin[4 + b]) {
      struct ldc_record r = {LDC_RACE_WW, LDC_SPACE_GLOBAL, ai, -1, -1, (int)fin[8 + b], (int)acc[4 * b + 1], -1, -1, (int)fin[4 + b] - 1, (long long)(offset + b),
                             ldc_byte(fin[0], b) | (fin[12 + b] << 8) | (acc[4 * b + 2] << 16)};
      ldc_record_race(r);
    }
    fin[4 + b] = acc[4 * b], fin[8 + b] = acc[4 * b + 1], fin[12 + b] = acc[4 * b + 2];
    scratch[LDC_HOT_FLAG] = seq;
  }
}
#endif

// ldc_hot_apply: rw 0, each copy of page gets its pass-2 state (U with its
// own bytes put back to S, as ldc_ww_word leaves it); rw 1, the read-write
// check of the page: every byte of a copy that differs from U (the base)
// is recorded, as ldc_rw_word records it.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_ENGINE void ldc_hot_apply(unsigned page, int rw, const unsigned *scratch) {
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned long long words = P->slot_bytes / 4, T = (unsigned long long)gridDim.x * blockDim.x / words * words;
  unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  unsigned long long w = t % words, q = t / words, Q = T / words;
  unsigned long long offset;
  int ai;
  unsigned char *bp;
  unsigned nb = ldc_word_at(page, w, &ai, &bp, &offset);
  if (!nb) return;
  unsigned vmask = ldc_valid_mask(nb);
  if (!rw) {
    const unsigned *fin = scratch + LDC_HOT_FINAL + w * 16;
    unsigned orig = fin[0], uv = fin[1];
    LDC_HOT_SLOTS(P, page, q, Q, {
      unsigned own = ldc_bytemask(v ^ orig) & vmask;
      ((unsigned *)(P->data + (unsigned long long)s * P->slot_bytes))[w] = (uv & ~own) | (orig & own);
    })
    return;
  }
  unsigned u = ldc_load_word(bp, nb);
  LDC_HOT_SLOTS(P, page, q, Q, {
    ldc_rw_differ(P, s, ai, offset, u, v, vmask);
  })
}
#endif

// ldc_pages_fingerprint adds, for every private copy of a page, a hash of
// its page id and bytes to fp[its unit]. Run after two repeats of pass 1
// from the same state: a unit whose sums differ does not reproduce its own
// results (warps racing inside a block), so its read-write differences are
// no evidence about other blocks. Only run after read-write differences.
// It visits every slot of the pool (nslots = cap): a slot is taken when
// it is below its shard's count.
#if LDC_PAGE_KERNELS
extern "C" __global__ LDC_CHECK_BOUNDS LDC_ENGINE void ldc_pages_fingerprint(unsigned long long nslots, unsigned long long *fp) {
  if (nslots == 0) return; // (the warm-up's launch)
  const struct ldc_pool *P = &ldc_g.pool;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; s < nslots; s += stride) {
    if (s % P->shard_cap >= *ldc_pool_slot_ctr(P, s / P->shard_cap)) continue;
    unsigned page = P->slots[s].page;
    unsigned long long h = ldc_hash(page + 1ULL);
    for (unsigned long long k = 0; k < P->slot_bytes / 4; k++) {
      int ai;
      unsigned char *bp;
      unsigned long long offset;
      unsigned nb = ldc_word_at(page, k, &ai, &bp, &offset);
      if (nb == 0) break;
      unsigned v = ((const unsigned *)(P->data + s * P->slot_bytes))[k] & ldc_valid_mask(nb);
      h = ldc_hash(h ^ v ^ (k << 32));
    }
    atomicAdd(&fp[P->slots[s].unit], h);
  }
}
#endif

#if defined(LDC_CPU) && LDC_PAGE_KERNELS
extern "C" LDC_ENGINE void ldc_entry_ldc_pages_ww(void **a) { ldc_pages_ww(*(unsigned long long *)a[0], *(unsigned long long *)a[1], *(unsigned long long *)a[2]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_pages_rw(void **a) { ldc_pages_rw(*(unsigned long long *)a[0], *(unsigned long long *)a[1], *(unsigned long long *)a[2]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_slots_ww(void **a) { ldc_slots_ww(*(unsigned long long *)a[0], *(unsigned long long *)a[1]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_slots_rw(void **a) { ldc_slots_rw(*(unsigned long long *)a[0], *(unsigned long long *)a[1]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_pages_index(void **a) { ldc_pages_index(*(unsigned long long *)a[0], *(unsigned long long *)a[1]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_pages_fingerprint(void **a) { ldc_pages_fingerprint(*(unsigned long long *)a[0], *(unsigned long long **)a[1]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_hot_scan(void **a) { ldc_hot_scan(*(unsigned *)a[0], *(int *)a[1], *(unsigned **)a[2]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_hot_merge(void **a) { ldc_hot_merge(*(unsigned *)a[0], *(int *)a[1], *(unsigned *)a[2], *(unsigned *)a[3], *(unsigned **)a[4]); }
extern "C" LDC_ENGINE void ldc_entry_ldc_hot_apply(void **a) { ldc_hot_apply(*(unsigned *)a[0], *(int *)a[1], *(const unsigned **)a[2]); }
#endif

// ---- Access tracing (explaining a race), compiled in with -DLDC_TRACE ----
//
// The instrumenter wraps every access to a target as LDC_TR(&(E), SITE, W):
// SITE indexes the manifest's table of source places (file:line:col of the
// access expression), W says the access stores. Without LDC_TR it is the
// plain pointer, so the checked modules are unchanged; the tracing module
// is a separate build of the same source, run (in plain mode) only after a
// race was found. Its hooks log the accesses that touch the watched bytes
// of one target: which site, block, thread, the barriers the thread had
// passed, the bytes before the access and, for stores, after it (filled in
// at the thread's next hook, barrier or exit, when its store is done).
struct ldc_tev {
  int site, block, thread, epoch, from, size, posted, write;
  unsigned long long off, pre, post;
};

struct ldc_trace_ctx {
  unsigned long long gbase;      // the watched global target's base (shared: 0)
  unsigned long long lo, hi;     // watched bytes, offsets in the target
  int starget;                   // the watched shared target's slot, -1 for a global one
  int block;                     // only this block's accesses (-1: all)
  int max_events, pad;
  struct ldc_tev *ev;
  int *nev;
  unsigned long long *sbase;     // per thread: its block's copy of the watched shared target
  int *epoch, *from;             // per thread: barriers passed, and the last one's ID (-1 entry)
  unsigned long long *pend;      // per thread: 1 + the event of a store whose value is not yet logged
  unsigned long long *pend_addr; // per thread: that store's address
};

#ifdef LDC_TRACE
#ifdef LDC_CPU
extern "C" {
struct ldc_trace_ctx ldc_tr_g;
}
#else
extern "C" __device__ struct ldc_trace_ctx ldc_tr_g;
__device__ struct ldc_trace_ctx ldc_tr_g;
#endif

static __device__ LDC_ENGINE __forceinline__ unsigned long long ldc_tr_gtid() {
  return (unsigned long long)ldc_block_linear() * ldc_block_threads() + ldc_thread_linear();
}

// ldc_tr_bytes reads up to 8 bytes at p, little-endian.
static __device__ LDC_ENGINE unsigned long long ldc_tr_bytes(unsigned long long p, int n) {
  unsigned long long v = 0;
  for (int i = (n < 8 ? n : 8) - 1; i >= 0; i--) v = v << 8 | *(const volatile unsigned char *)(p + i);
  return v;
}

// ldc_tr_flush logs the value of the calling thread's last traced store.
static __device__ LDC_ENGINE void ldc_tr_flush(unsigned long long g) {
  unsigned long long e = ldc_tr_g.pend[g];
  if (e == 0) return;
  ldc_tr_g.pend[g] = 0;
  struct ldc_tev *ev = &ldc_tr_g.ev[e - 1];
  ev->post = ldc_tr_bytes(ldc_tr_g.pend_addr[g], ev->size);
  ev->posted = 1;
}

static __device__ LDC_ENGINE void ldc_tr_access(const void *p, unsigned long n, int site, int write) {
  if (ldc_tr_g.ev == 0) return;
  unsigned long long g = ldc_tr_gtid();
  ldc_tr_flush(g);
  if (ldc_tr_g.block >= 0 && (int)ldc_block_linear() != ldc_tr_g.block) return;
  unsigned long long base = ldc_tr_g.gbase;
  if (ldc_tr_g.starget >= 0) base = ldc_tr_g.sbase[g];
  if (base == 0) return;
  unsigned long long a = (unsigned long long)p;
  if (a + n <= base + ldc_tr_g.lo || a >= base + ldc_tr_g.hi) return;
  int i = atomicAdd(ldc_tr_g.nev, 1);
  if (i >= ldc_tr_g.max_events) return;
  struct ldc_tev *ev = &ldc_tr_g.ev[i];
  ev->site = site;
  ev->block = (int)ldc_block_linear();
  ev->thread = (int)ldc_thread_linear();
  ev->epoch = ldc_tr_g.epoch[g];
  ev->from = ldc_tr_g.from[g];
  ev->size = (int)n;
  ev->write = write;
  ev->off = a - base;
  ev->pre = ldc_tr_bytes(a, (int)n);
  ev->posted = 0;
  ev->post = 0;
  if (write) {
    ldc_tr_g.pend[g] = (unsigned long long)i + 1;
    ldc_tr_g.pend_addr[g] = a;
  }
}

template <class T> static __device__ LDC_ENGINE __forceinline__ T *ldc_tr(T *p, int site, int write) {
  ldc_tr_access((const void *)p, sizeof(T), site, write);
  return p;
}

// A shared target's copy for this thread (the original, in plain mode).
static __device__ LDC_ENGINE __forceinline__ void ldc_tr_shared(int i, const void *p) {
  if (ldc_tr_g.ev != 0 && i == ldc_tr_g.starget) ldc_tr_g.sbase[ldc_tr_gtid()] = (unsigned long long)p;
}

// At every barrier (id) and at the exit (-1): the region changes.
static __device__ LDC_ENGINE __forceinline__ void ldc_tr_bar(int id) {
  if (ldc_tr_g.ev == 0) return;
  unsigned long long g = ldc_tr_gtid();
  ldc_tr_flush(g);
  ldc_tr_g.epoch[g]++;
  ldc_tr_g.from[g] = id;
}
// memcpy, memset and memmove calls are statements of their own: the
// instrumenter names their callee LDC_MEM_AT(SITE, ldc_memcpy), whose
// traced version logs the watched bytes the call reads (site SITE+1) and
// writes (site SITE) as one access each, starting where the watch starts,
// so that they pair with the element accesses of other statements.
static __device__ LDC_ENGINE void ldc_tr_mem(const void *p, unsigned long n, int site, int write) {
  if (ldc_tr_g.ev == 0) return;
  unsigned long long base = ldc_tr_g.gbase;
  if (ldc_tr_g.starget >= 0) base = ldc_tr_g.sbase[ldc_tr_gtid()];
  unsigned long long a = (unsigned long long)p, e = a + n;
  if (base == 0 || e <= base + ldc_tr_g.lo || a >= base + ldc_tr_g.hi) return;
  if (a < base + ldc_tr_g.lo) a = base + ldc_tr_g.lo;
  if (e > base + ldc_tr_g.hi) e = base + ldc_tr_g.hi;
  ldc_tr_access((const void *)a, (unsigned long)(e - a), site, write);
}
template <int S> static __device__ LDC_ENGINE void *ldc_tr_ldc_memcpy(void *d, const void *s, unsigned long n) {
  ldc_tr_mem(s, n, S + 1, 0); // the read first: logging the write leaves it pending until the next hook
  ldc_tr_mem(d, n, S, 1);
  return ldc_memcpy(d, s, n);
}
template <int S> static __device__ LDC_ENGINE void *ldc_tr_ldc_memmove(void *d, const void *s, unsigned long n) {
  ldc_tr_mem(s, n, S + 1, 0);
  ldc_tr_mem(d, n, S, 1);
  return ldc_memmove(d, s, n);
}
template <int S> static __device__ LDC_ENGINE void *ldc_tr_ldc_memset(void *d, int c, unsigned long n) {
  ldc_tr_mem(d, n, S, 1);
  return ldc_memset(d, c, n);
}
#define LDC_TR(p, site, w) ldc_tr((p), (site), (w))
#define LDC_TR_ONLY(p, site, w) ldc_tr((p), (site), (w))
#define LDC_MEM_AT(site, fn) ldc_tr_##fn<site>
#define LDC_TR_SHARED(i, p) ldc_tr_shared((i), (const void *)(p))
#define LDC_TR_BAR(id) ldc_tr_bar(id)
#ifdef LDC_CPU
extern "C" unsigned long ldc_trace_ctx_size(void) { return sizeof(struct ldc_trace_ctx); }
#endif
#else
// The checked modules: only the intra-warp check looks at the accesses
// (not at the bytes of memcpy/memset calls, which it does not see).
#if LDC_IW_BUILT
#define LDC_TR(p, site, w) ldc_iw_ptr((p), (site), (w))
#else
#define LDC_TR(p, site, w) (p)
#endif
#define LDC_TR_ONLY(p, site, w) (p)
#define LDC_MEM_AT(site, fn) fn
#define LDC_TR_SHARED(i, p) ((void)0)
#define LDC_TR_BAR(id) ((void)0)
#endif

// ---- Warp synchronisations end an interval of the intra-warp check ----
//
// The user's __syncwarp and *_sync warp intrinsics (shuffles, votes,
// matches, reductions) become calls that make the synchronisation and
// then advance the interval of the lanes of its mask (ldc_iw_sync). Macros,
// so that calls in device functions are caught as well; defined last, so
// that nothing above (and nothing of the backends' headers) is rewritten.
//
// With nvcc, the toolkit's headers that declare overloads of these names
// (half and bfloat16 shuffles, cooperative groups) are included first:
// a declaration read after the macros would be rewritten too.
#if defined(__NVCC__) && defined(__has_include)
#if __has_include(<cuda_fp16.h>)
#include <cuda_fp16.h>
#endif
#if __has_include(<cuda_bf16.h>)
#include <cuda_bf16.h>
#endif
#if __has_include(<cooperative_groups.h>)
#include <cooperative_groups.h>
#endif
#endif
#if LDC_IW_BUILT // elsewhere the user's warp intrinsics are left as written
static __device__ LDC_ENGINE __forceinline__ void ldc_iw_syncwarp(unsigned mask = 0xffffffffu) {
  __syncwarp(mask);
  ldc_iw_sync(mask);
}
template <class T> static __device__ LDC_ENGINE __forceinline__ T ldc_iw_after(unsigned mask, T v) {
  ldc_iw_sync(mask);
  return v;
}
#define __syncwarp(...) ldc_iw_syncwarp(__VA_ARGS__)
#define __shfl_sync(m, ...) ldc_iw_after((m), __shfl_sync((m), __VA_ARGS__))
#define __shfl_up_sync(m, ...) ldc_iw_after((m), __shfl_up_sync((m), __VA_ARGS__))
#define __shfl_down_sync(m, ...) ldc_iw_after((m), __shfl_down_sync((m), __VA_ARGS__))
#define __shfl_xor_sync(m, ...) ldc_iw_after((m), __shfl_xor_sync((m), __VA_ARGS__))
#define __ballot_sync(m, ...) ldc_iw_after((m), __ballot_sync((m), __VA_ARGS__))
#define __any_sync(m, ...) ldc_iw_after((m), __any_sync((m), __VA_ARGS__))
#define __all_sync(m, ...) ldc_iw_after((m), __all_sync((m), __VA_ARGS__))
#define __match_any_sync(m, ...) ldc_iw_after((m), __match_any_sync((m), __VA_ARGS__))
#define __match_all_sync(m, ...) ldc_iw_after((m), __match_all_sync((m), __VA_ARGS__))
#define __reduce_add_sync(m, ...) ldc_iw_after((m), __reduce_add_sync((m), __VA_ARGS__))
#define __reduce_min_sync(m, ...) ldc_iw_after((m), __reduce_min_sync((m), __VA_ARGS__))
#define __reduce_max_sync(m, ...) ldc_iw_after((m), __reduce_max_sync((m), __VA_ARGS__))
#define __reduce_and_sync(m, ...) ldc_iw_after((m), __reduce_and_sync((m), __VA_ARGS__))
#define __reduce_or_sync(m, ...) ldc_iw_after((m), __reduce_or_sync((m), __VA_ARGS__))
#define __reduce_xor_sync(m, ...) ldc_iw_after((m), __reduce_xor_sync((m), __VA_ARGS__))
#endif
