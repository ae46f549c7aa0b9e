package cpu

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// testModule is testdata/kernels.cu built by one compiler.
type testModule struct {
	compiler string
	mod      *Module
}

// Built once per test binary by TestMain: one module per available compiler,
// so the header is exercised by both g++ and clang++.
var (
	modules    []testModule
	skipReason string
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "ldcheck-cpu-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)

	var compilers []string
	if _, err := findCompiler(""); err == nil {
		compilers = append(compilers, "") // the default choice
	}
	if _, err := exec.LookPath("clang++-15"); err == nil {
		compilers = append(compilers, "clang++-15")
	}
	if len(compilers) == 0 {
		skipReason = "no C++ compiler on PATH"
		return m.Run()
	}

	built := make([]testModule, len(compilers))
	errs := make([]error, len(compilers))
	var wg sync.WaitGroup
	for i, cxx := range compilers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := cxx
			if name == "" {
				name = "default"
			}
			out := filepath.Join(dir, fmt.Sprintf("kernels-%d.so", i))
			if err := Compile(context.Background(), "testdata/kernels.cu", out, CompileOptions{CXX: cxx}); err != nil {
				errs[i] = fmt.Errorf("%s: %w", name, err)
				return
			}
			mod, err := Open(out)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", name, err)
				return
			}
			built[i] = testModule{name, mod}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(os.Stderr, "building testdata/kernels.cu:", err)
		return 1
	}
	modules = built
	defer func() {
		for _, tm := range modules {
			tm.mod.Close()
		}
	}()
	return m.Run()
}

// forEachModule runs f once per compiler's build of testdata/kernels.cu.
func forEachModule(t *testing.T, f func(t *testing.T, m *Module)) {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
	for _, tm := range modules {
		t.Run(tm.compiler, func(t *testing.T) { f(t, tm.mod) })
	}
}

func alloc(t *testing.T, n int) Buffer {
	t.Helper()
	b, err := Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// allocOf allocates n elements of T and returns the buffer with a typed view.
func allocOf[T any](t *testing.T, n int) (Buffer, []T) {
	t.Helper()
	var zero T
	b := alloc(t, n*int(unsafe.Sizeof(zero)))
	return b, unsafe.Slice((*T)(unsafe.Pointer(&b.Bytes()[0])), n)
}

func ptr(b Buffer) []byte { return binary.NativeEndian.AppendUint64(nil, uint64(b.Ptr())) }
func i32(v int32) []byte  { return binary.NativeEndian.AppendUint32(nil, uint32(v)) }

func launch(t *testing.T, m *Module, kernel string, grid, block [3]uint32, dyn int, workers int, args ...[]byte) {
	t.Helper()
	if err := m.Launch(kernel, grid, block, dyn, args, workers); err != nil {
		t.Fatal(err)
	}
}

func TestVectorAdd(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const n = 10000
		a, av := allocOf[float32](t, n)
		b, bv := allocOf[float32](t, n)
		for i := range av {
			av[i] = float32(i)
			bv[i] = 0.5 * float32(i)
		}
		for _, workers := range []int{0, 1, 3} {
			c, cv := allocOf[float32](t, n)
			launch(t, m, "vadd", [3]uint32{(n + 127) / 128, 1, 1}, [3]uint32{128, 1, 1}, 0, workers,
				ptr(a), ptr(b), ptr(c), i32(n))
			for i, v := range cv {
				if want := 1.5 * float32(i); v != want {
					t.Fatalf("workers=%d: c[%d] = %v, want %v", workers, i, v, want)
				}
			}
		}
	})
}

func TestSharedMemoryReduction(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const blocks, threads = 16, 256
		in, inv := allocOf[int32](t, blocks*threads)
		out, outv := allocOf[int32](t, blocks)
		for i := range inv {
			inv[i] = int32(i%97 - 40)
		}
		launch(t, m, "reduce_sum", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, 0, 0, ptr(in), ptr(out))
		for b := 0; b < blocks; b++ {
			var want int32
			for _, v := range inv[b*threads : (b+1)*threads] {
				want += v
			}
			if outv[b] != want {
				t.Errorf("block %d: sum %d, want %d", b, outv[b], want)
			}
		}
	})
}

