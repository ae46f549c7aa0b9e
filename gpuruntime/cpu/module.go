package cpu

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// abiVersion is what ldc_cpu_abi_version() returns for the header embedded
// in this package; a module built from another header is refused.
const abiVersion = 3

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
		errBuf uintptr, errLen uint64, progress uintptr) int32

	mu     sync.RWMutex // Close waits for running launches
	closed bool

	runMu   sync.Mutex // guards running; a launch's scratch is freed only after it leaves
	running []*scratch // launches in progress, oldest first
}

// LaunchError is a kernel launch that ran and failed, or was refused by the
// engine: a deadlock, a failed assert, a bad launch configuration. Its
// message names the block and threads involved where there are some.
type LaunchError struct {
	Kernel string
	Msg    string
	// Fault is the out-of-bounds access that failed the launch, as the
	// engine recorded it; nil when the failure was something else.
	Fault *Fault
}

// Fault is a kernel thread's access outside every mapping it may touch.
type Fault struct {
	Block, Thread [3]uint32
	Addr          uint64
	Access        string // "read", "write", or "" when unknown
}

// faultRecordBytes is the size of struct FaultRecord (ldcheck_cpu.h), which
// ldc_cpu_launch writes at the start of the error buffer, before the message.
const faultRecordBytes = 40

func (e *LaunchError) Error() string { return fmt.Sprintf("kernel %s: %s", e.Kernel, e.Msg) }

// Open loads a library built by Compile. Loading the same path twice yields
// the same library (the dynamic loader shares it), so compile each version
// of a kernel to its own path. Its writable variables (__device__ ones)
// start as the file holds them, as a CUDA module's do when it is loaded:
// the loader never unloads these libraries (the runtime's function-local
// statics make them unique objects, which dlclose keeps), so a second
// Open in one process, a test's second run of a build, would otherwise
// see the values the first run left (a flag set by one block read as set
// from the start).
func Open(path string) (*Module, error) {
	abs, err := filepath.Abs(path) // a bare name would be searched for on the library path
	if err != nil {
		return nil, err
	}
	objects, images, err := dataSymbols(abs)
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
	for name, img := range images {
		mem, err := m.SymbolBytes(name)
		if err != nil {
			purego.Dlclose(h)
			return nil, err
		}
		copy(mem, img)
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
// SymbolBytes can hand out exactly a variable's bytes, and the file's
// bytes of those in .data and .bss (zeros) that no dynamic relocation
// touches, so that Open can put them back (a pointer's bytes in the file
// are not its value once loaded; RELRO sections are read-only then).
func dataSymbols(path string) (map[string]uint64, map[string][]byte, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return nil, nil, fmt.Errorf("reading symbols of %s: %w", path, err)
	}
	objects := make(map[string]uint64)
	images := make(map[string][]byte)
	data := map[elf.SectionIndex][]byte{}
	relocated, err := relocatedOffsets(f)
	if err != nil {
		return nil, nil, fmt.Errorf("reading relocations of %s: %w", path, err)
	}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_OBJECT || s.Section == elf.SHN_UNDEF {
			continue
		}
		objects[s.Name] = s.Size
		if s.Section >= elf.SHN_LORESERVE || int(s.Section) >= len(f.Sections) || s.Size == 0 {
			continue
		}
		sec := f.Sections[s.Section]
		if (sec.Name != ".data" && sec.Name != ".bss") || s.Value < sec.Addr || s.Value+s.Size > sec.Addr+sec.Size || relocated.overlaps(s.Value, s.Size) {
			continue
		}
		img := make([]byte, s.Size)
		if sec.Type != elf.SHT_NOBITS {
			b, ok := data[s.Section]
			if !ok {
				if b, err = sec.Data(); err != nil {
					return nil, nil, fmt.Errorf("reading section %s of %s: %w", sec.Name, path, err)
				}
				data[s.Section] = b
			}
			copy(img, b[s.Value-sec.Addr:])
		}
		images[s.Name] = img
	}
	return objects, images, nil
}

// offsets is a sorted list of the addresses of 8-byte words.
type offsets []uint64

// overlaps says whether one of the words meets bytes [at, at+n).
func (o offsets) overlaps(at, n uint64) bool {
	lo := uint64(0)
	if at >= 8 {
		lo = at - 7
	}
	i := sort.Search(len(o), func(i int) bool { return o[i] >= lo })
	return i < len(o) && o[i] < at+n
}

