package gpuruntime

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"ldcheck/gpuruntime/cuda"
	"ldcheck/gpuruntime/launch"
)

// CUDABackend runs kernels on an NVIDIA GPU through the driver API. The
// driver's current context is per OS thread, so the goroutine that opens
// the backend is locked to its thread until Close.
//
// The module is a cuda.Program: a launch whose block has more threads than
// the kernel's registers allow (an instrumented kernel of 130 registers and
// blocks of 512 or 1024 threads) runs from a copy of the module compiled
// with fewer registers (it spills), loaded once per register limit. Symbol
// addresses stay those of the first module, and are right for every launch:
// a launch from a register-limited copy gets every module-scope variable
// copied in before (ldc_g included, with the addresses of module variables
// in it, such as a __device__ target's, moved to the copy's) and back after,
// so reads and writes through Symbol's addresses see what the kernel did.
// See cuda.Program for the details and the limits of that.
type CUDABackend struct {
	d       *cuda.Driver
	dev     cuda.Device
	ctx     cuda.Context
	prog    *cuda.Program
	symbols map[string]string // kernel name -> module symbol
	Device  string
	arch    string // sm_XX, for the build's SASS
	// modules names the PTX files loaded: "" the home module, else the
	// kind of an alternate (LoadModule).
	modules map[string]string
	// progress, when not nil, hears of each module the driver is about
	// to compile (a wait of seconds to a minute at a run's start).
	progress io.Writer
	allocs   map[DevPtr]int64
	// textures are the texture objects made for arguments, destroyed at
	// Close (before their memory, which is in allocs).
	textures []cuda.TexObject
}

// OpenCUDA loads the driver, takes device 0's primary context and loads
// the PTX module. Errors for a missing driver or device wrap cuda.ErrNoDriver.
func OpenCUDA(ptxPath string, symbols map[string]string) (*CUDABackend, error) {
	return OpenCUDALimited(ptxPath, symbols, 0)
}

// OpenCUDALimited is OpenCUDA with the module's kernels compiled with at
// most maxRegisters registers per thread (0: the compiler's choice).
func OpenCUDALimited(ptxPath string, symbols map[string]string, maxRegisters int) (*CUDABackend, error) {
	return OpenCUDAProgress(ptxPath, symbols, maxRegisters, nil)
}

// OpenCUDAProgress is OpenCUDALimited that says on progress (nil:
// nowhere) which modules, then and in LoadModule, the driver compiles
// from PTX because the build has no SASS for them.
func OpenCUDAProgress(ptxPath string, symbols map[string]string, maxRegisters int, progress io.Writer) (*CUDABackend, error) {
	runtime.LockOSThread()
	b, err := openCUDA(ptxPath, symbols, maxRegisters, progress)
	if err != nil {
		runtime.UnlockOSThread()
	}
	return b, err
}

func openCUDA(ptxPath string, symbols map[string]string, maxRegisters int, progress io.Writer) (*CUDABackend, error) {
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
	// From here on a failure gives the context back: a caller that falls
	// back to the CPU would otherwise keep the GPU's context alive.
	ok := false
	defer func() {
		if !ok {
			d.DevicePrimaryCtxRelease(dev)
		}
	}()
	if err := d.CtxSetCurrent(ctx); err != nil {
		return nil, err
	}
	name, _ := d.DeviceGetName(dev)
	b := &CUDABackend{d: d, dev: dev, ctx: ctx, symbols: symbols, Device: name, allocs: map[DevPtr]int64{}, progress: progress}
	major, err1 := d.DeviceGetAttribute(cuda.AttrComputeCapabilityMajor, dev)
	minor, err2 := d.DeviceGetAttribute(cuda.AttrComputeCapabilityMinor, dev)
	if err1 == nil && err2 == nil {
		b.arch = fmt.Sprintf("sm_%d%d", major, minor)
	}
	if ptxPath == "" {
		ok = true
		return b, nil
	}
	image, err := os.ReadFile(ptxPath)
	if err != nil {
		return nil, err
	}
	prog, err := cuda.LoadProgramSASS(d, dev, image, b.sassFor(ptxPath, maxRegisters), maxRegisters)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", ptxPath, err)
	}
	b.prog = prog
	b.modules = map[string]string{"": filepath.Base(ptxPath)}
	ok = true
	return b, nil
}