func TestThreadLayout(t *testing.T) {
	cases := []struct{ grid, block [3]uint32 }{
		{[3]uint32{2, 3, 1}, [3]uint32{8, 4, 1}},  // 2D, one warp per block
		{[3]uint32{2, 2, 2}, [3]uint32{4, 3, 2}},  // 3D, a partial warp
		{[3]uint32{1, 1, 3}, [3]uint32{16, 4, 2}}, // 3D, four warps
	}
	forEachModule(t, func(t *testing.T, m *Module) {
		for _, c := range cases {
			g, bl := c.grid, c.block
			nthreads := bl[0] * bl[1] * bl[2]
			nblocks := g[0] * g[1] * g[2]
			out, ov := allocOf[uint32](t, int(nthreads*nblocks*14))
			launch(t, m, "layout", g, bl, 0, 0, ptr(out))
			for bz := uint32(0); bz < g[2]; bz++ {
				for by := uint32(0); by < g[1]; by++ {
					for bx := uint32(0); bx < g[0]; bx++ {
						bid := bx + by*g[0] + bz*g[0]*g[1]
						for tz := uint32(0); tz < bl[2]; tz++ {
							for ty := uint32(0); ty < bl[1]; ty++ {
								for tx := uint32(0); tx < bl[0]; tx++ {
									tid := tx + ty*bl[0] + tz*bl[0]*bl[1]
									want := []uint32{tx, ty, tz, bx, by, bz, bl[0], bl[1], bl[2], g[0], g[1], g[2], tid / 32 * 32, tid % 32}
									got := ov[(bid*nthreads+tid)*14:][:14]
									for k := range want {
										if got[k] != want[k] {
											t.Fatalf("grid %v block %v: block %d thread %d: record %v, want %v", g, bl, bid, tid, got, want)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	})
}

func TestDynamicSharedMemory(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const blocks, threads = 4, 64
		in, inv := allocOf[int32](t, blocks*threads)
		out, outv := allocOf[int32](t, blocks*threads)
		al, alv := allocOf[uint32](t, blocks)
		for i := range inv {
			inv[i] = int32(i * 7)
		}
		launch(t, m, "dyn_reverse", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, threads*4, 2, ptr(in), ptr(out), ptr(al))
		for b := 0; b < blocks; b++ {
			if alv[b] != 1 {
				t.Errorf("block %d: dynamic shared memory not 16-byte aligned", b)
			}
			for i := 0; i < threads; i++ {
				if got, want := outv[b*threads+i], inv[b*threads+threads-1-i]; got != want {
					t.Fatalf("block %d: out[%d] = %d, want %d", b, i, got, want)
				}
			}
		}

		// Declared at namespace scope; a second launch with a larger buffer
		// must not reuse the first launch's.
		for _, n := range []int{32, 512} {
			out, ov := allocOf[float64](t, 3*n)
			launch(t, m, "dyn_global", [3]uint32{3, 1, 1}, [3]uint32{uint32(n), 1, 1}, n*8, 0, ptr(out))
			for b := 0; b < 3; b++ {
				for i := 0; i < n; i++ {
					if got, want := ov[b*n+i], 0.5*float64((i+1)%n)+float64(b); got != want {
						t.Fatalf("n=%d block %d: out[%d] = %v, want %v", n, b, i, got, want)
					}
				}
			}
		}
	})
}

func TestWarpShuffleAndBallot(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const blocks, threads = 4, 128
		in, inv := allocOf[int32](t, blocks*threads)
		sums, sv := allocOf[int32](t, blocks*threads/32)
		ballots, bv := allocOf[uint32](t, blocks*threads/32)
		for i := range inv {
			inv[i] = int32((i*37)%101 - 50)
		}
		launch(t, m, "warp_sum", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, 0, 0, ptr(in), ptr(sums), ptr(ballots))
		for w := range sv {
			var sum int32
			var ballot uint32
			for l := 0; l < 32; l++ {
				v := inv[w*32+l]
				sum += v
				if v%3 == 0 {
					ballot |= 1 << l
				}
			}
			if sv[w] != sum || bv[w] != ballot {
				t.Errorf("warp %d: sum %d ballot %#x, want %d %#x", w, sv[w], bv[w], sum, ballot)
			}
		}
	})
}

func TestWarpIntrinsics(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const threads = 64
		out, ov := allocOf[int64](t, threads*12)
		launch(t, m, "warp_variants", [3]uint32{1, 1, 1}, [3]uint32{threads, 1, 1}, 0, 0, ptr(out))
		for tid := 0; tid < threads; tid++ {
			l := int64(tid % 32)
			up, down, even := l-2, l+2, l+2
			if l < 2 {
				up = l
			}
			if l%8+2 >= 8 {
				down = l
			}
			if l%2 == 1 {
				even = -1
			} else if l+2 >= 32 {
				even = l
			}
			want := []int64{30, up, down, l ^ 1, int64(1.5 * float64(l^16)), 31 - l, 7, 1, 0, 0xff << (8 * (l / 8)), 496, even}
			got := ov[tid*12:][:12]
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("thread %d: results %v, want %v (differs at %d)", tid, got, want, k)
				}
			}
		}
	})
}

func TestActiveMask(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		out, ov := allocOf[uint32](t, 64)
		launch(t, m, "active_mask", [3]uint32{1, 1, 1}, [3]uint32{64, 1, 1}, 0, 0, ptr(out))
		for tid, got := range ov {
			want := uint32(0)
			if tid%32 < 10 {
				want = 0x3ff
			}
			if got != want {
				t.Errorf("thread %d: __activemask() = %#x, want %#x", tid, got, want)
			}
		}
	})
}

