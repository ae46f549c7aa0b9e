package cuda_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ldcheck/gpuruntime"
	"ldcheck/gpuruntime/cuda"
)

// backendPTX names the fake driver's module variables (see fakecuda.c).
const backendPTX = `.version 7.0
.target sm_80
.address_size 64
.visible .global .align 4 .u32 counter;
.visible .global .align 8 .u64 self = generic(counter);
`

// TestCUDABackendOnFakeDriver opens gpuruntime's CUDA backend on the fake
// driver and launches a kernel whose registers allow 512 threads per block
// with 1024: the backend must launch it from a register-limited module,
// with the module variable written through Symbol's address seen by the
// kernel and its update seen through that address afterwards.
func TestCUDABackendOnFakeDriver(t *testing.T) {
	t.Setenv(cuda.LibraryEnv, cuda.BuildFakeDriver(t))
	ptx := filepath.Join(t.TempDir(), "k.ptx")
	if err := os.WriteFile(ptx, []byte(backendPTX), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := gpuruntime.OpenCUDA(ptx, map[string]string{"user_kernel": "heavy"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var _ gpuruntime.Backend = b

	counter, n, err := b.Symbol("counter")
	if err != nil || n != 4 {
		t.Fatalf("Symbol(counter) = %#x, %d, %v", counter, n, err)
	}
	if err := b.Write(counter, []byte{41, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	out, err := b.Alloc(32)
	if err != nil {
		t.Fatal(err)
	}
	arg := binary.LittleEndian.AppendUint64(nil, uint64(out))
	for i, threads := range []uint32{1024, 256, 1024} {
		if err := b.Launch("user_kernel", [3]uint32{2, 1, 1}, [3]uint32{threads, 1, 1}, 0, [][]byte{arg}); err != nil {
			t.Fatalf("launch of %d threads: %v", threads, err)
		}
		o := make([]byte, 32)
		if err := b.Read(o, out); err != nil {
			t.Fatal(err)
		}
		limit, own, seen := binary.LittleEndian.Uint64(o), binary.LittleEndian.Uint64(o[8:]), binary.LittleEndian.Uint64(o[16:])
		wantLimit := uint64(64)
		if threads <= 512 {
			wantLimit = 0
		}
		if limit != wantLimit || own != 1 || seen != uint64(42+i) {
			t.Errorf("launch of %d threads: register limit %d (want %d), own counter %v, counter %d (want %d)", threads, limit, wantLimit, own == 1, seen, 42+i)
		}
		c := make([]byte, 4)
		if err := b.Read(c, counter); err != nil {
			t.Fatal(err)
		}
		if got := binary.LittleEndian.Uint32(c); got != uint32(42+i) {
			t.Errorf("after the launch of %d threads, the counter read through Symbol's address is %d, want %d", threads, got, 42+i)
		}
	}
	for _, c := range []struct {
		threads uint32
		want    int
	}{{1024, 132}, {256, 2 * 132}} {
		if got, err := b.Resident("user_kernel", [3]uint32{c.threads, 1, 1}, 0); err != nil || got != c.want {
			t.Errorf("Resident(%d threads) = %d, %v; want %d", c.threads, got, err, c.want)
		}
	}
	if limit, err := b.SharedLimit("user_kernel"); err != nil || limit != 227<<10 {
		t.Errorf("SharedLimit = %d, %v", limit, err)
	}
	err = b.Launch("stubborn", [3]uint32{1, 1, 1}, [3]uint32{1024, 1, 1}, 0, [][]byte{arg})
	if err == nil || !strings.Contains(err.Error(), "kernel stubborn cannot run blocks of 1024 threads") {
		t.Errorf("launch that no module can run: %v", err)
	}
}
