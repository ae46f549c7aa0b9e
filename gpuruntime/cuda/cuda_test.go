package cuda

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"ldcheck/gpuruntime/cuda/cudatest"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

func TestLoadMissingLibrary(t *testing.T) {
	const path = "/nonexistent/ldcheck/libcuda.so.1"
	d, err := Load(path)
	if err == nil {
		t.Fatalf("Load(%q) = %v, nil; want an error", path, d)
	}
	if !errors.Is(err, ErrNoDriver) || !IsNoDriver(err) {
		t.Errorf("Load error %q does not match ErrNoDriver", err)
	}
	if !strings.Contains(err.Error(), "no CUDA driver") || !strings.Contains(err.Error(), path) {
		t.Errorf("Load error %q should say no CUDA driver was found and name %s", err, path)
	}
	if IsOutOfMemory(err) {
		t.Errorf("IsOutOfMemory(%q) = true", err)
	}
}

func TestLoadMissingLibraryFromEnv(t *testing.T) {
	const path = "/nonexistent/ldcheck/from-env/libcuda.so.1"
	t.Setenv(LibraryEnv, path)
	_, err := Load("")
	if !errors.Is(err, ErrNoDriver) || !strings.Contains(err.Error(), path) {
		t.Errorf("Load(\"\") with $%s=%s: error %v; want ErrNoDriver naming the path", LibraryEnv, path, err)
	}
}

// buildFake builds the fake driver (package cudatest) with extra C flags.
func buildFake(t *testing.T, flags ...string) string {
	t.Helper()
	return cudatest.Build(t, flags...)
}

func loadFake(t *testing.T) *Driver {
	t.Helper()
	d, err := Load(buildFake(t))
	if err != nil {
		t.Fatalf("Load(fake): %v", err)
	}
	return d
}

// asError returns err as a driver *Error, failing the test otherwise.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *cuda.Error", err, err)
	}
	return e
}