func TestAtomics(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const blocks, threads = 64, 256
		ci, civ := allocOf[int32](t, 1)
		cf, cfv := allocOf[float32](t, 1)
		cu, cuv := allocOf[uint64](t, 1)
		mx, mxv := allocOf[uint32](t, 1)
		// More workers than CPUs: blocks really do run concurrently.
		launch(t, m, "atomic_count", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, 0, 4, ptr(ci), ptr(cf), ptr(cu), ptr(mx))
		if civ[0] != blocks*threads || cfv[0] != blocks*threads || cuv[0] != 2*blocks*threads || mxv[0] != blocks*threads-1 {
			t.Errorf("int %d, float %v, u64 %d, max %d; want %d, %d, %d, %d",
				civ[0], cfv[0], cuv[0], mxv[0], blocks*threads, blocks*threads, 2*blocks*threads, blocks*threads-1)
		}

		v, vv := allocOf[int32](t, 10)
		copy(vv, []int32{10, 1, 5, 3, 4, 0x3c, 0x1, 0x0f, 9, 0})
		launch(t, m, "atomic_misc", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, 0, ptr(v))
		want := []int32{5, 42, -7, 33, 4, 0x0c, 0x101, 0xf0, 0, 20}
		for i := range want {
			if vv[i] != want[i] {
				t.Errorf("atomic_misc: v = %v, want %v", vv, want)
				break
			}
		}
	})
}

func TestEarlyReturnThenBarrier(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const blocks, threads = 3, 256
		out, ov := allocOf[int32](t, blocks*threads)
		for i := range ov {
			ov[i] = -1
		}
		launch(t, m, "early_exit", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, 0, 0, ptr(out))
		for b := 0; b < blocks; b++ {
			for i := 0; i < threads; i++ {
				want := int32(-1)
				if i < threads/2 {
					want = int32(3 * ((i + 1) % (threads / 2)))
				}
				if got := ov[b*threads+i]; got != want {
					t.Fatalf("block %d: out[%d] = %d, want %d", b, i, got, want)
				}
			}
		}
	})
}

func TestSyncthreadsCount(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const threads = 200 // the last warp is partial
		for _, every := range []int{3, 1} {
			pred, pv := allocOf[int32](t, threads)
			count := 0
			for i := range pv {
				if i%every == 0 {
					pv[i] = int32(i + 1)
					count++
				}
			}
			out, ov := allocOf[int32](t, threads*3)
			launch(t, m, "sync_count", [3]uint32{1, 1, 1}, [3]uint32{threads, 1, 1}, 0, 0, ptr(pred), ptr(out))
			all := 0
			if count == threads {
				all = 1
			}
			for i := 0; i < threads; i++ {
				got := ov[i*3:][:3]
				if got[0] != int32(count) || got[1] != int32(all) || got[2] != 1 {
					t.Fatalf("every %d: thread %d got count/and/or %v, want [%d %d 1]", every, i, got, count, all)
				}
			}
		}
	})
}

