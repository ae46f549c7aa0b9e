package gpuruntime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"ldcheck/privatize/manifest"
)

// Arg is one kernel argument: a buffer (Data is its initial contents) or a
// scalar (Data is its bytes).
type Arg struct {
	Param  manifest.Param
	Buffer bool
	Data   []byte
	// Ptrs are the places in Data that must hold the address of another
	// argument's buffer (a struct's pointer field): the backend's address,
	// known only once the buffers are allocated.
	Ptrs []Ptr
	// Texture is --arg's TYPE of a texture object parameter's buffer
	// (Data is then a launch.TextureHeader descriptor and the elements);
	// empty for other arguments.
	Texture string
}

// Ptr is Count 8-byte addresses of argument Param's buffer in an Arg's
// Data, the first at byte Offset, each Stride bytes after the one before.
type Ptr struct {
	Offset, Stride int64
	Count          int
	Param          int
}

// withAddresses returns args with every Ptr written into a copy of its
// Data, bufs being the buffers' addresses (by argument).
func withAddresses(args []Arg, bufs []DevPtr) ([]Arg, error) {
	out := slices.Clone(args)
	for i, a := range out {
		if len(a.Ptrs) == 0 {
			continue
		}
		data := slices.Clone(a.Data)
		for _, p := range a.Ptrs {
			if p.Param < 0 || p.Param >= len(args) || !args[p.Param].Buffer {
				return nil, fmt.Errorf("argument %d: a pointer to argument %d, which is not a buffer", i, p.Param)
			}
			for k := 0; k < p.Count; k++ {
				at := p.Offset + int64(k)*p.Stride
				if at < 0 || at+8 > int64(len(data)) {
					return nil, fmt.Errorf("argument %d: a pointer at byte %d of %d", i, at, len(data))
				}
				binary.LittleEndian.PutUint64(data[at:], uint64(bufs[p.Param]))
			}
		}
		out[i].Data = data
	}
	return out, nil
}

// Launch is one kernel launch to check.
type Launch struct {
	Source string // the kernel's source file, for reports
	Kernel *manifest.Kernel
	// Sites are the build's sites (manifest.Sites): atomic-plain races
	// name their statements from them.
	Sites       []manifest.Site
	Grid, Block [3]uint32
	Shared      int64
	Args        []Arg
}

func (l Launch) blocks() int  { return int(l.Grid[0] * l.Grid[1] * l.Grid[2]) }
func (l Launch) threads() int { return int(l.Block[0] * l.Block[1] * l.Block[2]) }
func (l Launch) warps() int   { return (l.threads() + 31) / 32 }