func TestMissingSymbol(t *testing.T) {
	lib := buildFake(t, "-DFAKE_OMIT_MEMSETD8")
	_, err := Load(lib)
	if err == nil {
		t.Fatal("Load of a library without cuMemsetD8_v2 succeeded")
	}
	if !strings.Contains(err.Error(), "cuMemsetD8_v2") || !strings.Contains(err.Error(), lib) {
		t.Errorf("error %q should name the missing symbol cuMemsetD8_v2 and the library", err)
	}
	if errors.Is(err, ErrNoDriver) {
		t.Errorf("a library missing a symbol is not ErrNoDriver: %v", err)
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY", Message: "out of memory", Call: "cuMemAlloc"}
	if got, want := e.Error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("allocating shadow memory: %w", e)
	if !IsOutOfMemory(wrapped) || IsNoDriver(wrapped) {
		t.Errorf("wrapped OOM: IsOutOfMemory=%v IsNoDriver=%v", IsOutOfMemory(wrapped), IsNoDriver(wrapped))
	}
	for _, code := range []int{CodeNoDevice, CodeNotInitialized, CodeStubLibrary} {
		if err := fmt.Errorf("x: %w", &Error{Code: code}); !errors.Is(err, ErrNoDriver) {
			t.Errorf("code %d does not match ErrNoDriver", code)
		}
	}
}

func TestFakeNotInitialized(t *testing.T) {
	d := loadFake(t)
	_, err := d.DeviceGetCount()
	e := asError(t, err)
	if e.Code != CodeNotInitialized || !IsNoDriver(err) {
		t.Errorf("DeviceGetCount before Init: %v; want CUDA_ERROR_NOT_INITIALIZED matching ErrNoDriver", err)
	}
}

func TestFakeDriver(t *testing.T) {
	d := loadFake(t)

	// The fake answers CUDA_ERROR_NO_DEVICE to a non-zero flag.
	err := d.Init(1)
	if !errors.Is(err, ErrNoDriver) {
		t.Errorf("Init(1) on the fake: %v; want an error matching ErrNoDriver", err)
	}
	if want := "cuInit: CUDA_ERROR_NO_DEVICE: fake: no CUDA-capable device is detected"; err == nil || err.Error() != want {
		t.Errorf("Init(1) error text %q, want %q", err, want)
	}
	if err := d.Init(0); err != nil {
		t.Fatalf("Init(0): %v", err)
	}

	t.Run("device", func(t *testing.T) {
		if v, err := d.DriverGetVersion(); err != nil || v != 12040 {
			t.Errorf("DriverGetVersion = %d, %v", v, err)
		}
		if n, err := d.DeviceGetCount(); err != nil || n != 2 {
			t.Errorf("DeviceGetCount = %d, %v", n, err)
		}
		dev, err := d.DeviceGet(1)
		if err != nil || dev != 1 {
			t.Fatalf("DeviceGet(1) = %d, %v", dev, err)
		}
		if name, err := d.DeviceGetName(dev); err != nil || name != "Fake GPU 1" {
			t.Errorf("DeviceGetName = %q, %v", name, err)
		}
		attrs := map[DeviceAttribute]int{
			AttrMaxThreadsPerBlock:           1024,
			AttrMaxSharedMemoryPerBlock:      48 << 10,
			AttrMaxSharedMemoryPerBlockOptin: 227 << 10,
			AttrMultiprocessorCount:          132,
			AttrWarpSize:                     32,
			AttrMaxThreadsPerMultiprocessor:  2048,
		}
		for a, want := range attrs {
			if got, err := d.DeviceGetAttribute(a, dev); err != nil || got != want {
				t.Errorf("DeviceGetAttribute(%d) = %d, %v; want %d", a, got, err, want)
			}
		}
		if maj, min, err := d.DeviceComputeCapability(dev); err != nil || maj != 9 || min != 0 {
			t.Errorf("DeviceComputeCapability = %d.%d, %v", maj, min, err)
		}
		if n, err := d.DeviceTotalMem(dev); err != nil || n != 80<<30 {
			t.Errorf("DeviceTotalMem = %d, %v", n, err)
		}
		_, err = d.DeviceGet(7)
		if e := asError(t, err); e.Code != CodeInvalidDevice || e.Call != "cuDeviceGet" ||
			e.Name != "CUDA_ERROR_INVALID_DEVICE" || e.Message != "fake: invalid device ordinal" {
			t.Errorf("DeviceGet(7): %+v", e)
		}
	})

	t.Run("context", func(t *testing.T) {
		// The current context is per OS thread, in the fake as in the driver.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		dev, _ := d.DeviceGet(0)
		ctx, err := d.DevicePrimaryCtxRetain(dev)
		if err != nil || ctx == 0 {
			t.Fatalf("DevicePrimaryCtxRetain = %#x, %v", ctx, err)
		}
		if err := d.CtxSetCurrent(0); err != nil {
			t.Fatal(err)
		}
		err = d.CtxSynchronize()
		if e := asError(t, err); e.Code != CodeInvalidContext {
			t.Errorf("CtxSynchronize without a context: %v", err)
		}
		if err := d.CtxSetCurrent(ctx); err != nil {
			t.Fatal(err)
		}
		if cur, err := d.CtxGetCurrent(); err != nil || cur != ctx {
			t.Errorf("CtxGetCurrent = %#x, %v; want %#x", cur, err, ctx)
		}
		if err := d.CtxSynchronize(); err != nil {
			t.Errorf("CtxSynchronize: %v", err)
		}
		if err := d.DevicePrimaryCtxRelease(dev); err != nil {
			t.Errorf("DevicePrimaryCtxRelease: %v", err)
		}
		own, err := d.CtxCreate(CtxSchedAuto, dev)
		if err != nil {
			t.Fatalf("CtxCreate: %v", err)
		}
		if err := d.CtxDestroy(own); err != nil {
			t.Errorf("CtxDestroy: %v", err)
		}
	})

	t.Run("memory", func(t *testing.T) {
		const n = 4096
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*7 + 3)
		}
		a, err := d.MemAlloc(n)
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemFree(a)
		b, err := d.MemAlloc(n)
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemFree(b)
		if err := d.MemcpyHtoD(a, unsafe.Pointer(&src[0]), n); err != nil {
			t.Fatal(err)
		}
		if err := d.MemcpyDtoD(b, a, n); err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, n)
		if err := d.MemcpyDtoH(unsafe.Pointer(&dst[0]), b, n); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(src, dst) {
			t.Error("bytes changed on the round trip HtoD, DtoD, DtoH")
		}

		if err := d.MemsetD8(a, 0x5A, n); err != nil {
			t.Fatal(err)
		}
		if err := CopyDtoH(d, dst, a); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dst, bytes.Repeat([]byte{0x5A}, n)) {
			t.Error("MemsetD8 did not set every byte")
		}

		fs := []float32{1.5, -2, float32(math.Pi), 1e30}
		if err := CopyHtoD(d, a, fs); err != nil {
			t.Fatal(err)
		}
		back := make([]float32, len(fs))
		if err := CopyDtoH(d, back, a); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(back) != fmt.Sprint(fs) {
			t.Errorf("CopyHtoD/CopyDtoH: %v, want %v", back, fs)
		}

		s, err := d.StreamCreate(StreamNonBlocking)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.MemcpyHtoDAsync(a, unsafe.Pointer(&src[0]), n, s); err != nil {
			t.Fatal(err)
		}
		if err := d.MemcpyDtoDAsync(b, a, n, s); err != nil {
			t.Fatal(err)
		}
		clear(dst)
		if err := d.MemcpyDtoHAsync(unsafe.Pointer(&dst[0]), b, n, s); err != nil {
			t.Fatal(err)
		}
		if err := d.StreamSynchronize(s); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(src, dst) {
			t.Error("bytes changed on the async round trip")
		}
		if err := d.StreamDestroy(s); err != nil {
			t.Error(err)
		}

		if free, total, err := d.MemGetInfo(); err != nil || free != 79<<30 || total != 80<<30 {
			t.Errorf("MemGetInfo = %d, %d, %v", free, total, err)
		}
		if _, err := d.MemAlloc(-1); err == nil {
			t.Error("MemAlloc(-1) succeeded")
		}
		if err := d.MemcpyHtoD(a, unsafe.Pointer(&src[0]), -5); err == nil {
			t.Error("MemcpyHtoD with a negative size succeeded")
		}
	})

	t.Run("errors", func(t *testing.T) {
		_, err := d.MemAlloc(2 << 40)
		if !IsOutOfMemory(err) {
			t.Errorf("MemAlloc(2 TiB) on the fake: %v; want out of memory", err)
		}
		if want := "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: fake: out of memory"; err == nil || err.Error() != want {
			t.Errorf("error text %q, want %q", err, want)
		}
		if IsNoDriver(err) {
			t.Errorf("out of memory matches ErrNoDriver")
		}

		p, err := d.MemAlloc(16)
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemFree(p)
		// A code that cuGetErrorName does not know.
		err = d.MemsetD8(p, 0xEE, 16)
		e := asError(t, err)
		if e.Code != 12345 || e.Name != "CUDA_ERROR_12345" || e.Call != "cuMemsetD8" {
			t.Errorf("unknown code: %+v", e)
		}
		if e := asError(t, d.MemFree(0)); e.Code != CodeInvalidValue || e.Name != "CUDA_ERROR_INVALID_VALUE" {
			t.Errorf("MemFree(0): %+v", e)
		}
	})

	t.Run("module", func(t *testing.T) {
		ptx := []byte(".version 8.0\n.target sm_80\n.address_size 64\n")
		m, info, err := d.ModuleLoadDataEx(ptx, &JITOptions{MaxRegisters: 32, LogVerbose: true, GenerateLineInfo: true})
		if err != nil {
			t.Fatalf("ModuleLoadDataEx: %v", err)
		}
		// The fake measures the image with strlen: a NUL must end it. Four
		// log options and three asked for.
		if want := fmt.Sprintf("fake JIT: %d bytes, 7 options", len(ptx)); info != want {
			t.Errorf("info log %q, want %q", info, want)
		}
		defer d.ModuleUnload(m)

		_, err = d.ModuleLoadData([]byte("FAIL .version 8.0\n"))
		e := asError(t, err)
		if e.Code != CodeInvalidPTX || e.Call != "cuModuleLoadDataEx" || e.Name != "CUDA_ERROR_INVALID_PTX" {
			t.Errorf("failed load: %+v", e)
		}
		if !strings.Contains(e.Log, "Unknown symbol 'bogus'") || !strings.Contains(err.Error(), "Unknown symbol 'bogus'") ||
			!strings.Contains(err.Error(), "Ptx assembly aborted") {
			t.Errorf("the JIT log is missing from the error: %q", err)
		}
		if _, err := d.ModuleLoadData(nil); err == nil {
			t.Error("ModuleLoadData(nil) succeeded")
		}

		_, err = d.ModuleGetFunction(m, "nosuchkernel")
		if e := asError(t, err); e.Code != CodeNotFound || !strings.Contains(err.Error(), "nosuchkernel") {
			t.Errorf("ModuleGetFunction(nosuchkernel): %v", err)
		}
		f, err := d.ModuleGetFunction(m, "probe")
		if err != nil {
			t.Fatal(err)
		}
		// probe wants 42 registers; the module was loaded with at most 32.
		if n, err := d.FuncGetAttribute(FuncAttrNumRegs, f); err != nil || n != 32 {
			t.Errorf("FuncGetAttribute(NumRegs) = %d, %v; want 32 (JITOptions.MaxRegisters)", n, err)
		}
		if err := d.FuncSetAttribute(f, FuncAttrMaxDynamicSharedSizeBytes, 100<<10); err != nil {
			t.Errorf("FuncSetAttribute: %v", err)
		}
		if err := d.FuncSetAttribute(f, FuncAttrMaxDynamicSharedSizeBytes, 1<<30); !HasCode(err, CodeInvalidValue) {
			t.Errorf("FuncSetAttribute(1 GiB): %v", err)
		}
		g, size, err := d.ModuleGetGlobal(m, "launch_record")
		if err != nil || g == 0 || size != int64(unsafe.Sizeof(launchRecord{})) {
			t.Fatalf("ModuleGetGlobal(launch_record) = %#x, %d, %v; want size %d", g, size, err, unsafe.Sizeof(launchRecord{}))
		}
		if _, _, err := d.ModuleGetGlobal(m, "nosuchglobal"); !HasCode(err, CodeNotFound) {
			t.Errorf("ModuleGetGlobal(nosuchglobal): %v", err)
		}
		testLaunch(t, d, m, f, g)
	})

	t.Run("events", func(t *testing.T) {
		start, err := d.EventCreate(EventDefault)
		if err != nil {
			t.Fatal(err)
		}
		end, err := d.EventCreate(EventBlockingSync)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.EventRecord(start, 0); err != nil {
			t.Fatal(err)
		}
		if err := d.EventRecord(end, 0); err != nil {
			t.Fatal(err)
		}
		if err := d.EventSynchronize(end); err != nil {
			t.Fatal(err)
		}
		if ms, err := d.EventElapsedTime(start, end); err != nil || ms < 0 || ms > 1000 {
			t.Errorf("EventElapsedTime = %v ms, %v", ms, err)
		}
		unrecorded, _ := d.EventCreate(EventDefault)
		if _, err := d.EventElapsedTime(unrecorded, end); !HasCode(err, CodeInvalidHandle) {
			t.Errorf("EventElapsedTime of an unrecorded event: %v", err)
		}
		for _, e := range []Event{start, end, unrecorded} {
			if err := d.EventDestroy(e); err != nil {
				t.Error(err)
			}
		}
		if err := d.EventDestroy(0); !HasCode(err, CodeInvalidHandle) {
			t.Errorf("EventDestroy(0): %v", err)
		}
	})
}

