package gpuruntime

import (
	"fmt"
	"slices"
	"strings"

	"ldcheck/privatize/manifest"
)

// Some launches need no check: the build proved that no two threads can
// touch the same byte of anything the kernel writes. Those proofs say
// "each thread accesses only its own elements" (the global thread id, a
// grid-stride loop's index, threadIdx.x in shared memory), which holds for
// 1-D launches only.

// oneD says whether the launch's grid and blocks are both 1-D.
func (l Launch) oneD() bool {
	return l.Grid[1] == 1 && l.Grid[2] == 1 && l.Block[1] == 1 && l.Block[2] == 1
}

// ProvenRaceFree returns, when launch l needs no check, the note that
// says why: every variable the kernel writes is private to each thread
// (its targets, if any, are all marked Private: still privatized, only so
// that a replay never applies a write twice), no plain access is noted
// for the atomic-plain check (the build notes those of variables that
// atomics update, where an atomic may run in the same region), and the
// launch is 1-D. The kernel then runs once, as it would without ldcheck,
// instead of four times with copies.
func ProvenRaceFree(l Launch) (string, bool) {
	if !l.Kernel.Instrumented {
		return "", false
	}
	k := l.Kernel
	if !l.oneD() {
		return "", false
	}
	for _, s := range l.Sites {
		// Sites are the build's, not the kernel's: any kernel's noted
		// plain access counts.
		if s.Var != "" && s.Kind != manifest.SiteAtomic {
			return "", false
		}
	}
	var private []string
	for _, t := range k.Targets {
		if !t.Private {
			return "", false
		}
		private = append(private, t.Name)
	}
	for _, u := range k.Unchecked {
		if u.Requires == manifest.Requires1DLaunch && !slices.Contains(private, u.Name) {
			private = append(private, u.Name)
		}
	}
	var what []string
	if len(private) > 0 {
		what = append(what, "each thread writes only its own elements of "+strings.Join(private, ", "))
	}
	if len(k.Atomic) > 0 {
		what = append(what, strings.Join(k.Atomic, ", ")+": updated by atomics that no plain access of them can meet")
	}
	if len(what) == 0 {
		what = append(what, "it writes no memory that two threads share")
	}
	return fmt.Sprintf("not checked at run time, and no need: the build proved kernel %s race-free for 1-D launches (%s), so it ran once, as written", k.Name, strings.Join(what, "; ")), true
}

// unproven1D lists, for a launch that is not 1-D, the variables the build
// left unprivatized because every access was at the thread's own index,
// a proof that holds for 1-D launches only: this launch checks nothing on
// them. (Parameters proven so are privatized anyway, and checked.)
func unproven1D(l Launch) []string {
	if l.oneD() {
		return nil
	}
	k := l.Kernel
	var out []string
	for _, u := range k.Unchecked {
		if u.Requires != manifest.Requires1DLaunch {
			continue
		}
		checked := false
		for _, t := range k.Targets {
			checked = checked || (t.Name == u.Name && t.Private)
		}
		if !checked {
			out = append(out, u.Name)
		}
	}
	return out
}

// interBlockProven returns, when launch l needs no block level, the note
// that says why: no two blocks touch one element of a global variable the
// kernel writes (gridRaceFree: no two threads at all, thread-private
// targets in 1-D launches or the build's index proofs; blocksApart: no two
// threads of different blocks; both with this launch's tests), so no two
// blocks can race on one. Level 1 checks nothing else (races with atomics
// are level 2's), and level 2 still replays the regions on copies.
func interBlockProven(l Launch) (string, bool) {
	var names []string
	for _, t := range l.Kernel.Targets {
		if t.Space != manifest.SpaceGlobal {
			continue
		}
		if !l.gridRaceFree(t) && !l.blocksApart(t) {
			return "", false
		}
		names = append(names, t.Name)
	}
	if len(names) == 0 {
		return "", false
	}
	return fmt.Sprintf("no check between blocks: no two blocks touch one element of %s (proven by the build for this launch's sizes and arguments)", strings.Join(names, ", ")), true
}