// Options tune a checked run.
type Options struct {
	All       bool // keep going after the first racy level
	Unchecked bool // run the kernel as written, once, without checking
	WarmUp    bool // run the kernel once, unchecked and untimed, first (module loading, caches)
	// EveryShared checks every byte of the shared targets at every barrier
	// even where the build flags the stores (to compare the two).
	EveryShared bool
	Progress    io.Writer // phase names as they start; nil for quiet
	// MemLimit caps the device memory the private copies and the checks'
	// tables may take; 0 means what the device has free, less a margin.
	// When level 1's copies do not fit, blocks are checked in rounds of
	// groups that share copies (warp reshuffling, LDetector section 4.5).
	MemLimit int64
	// IgnoreSameValue leaves out write-write races where the two units
	// wrote the same value (the records of such bytes are dropped).
	IgnoreSameValue bool
	// Deterministic runs the kernel once, deterministically, instead of
	// checking it (det.go): the outputs are the same every run; the
	// write-write races its merges meet are reported.
	Deterministic bool
	// NoIntraWarp turns the intra-warp check off (intrawarp.go).
	NoIntraWarp bool
	// CopyStores makes a level 2 of one pass a region copy the pages its
	// warps store to, as level 2 of two passes does, instead of storing in
	// place (segments.direct): for measuring the one against the other.
	CopyStores bool
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
	// Levels lists the levels run: "block" (inter-block, unit = block),
	// "warp" (inter-warp, at every barrier) and "lane" (intra-warp: the
	// lanes of each warp, between warp synchronisations).
	Levels        []string `json:"levels"`
	BytesCompared int64    `json:"bytes_compared"`
	Unchecked     string   `json:"unchecked,omitempty"` // why the kernel ran unchecked
	Truncated     bool     `json:"truncated,omitempty"` // more races than records
	// Rounds is how many rounds level 1 ran (1 without reshuffling), of
	// RoundsPlanned; Groups the private copies each round's blocks shared
	// (the blocks, without reshuffling).
	Rounds, RoundsPlanned, Groups int
	// CopyBytes is the most device memory the private copies of pages and
	// their tables took at once, over both levels.
	CopyBytes int64
	// HotPages counts the pages level 1's checks left to the whole grid
	// (chains longer than hotLimit: hot.go), once per check.
	HotPages int64
	// DetectionProbability is equation (1) of LDetector: the chance that a
	// race between two random blocks would have been checked by the rounds
	// run (1 when every pair was checked).
	DetectionProbability float64
	// Notes say what the run did that the user should know (reruns with
	// more room, reshuffling).
	Notes []string `json:"notes,omitempty"`
	// UncheckedVars are variables this launch did not check: proven
	// race-free by the build for 1-D launches only, and the launch is not
	// (see unproven1D).
	UncheckedVars []string `json:"unchecked_vars,omitempty"`
	// Deterministic: the kernel ran deterministically (Options.Deterministic),
	// not checked: Races are the write-write conflicts its merges met.
	Deterministic bool `json:"deterministic,omitempty"`
}

const maxRecords = 1 << 16

// maxPristineCopy bounds the bytes a serial level 2 may copy to start every
// block from the kernel's inputs (tens of milliseconds on an H100, one
// block copying at a time).
const maxPristineCopy = 1 << 30

// alloc is a global allocation the run privatizes (a target), cut into
// pages of whole elements.
type alloc struct {
	target    manifest.Target
	base      DevPtr
	size      int64
	initial   []byte
	pageBytes int64
	firstPage int64
	pages     int64
}

// checkRun holds one checked run's device state.
type checkRun struct {
	named   map[DevPtr]named // buffers, to name a fault in them
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
	// compared is where level 2's checks add the bytes they compared.
	compared DevPtr
	// failedTest: an int, the line of a test an index proof rests on that
	// failed in a launch (LDC_TEST), 0 while none has.
	failedTest DevPtr
	ctxAddr    DevPtr
	temp       []DevPtr
	shared     Ctx // the shared-target table and scratch, for both levels
	// sharedLaunch is the dynamic shared memory checked launches ask for
	// when the copies live there (0: the kernel's own, l.Shared).
	sharedLaunch int64
	// totalPages and slotBytes describe the page layout of every global
	// target; budget is the memory copies may take.
	totalPages int64
	slotBytes  int64
	budget     int64
	// atomicSlots is the atomic log's room per thread; 1 <<
	// atomicSpillBits entries after the rows hold the results past them.
	atomicSlots     int64
	atomicSpillBits int
	// atomicsRan is set once a launch has run (and logged) the kernel's
	// global atomics: every later launch replays them.
	atomicsRan bool
	// level1Wanted is how many page copies level 1's pass 1 took (without
	// reshuffling), level 2's first guess at the room blocks need.
	level1Wanted int64
	// iwg is the intra-warp check's table of global words.
	iwg iwGlobal
	// blockRW holds level 1's read-write differences until level 2 has
	// said whether races between warps explain them.
	blockRW []Record
	// hotSeq numbers the hot kernels' merges (checkHot).
	hotSeq uint32
	// blocksShareBytes: level 1 saw two blocks write one byte (reported
	// or not), so level 2 runs one block at a time from the inputs.
	blocksShareBytes bool
	// pool and segs are the current levels' copies, written into each
	// launch's context.
	pool *pool
	segs *segments
	// ap is the atomic-plain check's table (atomicplain.go).
	ap apTable
	// onePass: level 2 runs one pass a region (Ctx.OnePass; see
	// onePassLevel2).
	onePass bool
	// copyStores: a launch that stored in place was void (two warps
	// stored to one byte in a region): level 2 copies from then on.
	copyStores bool
	// sharedCopies: a launch that stored to shared targets in place was
	// void (two warps stored to one byte of one in a region): the next
	// ones copy them (ownShared).
	sharedCopies bool
	// uncopiedNote is the note naming the shared targets level 2 runs
	// uncopied ("" none): withdrawn if a one-pass run turns to two.
	uncopiedNote string
	// untrackedNote is the note naming the global targets level 2 runs
	// untracked (globalUntracked), taken back with the uncopied one.
	untrackedNote string
	// plainModule is the module plain launches run from ("" the checked
	// one): level 1's, where a plain run is there for the tests of a
	// proof (its kernels test them too, without level 2's code).
	plainModule string
}