// relocatedOffsets lists the words the dynamic loader writes: the r_offset
// of every entry of the library's SHT_RELA sections (x86-64 and arm64
// relocations of data are 8-byte words).
func relocatedOffsets(f *elf.File) (offsets, error) {
	var out offsets
	for _, sec := range f.Sections {
		if sec.Type != elf.SHT_RELA {
			continue
		}
		b, err := sec.Data()
		if err != nil {
			return nil, err
		}
		for i := 0; i+24 <= len(b); i += 24 { // Elf64_Rela: offset, info, addend
			out = append(out, binary.LittleEndian.Uint64(b[i:]))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
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

	threads := int(block[0]) * int(block[1]) * int(block[2])
	nblocks := uint64(grid[0]) * uint64(grid[1]) * uint64(grid[2])
	n := Workers(threads, workers)
	if nblocks > 0 && uint64(n) > nblocks {
		n = int(nblocks)
	}
	s, err := newScratch(grid, block, args, n)
	if err != nil {
		return err
	}
	s.kernel, s.nblocks, s.started = kernel, nblocks, time.Now()
	m.runMu.Lock()
	m.running = append(m.running, s)
	m.runMu.Unlock()
	defer func() {
		m.runMu.Lock()
		for i, r := range m.running {
			if r == s {
				m.running = append(m.running[:i], m.running[i+1:]...)
				break
			}
		}
		m.runMu.Unlock()
		s.free()
	}()
	rc := m.launch(entry, s.addr(s.argv), s.addr(s.grid), s.addr(s.block),
		uint64(dynShared), int32(n), s.addr(s.errBuf), errBufLen, s.addr(s.progress))
	if rc != 0 {
		return &LaunchError{Kernel: kernel, Msg: s.message(), Fault: s.fault()}
	}
	return nil
}

// Workers is how many OS threads a launch of blocks of `threads` threads
// runs on, each running one block at a time, start to finish: `requested`,
// or one per CPU when requested <= 0, but at most 30000 / (2 x threads + 8),
// as every fiber stack with its guard page is two of the 65530 memory
// mappings a process may have (14 workers for 1024-thread blocks). A grid
// of fewer blocks uses fewer. So it is how many blocks of such a launch
// run at once.
func Workers(threads, requested int) int {
	n := requested
	if n <= 0 {
		n = runtime.NumCPU()
	}
	if n > 1<<20 {
		n = 1 << 20
	}
	if threads < 1 {
		threads = 1
	}
	if byMaps := 30000 / (2*threads + 8); n > byMaps {
		n = max(byMaps, 1)
	}
	return n
}

// Progress is how far a running launch got. The engine updates it as it
// goes (see LaunchProgress in the header); Running reads it.
type Progress struct {
	Kernel  string
	Started time.Time
	Blocks  uint64 // in the grid
	Done    uint64 // blocks finished
	Active  uint64 // blocks being run now (one per busy worker)
	// Barriers counts the __syncthreads completed so far, over all blocks:
	// with Done, it moves whenever the launch makes progress.
	Barriers uint64
	// Waiting is the number of threads waiting at a __syncthreads now.
	Waiting uint64
	Workers int // OS threads running blocks
}

// Running returns the progress of this module's launches that are running
// now, oldest first. It may be called from any goroutine at any time.
func (m *Module) Running() []Progress {
	m.runMu.Lock()
	defer m.runMu.Unlock()
	out := make([]Progress, 0, len(m.running))
	for _, s := range m.running {
		out = append(out, s.snapshot())
	}
	return out
}

// scratch is one launch's memory shared with C, mapped outside the Go heap
// because C is handed pointers into it: the void* array, the argument
// values it points at, grid and block, the error buffer and the progress
// counters (struct LaunchProgress: a 64-byte header, then one 64-byte slot
// per worker).
type scratch struct {
	mem                                 []byte
	grid, block, errBuf, progress, argv int // offsets into mem
	slots                               int

	kernel  string
	nblocks uint64
	started time.Time
}

const (
	progressHeader = 64 // nslots, nblocks, workers, padding; slot[0] follows (64 bytes each)
	progressSlot   = 64
)

func newScratch(grid, block [3]uint32, args [][]byte, workers int) (*scratch, error) {
	align := func(n int) int { return (n + 15) &^ 15 }
	s := &scratch{grid: 0, block: 16, errBuf: 32, slots: max(workers, 1)}
	s.progress = (s.errBuf + errBufLen + 63) &^ 63
	s.argv = s.progress + progressHeader + progressSlot*s.slots
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
	binary.NativeEndian.PutUint64(mem[s.progress:], uint64(s.slots))
	off := s.argv + align(8*len(args))
	for i, a := range args {
		copy(mem[off:], a)
		binary.NativeEndian.PutUint64(mem[s.argv+8*i:], uint64(s.addr(off)))
		off += align(len(a))
	}
	return s, nil
}

func (s *scratch) addr(off int) uintptr { return uintptr(unsafe.Pointer(&s.mem[0])) + uintptr(off) }

// word reads the counter at offset off, which a worker may be writing.
func (s *scratch) word(off int) uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.mem[off])))
}

func (s *scratch) snapshot() Progress {
	p := Progress{Kernel: s.kernel, Started: s.started, Blocks: s.nblocks}
	p.Workers = int(min(s.word(s.progress+16), uint64(s.slots)))
	for i := 0; i < s.slots; i++ {
		slot := s.progress + progressHeader + i*progressSlot
		p.Done += s.word(slot)
		p.Barriers += s.word(slot + 8)
		p.Waiting += s.word(slot + 16)
		if s.word(slot+24) != 0 {
			p.Active++
		}
	}
	return p
}

// fault decodes the engine's FaultRecord: kind, access, block[3],
// thread[3] (unsigned each), addr (8 bytes), little-endian.
func (s *scratch) fault() *Fault {
	b := s.mem[s.errBuf : s.errBuf+faultRecordBytes]
	u := func(i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	if u(0) != 1 {
		return nil
	}
	f := &Fault{Addr: binary.LittleEndian.Uint64(b[32:])}
	f.Access = map[uint32]string{1: "read", 2: "write"}[u(1)]
	for i := 0; i < 3; i++ {
		f.Block[i], f.Thread[i] = u(2+i), u(5+i)
	}
	return f
}

func (s *scratch) message() string {
	b := s.mem[s.errBuf+faultRecordBytes : s.errBuf+errBufLen]
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