// SASSPath is where a build keeps the cubin that ptxas made of its PTX
// module ptx for arch (sm_XX) with at most regs registers a thread (0: no
// cap). A run on such a GPU with that cap loads it instead of having the
// driver's JIT compile the PTX (tens of seconds for an instrumented
// module, on every first run of a build).
func SASSPath(ptx, arch string, regs int) string {
	return fmt.Sprintf("%s.%s.r%d.cubin", strings.TrimSuffix(ptx, ".ptx"), arch, regs&^7)
}

// readSASS is the build's cubin of ptxPath for this GPU and register cap:
// nil when there is none, or when it is older than the PTX (a PTX
// compiled again since; the driver would run stale code).
func (b *CUDABackend) readSASS(ptxPath string, regs int) []byte {
	if b.arch == "" {
		return nil
	}
	path := SASSPath(ptxPath, b.arch, regs)
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if pst, err := os.Stat(ptxPath); err != nil || st.ModTime().Before(pst.ModTime()) {
		return nil
	}
	sass, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return sass
}

func (b *CUDABackend) Name() string { return "cuda" }

func (b *CUDABackend) Alloc(n int64) (DevPtr, error) {
	p, err := b.AllocScratch(n)
	if err != nil {
		return 0, err
	}
	if err := b.d.MemsetD8(cuda.DevicePtr(p), 0, n); err != nil {
		b.Free(p)
		return 0, err
	}
	return p, nil
}