// interBlockVoided says, when the check between blocks runs only because
// this launch fails tests the build's proofs rest on (every global target
// is proven over the grid or apart between blocks, for some launches),
// which tests those are: a block of 48 threads is not whole warps, and a
// warp's row gid / 32 is then shared by two blocks.
func interBlockVoided(l Launch) (string, bool) {
	var parts []string
	for _, t := range l.Kernel.Targets {
		if t.Space != manifest.SpaceGlobal || l.gridRaceFree(t) || l.blocksApart(t) {
			continue
		}
		var failed []string
		switch {
		case t.BlocksApart:
			failed = l.failing(t.BlocksApartWhen)
		case t.GridRaceFree:
			failed = l.failing(t.GridRaceFreeWhen)
		default:
			return "", false
		}
		parts = append(parts, fmt.Sprintf("%s where %s", t.Name, strings.Join(failed, " and ")))
	}
	if len(parts) == 0 {
		return "", false
	}
	return fmt.Sprintf("checked between blocks because this launch fails the tests the build's proofs rest on: no two blocks touch one element of %s", strings.Join(parts, "; of ")), true
}

// warpLevelVoided is interBlockVoided for the check inside blocks: every
// target is proven free of races inside a block for this launch's block
// shape (or over the grid), but some proof's tests fail.
func warpLevelVoided(l Launch, atomicPlain bool) (string, bool) {
	k := l.Kernel
	if !k.Instrumented || atomicPlain {
		return "", false
	}
	var parts []string
	for _, t := range k.Targets {
		if l.blockRaceFree(t) || (t.Space == manifest.SpaceGlobal && l.gridRaceFree(t)) {
			continue
		}
		if !t.BlockRaceFree && (t.BlockRaceFreeIf == "" || !l.blockHas(t.BlockRaceFreeIf)) {
			return "", false
		}
		parts = append(parts, fmt.Sprintf("%s where %s", t.Name, strings.Join(l.failing(t.BlockRaceFreeWhen), " and ")))
	}
	if len(parts) == 0 {
		return "", false
	}
	return fmt.Sprintf("checked inside blocks because this launch fails the tests the build's proofs rest on: no two threads of a block touch one element of %s", strings.Join(parts, "; of ")), true
}

// failing lists the tests of a proof this launch fails, as C.
func (l Launch) failing(tests []manifest.LaunchTest) []string {
	var out []string
	for _, lt := range tests {
		if !lt.HoldsIn(&l.Grid, l.Block, l.intParam) {
			out = append(out, lt.String())
		}
	}
	return out
}

// blocksApart reports whether the build proved, for this launch, that no
// two threads of different blocks touch one element of global target t.
func (l Launch) blocksApart(t manifest.Target) bool {
	return t.BlocksApart && l.passes(t.BlocksApartWhen)
}

// passes reports whether the launch passes every test of a grid proof.
func (l Launch) passes(tests []manifest.LaunchTest) bool {
	for _, lt := range tests {
		if !lt.HoldsIn(&l.Grid, l.Block, l.intParam) {
			return false
		}
	}
	return true
}

// provenPhase names the one launch of a proven race-free run.
const provenPhase = "kernel (proven race-free, run once)"

// Proven returns, when launch l needs no check, the note that says why:
// ProvenRaceFree's thread-private targets, or launchProven's index proofs.
func Proven(l Launch) (string, bool) {
	if why, ok := ProvenRaceFree(l); ok {
		return why, true
	}
	return launchProven(l)
}

// RunProven runs a launch that Proven accepts from the build's
// native module (b must hold it), once, as RunNative does, and reports it
// as checked: levels "static", the proof in a note. Running the user's
// kernel as written costs nothing over a native run (the instrumented
// module in plain mode still pays its hooks: 1.7x on saxpy64m, 3.4x on
// histogram_atomic's 128M shared atomics, on the H100).
func RunProven(b Backend, l Launch, opt Options) (*Result, error) {
	why, ok := Proven(l)
	if !ok {
		return nil, fmt.Errorf("kernel %s: this launch is not proven race-free, so it must be checked", l.Kernel.Name)
	}
	res, err := RunNative(b, l, opt)
	if err != nil {
		return nil, err
	}
	res.Unchecked, res.Levels, res.DetectionProbability = "", []string{"static"}, 1
	res.Notes = append(res.Notes, why)
	for i := range res.Phases {
		res.Phases[i].Name = provenPhase
	}
	return res, nil
}

