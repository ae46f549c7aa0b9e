package gpuruntime

import (
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"ldcheck/privatize/manifest"
)

// Arg is one kernel argument: a buffer (Data is its initial contents) or a
// scalar (Data is its bytes).
type Arg struct {
	Param  manifest.Param
	Buffer bool
	Data   []byte
}

// Launch is one kernel launch to check.
type Launch struct {
	Source      string // the kernel's source file, for reports
	Kernel      *manifest.Kernel
	Grid, Block [3]uint32
	Shared      int64
	Args        []Arg
}

func (l Launch) blocks() int  { return int(l.Grid[0] * l.Grid[1] * l.Grid[2]) }
func (l Launch) threads() int { return int(l.Block[0] * l.Block[1] * l.Block[2]) }
func (l Launch) warps() int   { return (l.threads() + 31) / 32 }

// Options tune a checked run.
type Options struct {
	All       bool      // keep going after the first racy level
	Unchecked bool      // run the kernel as written, once, without checking
	WarmUp    bool      // run the kernel once, unchecked and untimed, first (module loading, caches)
	Progress  io.Writer // phase names as they start; nil for quiet
}

// Phase is one timed step, as in LDetector's Figure 8.
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	// Bytes the phase's check kernels read and wrote (0 for other phases),
	// for their achieved bandwidth.
	Bytes int64 `json:"bytes,omitempty"`
}

// Result is the outcome of a checked run.
type Result struct {
	Races []Race `json:"races"`
	// Outputs holds every buffer argument after the run, by parameter name.
	Outputs map[string][]byte `json:"-"`
	Phases  []Phase           `json:"phases"`
	// Levels lists the levels run: "block" (inter-block, unit = block) and
	// "warp" (inter-warp, at every barrier).
	Levels        []string `json:"levels"`
	BytesCompared int64    `json:"bytes_compared"`
	Unchecked     string   `json:"unchecked,omitempty"` // why the kernel ran unchecked
	Truncated     bool     `json:"truncated,omitempty"` // more races than records
}

const maxRecords = 1 << 16

// alloc is a global allocation the run privatizes (a target).
type alloc struct {
	target  manifest.Target
	base    DevPtr
	size    int64
	copies  DevPtr
	initial []byte
}

// checkRun holds one checked run's device state.
type checkRun struct {
	named   map[DevPtr]named // buffers and copies, to name a fault in them
	b       Backend
	l       Launch
	opt     Options
	res     *Result
	bufs    []DevPtr // per argument, 0 for scalars
	args    [][]byte // launch arguments (pointers and scalars)
	allocs  []*alloc
	records DevPtr
	nrec    DevPtr
	alog    DevPtr
	aover   DevPtr
	ctxAddr DevPtr
	temp    []DevPtr
	shared  Ctx // the shared-target table and scratch, for both levels
	// sharedLaunch is the dynamic shared memory checked launches ask for
	// when the copies live there (0: the kernel's own, l.Shared).
	sharedLaunch int64
	// writerDev holds level 1's writer map of each global target, on the
	// device, for level 2's stray-write check.
	writerDev []DevPtr
}

func (r *checkRun) phase(name string, f func() error) error {
	if r.opt.Progress != nil {
		fmt.Fprintf(r.opt.Progress, "  %s...\n", name)
	}
	done := r.b.Timer()
	if err := f(); err != nil {
		return err
	}
	secs, err := done()
	if err != nil {
		return err
	}
	r.res.Phases = append(r.res.Phases, Phase{Name: name, Seconds: secs})
	return nil
}

func (r *checkRun) alloc(n int64) (DevPtr, error) {
	if n == 0 {
		n = 1
	}
	p, err := r.b.Alloc(n)
	if err == nil {
		r.temp = append(r.temp, p)
	}
	return p, err
}

func (r *checkRun) nameCopies(al *alloc, units int, level string) {
	n := named{name: al.target.Name, size: al.size, units: units, level: level}
	if al.target.Kind == "param" {
		p := r.l.Args[al.target.Param].Param
		n.param = &p
	}
	r.named[al.copies] = n
}

