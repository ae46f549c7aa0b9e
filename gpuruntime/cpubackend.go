package gpuruntime

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"ldcheck/gpuruntime/cpu"
)

// CPUBackend runs kernels on the host with gpuruntime/cpu's fiber engine.
// Device memory is anonymous mmap outside the Go heap.
type CPUBackend struct {
	mod     *cpu.Module
	bufs    map[DevPtr]cpu.Buffer
	Workers int // OS threads running blocks; <= 0 means one per CPU
	known   map[string]bool
}

// OpenCPU loads the CPU library of a build.
func OpenCPU(lib string) (*CPUBackend, error) {
	mod, err := cpu.Open(lib)
	if err != nil {
		return nil, err
	}
	return &CPUBackend{mod: mod, bufs: map[DevPtr]cpu.Buffer{}, known: map[string]bool{}}, nil
}

func (b *CPUBackend) Name() string { return "cpu" }

func (b *CPUBackend) Alloc(n int64) (DevPtr, error) {
	buf, err := cpu.Alloc(int(n))
	if err != nil {
		return 0, fmt.Errorf("allocate %d bytes on the CPU backend: %w", n, err)
	}
	p := DevPtr(buf.Ptr())
	b.bufs[p] = buf
	return p, nil
}

func (b *CPUBackend) Free(p DevPtr) error {
	buf, ok := b.bufs[p]
	if !ok {
		return fmt.Errorf("free of unknown pointer %#x", p)
	}
	delete(b.bufs, p)
	return buf.Free()
}

// bytesAt returns the n bytes at p, inside an allocation or a module variable.
func (b *CPUBackend) bytesAt(p DevPtr, n int64) ([]byte, error) {
	keys := make([]DevPtr, 0, len(b.bufs))
	for k := range b.bufs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	i := sort.Search(len(keys), func(i int) bool { return keys[i] > p }) - 1
	if i >= 0 {
		buf := b.bufs[keys[i]]
		off := int64(p - keys[i])
		if off+n <= int64(buf.Len()) {
			return buf.Bytes()[off : off+n], nil
		}
	}
	return nil, fmt.Errorf("CPU backend: %d bytes at %#x are outside every allocation", n, p)
}

func (b *CPUBackend) Write(dst DevPtr, src []byte) error {
	d, err := b.hostView(dst, int64(len(src)))
	if err != nil {
		return err
	}
	copy(d, src)
	return nil
}

func (b *CPUBackend) Read(dst []byte, src DevPtr) error {
	s, err := b.hostView(src, int64(len(dst)))
	if err != nil {
		return err
	}
	copy(dst, s)
	return nil
}

func (b *CPUBackend) Copy(dst, src DevPtr, n int64) error {
	d, err := b.hostView(dst, n)
	if err != nil {
		return err
	}
	s, err := b.hostView(src, n)
	if err != nil {
		return err
	}
	copy(d, s)
	return nil
}

func (b *CPUBackend) Memset(dst DevPtr, v byte, n int64) error {
	d, err := b.hostView(dst, n)
	if err != nil {
		return err
	}
	for i := range d {
		d[i] = v
	}
	return nil
}

// hostView finds memory either in an allocation or in a module variable
// (the module's globals live in the library's data segment).
func (b *CPUBackend) hostView(p DevPtr, n int64) ([]byte, error) {
	if v, err := b.bytesAt(p, n); err == nil {
		return v, nil
	}
	for _, name := range b.symbolNames() {
		addr, err := b.mod.Symbol(name)
		if err != nil {
			continue
		}
		all, err := b.mod.SymbolBytes(name)
		if err != nil {
			continue
		}
		if uint64(p) >= uint64(addr) && uint64(p)+uint64(n) <= uint64(addr)+uint64(len(all)) {
			off := uint64(p) - uint64(addr)
			return all[off : off+uint64(n)], nil
		}
	}
	return nil, fmt.Errorf("CPU backend: %d bytes at %#x are outside every allocation", n, p)
}

// symbolNames are the module variables the host may address directly.
func (b *CPUBackend) symbolNames() []string {
	names := []string{"ldc_g"}
	for name := range b.known {
		names = append(names, name)
	}
	return names
}

func (b *CPUBackend) Symbol(name string) (DevPtr, int64, error) {
	all, err := b.mod.SymbolBytes(name)
	if err != nil {
		return 0, 0, err
	}
	addr, err := b.mod.Symbol(name)
	if err != nil {
		return 0, 0, err
	}
	b.known[name] = true
	return DevPtr(addr), int64(len(all)), nil
}

func (b *CPUBackend) Launch(name string, grid, block [3]uint32, shared int64, args [][]byte) error {
	err := b.mod.Launch(name, grid, block, int(shared), args, b.Workers)
	if err == nil {
		return nil
	}
	fe, ok := parseFault(err)
	if !ok {
		return err
	}
	for p, buf := range b.bufs {
		if off, in := buf.Locate(uintptr(fe.Addr)); in {
			fe.Base, fe.Offset = p, off
			break
		}
	}
	return fe
}

// FreeMemory reads MemAvailable from /proc/meminfo.
func (b *CPUBackend) FreeMemory() (int64, error) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 1 << 62, nil // unknown: do not refuse
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb << 10, nil
			}
		}
	}
	return 1 << 62, nil
}

// SharedLimit mimics a current NVIDIA GPU's opt-in limit (227 KiB), so
// that the CPU backend places copies as a GPU would.
func (b *CPUBackend) SharedLimit(name string) (int64, error) { return 227 << 10, nil }

func (b *CPUBackend) Timer() func() (float64, error) {
	start := time.Now()
	return func() (float64, error) { return time.Since(start).Seconds(), nil }
}

func (b *CPUBackend) Close() error {
	for p, buf := range b.bufs {
		buf.Free()
		delete(b.bufs, p)
	}
	return b.mod.Close()
}
