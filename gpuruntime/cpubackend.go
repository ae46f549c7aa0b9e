package gpuruntime

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
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

	// Progress, when set (a person's terminal), gets a short line now and
	// then about a launch that runs for long: which launch, how many of
	// its blocks are done.
	Progress io.Writer

	mu       sync.Mutex // guards launches and cur: Running is called from other goroutines
	launches int        // launches so far
	cur      *launchWatch
}

// launchWatch follows the launch running now, sampled by Launch's watcher.
type launchWatch struct {
	n       int
	kernel  string
	start   time.Time
	last    cpu.Progress
	changed time.Time // when a block or barrier was last seen to finish
	printed time.Time // the last progress line; zero before the first
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

// OnePass: the CPU library reads the context's one_pass as it runs.
func (b *CPUBackend) OnePass() bool { return true }

func (b *CPUBackend) Alloc(n int64) (DevPtr, error) {
	buf, err := cpu.Alloc(int(n))
	if err != nil {
		return 0, fmt.Errorf("allocate %d bytes on the CPU backend: %w", n, err)
	}
	p := DevPtr(buf.Ptr())
	b.bufs[p] = buf
	return p, nil
}

// AllocScratch poisons what a GPU leaves unspecified (see Backend).
func (b *CPUBackend) AllocScratch(n int64) (DevPtr, error) {
	p, err := b.Alloc(n)
	if err != nil {
		return 0, err
	}
	bs := b.bufs[p].Bytes()
	for i := range bs {
		bs[i] = 0xa5
	}
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
	now := time.Now()
	w := &launchWatch{kernel: name, start: now, changed: now}
	b.mu.Lock()
	b.launches++
	w.n = b.launches
	b.cur = w
	b.mu.Unlock()
	stop := make(chan struct{})
	watcher := make(chan struct{})
	go func() {
		defer close(watcher)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				b.sample()
			}
		}
	}()
	err := b.mod.Launch(name, grid, block, int(shared), args, b.Workers)
	close(stop)
	<-watcher
	b.mu.Lock()
	b.cur = nil
	b.mu.Unlock()
	if err == nil {
		return nil
	}
	fe, ok := faultOf(err)
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

// sample reads how far the running launch got, notes when it last moved,
// and shows it on b.Progress when the launch has run for a while.
func (b *CPUBackend) sample() {
	var p cpu.Progress
	found := false
	for _, r := range b.mod.Running() {
		p, found = r, true // one launch at a time: the latest is this backend's
	}
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.cur
	if w == nil || !found || p.Kernel != w.kernel {
		return
	}
	if p.Done != w.last.Done || p.Barriers != w.last.Barriers {
		w.changed = now
	}
	w.last = p
	// The first line after 2 s, then one every 5 s: quick launches stay quiet.
	if b.Progress != nil && now.Sub(w.start) >= 2*time.Second && (w.printed.IsZero() || now.Sub(w.printed) >= 5*time.Second-time.Second/2) {
		w.printed = now
		fmt.Fprintf(b.Progress, "    launch %d (%s): %d of %d blocks done\n", w.n, w.kernel, p.Done, p.Blocks)
	}
}

// LaunchProgress is how far the CPU backend got with the launch it runs.
type LaunchProgress struct {
	Launch       int // this backend's launches so far, the running one included
	Kernel       string
	Done, Blocks uint64        // blocks finished, blocks in the grid
	Waiting      uint64        // threads waiting at a __syncthreads now
	Elapsed      time.Duration // since the launch started
	// Idle is how long no block and no __syncthreads has finished (since
	// the launch started, if none has).
	Idle time.Duration
}

// Slow reports whether a launch that has kept the host waiting for
// `waited` is slow rather than hung: a block or a __syncthreads finished
// in the last half of that time. A hung kernel (threads waiting at a
// barrier that another thread never reaches, a spin loop on a block that
// never runs) finishes neither.
func (p LaunchProgress) Slow(waited time.Duration) bool {
	return p.Idle < waited/2
}

// Running returns how far the launch running now got; false when none
// runs. It may be called from any goroutine (a timeout's).
func (b *CPUBackend) Running() (LaunchProgress, bool) {
	b.sample()
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.cur
	if w == nil {
		return LaunchProgress{}, false
	}
	now := time.Now()
	return LaunchProgress{Launch: w.n, Kernel: w.kernel, Done: w.last.Done, Blocks: w.last.Blocks,
		Waiting: w.last.Waiting, Elapsed: now.Sub(w.start), Idle: now.Sub(w.changed)}, true
}

// Resident is how many blocks of such a launch run at once: the number of
// worker threads (cpu.Workers), each running one block start to finish.
func (b *CPUBackend) Resident(kernel string, block [3]uint32, shared int64) (int, error) {
	threads := int(block[0]) * int(block[1]) * int(block[2])
	if threads < 1 || threads > 1024 {
		return 0, fmt.Errorf("kernel %s: block (%d,%d,%d) has %d threads; the limit is 1024", kernel, block[0], block[1], block[2], threads)
	}
	return cpu.Workers(threads, b.Workers), nil
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

// Texture: the CPU library's tex1Dfetch reads the descriptor in front of
// the elements (ldc::Texture in ldcheck_cpu.h), so the object is the
// buffer's address.
func (b *CPUBackend) Texture(p DevPtr, size int64, elem, texel string) (uint64, error) {
	return uint64(p), nil
}

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