func u64(v uint64) []byte { b := make([]byte, 8); binary.LittleEndian.PutUint64(b, v); return b }
func u32(v uint32) []byte { b := make([]byte, 4); binary.LittleEndian.PutUint32(b, v); return b }

// Check runs the launch with the two-level protocol and returns the races.
// Device memory it allocates is freed before it returns.
func Check(b Backend, l Launch, opt Options) (*Result, error) {
	r := &checkRun{named: map[DevPtr]named{}, b: b, l: l, opt: opt, res: &Result{Races: []Race{}, Outputs: map[string][]byte{}}}
	defer func() {
		for _, p := range r.temp {
			b.Free(p)
		}
	}()
	if err := r.setup(); err != nil {
		return nil, err
	}
	k := l.Kernel
	if opt.WarmUp {
		if err := r.launch(ModePlain, 0, 0); err != nil {
			return nil, err
		}
		if err := r.restoreAll(); err != nil {
			return nil, err
		}
	}
	if !k.Instrumented || opt.Unchecked {
		r.res.Unchecked = k.Reason
		if opt.Unchecked {
			r.res.Unchecked = "--unchecked"
		}
		if err := r.phase("kernel (unchecked)", func() error { return r.launch(ModePlain, 0, 0) }); err != nil {
			return nil, err
		}
		return r.res, r.collectOutputs()
	}
	var writers [][]int32
	if len(r.allocs) > 0 && l.blocks() > 1 {
		var err error
		writers, err = r.levelBlock()
		if err != nil {
			return nil, err
		}
		if len(r.res.Races) > 0 && !opt.All {
			return r.res, r.collectOutputs()
		}
		// Level 2 replays the kernel from its inputs.
		if err := r.restoreInputs(); err != nil {
			return nil, err
		}
	}
	if err := r.levelWarp(writers); err != nil {
		return nil, err
	}

	r.firstRegionOnly()
	return r.res, r.collectOutputs()
}

// firstRegionOnly keeps, unless --all, the races of the first racy region
// found (records arrive in the order the checks found them).
func (r *checkRun) firstRegionOnly() {
	if r.opt.All || len(r.res.Races) == 0 {
		return
	}
	first := r.res.Races[0]
	var keep []Race
	for _, rc := range r.res.Races {
		if rc.Scope == first.Scope && rc.Region.From == first.Region.From && rc.Region.To == first.Region.To {
			keep = append(keep, rc)
		}
	}
	r.res.Races = keep
}