// launchRecord mirrors the fake's struct record.
type launchRecord struct {
	Grid, Block     [3]uint32
	Shared, NParams uint32
	Stream          uint64
	Params          [4 + 8 + 16]byte
}

// structArg is a 16-byte kernel parameter with fields of mixed sizes.
type structArg struct {
	A uint32
	B float32
	C uint64
}

func readRecord(t *testing.T, d *Driver, g DevicePtr) launchRecord {
	t.Helper()
	var r launchRecord
	if err := d.MemcpyDtoH(unsafe.Pointer(&r), g, int64(unsafe.Sizeof(r))); err != nil {
		t.Fatal(err)
	}
	return r
}

func testLaunch(t *testing.T, d *Driver, m Module, f Function, g DevicePtr) {
	s, err := d.StreamCreate(StreamDefault)
	if err != nil {
		t.Fatal(err)
	}
	defer d.StreamDestroy(s)

	n := int32(-7)
	ptr := DevicePtr(0x1122334455667788)
	st := structArg{A: 0xA1A2A3A4, B: 2.5, C: 0xC1C2C3C4C5C6C7C8}
	args := []unsafe.Pointer{unsafe.Pointer(&n), unsafe.Pointer(&ptr), unsafe.Pointer(&st)}
	if err := d.LaunchKernel(f, 3, 2, 1, 128, 1, 1, 100<<10, s, args); err != nil {
		t.Fatalf("LaunchKernel: %v", err)
	}
	r := readRecord(t, d, g)
	if r.Grid != [3]uint32{3, 2, 1} || r.Block != [3]uint32{128, 1, 1} || r.Shared != 100<<10 ||
		r.NParams != 3 || r.Stream != uint64(s) {
		t.Errorf("launch record %+v", r)
	}
	var want []byte
	want = binary.LittleEndian.AppendUint32(want, uint32(n))
	want = binary.LittleEndian.AppendUint64(want, uint64(ptr))
	want = binary.LittleEndian.AppendUint32(want, st.A)
	want = binary.LittleEndian.AppendUint32(want, math.Float32bits(st.B))
	want = binary.LittleEndian.AppendUint64(want, st.C)
	if !bytes.Equal(r.Params[:], want) {
		t.Errorf("kernel parameters as the driver read them:\n got % x\nwant % x", r.Params[:], want)
	}

	// Many launches with the garbage collector running in between: the
	// argument values and array must stay valid during each call.
	for i := range 200 {
		v := int32(i)
		p := DevicePtr(i) << 32
		st := structArg{A: uint32(i), C: uint64(i)}
		if err := d.LaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0,
			[]unsafe.Pointer{unsafe.Pointer(&v), unsafe.Pointer(&p), unsafe.Pointer(&st)}); err != nil {
			t.Fatal(err)
		}
		if i%50 == 0 {
			runtime.GC()
		}
		r := readRecord(t, d, g)
		if got := binary.LittleEndian.Uint32(r.Params[0:]); got != uint32(i) {
			t.Fatalf("launch %d: int parameter %d", i, got)
		}
		if got := binary.LittleEndian.Uint64(r.Params[4:]); got != uint64(p) {
			t.Fatalf("launch %d: pointer parameter %#x", i, got)
		}
	}

	noargs, err := d.ModuleGetFunction(m, "noargs")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.LaunchKernel(noargs, 1, 1, 1, 32, 1, 1, 0, 0, nil); err != nil {
		t.Errorf("LaunchKernel(noargs): %v", err)
	}
	if r := readRecord(t, d, g); r.NParams != 0 || r.Block[0] != 32 {
		t.Errorf("noargs launch record %+v", r)
	}
	// The fake, like the driver, refuses a kernel with parameters and no array.
	if err := d.LaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, nil); !HasCode(err, CodeInvalidValue) {
		t.Errorf("LaunchKernel(probe, no args): %v", err)
	}

	bad := []struct {
		name string
		err  error
	}{
		{"grid 0", d.LaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, 0, args)},
		{"block -1", d.LaunchKernel(f, 1, 1, 1, -1, 1, 1, 0, 0, args)},
		{"grid 2^32", d.LaunchKernel(f, 1<<32, 1, 1, 1, 1, 1, 0, 0, args)},
		{"shared -1", d.LaunchKernel(f, 1, 1, 1, 1, 1, 1, -1, 0, args)},
		{"nil argument", d.LaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, []unsafe.Pointer{unsafe.Pointer(&n), nil, unsafe.Pointer(&st)})},
	}
	for _, b := range bad {
		if b.err == nil || !strings.HasPrefix(b.err.Error(), "cuLaunchKernel: ") {
			t.Errorf("LaunchKernel with %s: %v; want an error", b.name, b.err)
		}
	}
}
