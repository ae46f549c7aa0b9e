package privatize_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"ldcheck/gpuruntime"
	"ldcheck/gpuruntime/cpu"
	"ldcheck/passes"
	"ldcheck/passes/clang"
	"ldcheck/privatize"
	"ldcheck/privatize/manifest"
)

// buildCPU instruments file and compiles it for the CPU backend.
func buildCPU(t *testing.T, file string) (*manifest.Manifest, *cpu.Module) {
	m, mod, _ := buildCPUDir(t, file)
	return m, mod
}

// buildCPUDir is buildCPU that also returns the build directory.
func buildCPUDir(t *testing.T, file string) (*manifest.Manifest, *cpu.Module, string) {
	t.Helper()
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	u, _, err := passes.Parse(lib, file, passes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(file)
	res, err := privatize.Instrument(u, passes.Analyze(u), abs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rt, cpuInc := filepath.Join(dir, "rt"), filepath.Join(dir, "cpu")
	os.MkdirAll(cpuInc, 0o755)
	if err := gpuruntime.WriteRuntimeInclude(rt); err != nil {
		t.Fatal(err)
	}
	passes.WriteInclude(cpuInc, "cooperative_groups.h")
	m := res.Manifest
	if err := os.WriteFile(filepath.Join(dir, m.Output), []byte(res.Source), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gpuruntime.Compile(context.Background(), dir, m, gpuruntime.BuildOptions{RuntimeInclude: rt, CPUInclude: cpuInc, SkipDevice: true}); err != nil {
		t.Fatal(err)
	}
	mod, err := cpu.Open(filepath.Join(dir, m.CPU))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mod.Close() })
	return m, mod, dir
}

// arg is a kernel argument: a buffer (n elements of 4 bytes, random or
// zero) or a 4-byte scalar.
type arg struct {
	n      int
	random bool
	ints   bool // random integers in [0, 1000) rather than floats in [1, 2)
	scalar int32
}

type launch struct {
	grid, block [3]uint32
}

// runMode launches the kernel in one mode on fresh copies of the inputs
// and returns the buffers afterwards, the race records and the trace.
func runMode(t *testing.T, m *manifest.Manifest, mod *cpu.Module, k *manifest.Kernel, l launch, args []arg, seed int64, mode int32) ([][]byte, []gpuruntime.Record, []gpuruntime.TraceEntry) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	var bufs []cpu.Buffer
	var argBytes [][]byte
	for _, a := range args {
		if a.n == 0 {
			b := make([]byte, 4)
			binary.LittleEndian.PutUint32(b, uint32(a.scalar))
			argBytes = append(argBytes, b)
			continue
		}
		buf, err := cpu.Alloc(a.n * 4)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { buf.Free() })
		if a.random {
			for i := 0; i < a.n; i++ {
				v := math.Float32bits(1 + rng.Float32())
				if a.ints {
					v = uint32(rng.Intn(1000))
				}
				binary.LittleEndian.PutUint32(buf.Bytes()[4*i:], v)
			}
		}
		bufs = append(bufs, buf)
		p := make([]byte, 8)
		binary.LittleEndian.PutUint64(p, uint64(buf.Ptr()))
		argBytes = append(argBytes, p)
	}
	blocks := int(l.grid[0] * l.grid[1] * l.grid[2])
	threads := int(l.block[0] * l.block[1] * l.block[2])
	warps := (threads + 31) / 32
	ctx := gpuruntime.Ctx{Mode: mode}
	var perBlock uint64
	for _, tg := range k.Targets {
		if tg.Space != "shared" {
			continue
		}
		ctx.SharedOff[ctx.NShared] = perBlock
		ctx.SharedBytes[ctx.NShared] = uint64(tg.Bytes)
		perBlock += gpuruntime.SharedCopyBytes(uint64(tg.Bytes), warps)
		ctx.NShared++
	}
	if k.SharedTracked {
		ctx.SharedTracked = 1
	}
	alloc := func(n int) cpu.Buffer {
		b, err := cpu.Alloc(n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Free() })
		return b
	}
	scratch := alloc(int(perBlock)*blocks + 16)
	ctx.SharedScratch, ctx.SharedPerBlock = uint64(scratch.Ptr()), perBlock
	const maxRecords, maxTrace = 4096, 1 << 18
	records, nrec := alloc(maxRecords*gpuruntime.RecordSize), alloc(8)
	trace, ntrace := alloc(maxTrace*gpuruntime.TraceEntrySize), alloc(8)
	alog, overflow := alloc(blocks*threads*gpuruntime.FirstAtomicSlots*8), alloc(8)
	ctx.Records, ctx.NRecords, ctx.MaxRecords = uint64(records.Ptr()), uint64(nrec.Ptr()), maxRecords
	ctx.Trace, ctx.NTrace, ctx.MaxTrace = uint64(trace.Ptr()), uint64(ntrace.Ptr()), maxTrace
	ctx.AtomicMode, ctx.AtomicLog, ctx.AtomicOverflow, ctx.AtomicSlots = 1, uint64(alog.Ptr()), uint64(overflow.Ptr()), gpuruntime.FirstAtomicSlots
	g, err := mod.SymbolBytes("ldc_g")
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != gpuruntime.CtxSize {
		t.Fatalf("ldc_g is %d bytes in the module, the host's layout is %d", len(g), gpuruntime.CtxSize)
	}
	copy(g, ctx.Bytes())
	if err := mod.Launch(k.Name, l.grid, l.block, 0, argBytes, 2); err != nil {
		t.Fatalf("launch in mode %d: %v", mode, err)
	}
	var outs [][]byte
	for _, b := range bufs {
		outs = append(outs, bytes.Clone(b.Bytes()))
	}
	nt := int(binary.LittleEndian.Uint32(ntrace.Bytes()))
	if nt > maxTrace {
		t.Fatalf("trace overflow: %d entries", nt)
	}
	if binary.LittleEndian.Uint32(overflow.Bytes()) != 0 {
		t.Fatal("atomic log overflow")
	}
	return outs, gpuruntime.DecodeRecordBuffer(nrec.Bytes(), records.Bytes(), maxRecords), gpuruntime.DecodeTrace(trace.Bytes(), nt)
}