// setup allocates the arguments, the target table and the record buffers.
func (r *checkRun) setup() error {
	k := r.l.Kernel
	if len(r.l.Args) != len(k.Params) {
		return fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(r.l.Args))
	}
	for _, a := range r.l.Args {
		if !a.Buffer {
			r.bufs = append(r.bufs, 0)
			r.args = append(r.args, a.Data)
			continue
		}
		p, err := r.alloc(int64(len(a.Data)))
		if err != nil {
			return err
		}
		param := a.Param
		r.named[p] = named{name: a.Param.Name, param: &param, size: int64(len(a.Data))}
		if err := r.b.Write(p, a.Data); err != nil {
			return err
		}
		r.bufs = append(r.bufs, p)
		r.args = append(r.args, u64(uint64(p)))
	}
	for _, t := range k.Targets {
		if t.Space != "global" {
			continue
		}
		al := &alloc{target: t}
		switch t.Kind {
		case "param":
			al.base, al.size = r.bufs[t.Param], int64(len(r.l.Args[t.Param].Data))
		case "device":
			p, n, err := r.b.Symbol(t.Name)
			if err != nil {
				return fmt.Errorf("module variable %s: %w", t.Name, err)
			}
			al.base, al.size = p, n
		}
		if al.size == 0 {
			continue
		}
		al.initial = make([]byte, al.size)
		if err := r.b.Read(al.initial, al.base); err != nil {
			return err
		}
		r.allocs = append(r.allocs, al)
	}
	if len(r.allocs) > 16 {
		return fmt.Errorf("kernel %s has %d global targets; ldcheck handles 16", k.Name, len(r.allocs))
	}
	if k.Instrumented && !r.opt.Unchecked {
		if err := r.checkMemory(); err != nil {
			return err
		}
	}
	if err := r.sharedTable(&r.shared); err != nil {
		return err
	}
	var perBlock uint64
	for i := 0; i < int(r.shared.NShared); i++ {
		r.shared.SharedOff[i] = perBlock
		perBlock += uint64(r.l.warps()) * ((r.shared.SharedBytes[i] + 15) / 16 * 16)
	}
	// The copies go in shared memory, after the kernel's own dynamic
	// shared memory, when they fit; else in global memory.
	limit, err := r.b.SharedLimit(r.l.Kernel.Name)
	if err != nil {
		return err
	}
	dynOffset := (r.l.Shared + 15) / 16 * 16
	if perBlock > 0 && dynOffset+int64(perBlock) <= limit {
		r.shared.SharedInDyn, r.shared.DynOffset = 1, uint64(dynOffset)
		r.sharedLaunch = dynOffset + int64(perBlock)
	} else {
		scratch, err := r.alloc(int64(perBlock) * int64(r.l.blocks()))
		if err != nil {
			return fmt.Errorf("the warps' copies of shared memory need %d bytes: %w", int64(perBlock)*int64(r.l.blocks()), err)
		}
		r.shared.SharedScratch = uint64(scratch)
	}
	r.shared.SharedPerBlock = perBlock
	if r.records, err = r.alloc(maxRecords * RecordSize); err != nil {
		return err
	}
	if r.nrec, err = r.alloc(8); err != nil {
		return err
	}
	rows := int64(r.l.blocks()) * int64(r.l.threads())
	if r.alog, err = r.alloc(rows * AtomicSlots * 8); err != nil {
		return err
	}
	if r.aover, err = r.alloc(8); err != nil {
		return err
	}
	r.ctxAddr, _, err = r.b.Symbol("ldc_g")
	return err
}

// MemoryError says a checked run does not fit in the backend's memory.
type MemoryError struct {
	Need, Free int64
	What       string
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("a checked run needs %d MiB of device memory for %s, and %d MiB are free; use a smaller launch or array (memory-capped checking by warp reshuffling is not available yet)",
		e.Need>>20, e.What, e.Free>>20)
}

// checkMemory compares what the private copies will take, at their
// largest (level 1: a copy per block, plus U and the writer map), with the
// free memory, before allocating anything.
func (r *checkRun) checkMemory() error {
	var level1, level2 int64
	for _, al := range r.allocs {
		level1 += al.size * (int64(r.l.blocks()) + 5)
		level2 += al.size * int64(r.l.warps())
	}
	need := max(level1, level2)
	if need == 0 {
		return nil
	}
	free, err := r.b.FreeMemory()
	if err != nil {
		return err
	}
	if need > free {
		return &MemoryError{Need: need, Free: free, What: fmt.Sprintf("the private copies of %d global target(s) for %d blocks", len(r.allocs), r.l.blocks())}
	}
	return nil
}

// restoreAll puts every buffer and module-scope target back to its
// initial contents (after a warm-up run).
func (r *checkRun) restoreAll() error {
	for i, a := range r.l.Args {
		if a.Buffer {
			if err := r.b.Write(r.bufs[i], a.Data); err != nil {
				return err
			}
		}
	}
	for _, al := range r.allocs {
		if err := r.b.Write(al.base, al.initial); err != nil {
			return err
		}
	}
	return nil
}

// restoreInputs puts every buffer and module-scope target back to its
// initial contents, except variables updated by atomics: their atomics ran
// once, in the first launch, and are replayed from the log since.
func (r *checkRun) restoreInputs() error {
	k := r.l.Kernel
	for i, a := range r.l.Args {
		if !a.Buffer || slices.Contains(k.Atomic, a.Param.Name) {
			continue
		}
		if err := r.b.Write(r.bufs[i], a.Data); err != nil {
			return err
		}
	}
	for _, al := range r.allocs {
		if al.target.Kind == "device" {
			if err := r.b.Write(al.base, al.initial); err != nil {
				return err
			}
		}
	}
	return nil
}

