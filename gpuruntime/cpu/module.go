package cpu

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"

	"github.com/ebitengine/purego"
)

// abiVersion is what ldc_cpu_abi_version() returns for the header embedded
// in this package; a module built from another header is refused.
const abiVersion = 1

// errBufLen bounds the one-line message ldc_cpu_launch writes on failure.
const errBufLen = 2048

// A Module is a loaded kernel library. Its methods may be called from
// several goroutines; kernels launched concurrently share the module's
// __device__ variables.
type Module struct {
	path    string
	handle  uintptr
	objects map[string]uint64 // exported data symbols and their sizes

	launch func(entry, args, grid, block uintptr, dynShared uint64, workers int32,
		errBuf uintptr, errLen uint64) int32

	mu     sync.RWMutex // Close waits for running launches
	closed bool
}

// LaunchError is a kernel launch that ran and failed, or was refused by the
// engine: a deadlock, a failed assert, a bad launch configuration. Its
// message names the block and threads involved where there are some.
type LaunchError struct {
	Kernel string
	Msg    string
}

func (e *LaunchError) Error() string { return fmt.Sprintf("kernel %s: %s", e.Kernel, e.Msg) }

// Open loads a library built by Compile. Loading the same path twice yields
// the same library (the dynamic loader shares it), so compile each version
// of a kernel to its own path.
func Open(path string) (*Module, error) {
	abs, err := filepath.Abs(path) // a bare name would be searched for on the library path
	if err != nil {
		return nil, err
	}
	objects, err := dataSymbols(abs)
	if err != nil {
		return nil, err
	}
	h, err := purego.Dlopen(abs, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	m := &Module{path: abs, handle: h, objects: objects}
	if err := m.bind(); err != nil {
		purego.Dlclose(h)
		return nil, err
	}
	return m, nil
}

func (m *Module) bind() error {
	version, err := purego.Dlsym(m.handle, "ldc_cpu_abi_version")
	if err != nil {
		return fmt.Errorf("%s was not built by the CPU backend (no ldc_cpu_abi_version): %w", m.path, err)
	}
	if v, _, _ := purego.SyscallN(version); int32(v) != abiVersion {
		return fmt.Errorf("%s was built with CPU backend ABI %d, this ldcheck speaks %d: rebuild it", m.path, int32(v), abiVersion)
	}
	launch, err := purego.Dlsym(m.handle, "ldc_cpu_launch")
	if err != nil {
		return fmt.Errorf("%s has no ldc_cpu_launch: %w", m.path, err)
	}
	purego.RegisterFunc(&m.launch, launch)
	return nil
}

// dataSymbols reads the sizes of the library's exported variables, so that
// SymbolBytes can hand out exactly a variable's bytes.
func dataSymbols(path string) (map[string]uint64, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, fmt.Errorf("reading symbols of %s: %w", path, err)
	}
	objects := make(map[string]uint64)
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_OBJECT && s.Section != elf.SHN_UNDEF {
			objects[s.Name] = s.Size
		}
	}
	return objects, nil
}

// Close unloads the library. Buffers stay valid; slices from SymbolBytes
// do not.
func (m *Module) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	return purego.Dlclose(m.handle)
}

// Symbol returns the address of an exported symbol of the module, such as a
// __device__ variable (global namespace names are not mangled).
func (m *Module) Symbol(name string) (uintptr, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return 0, errors.New("module is closed")
	}
	addr, err := purego.Dlsym(m.handle, name)
	if err != nil {
		return 0, fmt.Errorf("symbol %q not found in %s: %w", name, m.path, err)
	}
	return addr, nil
}

// SymbolBytes returns the memory of an exported variable (a __device__ or
// non-const __constant__ variable) as a slice aliasing the module, for
// copying to and from it. It is valid until Close.
func (m *Module) SymbolBytes(name string) ([]byte, error) {
	size, ok := m.objects[name]
	if !ok {
		return nil, fmt.Errorf("%q is not an exported variable of %s", name, m.path)
	}
	addr, err := m.Symbol(name)
	if err != nil {
		return nil, err
	}
	if size == 0 {
		return []byte{}, nil
	}
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), int(size)), nil
}

// Launch runs kernel over grid x block threads and waits for it. args holds
// each kernel parameter's bytes as the C ABI lays it out (a pointer is its
// 8-byte address, e.g. of a Buffer); workers <= 0 means one OS thread per
// CPU. A failure of the kernel itself is a *LaunchError.
func (m *Module) Launch(kernel string, grid, block [3]uint32, dynShared int, args [][]byte, workers int) error {
	if !isIdentifier(kernel) {
		return fmt.Errorf("kernel name %q is not a C identifier", kernel)
	}
	if dynShared < 0 {
		return fmt.Errorf("kernel %s: negative dynamic shared memory size %d", kernel, dynShared)
	}
	if workers > 1<<20 {
		workers = 1 << 20
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return errors.New("module is closed")
	}
	entry, err := purego.Dlsym(m.handle, "ldc_entry_"+kernel)
	if err != nil {
		return fmt.Errorf("kernel %s is not in %s (no ldc_entry_%s)", kernel, m.path, kernel)
	}

	s, err := newScratch(grid, block, args)
	if err != nil {
		return err
	}
	defer s.free()
	rc := m.launch(entry, s.addr(s.argv), s.addr(s.grid), s.addr(s.block),
		uint64(dynShared), int32(workers), s.addr(s.errBuf), errBufLen)
	if rc != 0 {
		return &LaunchError{Kernel: kernel, Msg: s.message()}
	}
	return nil
}

// scratch is one launch's memory shared with C, mapped outside the Go heap
// because C is handed pointers into it: the void* array, the argument
// values it points at, grid and block, and the error buffer.
type scratch struct {
	mem                       []byte
	grid, block, errBuf, argv int // offsets into mem
}

func newScratch(grid, block [3]uint32, args [][]byte) (*scratch, error) {
	align := func(n int) int { return (n + 15) &^ 15 }
	s := &scratch{grid: 0, block: 16, errBuf: 32}
	s.argv = s.errBuf + errBufLen
	size := s.argv + align(8*len(args))
	for _, a := range args {
		size += align(len(a))
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("mapping %d bytes for launch arguments: %w", size, err)
	}
	s.mem = mem
	for i := 0; i < 3; i++ {
		binary.NativeEndian.PutUint32(mem[s.grid+4*i:], grid[i])
		binary.NativeEndian.PutUint32(mem[s.block+4*i:], block[i])
	}
	off := s.argv + align(8*len(args))
	for i, a := range args {
		copy(mem[off:], a)
		binary.NativeEndian.PutUint64(mem[s.argv+8*i:], uint64(s.addr(off)))
		off += align(len(a))
	}
	return s, nil
}

func (s *scratch) addr(off int) uintptr { return uintptr(unsafe.Pointer(&s.mem[0])) + uintptr(off) }

func (s *scratch) message() string {
	b := s.mem[s.errBuf : s.errBuf+errBufLen]
	if i := bytesIndexZero(b); i >= 0 {
		b = b[:i]
	}
	if len(b) == 0 {
		return "launch failed (no message)"
	}
	return string(b)
}

func (s *scratch) free() { syscall.Munmap(s.mem) }

func bytesIndexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