// TestReplay runs instrumented race-free kernels on the CPU backend in
// plain mode and in replay mode (every region twice, checked at its end):
// the outputs must be identical, every thread must end every region twice
// with the same locals, and no race may be recorded.
func TestReplay(t *testing.T) {
	tests := []struct {
		file, kernel string
		l            launch
		args         []arg
		onePass      bool // some region needs no second pass
	}{
		{"../testdata/acceptance/hs_scan_ok.cu", "scan", launch{[3]uint32{2, 1, 1}, [3]uint32{256, 1, 1}}, []arg{{n: 512, random: true}}, false},
		{"../testdata/acceptance/loop_break_ok.cu", "k", launch{[3]uint32{2, 1, 1}, [3]uint32{64, 1, 1}}, []arg{{n: 128, random: true, ints: true}, {n: 128}}, false},
		{"../testdata/acceptance/matmul_ok.cu", "mm", launch{[3]uint32{4, 4, 1}, [3]uint32{16, 16, 1}}, []arg{{n: 4096, random: true}, {n: 4096, random: true}, {n: 4096}, {scalar: 64}}, true},
		{"../testdata/acceptance/transpose_ok.cu", "tr", launch{[3]uint32{2, 2, 1}, [3]uint32{32, 8, 1}}, []arg{{n: 4096, random: true}, {n: 4096}, {scalar: 64}}, true},
		{"../testdata/kernels/control_flow.cu", "flow", launch{[3]uint32{6, 1, 1}, [3]uint32{128, 1, 1}}, []arg{{n: 768, random: true, ints: true}, {scalar: 5}}, false},
		{"../testdata/kernels/atomic_count.cu", "count", launch{[3]uint32{3, 1, 1}, [3]uint32{64, 1, 1}}, []arg{{n: 1}, {n: 192}, {n: 192}}, false},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			m, mod := buildCPU(t, tc.file)
			k, ok := m.Kernel(tc.kernel)
			if !ok || !k.Instrumented {
				t.Fatalf("kernel %s not instrumented: %+v", tc.kernel, k)
			}
			plain, _, _ := runMode(t, m, mod, k, tc.l, tc.args, 1, gpuruntime.ModePlain)
			replay, records, trace := runMode(t, m, mod, k, tc.l, tc.args, 1, gpuruntime.ModeReplay)
			for i := range plain {
				if tc.kernel == "count" && i == 1 {
					continue // tickets depend on the order atomics ran in: checked below
				}
				if !bytes.Equal(plain[i], replay[i]) {
					t.Errorf("buffer %d differs between the plain and the replayed run", i)
				}
			}
			if len(records) > 0 {
				t.Errorf("race-free kernel: %d race records, first %+v", len(records), records[0])
			}
			// Each thread's trace is pass 1 then pass 2 of the same region,
			// or pass 1 alone where the build proved the second pass would
			// repeat it (manifest Region.OnePass).
			one, cond := map[[2]int32]bool{}, map[[2]int32]bool{}
			for _, r := range k.Regions {
				cond[[2]int32{int32(r.From), int32(r.To)}] = r.Conditional
				flat, line := tc.l.block[2] == 1, tc.l.block[1] == 1 && tc.l.block[2] == 1
				one[[2]int32{int32(r.From), int32(r.To)}] = r.OnePass || r.OnePassIf == "block-2d" && flat || r.OnePassIf == "block-1d" && line
			}
			type key struct{ block, thread int32 }
			per := map[key][]gpuruntime.TraceEntry{}
			for _, e := range trace {
				per[key{e.Block, e.Thread}] = append(per[key{e.Block, e.Thread}], e)
			}
			threads := int(tc.l.grid[0]*tc.l.grid[1]*tc.l.grid[2]) * int(tc.l.block[0]*tc.l.block[1]*tc.l.block[2])
			if len(per) != threads {
				t.Fatalf("trace has %d threads, want %d", len(per), threads)
			}
			singles := 0
			for th, es := range per {
				if len(es) == 0 {
					t.Fatalf("thread %v ended no region", th)
				}
				for i := 0; i < len(es); i++ {
					a := es[i]
					if a.Pass != 1 {
						t.Fatalf("thread %v: region pass %+v where a first pass was due", th, a)
					}
					if one[[2]int32{a.From, a.To}] {
						// A conditional proof's region runs twice where a
						// stride it tests was 0.
						if n := i + 1; cond[[2]int32{a.From, a.To}] && n < len(es) && es[n].Pass == 2 && es[n].From == a.From && es[n].To == a.To {
							i++
							continue
						}
						singles++
						continue
					}
					if i+1 >= len(es) {
						t.Fatalf("thread %v: region %d-%d has no second pass", th, a.From, a.To)
					}
					i++
					b := es[i]
					if b.Pass != 2 || a.From != b.From || a.To != b.To || b.Differ != 0 {
						t.Fatalf("thread %v: region passes %+v then %+v", th, a, b)
					}
				}
				if last := es[len(es)-1]; last.To != -1 {
					t.Errorf("thread %v: last region ends at barrier %d, not the exit", th, last.To)
				}
			}
			if tc.onePass && singles == 0 {
				t.Errorf("no region ended after its first pass; the build marks regions %+v", k.Regions)
			}
			if tc.kernel == "count" {
				got := binary.LittleEndian.Uint32(replay[0])
				if got != uint32(threads) {
					t.Errorf("counter = %d after the replayed run, want %d: atomics must take effect once", got, threads)
				}
				seen := map[uint32]bool{}
				for i := 0; i < threads; i++ {
					seen[binary.LittleEndian.Uint32(replay[1][4*i:])] = true
				}
				if len(seen) != threads {
					t.Errorf("tickets are not distinct: %d different values for %d threads (the second pass must reuse the first pass's results)", len(seen), threads)
				}
			}
		})
	}
}