func (r *checkRun) phase(name string, f func() error) error {
	if r.opt.Progress != nil {
		fmt.Fprintf(r.opt.Progress, "  %s...\n", name)
	}
	done := r.b.Timer()
	if err := f(); err != nil {
		var short *atomicLogShort
		if errors.As(err, &short) {
			// A void run's time counts too (Check).
			if secs, terr := done(); terr == nil {
				r.res.Phases = append(r.res.Phases, Phase{Name: name, Seconds: secs})
			}
		}
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

// allocScratch is alloc without the zeros (Backend.AllocScratch).
func (r *checkRun) allocScratch(n int64) (DevPtr, error) {
	p, err := r.b.AllocScratch(max(n, 1))
	if err == nil {
		r.temp = append(r.temp, p)
	}
	return p, err
}

// free releases a temporary allocation early.
func (r *checkRun) free(p DevPtr) {
	if p == 0 {
		return
	}
	if i := slices.Index(r.temp, p); i >= 0 {
		r.temp = slices.Delete(r.temp, i, i+1)
		r.b.Free(p)
	}
}

func u64(v uint64) []byte { b := make([]byte, 8); binary.LittleEndian.PutUint64(b, v); return b }
func u32(v uint32) []byte { b := make([]byte, 4); binary.LittleEndian.PutUint32(b, v); return b }

// Check runs the launch with the two-level protocol and returns the races.
// Device memory it allocates is freed before it returns.
func Check(b Backend, l Launch, opt Options) (*Result, error) {
	// A replay must return every atomic's logged result: a thread that ran
	// more atomics than its row of the log holds makes the run void (its
	// later replays returned 0), and everything runs again with room for
	// what it asked for.
	slots := int64(FirstAtomicSlots)
	var notes []string
	// The phases of void runs count in the checked run's time: they are
	// time the user waits.
	var void []Phase
	for attempt := 1; ; attempt++ {
		res, wanted, err := check(b, l, opt, slots)
		if wanted <= slots {
			if res != nil {
				res.Notes = append(notes, res.Notes...)
				res.Phases = append(void, res.Phases...)
			}
			return res, err
		}
		if attempt == 4 {
			return nil, fmt.Errorf("kernel %s: a thread ran %d atomics, more each time it ran again (the log had room for %d); no verdict", l.Kernel.Name, wanted, slots)
		}
		notes = append(notes, fmt.Sprintf("a thread ran %d atomics, more than the %d the log of their results had room for; ran again with room for them", wanted, slots))
		if res != nil {
			for _, p := range res.Phases {
				p.Name += " (void: the atomic log was short)"
				void = append(void, p)
			}
		}
		slots = max(wanted, 2*slots)
	}
}

// checkKernels are the runtime's check kernels (ldcheck_rt.h), launched
// in blocks of 256 threads, and how many 64-bit parameters each takes
// (the warm-up launches them with that many zeros; a launch with too few
// fails on CUDA and reads past its arguments on the CPU).
var checkKernels = []struct {
	name string
	args int
}{{"ldc_pages_index", 2}, {"ldc_pages_ww", 3}, {"ldc_pages_rw", 3}, {"ldc_pages_fingerprint", 2}, {"ldc_slots_ww", 2}, {"ldc_slots_rw", 2}}

// atomicLogShort stops a checked run whose first launch ran more atomics
// in a thread than the log had room for: every later launch would replay
// zeros for the lost results, so the run is void from there.
type atomicLogShort struct{ wanted int64 }

func (e *atomicLogShort) Error() string {
	return fmt.Sprintf("a thread ran %d atomics, more than the log holds", e.wanted)
}

// check is one checked run with room for slots atomics per thread. It
// also returns the most atomics a thread asked to log (0 when none
// overflowed); when that exceeds slots, the run is void.
func check(b Backend, l Launch, opt Options, slots int64) (*Result, int64, error) {
	r := &checkRun{named: map[DevPtr]named{}, b: b, l: l, opt: opt, res: &Result{Races: []Race{}, Outputs: map[string][]byte{}}, atomicSlots: slots}
	defer func() {
		for _, p := range r.temp {
			b.Free(p)
		}
	}()
	res, err := r.run()
	var short *atomicLogShort
	if errors.As(err, &short) {
		return r.res, short.wanted, nil
	}
	// A replay that ran more atomics than the logging launch (a racy
	// kernel whose threads took other paths) can still overflow.
	if r.aover != 0 && r.alog != 0 {
		if wanted, rerr := r.atomicsWanted(); rerr == nil && wanted > slots {
			return r.res, wanted, err
		}
	}
	return res, 0, err
}

// atomicsWanted is the most atomics a thread asked to log beyond the
// log's room (0 when none did).
func (r *checkRun) atomicsWanted() (int64, error) {
	raw := make([]byte, 4)
	if err := r.b.Read(raw, r.aover); err != nil {
		return 0, err
	}
	return int64(int32(binary.LittleEndian.Uint32(raw))), nil
}

func (r *checkRun) run() (*Result, error) {
	l, opt := r.l, r.opt
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
		// The check kernels too: the driver loads a kernel at its first
		// launch (lazy loading, the default since CUDA 12.2), which took
		// ld_bfs's first write-write check 0.6 ms on top of its 0.1
		// (H200). Looking them up (an occupancy query) left the check at
		// 0.39-0.73 ms from run to run, so each is launched, with nothing
		// to do. They run after level 1's launches, from its module.
		r.useModuleFor(ModeBlock)
		for _, k := range checkKernels {
			// npages 0 and, unused, a hot limit, a flag or an address.
			args := make([][]byte, k.args)
			for i := range args {
				args[i] = u64(0)
			}
			if err := r.b.Launch(k.name, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, 0, args); err != nil {
				return nil, fmt.Errorf("warm up %s: %w", k.name, err)
			}
		}
	}
	if !k.Instrumented && opt.Deterministic {
		return nil, fmt.Errorf("kernel %s cannot run deterministically: it was not instrumented (%s)", k.Name, k.Reason)
	}
	if !k.Instrumented || opt.Unchecked {
		return r.runUnchecked()
	}
	if opt.Deterministic {
		if err := r.deterministic(); err != nil {
			return nil, err
		}
		r.firstRegionOnly()
		return r.res, r.collectOutputs()
	}
	r.res.UncheckedVars = unproven1D(l)
	if why, ok := Proven(l); ok {
		r.res.Levels, r.res.DetectionProbability = []string{"static"}, 1
		r.res.Notes = append(r.res.Notes, why)
		if err := r.phase(provenPhase, func() error { return r.launch(ModePlain, 0, 0) }); err != nil {
			return nil, err
		}
		return r.res, r.collectOutputs()
	}
	r.res.Rounds, r.res.RoundsPlanned, r.res.Groups, r.res.DetectionProbability = 1, 1, l.blocks(), 1
	needBlock := len(r.allocs) > 0 && l.blocks() > 1
	if why, ok := interBlockProven(l); ok && needBlock {
		r.res.Notes = append(r.res.Notes, why)
		needBlock = false
	} else if why, ok := interBlockVoided(l); ok && needBlock {
		r.res.Notes = append(r.res.Notes, why)
	}
	noWarpWhy, noWarp := warpLevelProven(l, r.wantsAtomicPlain())
	// A proof that rests on tests in the kernel holds for this launch once
	// its run found none failing: level 1's (every block, as it runs), or
	// a plain run's where there is no level 1. If one failed, level 2
	// checks the blocks as if there were no proof.
	tested := noWarp && len(l.testedTargets()) > 0
	if tested {
		noWarpWhy += fmt.Sprintf(" (for %s, where its strides are not 0: the kernel tested them as it ran, and none was)", strings.Join(l.testedTargets(), ", "))
	}
	if needBlock {
		if err := r.levelBlock(); err != nil {
			return nil, err
		}
		if len(r.res.Races) > 0 && len(r.blockRW) == 0 && !opt.All {
			return r.res, r.collectOutputs()
		}
		if tested {
			failed, err := r.testFailed()
			if err != nil {
				return nil, err
			}
			noWarp = !failed
		}
		if noWarp {
			r.res.Notes = append(r.res.Notes, noWarpWhy)
			// Level 1 left U, the merged writes of every block, in the
			// buffers: the kernel's outputs where no race was found. Its
			// read-write differences stand: no race inside a block can
			// have made a block end differently.
			r.confirmBlockRW()
			r.firstRegionOnly()
			return r.res, r.collectOutputs()
		}
		// Level 2 replays the kernel from its inputs.
		if err := r.restoreInputs(); err != nil {
			return nil, err
		}
	}
	if noWarp {
		// Nothing to check at either level: one plain run for the outputs
		// (and the tests, where the proof has some).
		name := provenPhase
		if tested {
			name = "kernel (run once, testing the strides of the proof)"
			r.plainModule = BlockModule
			tm, err := r.testedModule()
			if err != nil {
				return nil, err
			}
			if tm {
				r.plainModule = TestedModule
				name = "kernel as written with its proofs' stride tests (run once)"
			}
		}
		launch := func() error { return r.launch(ModePlain, 0, 0) }
		if r.plainModule == TestedModule {
			// The user's kernels with their tests: no context to write
			// (the tests' word is set), just the launch.
			launch = func() error {
				r.useModuleFor(ModePlain)
				return r.explain(r.b.Launch(r.l.Kernel.Name, r.l.Grid, r.l.Block, r.l.Shared, r.args))
			}
		}
		err := r.phase(name, launch)
		r.plainModule = ""
		if err != nil {
			return nil, err
		}
		failed := false
		if tested {
			var err error
			if failed, err = r.testFailed(); err != nil {
				return nil, err
			}
		}
		if !failed {
			r.res.Levels = []string{"static"}
			r.res.Notes = append(r.res.Notes, noWarpWhy)
			return r.res, r.collectOutputs()
		}
		if err := r.restoreAll(); err != nil {
			return nil, err
		}
	}
	if why, ok := warpLevelVoided(l, r.wantsAtomicPlain()); ok {
		r.res.Notes = append(r.res.Notes, why)
	}
	pristine := r.pristineLevel2()
	if err := r.levelWarp(len(r.blockRW) > 0 || pristine, pristine); err != nil {
		return nil, err
	}
	r.confirmBlockRW()
	r.firstRegionOnly()
	return r.res, r.collectOutputs()
}

// testedModule says whether the backend holds the build's tested native
// module (manifest TestedPTX), and points its tests at failed_test.
func (r *checkRun) testedModule() (bool, error) {
	mu, ok := r.b.(moduleUser)
	if !ok {
		return false, nil
	}
	addr, n, found := mu.ModuleSymbol(TestedModule, "ldc_native_failed")
	if !found || n != 8 {
		return false, nil
	}
	return true, r.b.Write(addr, u64(uint64(r.failedTest)))
}

// testFailed reads whether a test an index proof rests on failed in the
// launches so far, and notes it: the proof is not relied on.
func (r *checkRun) testFailed() (bool, error) {
	line, err := r.failedLine()
	if err != nil {
		return false, err
	}
	if line == 0 {
		return false, nil
	}
	r.res.Notes = append(r.res.Notes, fmt.Sprintf("the build proved %s free of races inside a block only where a stride is not 0, and in this launch it was 0 at line %d: the warp level checked the blocks",
		strings.Join(r.l.testedTargets(), ", "), line))
	return true, nil
}

// runUnchecked runs the kernel once, as a plain launch: it was not
// instrumented, or the user asked for no check (--unchecked).
func (r *checkRun) runUnchecked() (*Result, error) {
	r.res.Unchecked = r.l.Kernel.Reason
	if r.opt.Unchecked {
		r.res.Unchecked = "--unchecked"
	}
	if err := r.phase("kernel (unchecked)", func() error { return r.launch(ModePlain, 0, 0) }); err != nil {
		return nil, err
	}
	return r.res, r.collectOutputs()
}

// pristineLevel2 says whether level 2 starts every block from the
// kernel's inputs. Level 1's read-write differences are told apart from
// races between warps by a level 2 where no block runs beside another.
// So are level 1's write-write races: blocks that write common bytes
// must not see each other's values in level 2 (see levelWarp).
// Each block's fresh start copies every target's bytes, by that block
// alone: affordable on small launches only (a 256 MiB target over 4096
// blocks would copy a terabyte). Beyond that, level 2 runs as before,
// one block at a time where level 1 saw read-write differences, and a
// note says its blocks were not reset.
func (r *checkRun) pristineLevel2() bool {
	pristine := r.blocksShareBytes || len(r.blockRW) > 0
	if pristine && r.pristineBytes()*int64(r.l.blocks()) > maxPristineCopy {
		pristine = false
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("level 2 did not start each block from the inputs (it would copy %s per block over %d blocks): the warps named in races on bytes several blocks write may depend on which blocks ran first",
			sizeString(r.pristineBytes()), r.l.blocks()))
	}
	return pristine
}

