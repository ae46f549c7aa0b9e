package gpuruntime

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebitengine/purego"

	"ldcheck/gpuruntime/cuda"
	"ldcheck/gpuruntime/cuda/cudatest"
	"ldcheck/gpuruntime/launch"
	"ldcheck/privatize/manifest"
)

// fakeDriver builds package cuda's fake driver (host memory as device
// memory, counters of what is left retained or created), points
// OpenCUDA at it and returns its counters: stat(0) primary-context
// retains not released, stat(1) events not destroyed, stat(2) texture
// objects not destroyed; failEvents(n) makes
// every cuEventCreate after the next n fail.
func fakeDriver(t *testing.T) (stat func(int32) int32, failEvents func(int32)) {
	t.Helper()
	lib := cudatest.Build(t)
	t.Setenv(cuda.LibraryEnv, lib)
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Fatal(err)
	}
	purego.RegisterLibFunc(&stat, h, "fake_stat")
	purego.RegisterLibFunc(&failEvents, h, "fake_fail_events")
	return stat, failEvents
}

// TestCUDABackendWithoutGPU: the CUDA backend over the fake driver moves
// memory both ways, and gives back what it took on every path: the
// primary context when opening fails half-way, the events of a timer
// that could not be made.
func TestCUDABackendWithoutGPU(t *testing.T) {
	stat, failEvents := fakeDriver(t)

	b, err := OpenCUDA("", nil)
	if err != nil {
		t.Fatalf("OpenCUDA over the fake driver: %v", err)
	}
	p, err := b.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Repeat([]byte{7, 9}, 32)
	got := make([]byte, 64)
	if err := b.Write(p, want); err != nil {
		t.Fatal(err)
	}
	if err := b.Read(got, p); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read back %v (%v), want %v", got, err, want)
	}
	if err := b.Memset(p, 0, 64); err != nil {
		t.Fatal(err)
	}
	if err := b.Read(got, p); err != nil || !bytes.Equal(got, make([]byte, 64)) {
		t.Fatalf("after Memset: %v (%v)", got, err)
	}

	failEvents(1)
	done := b.Timer()
	if _, err := done(); err == nil || !strings.Contains(err.Error(), "cuda events") {
		t.Errorf("a timer whose second event failed: %v", err)
	}
	if n := stat(1); n != 0 {
		t.Errorf("%d events left behind by a timer that could not be made", n)
	}
	failEvents(-1)
	done = b.Timer()
	if _, err := done(); err != nil {
		t.Errorf("timer: %v", err)
	}
	if n := stat(1); n != 0 {
		t.Errorf("%d events left behind by a timer", n)
	}

	// A texture argument: a linear, one-channel texture object over a copy
	// of the elements (past the descriptor), read as integers for integer
	// TYPEs. The fake encodes the descriptors' fields in the handle
	// (fakecuda.c): (address + bytes) | format << 48 | channels << 56 |
	// flags << 60.
	texBuf, err := b.Alloc(launch.TextureHeader + 40)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		elem, texel string
		format      uint64
		channels    uint64
		flags       uint64
	}{{"float", "", 0x20, 1, 0}, {"int", "", 0x0a, 1, 1}, {"uchar", "", 0x01, 1, 1}, {"float", "float4", 0x20, 4, 0}, {"int", "int2", 0x0a, 2, 1}, {"uchar", "uchar4", 0x01, 4, 1}} {
		h, err := b.Texture(texBuf, launch.TextureHeader+40, c.elem, c.texel)
		if err != nil {
			t.Fatalf("Texture(%s, %s): %v", c.elem, c.texel, err)
		}
		if got := h >> 48; got != c.format|c.channels<<8|c.flags<<12 {
			t.Errorf("Texture(%s, %s): format, channels, flags %#x; want format %#x, %d channels, flags %d", c.elem, c.texel, got, c.format, c.channels, c.flags)
		}
		if addr := h&(1<<48-1) - 40; DevPtr(addr) == texBuf+launch.TextureHeader || addr == 0 {
			t.Errorf("Texture(%s) reads the argument buffer itself (%#x), not an aligned copy", c.elem, addr)
		}
	}
	if _, err := b.Texture(texBuf, launch.TextureHeader+40, "double", ""); err == nil || !strings.Contains(err.Error(), "int2") {
		t.Errorf("a texture of doubles: %v; want an error saying to use int2", err)
	}
	if _, err := b.Texture(texBuf, launch.TextureHeader+40, "float", "float3"); err == nil || !strings.Contains(err.Error(), "1, 2 or 4 channels") {
		t.Errorf("float3 texels: %v; want an error naming the channel counts", err)
	}
	if n := stat(2); n != 6 {
		t.Errorf("%d texture objects alive before Close, want 6", n)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if n := stat(2); n != 0 {
		t.Errorf("%d texture objects left after Close", n)
	}
	if n := stat(0); n != 0 {
		t.Fatalf("%d primary-context retains left after Close", n)
	}

	// Opening fails after the context was taken (the module cannot be
	// read): the context goes back.
	if _, err := OpenCUDA(filepath.Join(t.TempDir(), "missing.ptx"), nil); err == nil {
		t.Fatal("OpenCUDA with a missing module: no error")
	}
	if n := stat(0); n != 0 {
		t.Errorf("%d primary-context retains left after a failed OpenCUDA", n)
	}
}