func TestManyBarriers(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const threads, iters = 1024, 50 // 100 barriers
		out, ov := allocOf[int32](t, threads)
		start := time.Now()
		launch(t, m, "barrier_loop", [3]uint32{1, 1, 1}, [3]uint32{threads, 1, 1}, 0, 0, ptr(out), i32(iters))
		t.Logf("1 block x %d threads, %d barriers: %v", threads, 2*iters, time.Since(start))
		for i, v := range ov {
			if want := int32((i + iters) % threads); v != want {
				t.Fatalf("out[%d] = %d, want %d", i, v, want)
			}
		}
	})
}

func TestDeviceVariableSymbol(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		counter, err := m.SymbolBytes("dev_counter")
		if err != nil {
			t.Fatal(err)
		}
		scale, err := m.SymbolBytes("dev_scale")
		if err != nil {
			t.Fatal(err)
		}
		table, err := m.SymbolBytes("dev_table")
		if err != nil {
			t.Fatal(err)
		}
		if len(counter) != 4 || len(table) != 32 {
			t.Fatalf("symbol sizes %d, %d; want 4, 32", len(counter), len(table))
		}
		if got := binary.NativeEndian.Uint32(scale); got != 3 {
			t.Errorf("dev_scale initialised to %d, want 3", got)
		}
		addr, err := m.Symbol("dev_counter")
		if err != nil {
			t.Fatal(err)
		}
		if addr != uintptr(unsafe.Pointer(&counter[0])) {
			t.Errorf("Symbol = %#x, SymbolBytes at %p", addr, &counter[0])
		}

		binary.NativeEndian.PutUint32(counter, 0)
		// A host write the kernel must see; put back for -count=N.
		binary.NativeEndian.PutUint32(scale, 4)
		t.Cleanup(func() { binary.NativeEndian.PutUint32(scale, 3) })
		launch(t, m, "device_vars", [3]uint32{3, 1, 1}, [3]uint32{64, 1, 1}, 0, 0)
		if got := binary.NativeEndian.Uint32(counter); got != 192 {
			t.Errorf("dev_counter = %d, want 192", got)
		}
		for i := 0; i < 8; i++ {
			got := math.Float32frombits(binary.NativeEndian.Uint32(table[4*i:]))
			if want := float32(i) * 0.5 * 4; got != want {
				t.Errorf("dev_table[%d] = %v, want %v", i, got, want)
			}
		}

		if _, err := m.Symbol("no_such_variable"); err == nil {
			t.Error("Symbol(no_such_variable) succeeded")
		}
		if _, err := m.SymbolBytes("ldc_entry_vadd"); err == nil {
			t.Error("SymbolBytes of a function succeeded")
		}
	})
}

// A library opened again in the same process (it is never unloaded)
// starts with its variables as the file holds them, as a fresh load
// would: a second run of a build must not see what the first left.
func TestOpenRestoresDeviceVariables(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		for name, v := range map[string]uint32{"dev_counter": 5, "dev_scale": 9} {
			b, err := m.SymbolBytes(name)
			if err != nil {
				t.Fatal(err)
			}
			binary.NativeEndian.PutUint32(b, v)
		}
		table, err := m.SymbolBytes("dev_table")
		if err != nil {
			t.Fatal(err)
		}
		table[0] = 1
		again, err := Open(m.path)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		for name, want := range map[string]uint32{"dev_counter": 0, "dev_scale": 3} {
			b, err := again.SymbolBytes(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := binary.NativeEndian.Uint32(b); got != want {
				t.Errorf("%s = %d after a second Open, want %d (the file's)", name, got, want)
			}
		}
		if table[0] != 0 {
			t.Errorf("dev_table[0]'s first byte = %d after a second Open, want 0", table[0])
		}
	})
}