// firstRegionOnly keeps, unless --all, the races of the first racy region
// found (records arrive in the order the checks found them).
func (r *checkRun) firstRegionOnly() {
	if r.opt.All || len(r.res.Races) == 0 {
		return
	}
	first := r.res.Races[0]
	// Races between the lanes of a warp and between the warps of a block
	// are found by the same level, in the same regions: a region keeps both
	// (lanes that race can also make their warp end differently).
	sameLevel := func(a, b manifest.Scope) bool {
		return a == b || a != manifest.ScopeInterBlock && b != manifest.ScopeInterBlock
	}
	var keep []Race
	for _, rc := range r.res.Races {
		if sameLevel(rc.Scope, first.Scope) && rc.Region.From == first.Region.From && rc.Region.To == first.Region.To {
			keep = append(keep, rc)
		}
	}
	r.res.Races = keep
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
		if al.target.Kind == manifest.KindDevice {
			if err := r.b.Write(al.base, al.initial); err != nil {
				return err
			}
		}
	}
	return nil
}

// atomicMode is the mode of the kernel's atomics for the next launch: the
// first checked launch runs and logs them, the others replay the log.
func (r *checkRun) atomicMode() int32 {
	if r.atomicsRan {
		return 2
	}
	r.atomicsRan = true
	return 1
}

