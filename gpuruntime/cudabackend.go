package gpuruntime

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"ldcheck/gpuruntime/cuda"
)

// CUDABackend runs kernels on an NVIDIA GPU through the driver API. The
// driver's current context is per OS thread, so the goroutine that opens
// the backend is locked to its thread until Close.
type CUDABackend struct {
	d       *cuda.Driver
	dev     cuda.Device
	ctx     cuda.Context
	mod     cuda.Module
	symbols map[string]string // kernel name -> module symbol
	funcs   map[string]cuda.Function
	Device  string
	allocs  map[DevPtr]int64
}

// OpenCUDA loads the driver, takes device 0's primary context and loads
// the PTX module. Errors for a missing driver or device wrap cuda.ErrNoDriver.
func OpenCUDA(ptxPath string, symbols map[string]string) (*CUDABackend, error) {
	runtime.LockOSThread()
	b, err := openCUDA(ptxPath, symbols)
	if err != nil {
		runtime.UnlockOSThread()
	}
	return b, err
}

func openCUDA(ptxPath string, symbols map[string]string) (*CUDABackend, error) {
	d, err := cuda.Load("")
	if err != nil {
		return nil, err
	}
	if err := d.Init(0); err != nil {
		return nil, err
	}
	n, err := d.DeviceGetCount()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: the CUDA driver sees no GPU", cuda.ErrNoDriver)
	}
	dev, err := d.DeviceGet(0)
	if err != nil {
		return nil, err
	}
	ctx, err := d.DevicePrimaryCtxRetain(dev)
	if err != nil {
		return nil, err
	}
	if err := d.CtxSetCurrent(ctx); err != nil {
		return nil, err
	}
	name, _ := d.DeviceGetName(dev)
	b := &CUDABackend{d: d, dev: dev, ctx: ctx, symbols: symbols, funcs: map[string]cuda.Function{}, Device: name, allocs: map[DevPtr]int64{}}
	if ptxPath == "" {
		return b, nil
	}
	image, err := os.ReadFile(ptxPath)
	if err != nil {
		return nil, err
	}
	mod, _, err := d.ModuleLoadDataEx(image, nil)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", ptxPath, err)
	}
	b.mod = mod
	return b, nil
}

func (b *CUDABackend) Name() string { return "cuda" }

func (b *CUDABackend) Alloc(n int64) (DevPtr, error) {
	p, err := b.d.MemAlloc(n)
	if err != nil {
		if cuda.IsOutOfMemory(err) {
			free, total, _ := b.d.MemGetInfo()
			return 0, fmt.Errorf("out of device memory: %d bytes needed, %d of %d free (%w)", n, free, total, err)
		}
		return 0, err
	}
	if err := b.d.MemsetD8(p, 0, n); err != nil {
		return 0, err
	}
	b.allocs[DevPtr(p)] = n
	return DevPtr(p), nil
}

func (b *CUDABackend) Free(p DevPtr) error {
	delete(b.allocs, p)
	return b.d.MemFree(cuda.DevicePtr(p))
}

func (b *CUDABackend) Write(dst DevPtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return b.d.MemcpyHtoD(cuda.DevicePtr(dst), unsafe.Pointer(&src[0]), int64(len(src)))
}

func (b *CUDABackend) Read(dst []byte, src DevPtr) error {
	if len(dst) == 0 {
		return nil
	}
	return b.d.MemcpyDtoH(unsafe.Pointer(&dst[0]), cuda.DevicePtr(src), int64(len(dst)))
}

func (b *CUDABackend) Copy(dst, src DevPtr, n int64) error {
	return b.d.MemcpyDtoD(cuda.DevicePtr(dst), cuda.DevicePtr(src), n)
}

func (b *CUDABackend) Memset(dst DevPtr, v byte, n int64) error {
	return b.d.MemsetD8(cuda.DevicePtr(dst), v, n)
}

func (b *CUDABackend) Symbol(name string) (DevPtr, int64, error) {
	p, n, err := b.d.ModuleGetGlobal(b.mod, name)
	return DevPtr(p), n, err
}

func (b *CUDABackend) function(name string) (cuda.Function, error) {
	if f, ok := b.funcs[name]; ok {
		return f, nil
	}
	sym := name
	if s, ok := b.symbols[name]; ok && s != "" {
		sym = s
	}
	f, err := b.d.ModuleGetFunction(b.mod, sym)
	if err != nil {
		return 0, err
	}
	b.funcs[name] = f
	return f, nil
}

func (b *CUDABackend) Launch(name string, grid, block [3]uint32, shared int64, args [][]byte) error {
	f, err := b.function(name)
	if err != nil {
		return err
	}
	if shared > 48<<10 {
		if err := b.d.FuncSetAttribute(f, cuda.FuncAttrMaxDynamicSharedSizeBytes, int(shared)); err != nil {
			return err
		}
	}
	ptrs := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		ptrs[i] = unsafe.Pointer(&a[0])
	}
	if err := b.d.LaunchKernel(f, int(grid[0]), int(grid[1]), int(grid[2]), int(block[0]), int(block[1]), int(block[2]), int(shared), 0, ptrs); err != nil {
		return fmt.Errorf("launch %s: %w", name, err)
	}
	// Faults (illegal address, trap) surface at the next synchronisation.
	if err := b.d.CtxSynchronize(); err != nil {
		return fmt.Errorf("kernel %s failed on the GPU: %w", name, err)
	}
	return nil
}

func (b *CUDABackend) FreeMemory() (int64, error) {
	free, _, err := b.d.MemGetInfo()
	return free, err
}

func (b *CUDABackend) SharedLimit(name string) (int64, error) {
	max, err := b.d.DeviceGetAttribute(cuda.AttrMaxSharedMemoryPerBlockOptin, b.dev)
	if err != nil {
		return 0, err
	}
	f, err := b.function(name)
	if err != nil {
		return 0, err
	}
	static, err := b.d.FuncGetAttribute(cuda.FuncAttrSharedSizeBytes, f)
	if err != nil {
		return 0, err
	}
	return int64(max - static), nil
}

func (b *CUDABackend) Timer() func() (float64, error) {
	start, err1 := b.d.EventCreate(0)
	end, err2 := b.d.EventCreate(0)
	if err1 != nil || err2 != nil {
		return func() (float64, error) { return 0, fmt.Errorf("cuda events: %v %v", err1, err2) }
	}
	b.d.EventRecord(start, 0)
	return func() (float64, error) {
		defer b.d.EventDestroy(start)
		defer b.d.EventDestroy(end)
		if err := b.d.EventRecord(end, 0); err != nil {
			return 0, err
		}
		if err := b.d.EventSynchronize(end); err != nil {
			return 0, err
		}
		ms, err := b.d.EventElapsedTime(start, end)
		return float64(ms) / 1000, err
	}
}

func (b *CUDABackend) Close() error {
	var errs []string
	for p := range b.allocs {
		if err := b.d.MemFree(cuda.DevicePtr(p)); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if b.mod != 0 {
		b.d.ModuleUnload(b.mod)
	}
	b.d.DevicePrimaryCtxRelease(b.dev)
	runtime.UnlockOSThread()
	if len(errs) > 0 {
		return fmt.Errorf("freeing device memory: %s", strings.Join(errs, "; "))
	}
	return nil
}