func (b *CUDABackend) AllocScratch(n int64) (DevPtr, error) {
	p, err := b.d.MemAlloc(n)
	if err != nil {
		if cuda.IsOutOfMemory(err) {
			free, total, _ := b.d.MemGetInfo()
			return 0, fmt.Errorf("out of device memory: %d bytes needed, %d of %d free (%w)", n, free, total, err)
		}
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

// Modules of a build that some launches run from instead of the checked
// one (LoadModule).
const (
	// BlockModule: level 1's launches (manifest BlockPTX).
	BlockModule = "block"
	// OnePassModule: level 2's launches in one pass a region (manifest
	// OnePassPTX).
	OnePassModule = "one-pass"
	// TestedModule: the plain launch of a run whose only checks are the
	// stride tests its proofs rest on (manifest TestedPTX): the user's
	// kernels with those tests, compiled without a register cap, as the
	// native module is.
	TestedModule = "tested"
)

// LoadModule loads a module of the build that the launches of one kind
// run from (BlockModule, OnePassModule; UseModule), with the checked
// module's register cap.
func (b *CUDABackend) LoadModule(kind, ptxPath string) error {
	if b.prog == nil {
		return fmt.Errorf("no module loaded")
	}
	return b.LoadModuleCapped(kind, ptxPath, b.prog.HomeLimit())
}

// LoadModuleCapped is LoadModule with at most regs registers a thread (0:
// no cap) in the module's kernels (OnePassRegisterCapFor). The tested
// module is never capped.
func (b *CUDABackend) LoadModuleCapped(kind, ptxPath string, regs int) error {
	if b.prog == nil {
		return fmt.Errorf("no module loaded")
	}
	image, err := os.ReadFile(ptxPath)
	if err != nil {
		return err
	}
	// The runtime writes the context (ldc_g) into every module; the
	// layout table never changes. The tested module has neither, and
	// the runtime writes where its tests record a failure.
	if kind == TestedModule {
		err = b.prog.LoadAlternateSASS(b.dev, kind, image, b.sassFor(ptxPath, 0), 0, "ldc_native_failed")
	} else {
		err = b.prog.LoadAlternateSASS(b.dev, kind, image, b.sassFor(ptxPath, regs), regs, "ldc_g", "ldc_ctx_layout")
	}
	if err != nil {
		return fmt.Errorf("load %s: %w", ptxPath, err)
	}
	b.modules[kind] = filepath.Base(ptxPath)
	return nil
}

// sassFor is readSASS, and where there is no cubin it tells progress,
// before the wait, that the driver is about to compile ptxPath: a person
// at a terminal otherwise sees nothing for up to a minute.
func (b *CUDABackend) sassFor(ptxPath string, regs int) []byte {
	sass := b.readSASS(ptxPath, regs)
	if sass == nil {
		b.sayJIT(ptxPath, regs)
	}
	return sass
}

func (b *CUDABackend) sayJIT(ptxPath string, regs int) {
	if b.progress == nil {
		return
	}
	gpu := "the GPU"
	if b.arch != "" {
		gpu = b.arch
	}
	at := "uncapped"
	if regs > 0 {
		at = fmt.Sprintf("at %d registers", regs&^7)
	}
	fmt.Fprintf(b.progress, "compiling %s for %s %s (the build has no SASS for that; seconds to a minute, less from the driver's cache)\n", filepath.Base(ptxPath), gpu, at)
}

// JITNote says, when the driver compiled PTX for this run for a second
// or more in all (no cubin of the build matched the GPU and the register
// cap), which modules and how long: the reason a first run is slow, and
// what avoids it. "" otherwise.
func (b *CUDABackend) JITNote() string {
	if b.prog == nil {
		return ""
	}
	return jitNote(b.prog.JITs(), b.modules, b.arch)
}

// jitNote is JITNote for the driver's compiles jits of the modules named
// in modules (by alternate kind, "" the home module) on a GPU of arch.
func jitNote(jits []cuda.JIT, modules map[string]string, arch string) string {
	var total time.Duration
	var parts []string
	for _, j := range jits {
		total += j.Took
		regs := "uncapped"
		if j.Limit > 0 {
			regs = fmt.Sprintf("at %d registers", j.Limit)
		}
		parts = append(parts, fmt.Sprintf("%s %s (%.1f s)", modules[j.Alternate], regs, j.Took.Seconds()))
	}
	if total < time.Second {
		return ""
	}
	gpu, flag := "this GPU", ""
	if arch != "" {
		gpu, flag = arch, " --arch "+arch
	}
	return fmt.Sprintf("the driver compiled PTX for this run, %.1f s in all (%s): the build has no SASS it could load for %s at those register caps (none, older than its PTX, or refused). ldcheck compile%s DIR, on a machine with nvcc and ptxas, makes SASS for the caps runs pick (%d and %d registers); a cap set with LDCHECK_MAX_REGISTERS is compiled by the driver (and kept in its cache)",
		total.Seconds(), strings.Join(parts, ", "), gpu, flag, RegisterCap, LargeBlockRegisterCap)
}

// OnePass reports whether the build's one-pass module is loaded.
func (b *CUDABackend) OnePass() bool {
	return b.prog != nil && b.prog.HasAlternate(OnePassModule)
}

// ModuleSymbol is the address of a module-scope variable in the module of
// that kind: ok false when there is none.
func (b *CUDABackend) ModuleSymbol(kind, name string) (DevPtr, int64, bool) {
	if b.prog == nil {
		return 0, 0, false
	}
	p, n, ok := b.prog.AlternateGlobal(kind, name)
	return DevPtr(p), n, ok
}

// UseModule says which module the user's kernels launch from: kind, when
// it is loaded, or "" for the checked one.
func (b *CUDABackend) UseModule(kind string) {
	if b.prog != nil {
		b.prog.UseAlternate(kind)
	}
}

// Symbol is the address of a module-scope variable in the first module,
// valid for launches from every register-limited copy (see CUDABackend).
func (b *CUDABackend) Symbol(name string) (DevPtr, int64, error) {
	if b.prog == nil {
		return 0, 0, fmt.Errorf("no module loaded: no variable %s", name)
	}
	p, n, err := b.prog.Global(name)
	return DevPtr(p), n, err
}

// symbol is the module's name for a kernel of the manifest.
func (b *CUDABackend) symbol(name string) (string, error) {
	if b.prog == nil {
		return "", fmt.Errorf("no module loaded: no kernel %s", name)
	}
	if s, ok := b.symbols[name]; ok && s != "" {
		return s, nil
	}
	return name, nil
}

func (b *CUDABackend) Launch(name string, grid, block [3]uint32, shared int64, args [][]byte) error {
	sym, err := b.symbol(name)
	if err != nil {
		return err
	}
	ptrs := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		ptrs[i] = unsafe.Pointer(&a[0])
	}
	g := [3]int{int(grid[0]), int(grid[1]), int(grid[2])}
	t := [3]int{int(block[0]), int(block[1]), int(block[2])}
	if err := b.prog.Launch(sym, g, t, int(shared), 0, ptrs); err != nil {
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
	sym, err := b.symbol(name)
	if err != nil {
		return 0, err
	}
	f, err := b.prog.Function(sym)
	if err != nil {
		return 0, err
	}
	// Static shared memory is the same in every register-limited copy.
	static, err := b.d.FuncGetAttribute(cuda.FuncAttrSharedSizeBytes, f)
	if err != nil {
		return 0, err
	}
	return int64(max - static), nil
}

// Resident is cuOccupancyMaxActiveBlocksPerMultiprocessor of the function a
// launch of such blocks runs (a register-limited copy's where it needs
// one) times the multiprocessors.
func (b *CUDABackend) Resident(kernel string, block [3]uint32, shared int64) (int, error) {
	sym, err := b.symbol(kernel)
	if err != nil {
		return 0, err
	}
	return b.prog.Resident(sym, int(block[0])*int(block[1])*int(block[2]), shared)
}

func (b *CUDABackend) Timer() func() (float64, error) {
	start, err1 := b.d.EventCreate(0)
	end, err2 := b.d.EventCreate(0)
	if err1 != nil || err2 != nil {
		// Whichever was made goes back now: a failing timer per phase
		// would otherwise leak an event per phase.
		if err1 == nil {
			b.d.EventDestroy(start)
		}
		if err2 == nil {
			b.d.EventDestroy(end)
		}
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

// textureFormats are the channel formats of --arg's TYPEs and of the
// vector types' components that a texture can hold (8-byte types cannot:
// a kernel fetches them as int2).
var textureFormats = map[string]cuda.ArrayFormat{
	"float": cuda.FormatFloat,
	"char":  cuda.FormatInt8, "signed char": cuda.FormatInt8, "int8": cuda.FormatInt8,
	"uchar": cuda.FormatUint8, "unsigned char": cuda.FormatUint8, "uint8": cuda.FormatUint8, "bool": cuda.FormatUint8,
	"short": cuda.FormatInt16, "int16": cuda.FormatInt16, "ushort": cuda.FormatUint16, "unsigned short": cuda.FormatUint16, "uint16": cuda.FormatUint16,
	"int": cuda.FormatInt32, "int32": cuda.FormatInt32, "uint": cuda.FormatUint32, "unsigned int": cuda.FormatUint32, "uint32": cuda.FormatUint32,
	"half": cuda.FormatHalf, "__half": cuda.FormatHalf,
}

// texelFormat is the channel format and count of a texture whose fetches
// return texel (float4: four float channels); "" means one channel of the
// buffer's TYPE elem.
func texelFormat(elem, texel string) (cuda.ArrayFormat, int, error) {
	if texel == "" {
		f, ok := textureFormats[elem]
		if !ok {
			return 0, 0, fmt.Errorf("a texture of %s elements: CUDA textures hold 1-, 2- and 4-byte elements (give a double texture as int2 and read it with __hiloint2double)", elem)
		}
		return f, 1, nil
	}
	base, n := texel, 1
	if k := len(texel) - 1; k > 0 && texel[k] >= '1' && texel[k] <= '4' {
		base, n = texel[:k], int(texel[k]-'0')
	}
	f, ok := textureFormats[base]
	if !ok || n == 3 {
		return 0, 0, fmt.Errorf("the kernel fetches %s texels: CUDA textures hold 1, 2 or 4 channels of 1-, 2- or 4-byte numbers", texel)
	}
	return f, n, nil
}

// CUDATextureFormat says why the CUDA backend cannot make a texture of
// --arg TYPE elem whose fetches return texel, or nil when it can.
func CUDATextureFormat(elem, texel string) error {
	_, _, err := texelFormat(elem, texel)
	return err
}

// Texture makes a linear texture object over a copy of the buffer's
// elements (cuMemAlloc's alignment is what textures ask for, an address
// past the descriptor is not), with the channels the kernel's fetches
// return.
func (b *CUDABackend) Texture(p DevPtr, size int64, elem, texel string) (uint64, error) {
	f, channels, err := texelFormat(elem, texel)
	if err != nil {
		return 0, err
	}
	n := size - launch.TextureHeader
	if n <= 0 {
		return 0, fmt.Errorf("texture buffer of %d bytes holds no elements", size)
	}
	q, err := b.Alloc(n)
	if err != nil {
		return 0, err
	}
	if err := b.Copy(q, p+launch.TextureHeader, n); err != nil {
		return 0, err
	}
	t, err := b.d.TexObjectCreateLinear(cuda.DevicePtr(q), n, f, channels)
	if err != nil {
		return 0, err
	}
	b.textures = append(b.textures, t)
	return uint64(t), nil
}

func (b *CUDABackend) Close() error {
	var errs []string
	for _, t := range b.textures {
		if err := b.d.TexObjectDestroy(t); err != nil {
			errs = append(errs, err.Error())
		}
	}
	for p := range b.allocs {
		if err := b.d.MemFree(cuda.DevicePtr(p)); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if b.prog != nil {
		b.prog.Close()
	}
	b.d.DevicePrimaryCtxRelease(b.dev)
	runtime.UnlockOSThread()
	if len(errs) > 0 {
		return fmt.Errorf("freeing device memory: %s", strings.Join(errs, "; "))
	}
	return nil
}