// moduleUser is a backend whose launches of one kind may run from a
// module of their own (the CUDA backend, where the build made them: see
// LoadModule). Each module's copy of the context is written as the checked
// module's is.
type moduleUser interface {
	UseModule(kind string)
	ModuleSymbol(kind, name string) (DevPtr, int64, bool)
}

// useModuleFor makes the launches of mode run from their module (a
// backend's occupancy figures are the module's in use, too).
func (r *checkRun) useModuleFor(mode int32) (kind string) {
	switch {
	case mode == ModeBlock:
		kind = BlockModule
	case mode == ModeReplay && r.onePass:
		kind = OnePassModule
	case mode == ModePlain:
		kind = r.plainModule
	}
	if mu, ok := r.b.(moduleUser); ok {
		mu.UseModule(kind)
	}
	return kind
}

// launch writes the context and runs the user's kernel.
func (r *checkRun) launch(mode, pass, atomicMode int32, extra ...func(*Ctx)) error {
	kind := r.useModuleFor(mode)
	c := Ctx{Mode: mode, Pass: pass, AtomicMode: atomicMode}
	if mode == ModeReplay && r.onePass {
		c.OnePass = 1
	}
	c.AtomicLog, c.AtomicOverflow, c.AtomicSlots, c.AtomicSpillBits = uint64(r.alog), uint64(r.aover), int32(r.atomicSlots), int32(r.atomicSpillBits)
	c.Records, c.NRecords, c.MaxRecords = uint64(r.records), uint64(r.nrec), maxRecords
	c.FailedTest = uint64(r.failedTest)
	if mode == ModeReplay {
		c.Compared = uint64(r.compared)
	}
	// (Level 2 with its global targets untracked redirects none of them.)
	if mode != ModeReplay || !r.globalUntracked() {
		for i, al := range r.allocs {
			c.Allocs[i] = al.ctx()
		}
		c.NAllocs = int32(len(r.allocs))
	}
	if r.pool != nil {
		c.Pool = r.pool.ctx()
	}
	if r.segs != nil {
		c.Segs = r.segs.ctx()
	}
	if mode == ModeReplay && !r.opt.Deterministic {
		ap, err := r.apReset()
		if err != nil {
			return err
		}
		c.Ap = ap
	}
	if mode == ModeReplay && !r.opt.Deterministic {
		iw, err := r.iwReset()
		if err != nil {
			return err
		}
		c.Iw = iw
	}
	c.Pool.SlotBytes = uint64(r.slotBytes)
	for _, f := range extra {
		f(&c)
	}
	c.setQuietEnds()
	if err := r.b.Write(r.ctxAddr, c.Bytes()); err != nil {
		return err
	}
	if mu, ok := r.b.(moduleUser); ok && kind != "" {
		if addr, n, found := mu.ModuleSymbol(kind, "ldc_g"); found && n == CtxSize {
			if err := r.b.Write(addr, c.Bytes()); err != nil {
				return err
			}
		}
	}
	if err := r.b.Memset(r.nrec, 0, nrecBytes); err != nil {
		return err
	}
	shared := r.l.Shared
	// Level 2 needs room for the warps' copies. (Level 1 runs each block
	// on its own shared memory: a block whose warps race may then end its
	// passes differently, which is why level 1's read-write differences
	// wait for level 2, run one block at a time.)
	if mode == ModeReplay && (c.SharedInDyn != 0 || c.Iw.InDyn != 0) {
		shared = r.sharedLaunch
	}
	if mode == ModeReplay && c.Segs.InDyn != 0 {
		shared = max(shared, r.segs.sharedBytes())
	}
	if err := r.explain(r.b.Launch(r.l.Kernel.Name, r.l.Grid, r.l.Block, shared, r.args)); err != nil {
		return err
	}
	if atomicMode == 1 && r.alog != 0 {
		// The launch that logs the atomics' results decides whether the
		// log held them all: stop now if not, not after every level.
		wanted, err := r.atomicsWanted()
		if err != nil {
			return err
		}
		if wanted > r.atomicSlots {
			return &atomicLogShort{wanted: wanted}
		}
	}
	return nil
}