func TestDeadlockIsAnError(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		out, _ := allocOf[int32](t, 32)
		done := make(chan error, 1)
		go func() {
			done <- m.Launch("deadlock_shfl", [3]uint32{2, 1, 1}, [3]uint32{32, 1, 1}, 0, [][]byte{ptr(out)}, 1)
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("deadlocked launch did not return")
		}
		var le *LaunchError
		if !errors.As(err, &le) {
			t.Fatalf("got %v, want a *LaunchError", err)
		}
		for _, want := range []string{"block (0,0,0)", "deadlock", "lanes 0-4,6-31 wait in __shfl_down_sync(mask 0xffffffff)", "lane 5 exited"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		t.Log(err)

		err = m.Launch("deadlock_mixed", [3]uint32{1, 1, 1}, [3]uint32{64, 1, 1}, 0, [][]byte{ptr(out)}, 1)
		want := "block (0,0,0): deadlock: warp 1 lanes 0-15 wait in __shfl_sync(mask 0xffffffff), " +
			"lanes 16-31 wait at __syncthreads; threads 48-63 wait at __syncthreads (16 of 32 live threads arrived)"
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("got %v, want an error ending in %q", err, want)
		}

		// The module is still usable.
		c, cv := allocOf[int32](t, 64)
		launch(t, m, "reduce_sum", [3]uint32{1, 1, 1}, [3]uint32{64, 1, 1}, 0, 0, ptr(alloc(t, 256)), ptr(c))
		if cv[0] != 0 {
			t.Errorf("after a deadlock: sum of zeros = %d", cv[0])
		}
	})
}

func TestAssertFailsTheLaunch(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		in, iv := allocOf[int32](t, 32)
		iv[7] = 12
		err := m.Launch("failing_assert", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, [][]byte{ptr(in)}, 0)
		if err == nil {
			t.Fatal("failed assert: launch succeeded")
		}
		for _, want := range []string{"thread (7,0,0)", "assertion", "in[threadIdx.x] < 10", "kernels.cu"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		iv[7] = 0
		launch(t, m, "failing_assert", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, 0, ptr(in))
	})
}

func TestIntrinsics(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		o, ov := allocOf[int64](t, 20)
		f, fv := allocOf[float32](t, 10)
		launch(t, m, "intrinsics", [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, ptr(o), ptr(f))
		wantI := []int64{8, 40, 31, 32, 23, 5, 41, 0x80000000, 2, 0xfffffffe, -15, 6,
			0x3f800000, 0x4000000000000000, 2, 3, 1692, 1764, 421, 1}
		for i := range wantI {
			if ov[i] != wantI[i] {
				t.Errorf("integer result %d = %d, want %d", i, ov[i], wantI[i])
			}
		}
		wantF := []float32{1, 0, 0.5, 0.25, 2.5, 7, 1.5, 10, 10, 6}
		for i := range wantF {
			if fv[i] != wantF[i] {
				t.Errorf("float result %d = %v, want %v", i, fv[i], wantF[i])
			}
		}
	})
}

func TestLaunchRejects(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		out := alloc(t, 4096)
		cases := []struct {
			kernel      string
			grid, block [3]uint32
			dyn         int
			want        string
		}{
			{"layout", [3]uint32{1, 1, 1}, [3]uint32{1025, 1, 1}, 0, "1025 threads"},
			{"layout", [3]uint32{1, 1, 1}, [3]uint32{64, 4, 8}, 0, "2048 threads"},
			{"layout", [3]uint32{0, 1, 1}, [3]uint32{32, 1, 1}, 0, "empty grid"},
			{"layout", [3]uint32{1, 1, 1}, [3]uint32{32, 0, 1}, 0, "empty block"},
			{"layout", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, -1, "negative"},
			{"no_such_kernel", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, "no ldc_entry_no_such_kernel"},
			{"bad name", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, "not a C identifier"},
		}
		for _, c := range cases {
			err := m.Launch(c.kernel, c.grid, c.block, c.dyn, [][]byte{ptr(out)}, 0)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Launch(%s, grid %v, block %v, dyn %d) = %v, want an error mentioning %q",
					c.kernel, c.grid, c.block, c.dyn, err, c.want)
			}
		}
	})
}