// blockHas reports whether the launch's block has shape, a launch shape of
// the manifest ("block-2d": blockDim.z == 1; "block-1d": y and z 1).
func (l Launch) blockHas(shape string) bool {
	switch shape {
	case "":
		return true
	case "block-2d":
		return l.Block[2] == 1
	case "block-1d":
		return l.Block[1] == 1 && l.Block[2] == 1
	}
	return false
}

// blockRaceFree reports whether the build proved, for this launch's block
// shape, that no two threads of a block race on target t. Private
// parameters (each thread its own element) count in 1-D launches.
func (l Launch) blockRaceFree(t manifest.Target) bool {
	if t.Private && l.oneD() {
		return true
	}
	if !t.BlockRaceFree && (t.BlockRaceFreeIf == "" || !l.blockHas(t.BlockRaceFreeIf)) {
		return false
	}
	for _, lt := range t.BlockRaceFreeWhen {
		if !lt.Holds(l.Block, l.intParam) {
			return false
		}
	}
	return true
}

// intParam is the value of integer parameter i of the launch, read from
// its argument's bytes (little-endian; signed where the type is).
func (l Launch) intParam(i int) (int64, bool) {
	if i < 0 || i >= len(l.Args) || l.Args[i].Buffer {
		return 0, false
	}
	a := l.Args[i]
	n := len(a.Data)
	if n != 1 && n != 2 && n != 4 && n != 8 {
		return 0, false
	}
	var u uint64
	for b := n - 1; b >= 0; b-- {
		u = u<<8 | uint64(a.Data[b])
	}
	if strings.Contains(a.Param.Type, "unsigned") || strings.HasPrefix(strings.TrimPrefix(a.Param.Type, "const "), "u") || strings.Contains(a.Param.Type, "size_t") {
		if u > 1<<62 {
			return 0, false // too large to weigh safely
		}
		return int64(u), true
	}
	shift := uint(64 - 8*n)
	return int64(u<<shift) >> shift, true
}

// everyRegionOnce reports whether every region of the launch ends after
// its first pass at level 2 (the manifest's one-pass proofs, for this
// block shape; a region whose proof has a run-time test may not).
func (l Launch) everyRegionOnce() bool {
	for _, rg := range l.Kernel.Regions {
		if rg.Conditional || !(rg.OnePass || (rg.OnePassIf != "" && l.blockHas(rg.OnePassIf))) {
			return false
		}
	}
	return len(l.Kernel.Regions) > 0
}

// everyRegionMayRunOnce reports whether every region of the launch is
// proven to end after its first pass at level 2 for this block shape,
// counting those whose proof rests on strides the kernel tests as it
// runs (Conditional).
func (l Launch) everyRegionMayRunOnce() bool {
	for _, rg := range l.Kernel.Regions {
		if !(rg.OnePass || (rg.OnePassIf != "" && l.blockHas(rg.OnePassIf))) {
			return false
		}
	}
	return len(l.Kernel.Regions) > 0
}

// onePassLevel2 reports whether level 2 may run one pass a region: the
// backend can, every region may end after one pass, and no check needs a
// second (the intra-warp check notes the accesses of the second; a
// deterministic run merges in order). Such a run tests the strides the
// proofs rest on as it goes, and a launch that finds one 0 is void: level
// 2 runs again with both passes (levelWarp).
//
// The atomic-plain check notes the accesses of the only pass in a kernel
// of one region (no barrier: ld_bfs, the scatter of a histogram): a note
// names its region as it is made, and there the region is the kernel,
// entry to exit. Where regions end at barriers, pass 2 knows which
// barrier the region it notes ends at; one pass does not yet.
func (r *checkRun) onePassLevel2() bool {
	k, l := r.l.Kernel, r.l
	return r.b.OnePass() && k.Instrumented && !r.opt.Unchecked && !r.opt.Deterministic && !r.wantsIntraWarp() &&
		(!r.wantsAtomicPlain() || len(k.Regions) == 1) && l.everyRegionMayRunOnce()
}