// fusedGrid sizes the check kernels: enough blocks to cover the items, at
// most enough to fill a large GPU several times over.
func fusedGrid(items int64) [3]uint32 {
	n := (items + 255) / 256
	if n > 4096 {
		n = 4096
	}
	if n < 1 {
		n = 1
	}
	return [3]uint32{uint32(n), 1, 1}
}

// useShared puts the shared-target table into a launch's context.
func (r *checkRun) useShared(c *Ctx) {
	c.SharedScratch, c.SharedPerBlock, c.NShared = r.shared.SharedScratch, r.shared.SharedPerBlock, r.shared.NShared
	c.SharedTracked = r.shared.SharedTracked
	c.SharedOff, c.SharedBytes = r.shared.SharedOff, r.shared.SharedBytes
	c.SharedInDyn, c.DynOffset = r.shared.SharedInDyn, r.shared.DynOffset
	c.SharedDirect = r.shared.SharedDirect
	c.SharedOwn = r.shared.SharedOwn
}

// readRecords fetches the race records of the last launches.
func (r *checkRun) readRecords() ([]Record, error) {
	recs, hot, err := r.readRecordsHot()
	if err == nil && hot != [2]int64{} {
		err = fmt.Errorf("internal error: %d and %d hot pages listed outside a page check", hot[0], hot[1])
	}
	return recs, err
}