func TestCompileErrors(t *testing.T) {
	if skipReason != "" {
		t.Skip(skipReason)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "bad.cu")
	if err := os.WriteFile(src, []byte("__global__ void k(int *p) { p[0] = undeclared_thing; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bad.so")
	err := Compile(context.Background(), src, out, CompileOptions{})
	if err == nil {
		t.Fatal("compiling a broken kernel succeeded")
	}
	for _, want := range []string{"bad.cu:1", "undeclared_thing", "error"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("a failed compile left %s behind", out)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp")); len(leftovers) > 0 {
		t.Errorf("a failed compile left %v behind", leftovers)
	}

	err = Compile(context.Background(), src, out, CompileOptions{CXX: "ldcheck-no-such-compiler"})
	if err == nil || !strings.Contains(err.Error(), "ldcheck-no-such-compiler") || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing compiler: got %v", err)
	}
}

func TestMissingCompilerNamesWhatToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CXX", "")
	_, err := findCompiler("")
	if err == nil || !strings.Contains(err.Error(), "install g++") {
		t.Errorf("got %v, want an error saying what to install", err)
	}
}

func TestWriteHeaders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "inc")
	if err := WriteHeaders(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{HeaderName, "cuda_runtime.h", "cuda.h", "cuda_runtime_api.h", "device_launch_parameters.h", "assert.h"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if len(data) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
}

func TestAlloc(t *testing.T) {
	b, err := Alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	if b.Ptr() == 0 || len(b.Bytes()) != 100 || b.Len() != 100 {
		t.Fatalf("Alloc(100): ptr %#x, %d bytes", b.Ptr(), len(b.Bytes()))
	}
	for i, v := range b.Bytes() {
		if v != 0 {
			t.Fatalf("byte %d = %d, want zeroed memory", i, v)
		}
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Errorf("second Free: %v", err)
	}
	if b.Ptr() != 0 || b.Bytes() != nil {
		t.Error("a freed buffer still has memory")
	}

	z, err := Alloc(0)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Free()
	if z.Ptr() == 0 || len(z.Bytes()) != 0 {
		t.Errorf("Alloc(0): ptr %#x, %d bytes; want a distinct address and no bytes", z.Ptr(), len(z.Bytes()))
	}
	if _, err := Alloc(-1); err == nil {
		t.Error("Alloc(-1) succeeded")
	}
	var zero Buffer
	if zero.Ptr() != 0 || zero.Free() != nil {
		t.Error("zero Buffer misbehaves")
	}
}

// Benchmarks report the engine's cost per thread start and per barrier; they
// are not run by `go test` unless asked (-bench).

func BenchmarkVectorAdd1M(b *testing.B) {
	if skipReason != "" {
		b.Skip(skipReason)
	}
	m := modules[0].mod
	const n = 1 << 20
	bufs := make([]Buffer, 3)
	for i := range bufs {
		var err error
		if bufs[i], err = Alloc(4 * n); err != nil {
			b.Fatal(err)
		}
		defer bufs[i].Free()
	}
	args := [][]byte{ptr(bufs[0]), ptr(bufs[1]), ptr(bufs[2]), i32(n)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := m.Launch("vadd", [3]uint32{n / 256, 1, 1}, [3]uint32{256, 1, 1}, 0, args, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/thread")
}

func BenchmarkBarriers(b *testing.B) {
	if skipReason != "" {
		b.Skip(skipReason)
	}
	m := modules[0].mod
	out, err := Alloc(4 * 1024)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Free()
	const iters = 50
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := m.Launch("barrier_loop", [3]uint32{1, 1, 1}, [3]uint32{1024, 1, 1}, 0, [][]byte{ptr(out), i32(iters)}, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(1024*2*iters), "ns/thread-barrier")
}

// warpShift runs testdata/kernels.cu's warp_shift with 64 threads and returns
// what each thread read back.
func warpShift(t *testing.T, m *Module) []int32 {
	t.Helper()
	out, outv := allocOf[int32](t, 64)
	launch(t, m, "warp_shift", [3]uint32{1, 1, 1}, [3]uint32{64, 1, 1}, 0, 1, ptr(out))
	return append([]int32(nil), outv...)
}

func TestWarpLanesRunInLockstep(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		got := warpShift(t, m)
		for i, v := range got {
			want := int32(i - 1)
			if i%32 == 0 {
				want = int32(i)
			}
			if v != want {
				t.Fatalf("out[%d] = %d, want %d (the old value of s[%d]): lanes did not load before storing", i, v, want, want)
			}
		}
	})
}

// Without steps, lanes run one after another: the shift smears lane 0's
// value, which is what the option promises.
func TestNoStepsRunsLanesInTurn(t *testing.T) {
	if skipReason != "" {
		t.Skip(skipReason)
	}
	out := filepath.Join(t.TempDir(), "nosteps.so")
	if err := Compile(context.Background(), "testdata/kernels.cu", out, CompileOptions{NoSteps: true}); err != nil {
		t.Fatal(err)
	}
	m, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got := warpShift(t, m)
	for i, v := range got {
		if want := int32(i / 32 * 32); v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

// The ucontext fallback (other architectures than x86-64) runs the same
// lockstep schedule as the hand-written context switch.
func TestUcontextFallback(t *testing.T) {
	if skipReason != "" {
		t.Skip(skipReason)
	}
	out := filepath.Join(t.TempDir(), "ucontext.so")
	if err := Compile(context.Background(), "testdata/kernels.cu", out, CompileOptions{Flags: []string{"-DLDC_UCONTEXT"}}); err != nil {
		t.Fatal(err)
	}
	m, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i, v := range warpShift(t, m) {
		want := int32(i - 1)
		if i%32 == 0 {
			want = int32(i)
		}
		if v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

// A kernel that writes one element past its buffer faults in the guard
// after it: the launch fails with the address, which Locate maps back to
// the first byte past the end; the process and the module live on.
func TestOutOfBoundsFailsTheLaunch(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		for _, n := range []int32{5, 1024, 1023} {
			out := alloc(t, int(n)*4)
			err := m.Launch("write_past_end", [3]uint32{2, 1, 1}, [3]uint32{32, 1, 1}, 0, [][]byte{ptr(out), i32(n)}, 0)
			if err == nil {
				t.Fatalf("n=%d: launch succeeded", n)
			}
			var addr uintptr
			if _, serr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "address ")+len("address "):], "0x%x", &addr); serr != nil {
				t.Fatalf("n=%d: no address in %q", n, err)
			}
			if !strings.Contains(err.Error(), "block (1,0,0) thread (0,0,0): out-of-bounds access") || !strings.Contains(err.Error(), "(write)") {
				t.Errorf("n=%d: error %q", n, err)
			}
			if off, ok := out.Locate(addr); !ok || off != int64(n)*4 {
				t.Errorf("n=%d: address %#x is at offset %d (in mapping: %v), want %d", n, addr, off, ok, n*4)
			}
			// The same facts, field by field, for the host to name the
			// buffer without reading the message.
			var le *LaunchError
			if !errors.As(err, &le) || le.Fault == nil {
				t.Fatalf("n=%d: %v carries no fault record", n, err)
			}
			if f := le.Fault; f.Block != [3]uint32{1, 0, 0} || f.Thread != [3]uint32{} || f.Addr != uint64(addr) || f.Access != "write" {
				t.Errorf("n=%d: fault record %+v, want block (1,0,0) thread (0,0,0) write at %#x", n, *f, addr)
			}
		}
		// Still usable.
		in, inv := allocOf[int32](t, 256)
		for i := range inv {
			inv[i] = 1
		}
		sum, sumv := allocOf[int32](t, 1)
		launch(t, m, "reduce_sum", [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, 0, 0, ptr(in), ptr(sum))
		if sumv[0] != 256 {
			t.Errorf("after the fault: sum %d, want 256", sumv[0])
		}
	})
}

func TestStackOverflowFailsTheLaunch(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		out := alloc(t, 32*4)
		err := m.Launch("overflow_stack", [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0, [][]byte{ptr(out)}, 1)
		if err == nil || !strings.Contains(err.Error(), "stack overflow") {
			t.Fatalf("got %v, want a stack overflow", err)
		}
	})
}