// launch writes the context and runs the user's kernel.
func (r *checkRun) launch(mode, pass, atomicMode int32, extra ...func(*Ctx)) error {
	c := Ctx{Mode: mode, Pass: pass, AtomicMode: atomicMode}
	c.AtomicLog, c.AtomicOverflow = uint64(r.alog), uint64(r.aover)
	c.Records, c.NRecords, c.MaxRecords = uint64(r.records), uint64(r.nrec), maxRecords
	for i, al := range r.allocs {
		c.Allocs[i] = Alloc{Base: uint64(al.base), Size: uint64(al.size), Copies: uint64(al.copies)}
	}
	c.NAllocs = int32(len(r.allocs))
	for _, f := range extra {
		f(&c)
	}
	if err := r.b.Write(r.ctxAddr, c.Bytes()); err != nil {
		return err
	}
	if err := r.b.Write(r.nrec, u64(0)); err != nil {
		return err
	}
	shared := r.l.Shared
	if mode != ModePlain && c.SharedInDyn != 0 {
		shared = r.sharedLaunch
	}
	return r.explain(r.b.Launch(r.l.Kernel.Name, r.l.Grid, r.l.Block, shared, r.args))
}

// checkEach runs one of the fused check kernels over every global target
// as one timed phase, recording the bytes the kernels moved (read and
// written) for their bandwidth. Word-wide versions are used where the
// size allows, when the kernel has one.
func (r *checkRun) checkEach(phase, kernel string, units int, words bool, args func(i int, al *alloc, n int64) [][]byte) error {
	var moved int64
	err := r.phase(phase, func() error {
		for i, al := range r.allocs {
			name, n := kernel, al.size
			if words {
				name, n = fusedKernel(kernel, al.size)
			}
			grid := fusedGrid(n)
			if name == "ldc_fused_rw4" {
				// It splits the units of a word between threads: as many
				// threads as fill the device, even for small targets.
				grid = fusedGrid(n * int64(units))
			}
			if err := r.b.Launch(name, grid, [3]uint32{256, 1, 1}, 0, args(i, al, n)); err != nil {
				return err
			}
			r.res.BytesCompared += al.size * int64(units)
			switch kernel {
			case "ldc_fused_ww": // s, copies in and out, u, writer
				moved += (2*int64(units) + 6) * al.size
			case "ldc_fused_rw": // copies, u, s
				moved += (int64(units) + 2) * al.size
			}
		}
		return nil
	})
	if err == nil {
		r.res.Phases[len(r.res.Phases)-1].Bytes = moved
	}
	return err
}

// fusedKernel picks the word-wide version of a check kernel when the
// target's size allows, and the element count it takes.
func fusedKernel(name string, size int64) (string, int64) {
	if size%4 == 0 {
		return name + "4", size / 4
	}
	return name, size
}

// fillCopies sets n private copies of a target to its current contents.
func (r *checkRun) fillCopies(al *alloc, n int) error {
	total := al.size * int64(n)
	if al.size%16 == 0 {
		total /= 16
	}
	return r.b.Launch("ldc_fill_copies", fusedGrid(total), [3]uint32{256, 1, 1}, 0,
		[][]byte{u64(uint64(al.base)), u64(uint64(al.copies)), u64(uint64(al.size)), u32(uint32(n))})
}

// fusedGrid sizes the check kernels: enough blocks to cover the bytes, at
// most enough to fill a large GPU several times over.
func fusedGrid(size int64) [3]uint32 {
	n := (size + 255) / 256
	if n > 4096 {
		n = 4096
	}
	if n < 1 {
		n = 1
	}
	return [3]uint32{uint32(n), 1, 1}
}