// TestCUDABackendLaunchWithoutGPU: a launch through the CUDA backend over
// the fake driver reaches the kernel the manifest's name maps to, with the
// dimensions, the dynamic shared memory and every argument at its size;
// a launch the kernel's limits refuse, or of a kernel the module lacks,
// is an error naming the kernel; the context goes back at Close.
func TestCUDABackendLaunchWithoutGPU(t *testing.T) {
	stat, _ := fakeDriver(t)
	b := openFakeModule(t, map[string]string{"k": "probe", "big": "bounded"})
	buf, err := b.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	n := []byte{7, 0, 0, 0}
	ptr := binary.LittleEndian.AppendUint64(nil, uint64(buf))
	st := bytes.Repeat([]byte{0xab}, 16)
	if err := b.Launch("k", [3]uint32{2, 3, 1}, [3]uint32{32, 2, 1}, 128, [][]byte{n, ptr, st}); err != nil {
		t.Fatalf("launch: %v", err)
	}
	raw := launchRecord(t, b)
	u32 := func(i int) uint32 { return binary.LittleEndian.Uint32(raw[4*i:]) }
	if g, bl, sh, np := [3]uint32{u32(0), u32(1), u32(2)}, [3]uint32{u32(3), u32(4), u32(5)}, u32(6), u32(7); g != [3]uint32{2, 3, 1} || bl != [3]uint32{32, 2, 1} || sh != 128 || np != 3 {
		t.Errorf("the kernel saw grid %v block %v shared %d, %d parameters", g, bl, sh, np)
	}
	params := raw[40 : 40+28]
	if !bytes.Equal(params[:4], n) || !bytes.Equal(params[4:12], ptr) || !bytes.Equal(params[12:], st) {
		t.Errorf("the kernel got parameters % x", params)
	}
	// "bounded" allows 256 threads a block, as __launch_bounds__(256).
	err = b.Launch("big", [3]uint32{1, 1, 1}, [3]uint32{512, 1, 1}, 0, [][]byte{ptr})
	if err == nil || !strings.Contains(err.Error(), "bounded") {
		t.Errorf("a launch past the kernel's limit: %v, want an error naming it", err)
	}
	if err := b.Launch("absent", [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, nil); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Errorf("a kernel the module lacks: %v, want an error naming it", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if n := stat(0); n != 0 {
		t.Errorf("%d primary-context retains left after Close", n)
	}
}

// TestNativeRunGivesTextureObjects: a run from the native module (the
// --unchecked and proven-race-free paths) hands a texture parameter the
// texture object, not the buffer's address. On the H100 the address made
// every tex1Dfetch of texture_fetch_ok read 0. Over the fake driver the
// "probe" kernel records its parameters; the fake's texture handles carry
// the format in their top bits (fakecuda.c).
func TestNativeRunGivesTextureObjects(t *testing.T) {
	fakeDriver(t)
	b := openFakeModule(t, map[string]string{"k": "probe"})
	defer b.Close()
	texData := make([]byte, launch.TextureHeader+4*8)
	params := []manifest.Param{{Name: "n", Type: "int", Size: 4}, {Name: "tex", Type: "cudaTextureObject_t", Size: 8}, {Name: "s", Size: 16}}
	l := Launch{
		Kernel: &manifest.Kernel{Name: "k", Params: params},
		Grid:   [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
		Args: []Arg{
			{Param: params[0], Data: []byte{5, 0, 0, 0}},
			{Param: params[1], Buffer: true, Data: texData, Texture: "float"},
			{Param: params[2], Data: make([]byte, 16)},
		},
	}
	if _, err := RunNative(b, l, Options{}); err != nil {
		t.Fatalf("RunNative: %v", err)
	}
	raw := launchRecord(t, b)
	if h := binary.LittleEndian.Uint64(raw[44:]); h>>48 != 0x20|1<<8 {
		t.Errorf("the texture parameter held %#x, not a float texture object", h)
	}
}

// openFakeModule opens the CUDA backend over the fake driver (fakeDriver
// must have pointed it there) with a module whose kernels are the fake's,
// named as symbols maps them.
func openFakeModule(t *testing.T, symbols map[string]string) *CUDABackend {
	t.Helper()
	ptx := filepath.Join(t.TempDir(), "k.ptx")
	if err := os.WriteFile(ptx, []byte("// fake PTX\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := OpenCUDA(ptx, symbols)
	if err != nil {
		t.Fatalf("OpenCUDA over the fake driver: %v", err)
	}
	return b
}

// launchRecord reads the fake's "launch_record": the last launch's
// dimensions and parameters (fakecuda.c).
func launchRecord(t *testing.T, b *CUDABackend) []byte {
	t.Helper()
	rec, size, err := b.Symbol("launch_record")
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, size)
	if err := b.Read(raw, rec); err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestCUDAProgressSaysJIT: over the fake driver, a module with no cubin is
// announced before the driver compiles it (at the cap it is compiled
// with), one with a cubin for the GPU and cap is not, and without a
// progress writer nothing is said.
func TestCUDAProgressSaysJIT(t *testing.T) {
	fakeDriver(t)
	dir := t.TempDir()
	ptx, blk := filepath.Join(dir, "k.ptx"), filepath.Join(dir, "k.blk.ptx")
	for _, f := range []string{ptx, blk} {
		if err := os.WriteFile(f, []byte("// fake PTX\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var said bytes.Buffer
	b, err := OpenCUDAProgress(ptx, nil, 100, &said)
	if err != nil {
		t.Fatalf("OpenCUDAProgress over the fake driver: %v", err)
	}
	defer b.Close()
	if b.arch == "" {
		t.Skip("the fake driver gives no compute capability")
	}
	want := "compiling k.ptx for " + b.arch + " at 96 registers"
	if !strings.Contains(said.String(), want) {
		t.Errorf("said %q, want %q", said.String(), want)
	}
	// Level 1's module with its cubin for this GPU and the home cap.
	if err := os.WriteFile(SASSPath(blk, b.arch, 96), []byte("a cubin"), 0o644); err != nil {
		t.Fatal(err)
	}
	said.Reset()
	if err := b.LoadModule(BlockModule, blk); err != nil {
		t.Fatal(err)
	}
	if said.Len() != 0 {
		t.Errorf("a module with its cubin: said %q, want nothing", said.String())
	}
	if err := os.Remove(SASSPath(blk, b.arch, 96)); err != nil {
		t.Fatal(err)
	}
	if err := b.LoadModule(BlockModule, blk); err != nil {
		t.Fatal(err)
	}
	if want := "compiling k.blk.ptx for " + b.arch + " at 96 registers"; !strings.Contains(said.String(), want) {
		t.Errorf("said %q, want %q", said.String(), want)
	}
	b.progress = nil
	b.sayJIT(blk, 64) // (must not write anywhere)
}
