// Package gpuruntime runs instrumented kernels and checks them: the Backend
// interface (CUDA and CPU implementations), device memory, launches, the
// two-pass checking protocol, the device-side checking code (CUDA C,
// embedded), the race model (Race, Access) and the traced rerun that
// names a race's two statements (ExplainRaces); package report writes it.
// What the build proved decides what runs (static.go): a launch whose
// targets the manifest proves race-free for its sizes and arguments runs
// once, as written; one whose targets are all free of races inside a
// block skips the warp level; one whose global targets no two blocks
// share (over the grid, or apart between blocks) skips the block level;
// shared targets free of races inside a block run uncopied at the warp
// level where every region runs once. Where only the launch's failed
// tests keep a level running, a note names them; where only the stride
// tests a proof rests on are left to check, the GPU runs the user's
// kernels with those tests alone (the tested native module). Level 2's
// copies of global pages (a segment per block) live in the block's shared
// memory when they fit (level2.go), else in device memory (pages.go); a
// level 2 of one pass a region copies no pages: its warps store in place
// and the segment holds a table of which warp stored to each byte
// (ldc_own), two warps on one byte making it run again with copies; its
// shared targets are stored in place too, with an owner word per word
// (ownShared, ldc_own_shared). Level 1's check kernels take a thread a
// 16-byte chunk (level1.go): the read-write check, and the write-write
// check of a pool of one copy a page, in the order the slots lie
// (ldc_slots_*, no chain walked); the write-write check of pages of
// several copies walks each page's chain of copies (ldc_pages_*), and a
// page whose chain holds a good share of all the copies (a flag every
// block sets) is left to the hot kernels, which check it with the whole
// grid (hot.go). Instrumented modules run with a register
// cap chosen by block size (registers.go: 128, or 64 for blocks of 288 to
// 512 threads, and 40 or 64 for the one-pass module's small blocks); the
// build compiles the modules a run loads first to SASS with ptxas at those
// caps, and a run loads that instead of the driver's JIT when its GPU and
// cap match (sass.go, CUDABackend.readSASS). Where it cannot, the run says so
// before the wait (OpenCUDAProgress) and after it (CUDABackend.JITNote).
//
// It reads only the manifest and the compiled module of a build directory;
// it must not import passes or privatize.
package gpuruntime
