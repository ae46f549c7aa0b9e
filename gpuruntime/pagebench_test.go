package gpuruntime

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ldcheck/gpuruntime/cuda"
)

// cudaRuntime compiles the device runtime alone with nvcc for the GPU
// present and opens it on the CUDA backend; it skips where there is no
// nvcc or no GPU (CI, laptops). The calling goroutine keeps its OS
// thread, which holds the backend's context.
func cudaRuntime(t testing.TB) (*CUDABackend, DevPtr) {
	t.Helper()
	nvcc, err := exec.LookPath("nvcc")
	if err != nil {
		t.Skip("no nvcc on PATH: the check kernels are compiled for the GPU by nvcc")
	}
	arch := detectArch()
	if arch == "" {
		t.Skip("nvidia-smi names no GPU")
	}
	dir, src := runtimeSource(t, "")
	ptx := filepath.Join(dir, "rt.ptx")
	// The flags of the build's modules (gpuruntime/build.go).
	// LDCHECK_BENCH_NVCC adds flags, for the kernels' variants measured
	// against each other on one machine: "-DLDC_CHECK_MIN_BLOCKS=0
	// -DLDC_CHECK_EXACT=__noinline__".
	args := []string{"-ptx", "-arch=" + arch, "-std=c++17", "-lineinfo", "--fmad=false", "-I" + dir, "-o", ptx, src}
	args = append(args, strings.Fields(os.Getenv("LDCHECK_BENCH_NVCC"))...)
	out, err := exec.Command(nvcc, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("nvcc: %v\n%s", err, out)
	}
	b, err := OpenCUDA(ptx, nil)
	if cuda.IsNoDriver(err) {
		t.Skipf("no GPU: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, runtimeContext(t, b)
}

// pageBenchCase is a pool as level 1 leaves it after a pass: pages of
// pageBytes, npages of them written, each by copies units.
type pageBenchCase struct {
	name      string
	pageBytes int
	npages    int
	copies    int
	// racy: every copy writes every byte of its pages (a write-write race
	// on each); otherwise the copies write disjoint 4-byte words.
	racy bool
	// spread: each page has 1 to copies copies, drawn at random (chains
	// of uneven length, as real pools have), on disjoint words.
	spread bool
}

// Level 1's pages are about 128 bytes (pageTarget): a warp's coalesced
// 4-byte stores fill one.
var pageBenchCases = []pageBenchCase{
	{name: "128B-1copy", pageBytes: 128, npages: 1 << 22, copies: 1},                      // 512 MiB, one block a page (a grid-stride kernel)
	{name: "128B-2copies", pageBytes: 128, npages: 1 << 21, copies: 2},                    // 256 MiB, two blocks a page on other words
	{name: "120B-1copy", pageBytes: 120, npages: 1 << 22, copies: 1},                      // 480 MiB of 12-byte elements: every other page 8-byte aligned
	{name: "128B-2copies-racy", pageBytes: 128, npages: 1 << 19, copies: 2, racy: true},   // 64 MiB, every byte written twice
	{name: "128B-1to6copies", pageBytes: 128, npages: 1 << 20, copies: 6, spread: true},   // 128 MiB of pages, 448 MiB of copies in chains of 1-6
	{name: "128B-1to19copies", pageBytes: 128, npages: 1 << 19, copies: 19, spread: true}, // 64 MiB of pages, 640 MiB of copies in chains of 1-19 (ld_bfs: ten a page)
	{name: "128B-hot-racy", pageBytes: 128, npages: 1, copies: 1 << 13, racy: true},       // one page every block writes
}

// pageBench is one case on the device: pristine S and pass-1 copies, the
// union U and the copies as a race-free pass 2 leaves them (each = U),
// and the working buffers the kernels change.
type pageBench struct {
	c                             pageBenchCase
	slotBytes                     int64
	base, s, u                    DevPtr // the target, its S, its U
	data, p1, p2                  DevPtr // the slots' data, pass-1 copies, pass-2 copies
	slots, heads, pages, counters DevPtr
	hot, hotScratch               DevPtr // the hot kernels' list and scratch (hot.go)
	order, pageAt                 DevPtr // the pages' copies listed (ldc_pages_index)
	hotCap                        int64
	hotSeq                        uint32
	targetBytes, dataBytes        int64
	wantU                         []byte
}

func newPageBench(tb testing.TB, b Backend, c pageBenchCase) *pageBench {
	rng := rand.New(rand.NewPCG(1, uint64(c.npages)))
	size := c.pageBytes * c.npages
	s := make([]byte, size)
	fill(rng, s)
	ps := &pageSetup{pageBytes: c.pageBytes, slotBytes: (c.pageBytes + 15) / 16 * 16, heads: make([]int32, c.npages)}
	u := bytes.Clone(s)
	page := make([]byte, c.pageBytes)
	for pg := 0; pg < c.npages; pg++ {
		ps.heads[pg] = -1
		ps.pages = append(ps.pages, uint32(pg))
		lo := pg * c.pageBytes
		copies := c.copies
		if c.spread {
			copies = 1 + rng.IntN(c.copies)
		}
		for unit := 0; unit < copies; unit++ {
			copy(page, s[lo:lo+c.pageBytes])
			for i := range page {
				if c.racy || (i/4)%copies == unit {
					page[i] ^= byte(1 + unit%255)
				}
			}
			for i, v := range page {
				if v != s[lo+i] { // the highest unit's byte, as U takes it
					u[lo+i] = v
				}
			}
			ps.addSlot(pg, unit, page)
		}
	}
	// (Each chain lists its page's copies newest first, as the device's
	// pushes do; the kernels take them in any order.)
	pb := &pageBench{c: c, slotBytes: int64(ps.slotBytes), targetBytes: int64(size), dataBytes: int64(len(ps.data)), wantU: u}
	pb.data, pb.slots, pb.heads = ps.upload(tb, b, c.npages)
	pb.pages, pb.counters = ps.listPages(tb, b, c.npages, maxShards)
	pb.hotCap = hotRoom(int64(len(ps.slots)), hotChain)
	pb.hot, pb.hotScratch = devBytes(tb, b, make([]byte, 4*pb.hotCap)), devBytes(tb, b, make([]byte, 4*hotScratchWords))
	pb.order, pb.pageAt = devBytes(tb, b, make([]byte, 4*len(ps.slots))), devBytes(tb, b, make([]byte, 8*c.npages))
	pb.p1 = devBytes(tb, b, ps.data)
	for i := range ps.slots {
		lo := int(ps.slots[i].Page) * c.pageBytes
		copy(ps.data[i*ps.slotBytes:], u[lo:lo+c.pageBytes])
	}
	pb.p2 = devBytes(tb, b, ps.data)
	pb.base, pb.s, pb.u = devBytes(tb, b, s), devBytes(tb, b, s), devBytes(tb, b, u)
	return pb
}

func (pb *pageBench) free(b Backend) {
	for _, p := range []DevPtr{pb.base, pb.s, pb.u, pb.data, pb.p1, pb.p2, pb.slots, pb.heads, pb.pages, pb.counters, pb.hot, pb.hotScratch, pb.order, pb.pageAt} {
		b.Free(p)
	}
}

func fill(rng *rand.Rand, p []byte) {
	for i := 0; i+8 <= len(p); i += 8 {
		binary.LittleEndian.PutUint64(p[i:], rng.Uint64())
	}
}

// ctx points the runtime's context at the case (records: room for a few
// races, as a run has); listed: with the pages' copies listed in an array
// (ldc_pages_index before each check kernel, as pageCheck does), or their
// chains.
func (pb *pageBench) ctx(tb testing.TB, b Backend, ctxAddr, records, nrec DevPtr, listed bool) {
	ps := &pageSetup{slotBytes: int(pb.slotBytes)}
	al := &alloc{base: pb.base, size: pb.targetBytes, pageBytes: int64(pb.c.pageBytes), pages: int64(pb.c.npages)}
	ctx := Ctx{Records: uint64(records), NRecords: uint64(nrec), MaxRecords: 1 << 10, NAllocs: 1, Mode: ModeBlock}
	ctx.Allocs[0] = al.ctx()
	ctx.Pool = ps.pool(pb.data, pb.slots, pb.heads, pb.pages, pb.counters, pb.c.npages, maxShards)
	ctx.Pool.ShardCap = uint64(pb.c.npages * pb.c.copies)
	ctx.Pool.Hot, ctx.Pool.HotCap = uint64(pb.hot), uint64(pb.hotCap)
	if listed {
		ctx.Pool.Order, ctx.Pool.PageAt = uint64(pb.order), uint64(pb.pageAt)
	}
	if err := b.Write(ctxAddr, ctx.Bytes()); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkPageChecks times level 1's check kernels on the GPU (skipped
// elsewhere) over pools of real sizes, against a device-to-device copy
// measured in the same run:
//
//	go test -c -o gpuruntime.test ./gpuruntime   # here, CGO_ENABLED=0
//	./gpuruntime.test -test.run '^$' -test.bench PageChecks -test.benchtime 10x   # on the GPU machine
//
// GB/s counts what a run's phase counts (pageCheck): S (or U) read once,
// each copy read, and for write-write U and each copy written. %copy is
// that against the copy's read-plus-write rate. The first write-write
// launch of each case must leave U as the host computed it.
func BenchmarkPageChecks(b *testing.B) {
	be, ctxAddr := cudaRuntime(b)
	const copyBytes = 512 << 20
	src, dst := devBytes(b, be, make([]byte, copyBytes)), devBytes(b, be, make([]byte, copyBytes))
	be.Copy(dst, src, copyBytes) // warm
	done := be.Timer()
	for i := 0; i < 10; i++ {
		if err := be.Copy(dst, src, copyBytes); err != nil {
			b.Fatal(err)
		}
	}
	sec, err := done()
	if err != nil {
		b.Fatal(err)
	}
	copyGBps := 10 * 2 * copyBytes / sec / 1e9
	be.Free(src)
	be.Free(dst)
	b.Logf("copy (device to device, read plus write): %.1f GB/s on %s", copyGBps, be.Device)
	records, nrec := devBytes(b, be, make([]byte, (1<<10)*RecordSize)), devBytes(b, be, make([]byte, nrecBytes))
	// What decides the kernels' occupancy.
	for _, k := range []string{"ldc_pages_ww", "ldc_pages_rw", "ldc_slots_ww", "ldc_slots_rw"} {
		f, err := be.prog.Function(k)
		if err != nil {
			b.Fatal(err)
		}
		regs, err1 := be.d.FuncGetAttribute(cuda.FuncAttrNumRegs, f)
		local, err2 := be.d.FuncGetAttribute(cuda.FuncAttrLocalSizeBytes, f)
		resident, err3 := be.d.OccupancyMaxActiveBlocksPerMultiprocessor(f, 256, 0)
		if err1 != nil || err2 != nil || err3 != nil {
			b.Fatal(err1, err2, err3)
		}
		b.Logf("%s: %d registers, %d bytes of local memory a thread, %d blocks of 256 an SM", k, regs, local, resident)
	}

	for _, c := range pageBenchCases {
		var pb *pageBench
		for _, kernel := range []string{"ldc_pages_ww", "ldc_pages_rw", "ldc_pages_ww+index", "ldc_pages_rw+index", "ldc_pages_ww+final", "ldc_pages_ww+index+final", "ldc_slots_ww", "ldc_slots_rw", "ldc_slots_ww+final"} {
			name := strings.TrimPrefix(kernel, "ldc_pages_")
			if strings.HasPrefix(kernel, "ldc_slots_") {
				name = "slots-" + kernel[len("ldc_slots_"):]
			}
			b.Run(c.name+"/"+name, func(b *testing.B) {
				benchPageKernel(b, be, ctxAddr, records, nrec, &pb, c, kernel, copyGBps)
			})
		}
		if pb != nil {
			pb.free(be)
		}
	}
}

// benchPageKernel times b.N launches of kernel over the case (built on
// first use into *pb, shared by the kernels), each from the pool's state
// before it: pass 1's copies for write-write, pass 2's for read-write.
func benchPageKernel(b *testing.B, be *CUDABackend, ctxAddr, records, nrec DevPtr, pbp **pageBench, c pageBenchCase, kernel string, copyGBps float64) {
	// Sub-benchmarks run on goroutines of their own: the context goes
	// with the thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := be.d.CtxSetCurrent(be.ctx); err != nil {
		b.Fatal(err)
	}
	if *pbp == nil {
		*pbp = newPageBench(b, be, c)
	}
	pb := *pbp
	kernel, final := strings.CutSuffix(kernel, "+final")
	kernel, listed := strings.CutSuffix(kernel, "+index")
	nslots := pb.dataBytes / pb.slotBytes
	slotOrder := strings.HasPrefix(kernel, "ldc_slots_")
	if kernel == "ldc_slots_ww" && nslots != int64(pb.c.npages) {
		b.Skip("ldc_slots_ww checks pools of one copy a page")
	}
	pb.ctx(b, be, ctxAddr, records, nrec, listed)
	ww := strings.HasPrefix(kernel, "ldc_pages_ww") || kernel == "ldc_slots_ww"
	moved := pb.targetBytes + pb.dataBytes
	if ww {
		moved += pb.targetBytes
		if !final {
			moved += pb.dataBytes
		}
	}
	var total float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		from, base := pb.p2, pb.u
		if ww {
			from, base = pb.p1, pb.s
		}
		if err := be.Copy(pb.data, from, pb.dataBytes); err != nil {
			b.Fatal(err)
		}
		if err := be.Copy(pb.base, base, pb.targetBytes); err != nil {
			b.Fatal(err)
		}
		if err := be.Memset(nrec, 0, nrecBytes); err != nil {
			b.Fatal(err)
		}
		// As pageCheck: the kernel, then (its phase apart, after the read
		// of the records and the hot pages' count) the hot kernels.
		b.StartTimer()
		done := be.Timer()
		limit := hotLimit(int64(pb.c.npages * pb.c.copies))
		if listed {
			if err := indexPages(be, pb.counters, int64(pb.c.npages), limit); err != nil {
				b.Fatal(err)
			}
		}
		var err error
		if slotOrder {
			err = be.Launch(kernel, pageGrid(nslots, pb.slotBytes), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(nslots)), u64(checkFlags(false, final))})
		} else {
			err = be.Launch(kernel, pageGrid(int64(pb.c.npages), pb.slotBytes), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(pb.c.npages)), u64(uint64(limit)), u64(checkFlags(listed, final))})
		}
		if err != nil {
			b.Fatal(err)
		}
		sec, err := done()
		if err != nil {
			b.Fatal(err)
		}
		total += sec
		_, listed, _, err := readRecordBuffer(be, records, nrec, 1<<10)
		if err != nil {
			b.Fatal(err)
		}
		n := listed[1]
		if ww {
			n = listed[0]
		}
		if n > 0 {
			done := be.Timer()
			hp := hotPool{hot: pb.hot, hotCap: pb.hotCap, slotBytes: pb.slotBytes, threads: hotThreads, scratch: func() (DevPtr, error) { return pb.hotScratch, nil }}
			if _, err := checkHot(be, hp, !ww, &pb.hotSeq, n); err != nil {
				b.Fatal(err)
			}
			sec, err := done()
			if err != nil {
				b.Fatal(err)
			}
			total += sec
		}
		if i == 0 && ww {
			b.StopTimer()
			if got := readDev(b, be, pb.base, int(pb.targetBytes)); !bytes.Equal(got, pb.wantU) {
				b.Fatalf("%s: U differs from the host's", kernel)
			}
			b.StartTimer()
		}
	}
	gbps := float64(moved) * float64(b.N) / total / 1e9
	b.ReportMetric(total/float64(b.N)*1e3, "ms/kernel")
	b.ReportMetric(gbps, "GB/s")
	b.ReportMetric(100*gbps/copyGBps, "%copy")
}