// readRecordsHot is readRecords, with the hot pages the last write-write
// and read-write check kernels listed (their counts come with the
// records': one read).
func (r *checkRun) readRecordsHot() ([]Record, [2]int64, error) {
	recs, hot, truncated, err := readRecordBuffer(r.b, r.records, r.nrec, maxRecords)
	r.res.Truncated = r.res.Truncated || truncated
	return recs, hot, err
}

// nrecBytes is the room of the record counts (ldc_g.nrecords): two int32
// counting each half's records, then two counting the hot pages the
// write-write and read-write check kernels listed.
const nrecBytes = 16

// DecodeRecordBuffer decodes a record buffer of max records read from the
// device, given the two counts at nrec (readRecordBuffer).
func DecodeRecordBuffer(nrec, records []byte, max int) []Record {
	half := max / 2
	var recs []Record
	for side := 0; side < 2; side++ {
		n := min(int(int32(binary.LittleEndian.Uint32(nrec[4*side:]))), half)
		if n > 0 {
			recs = append(recs, DecodeRecords(records[side*half*RecordSize:], n)...)
		}
	}
	return recs
}

// readRecordBuffer reads and empties a record buffer of max records: its
// first half holds write-write records, its second read-write ones, and
// the first two int32 at nrec count them (ldc_record_race); the next two,
// returned as hot, count the hot pages listed (ldc_hot_note), zeroed too.
func readRecordBuffer(b Backend, records, nrec DevPtr, max int) (recs []Record, hot [2]int64, truncated bool, err error) {
	raw := make([]byte, nrecBytes)
	if err := b.Read(raw, nrec); err != nil {
		return nil, hot, false, err
	}
	// (A memset, unlike a write from the host, does not wait for the GPU.)
	if err := b.Memset(nrec, 0, nrecBytes); err != nil {
		return nil, hot, false, err
	}
	for i := range hot {
		hot[i] = int64(int32(binary.LittleEndian.Uint32(raw[8+4*i:])))
	}
	half := max / 2
	for side := 0; side < 2; side++ {
		n := int(int32(binary.LittleEndian.Uint32(raw[4*side:])))
		if n > half {
			truncated, n = true, half
		}
		if n <= 0 {
			continue
		}
		buf := make([]byte, n*RecordSize)
		if err := b.Read(buf, records+DevPtr(side*half*RecordSize)); err != nil {
			return nil, hot, false, err
		}
		recs = append(recs, DecodeRecords(buf, n)...)
	}
	return recs, hot, truncated, nil
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