// levelBlock is level 1: unit = block, region = the whole kernel. It
// returns each target's writer map (the blocks' footprints).
func (r *checkRun) levelBlock() ([][]int32, error) {
	r.res.Levels = append(r.res.Levels, "block")
	units := r.l.blocks()
	us := make([]DevPtr, len(r.allocs))
	ws := make([]DevPtr, len(r.allocs))
	err := r.phase("init pass 1 (block copies)", func() error {
		for i, al := range r.allocs {
			var err error
			if al.copies, err = r.alloc(al.size * int64(units)); err != nil {
				return fmt.Errorf("level 1 needs %d private copies of %s (%d bytes each): %w", units, al.target.Name, al.size, err)
			}
			r.nameCopies(al, units, "block")
			if err := r.fillCopies(al, units); err != nil {
				return err
			}
			if us[i], err = r.alloc(al.size); err != nil {
				return err
			}
			if ws[i], err = r.alloc(al.size * 4); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sharedSizes := func(c *Ctx) { r.useShared(c) }
	if err := r.phase("kernel pass 1 (block level)", func() error { return r.launch(ModeBlock, 1, 1, sharedSizes) }); err != nil {
		return nil, err
	}
	err = r.checkEach("write-write check (block level)", "ldc_fused_ww", units, true, func(i int, al *alloc, n int64) [][]byte {
		return [][]byte{u64(uint64(al.base)), u64(uint64(al.copies)), u64(uint64(n)), u32(uint32(units)), u64(uint64(us[i])), u64(uint64(ws[i])), u32(uint32(i))}
	})
	if err != nil {
		return nil, err
	}
	recs, err := r.readRecords()
	if err != nil {
		return nil, err
	}
	r.addRaces(recs, "inter-block")
	if len(r.res.Races) > 0 && !r.opt.All {
		return nil, nil
	}
	if err := r.phase("kernel pass 2 (block level)", func() error { return r.launch(ModeBlock, 2, 2, sharedSizes) }); err != nil {
		return nil, err
	}
	err = r.checkEach("read-write check and copy back (block level)", "ldc_fused_rw", units, true, func(i int, al *alloc, n int64) [][]byte {
		return [][]byte{u64(uint64(al.base)), u64(uint64(al.copies)), u64(uint64(n)), u32(uint32(units)), u64(uint64(us[i])), u32(uint32(i))}
	})
	if err != nil {
		return nil, err
	}
	// The records buffer was reset by the pass-2 launch; the rw kernels
	// wrote after it.
	recs, err = r.readRecords()
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		if recs, err = r.reproducible(recs, us, ws); err != nil {
			return nil, err
		}
	}
	r.addRaces(recs, "inter-block")
	r.writerDev = ws
	writers := make([][]int32, len(r.allocs))
	for i, al := range r.allocs {
		raw := make([]byte, al.size*4)
		if err := r.b.Read(raw, ws[i]); err != nil {
			return nil, err
		}
		w := make([]int32, al.size)
		for j := range w {
			w[j] = int32(binary.LittleEndian.Uint32(raw[4*j:]))
		}
		writers[i] = w
		r.b.Free(al.copies)
		r.forget(al.copies)
		al.copies = 0
	}
	return writers, nil
}

// reproducible drops the read-write records of blocks that do not repeat
// their own first pass: warps racing inside a block (shared memory is not
// privatized at level 1) make a block's result change between runs with
// no other block involved; level 2 finds and names that race.
func (r *checkRun) reproducible(recs []Record, us, ws []DevPtr) ([]Record, error) {
	units := r.l.blocks()
	unstable, err := r.alloc(int64(units) * 4)
	if err != nil {
		return nil, err
	}
	err = r.phase("repeat pass 1 (block level, only after read-write differences)", func() error {
		for _, al := range r.allocs {
			if err := r.b.Write(al.base, al.initial); err != nil {
				return err
			}
			if err := r.fillCopies(al, units); err != nil {
				return err
			}
		}
		if err := r.launch(ModeBlock, 1, 2, r.useShared); err != nil {
			return err
		}
		for i, al := range r.allocs {
			args := [][]byte{u64(uint64(al.base)), u64(uint64(al.copies)), u64(uint64(al.size)), u32(uint32(units)), u64(uint64(us[i])), u64(uint64(ws[i])), u64(uint64(unstable))}
			if err := r.b.Launch("ldc_fused_repeat", fusedGrid(al.size), [3]uint32{256, 1, 1}, 0, args); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	raw := make([]byte, units*4)
	if err := r.b.Read(raw, unstable); err != nil {
		return nil, err
	}
	var keep []Record
	for _, rec := range recs {
		if rec.Kind == RecordRW && binary.LittleEndian.Uint32(raw[4*rec.UnitA:]) != 0 {
			continue
		}
		keep = append(keep, rec)
	}
	return keep, nil
}

func (r *checkRun) forget(p DevPtr) {
	if i := slices.Index(r.temp, p); i >= 0 {
		r.temp = slices.Delete(r.temp, i, i+1)
	}
}

// footprints turns writer maps into each block's byte ranges (CSR). The
// maps are scanned in segments in parallel (a 4 MiB target is 4M entries);
// runs that a segment boundary cut are joined again, so the result is the
// same as one scan's.
func (r *checkRun) footprints(writers [][]int32) (index []uint64, ranges []Range) {
	blocks := r.l.blocks()
	per := make([][]Range, blocks)
	add := func(b int32, rg Range) {
		if last := len(per[b]) - 1; last >= 0 && per[b][last].Alloc == rg.Alloc && per[b][last].Start+per[b][last].Len == rg.Start {
			per[b][last].Len += rg.Len
			return
		}
		per[b] = append(per[b], rg)
	}
	for a, al := range r.allocs {
		if writers == nil {
			// Level 1 did not run (one block): block 0 owns everything.
			per[0] = append(per[0], Range{Alloc: int32(a), Start: 0, Len: uint64(al.size)})
			continue
		}
		w := writers[a]
		const minSegment = 1 << 16
		nseg := min(runtime.GOMAXPROCS(0), (len(w)+minSegment-1)/minSegment)
		if nseg < 1 {
			nseg = 1
		}
		type run struct {
			b  int32
			rg Range
		}
		segs := make([][]run, nseg)
		var wg sync.WaitGroup
		for sgi := range segs {
			lo, hi := len(w)*sgi/nseg, len(w)*(sgi+1)/nseg
			wg.Add(1)
			go func() {
				defer wg.Done()
				var out []run
				for j := lo; j < hi; {
					b := w[j]
					k := j + 1
					for k < hi && w[k] == b {
						k++
					}
					if b >= 0 && int(b) < blocks {
						out = append(out, run{b, Range{Alloc: int32(a), Start: uint64(j), Len: uint64(k - j)}})
					}
					j = k
				}
				segs[sgi] = out
			}()
		}
		wg.Wait()
		for _, seg := range segs {
			for _, x := range seg {
				add(x.b, x.rg)
			}
		}
	}
	index = make([]uint64, blocks+1)
	for b := 0; b < blocks; b++ {
		index[b] = uint64(len(ranges))
		ranges = append(ranges, per[b]...)
	}
	index[blocks] = uint64(len(ranges))
	return index, ranges
}

// sharedTable fills the sizes of the shared targets (dynamic ones are
// sized by the launch).
func (r *checkRun) sharedTable(c *Ctx) error {
	c.NShared = 0
	for _, t := range r.l.Kernel.Targets {
		if t.Space != "shared" {
			continue
		}
		if c.NShared >= MaxShared {
			return fmt.Errorf("kernel %s has more than %d shared targets", r.l.Kernel.Name, MaxShared)
		}
		bytes := uint64(t.Bytes)
		if t.Dynamic {
			bytes = uint64(r.l.Shared)
		}
		c.SharedBytes[c.NShared] = bytes
		c.NShared++
	}
	return nil
}

// useShared puts the shared-target table into a launch's context.
func (r *checkRun) useShared(c *Ctx) {
	c.SharedScratch, c.SharedPerBlock, c.NShared = r.shared.SharedScratch, r.shared.SharedPerBlock, r.shared.NShared
	c.SharedOff, c.SharedBytes = r.shared.SharedOff, r.shared.SharedBytes
	c.SharedInDyn, c.DynOffset = r.shared.SharedInDyn, r.shared.DynOffset
}

// levelWarp is level 2: unit = warp, regions between barriers, checked in
// the kernel at each barrier by the block's threads.
func (r *checkRun) levelWarp(writers [][]int32) error {
	r.res.Levels = append(r.res.Levels, "warp")
	W := r.l.warps()
	var c Ctx
	err := r.phase("init (warp copies)", func() error {
		var err error
		for _, al := range r.allocs {
			if al.copies, err = r.alloc(al.size * int64(W)); err != nil {
				return fmt.Errorf("level 2 needs %d private copies of %s (%d bytes each): %w", W, al.target.Name, al.size, err)
			}
			r.nameCopies(al, W, "warp")
			if err := r.fillCopies(al, W); err != nil {
				return err
			}
		}
		index, ranges := r.footprints(writers)
		if len(r.allocs) > 0 {
			ip, err := r.alloc(int64(len(index)) * 8)
			if err != nil {
				return err
			}
			raw := make([]byte, 0, len(index)*8)
			for _, v := range index {
				raw = binary.LittleEndian.AppendUint64(raw, v)
			}
			if err := r.b.Write(ip, raw); err != nil {
				return err
			}
			rp, err := r.alloc(int64(len(ranges))*24 + 24)
			if err != nil {
				return err
			}
			raw = raw[:0]
			for _, rg := range ranges {
				raw = binary.LittleEndian.AppendUint32(raw, uint32(rg.Alloc))
				raw = binary.LittleEndian.AppendUint32(raw, 0)
				raw = binary.LittleEndian.AppendUint64(raw, rg.Start)
				raw = binary.LittleEndian.AppendUint64(raw, rg.Len)
				r.res.BytesCompared += int64(rg.Len) * int64(W)
			}
			if err := r.b.Write(rp, raw); err != nil {
				return err
			}
			c.FootprintIndex, c.Footprint = uint64(ip), uint64(rp)
		}
		return nil
	})
	if err != nil {
		return err
	}
	atomicMode := int32(1)
	if slices.Contains(r.res.Levels, "block") {
		atomicMode = 2 // level 1 ran the atomics
	}
	err = r.phase("kernel, both passes and checks at every barrier (warp level)", func() error {
		return r.launch(ModeReplay, 0, atomicMode, func(x *Ctx) {
			r.useShared(x)
			x.FootprintIndex, x.Footprint = c.FootprintIndex, c.Footprint
		})
	})
	if err != nil {
		return err
	}
	recs, err := r.readRecords()
	if err != nil {
		return err
	}
	if r.writerDev != nil {
		err := r.checkEach("stray-write check (warp level)", "ldc_fused_stray", W, false, func(i int, al *alloc, n int64) [][]byte {
			return [][]byte{u64(uint64(al.base)), u64(uint64(al.copies)), u64(uint64(n)), u32(uint32(W)), u64(uint64(r.writerDev[i])), u32(uint32(i))}
		})
		if err != nil {
			return err
		}
		stray, err := r.readRecords()
		if err != nil {
			return err
		}
		recs = append(recs, stray...)
	}
	r.addRaces(recs, "inter-warp")
	return nil
}

// readRecords fetches the race records of the last launches.
func (r *checkRun) readRecords() ([]Record, error) {
	raw := make([]byte, 8)
	if err := r.b.Read(raw, r.nrec); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(raw))
	if n > maxRecords {
		r.res.Truncated = true
		n = maxRecords
	}
	if err := r.b.Write(r.nrec, u64(0)); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	buf := make([]byte, n*RecordSize)
	if err := r.b.Read(buf, r.records); err != nil {
		return nil, err
	}
	return DecodeRecords(buf, n), nil
}

// collectOutputs reads every buffer argument back.
func (r *checkRun) collectOutputs() error {
	for i, a := range r.l.Args {
		if !a.Buffer {
			continue
		}
		out := make([]byte, len(a.Data))
		if err := r.b.Read(out, r.bufs[i]); err != nil {
			return err
		}
		r.res.Outputs[a.Param.Name] = out
	}
	return nil
}