// TestRunningReportsProgress: a launch slowed down (many blocks, each with
// many barriers, on one worker) reports the blocks it finished, and the
// barriers it passed, while it runs.
func TestRunningReportsProgress(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const blocks, threads, iters = 24, 128, 100
		out := alloc(t, 4*threads)
		done := make(chan error, 1)
		go func() {
			done <- m.Launch("barrier_loop", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, 0,
				[][]byte{ptr(out), i32(iters)}, 1)
		}()
		var seen []Progress
	poll:
		for {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				break poll
			case <-time.After(time.Millisecond):
				for _, p := range m.Running() {
					if p.Kernel == "barrier_loop" {
						seen = append(seen, p)
					}
				}
			}
		}
		if r := m.Running(); len(r) != 0 {
			t.Errorf("Running() after the launch returned: %+v", r)
		}
		partial := false
		for i, p := range seen {
			if p.Blocks != blocks || p.Workers != 1 || p.Active > 1 || p.Done > blocks ||
				p.Barriers > blocks*2*iters || p.Waiting >= threads || time.Since(p.Started) > time.Minute {
				t.Fatalf("snapshot %d: %+v", i, p)
			}
			if i > 0 && (p.Done < seen[i-1].Done || p.Barriers < seen[i-1].Barriers) {
				t.Fatalf("progress went back: %+v after %+v", p, seen[i-1])
			}
			// Blocks finish one after another: the barriers of the finished
			// ones are all counted.
			if p.Barriers < p.Done*2*iters {
				t.Fatalf("snapshot %d: %d blocks done but only %d barriers", i, p.Done, p.Barriers)
			}
			partial = partial || (p.Done > 0 && p.Done < blocks)
		}
		if !partial {
			t.Errorf("no snapshot of %d showed some but not all blocks finished: %+v", len(seen), seen)
		}
	})
}

