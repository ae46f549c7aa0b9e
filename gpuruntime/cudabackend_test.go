package gpuruntime

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebitengine/purego"

	"ldcheck/gpuruntime/cuda"
	"ldcheck/gpuruntime/cuda/cudatest"
)

// fakeDriver builds package cuda's fake driver (host memory as device
// memory, counters of what is left retained or created), points
// OpenCUDA at it and returns its counters: stat(0) primary-context
// retains not released, stat(1) events not destroyed; failEvents(n) makes
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
	if err := b.Close(); err != nil {
		t.Fatal(err)
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