// uncopiedShared is the mask of the shared targets level 2 runs on the
// block's own memory (bit i: the i-th shared target), and adds a note
// naming them: those no two threads of a block race on (blockRaceFree),
// in launches whose every region runs once, so that no write of them
// runs twice. The intra-warp and atomic-plain checks replay every region,
// and a deterministic run merges copies in order: those runs copy every
// target. A level 2 in one pass a region (r.onePass) counts the proofs
// that rest on tests too: a test that fails voids it, and the run with
// both passes that follows copies those targets.
func (r *checkRun) uncopiedShared() uint32 {
	k, l := r.l.Kernel, r.l
	if !k.Instrumented || r.opt.Unchecked || r.opt.Deterministic || r.wantsIntraWarp() || r.wantsAtomicPlain() || !(l.everyRegionOnce() || r.onePass) {
		return 0
	}
	if _, skipped := warpLevelProven(l, false); skipped {
		return 0 // no level 2 to run
	}
	var mask uint32
	var names []string
	i := 0
	for _, t := range k.Targets {
		if t.Space != manifest.SpaceShared {
			continue
		}
		if l.blockRaceFree(t) && (!t.BlockRaceFreeTested || r.onePass) {
			// (A tested proof's failing test keeps a region's second pass.)
			mask |= 1 << i
			names = append(names, t.Name)
		}
		i++
	}
	if mask != 0 {
		r.uncopiedNote = fmt.Sprintf("shared %s: no race possible inside a block, proven by the build (no two threads touch one element where either writes it, in any region), and every region runs once: level 2 ran %s on the block's own shared memory, without copies", strings.Join(names, ", "), map[bool]string{true: "it", false: "them"}[len(names) == 1])
		r.res.Notes = append(r.res.Notes, r.uncopiedNote)
	}
	return mask
}

// globalUntracked reports whether level 2 leaves the launch's global
// targets to the kernel's own memory, untracked: every one is proven free
// of races between any two threads of a block for this launch (over the
// grid, or inside a block), and every region runs once, so that no store
// of them runs twice. Its launches then have no allocations to redirect
// and no segments, and their region ends nothing global to check:
// ld_radixsort's out, stored once per block in its last region, took a
// void run (its 1024 words a block overfill the table of stores in place)
// and a run with copies of every block's pages. A level 2 that turns to
// both passes (a stride test failed) tracks them again. The checks that
// note accesses (intra-warp, atomic-plain) and a deterministic run, which
// merges copies in order, keep them.
func (r *checkRun) globalUntracked() bool {
	k, l := r.l.Kernel, r.l
	if !r.onePass || !k.Instrumented || r.opt.Deterministic || r.wantsIntraWarp() || r.wantsAtomicPlain() || len(r.allocs) == 0 {
		return false
	}
	for _, t := range k.Targets {
		if t.Space == manifest.SpaceGlobal && !l.gridRaceFree(t) && !l.blockRaceFree(t) {
			return false
		}
	}
	return true
}

// ownShared is the mask of the shared targets a level 2 of one pass a
// region stores to in place, uncopied, noting in a word per word of the
// target which warp stored to each byte in the region (ldc_own_shared):
// every copied target (the others of uncopied), or none. A region that
// runs once checks only that no two warps stored to one byte (its proof
// says no warp reads what another writes in it), and a warp's copy served
// only that check, at the price of a copy a warp: ld_radixsort's 8 KiB of
// keys took 83 KiB a block with its copies, two blocks an SM where the
// kernel has eight. A second warp's store to a byte makes the launch void
// (failed_test = sharedOwnVoidLine), and it runs again with copies, whose
// check tells a race from a store of the value the byte held. Stores must
// all be tracked (the hooks note them), and no check may note accesses
// between passes or merge copies (intra-warp, atomic-plain,
// deterministic).
func (r *checkRun) ownShared(direct uint32) uint32 {
	k := r.l.Kernel
	if !r.onePass || r.sharedCopies || r.opt.CopyStores || r.opt.Deterministic || r.opt.EveryShared || !k.SharedTracked ||
		r.wantsIntraWarp() || r.wantsAtomicPlain() {
		return 0
	}
	var mask uint32
	for i := 0; i < int(r.shared.NShared); i++ {
		if direct>>i&1 == 0 {
			mask |= 1 << i
		}
	}
	return mask
}