// TestReplayFindsRaces: the level-2 checks at the barriers report the
// racy acceptance kernels' shared-memory races with the right kind.
func TestReplayFindsRaces(t *testing.T) {
	tests := []struct {
		file, kernel string
		l            launch
		args         []arg
		kind         int32
		spaces       []int32 // any of these
		skip         string
	}{
		{"../testdata/acceptance/hs_scan_racy.cu", "scan", launch{[3]uint32{2, 1, 1}, [3]uint32{256, 1, 1}}, []arg{{n: 512, random: true}}, gpuruntime.RecordRW, []int32{gpuruntime.SpaceShared, gpuruntime.SpaceLocal}, ""},
		{"../testdata/acceptance/matmul_racy.cu", "mm", launch{[3]uint32{4, 4, 1}, [3]uint32{16, 16, 1}}, []arg{{n: 4096, random: true}, {n: 4096, random: true}, {n: 4096}, {scalar: 64}}, gpuruntime.RecordRW, []int32{gpuruntime.SpaceShared, gpuruntime.SpaceLocal}, ""},
		{"../testdata/acceptance/transpose_racy.cu", "tr", launch{[3]uint32{2, 2, 1}, [3]uint32{32, 8, 1}}, []arg{{n: 4096, random: true}, {n: 4096}, {scalar: 64}}, gpuruntime.RecordRW, []int32{gpuruntime.SpaceShared, gpuruntime.SpaceLocal},
			"the racing reads show only in the global array out, and runMode runs level 2 without segments (the page copies of global targets that gpuruntime.Check sets up); cmd/ldcheck's TestEndToEnd finds this race through the whole protocol"},
		{"../testdata/acceptance/shared_max_ww.cu", "k", launch{[3]uint32{1, 1, 1}, [3]uint32{128, 1, 1}}, []arg{{n: 128, random: true}, {n: 1}}, gpuruntime.RecordWW, []int32{gpuruntime.SpaceShared}, ""},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			m, mod := buildCPU(t, tc.file)
			k, _ := m.Kernel(tc.kernel)
			_, records, _ := runMode(t, m, mod, k, tc.l, tc.args, 7, gpuruntime.ModeReplay)
			found := false
			for _, r := range records {
				for _, sp := range tc.spaces {
					found = found || (r.Kind == tc.kind && r.Space == sp)
				}
			}
			if !found {
				t.Errorf("no race of kind %d in spaces %v; records: %+v", tc.kind, tc.spaces, records)
			}
		})
	}
}