// TestRunningShowsThreadsAtABarrier: a launch that makes no progress (one
// thread spins, the others wait at a barrier) shows it: no block finishes,
// no barrier completes, and the waiting threads are counted.
func TestRunningShowsThreadsAtABarrier(t *testing.T) {
	forEachModule(t, func(t *testing.T, m *Module) {
		const threads = 64
		flag, fv := allocOf[int32](t, 1)
		out := alloc(t, 4*2*threads)
		done := make(chan error, 1)
		go func() {
			done <- m.Launch("wait_for_host", [3]uint32{2, 1, 1}, [3]uint32{threads, 1, 1}, 0,
				[][]byte{ptr(flag), ptr(out)}, 2)
		}()
		deadline := time.Now().Add(30 * time.Second)
		var p Progress
		for {
			r := m.Running()
			if len(r) == 1 && r[0].Waiting == 2*(threads-1) {
				p = r[0]
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no snapshot with %d threads at the barrier: %+v", 2*(threads-1), r)
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		again := m.Running()
		if len(again) != 1 || again[0].Done != 0 || again[0].Barriers != 0 || again[0].Active != 2 || again[0].Waiting != p.Waiting {
			t.Errorf("a stalled launch changed: %+v, then %+v", p, again)
		}
		atomicStore(&fv[0], 1)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

func atomicStore(p *int32, v int32) { atomic.StoreInt32(p, v) }

// TestWorkersIsWhatALaunchUses: Workers says how many blocks of a launch
// run at once (the CPU backend's Resident), and a launch uses that many.
func TestWorkersIsWhatALaunchUses(t *testing.T) {
	for _, c := range []struct{ threads, requested, want int }{
		{32, 5, 5}, {1024, 100, 14}, {1024, 3, 3}, {256, 1000, 57}, {0, 1, 1},
		{1024, 0, min(runtime.NumCPU(), 14)}, {32, 0, min(runtime.NumCPU(), 416)},
	} {
		if got := Workers(c.threads, c.requested); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.threads, c.requested, got, c.want)
		}
	}
	forEachModule(t, func(t *testing.T, m *Module) {
		const threads, blocks = 1024, 40
		flag, fv := allocOf[int32](t, 1)
		out := alloc(t, 4*blocks*threads)
		done := make(chan error, 1)
		go func() {
			done <- m.Launch("wait_for_host", [3]uint32{blocks, 1, 1}, [3]uint32{threads, 1, 1}, 0,
				[][]byte{ptr(flag), ptr(out)}, 100)
		}()
		want := Workers(threads, 100)
		deadline := time.Now().Add(30 * time.Second)
		for {
			r := m.Running()
			if len(r) == 1 && r[0].Active == uint64(want) {
				if r[0].Workers != want {
					t.Errorf("%d workers, want %d", r[0].Workers, want)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("never %d blocks at once: %+v", want, r)
				break
			}
			time.Sleep(time.Millisecond)
		}
		atomicStore(&fv[0], 1)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}