// sharedOwnVoidLine is the failed_test value of a launch in which two
// warps stored to one byte of a shared target stored in place (a line
// no source reaches; LDC_SHARED_OWN_VOID in the header).
const sharedOwnVoidLine = 1 << 30

// warpLevelProven returns, when the launch needs no level 2, the note that
// says why: the build proved that no two threads of a block race on any
// target (blockRaceFree), and no atomic meets a plain access (the
// atomic-plain check is level 2's). Races between the warps of a block,
// and between the lanes of a warp, are then ruled out; level 1 still
// checks the races between blocks.
func warpLevelProven(l Launch, atomicPlain bool) (string, bool) {
	k := l.Kernel
	if !k.Instrumented || atomicPlain || len(k.Targets) == 0 {
		return "", false
	}
	var names []string
	for _, t := range k.Targets {
		// (No two threads of the launch is no two of a block.)
		if !l.blockRaceFree(t) && !(t.Space == manifest.SpaceGlobal && l.gridRaceFree(t)) {
			return "", false
		}
		names = append(names, t.Name)
	}
	return fmt.Sprintf("no check inside blocks (warp level): the build proved that no two threads of a block touch one element of %s where either writes it, in any region", strings.Join(names, ", ")), true
}

// testedTargets names the targets whose block race-free proof, which
// this launch relies on, also rests on tests the kernel makes as it runs.
func (l Launch) testedTargets() []string {
	var names []string
	for _, t := range l.Kernel.Targets {
		if t.BlockRaceFreeTested && l.blockRaceFree(t) && !(t.Private && l.oneD()) {
			names = append(names, t.Name)
		}
	}
	return names
}

// gridRaceFree reports whether the build proved, for this launch, that
// no two threads (any blocks) race on global target t.
func (l Launch) gridRaceFree(t manifest.Target) bool {
	if t.Private && l.oneD() {
		return true
	}
	return t.GridRaceFree && l.passes(t.GridRaceFreeWhen)
}

// launchProven returns, when launch l needs no check, the note that says
// why: every shared target is free of races inside a block and every
// global one across the grid, by the build's index proofs and the tests
// of this launch they rest on (block and grid sizes, integer arguments),
// and no plain access is noted for the atomic-plain check. The kernel
// then runs once, as written. (ProvenRaceFree is the 1-D case of
// thread-private targets, with no tests.)
func launchProven(l Launch) (string, bool) {
	k := l.Kernel
	if !k.Instrumented || len(k.Targets) == 0 || len(unproven1D(l)) > 0 {
		// (A variable left unprivatized for 1-D launches is unchecked in
		// this one: the run must say so, not call the kernel proven.)
		return "", false
	}
	for _, s := range l.Sites {
		if s.Var != "" && s.Kind != manifest.SiteAtomic {
			return "", false
		}
	}
	var shared, global []string
	for _, t := range k.Targets {
		switch {
		case t.Space == manifest.SpaceShared && l.blockRaceFree(t) && !t.BlockRaceFreeTested:
			// (A proof tested in the kernel needs an instrumented run.)
			shared = append(shared, t.Name)
		case t.Space == manifest.SpaceGlobal && l.gridRaceFree(t):
			global = append(global, t.Name)
		default:
			return "", false
		}
	}
	var what []string
	if len(global) > 0 {
		what = append(what, "no two threads of the launch touch one element of "+strings.Join(global, ", ")+" where either writes it")
	}
	if len(shared) > 0 {
		what = append(what, "no two threads of a block touch one element of "+strings.Join(shared, ", ")+" where either writes it, in any region")
	}
	if len(k.Atomic) > 0 {
		what = append(what, strings.Join(k.Atomic, ", ")+": updated by atomics that no plain access of them can meet")
	}
	return fmt.Sprintf("not checked at run time, and no need: the build proved kernel %s race-free for this launch's sizes and arguments (%s), so it ran once, as written", k.Name, strings.Join(what, "; ")), true
}
