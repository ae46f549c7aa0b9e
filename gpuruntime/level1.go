package gpuruntime

import (
	"encoding/binary"
	"fmt"
	"strings"

	"ldcheck/privatize/manifest"
	"ldcheck/reshuffle"
)

// Level 1: unit = block, region = the whole kernel, driven from the host.
// Pass 1 runs every block on its private pages (taken from S); the write-
// write kernel finds pages two blocks changed, writes U into the base and
// turns each block's pages into its pass-2 state; pass 2 runs every block
// again, reading U where it has no page; the read-write kernel finds blocks
// whose pages now differ from U. Pass 2 is left out where the build proved
// that the kernel reads no global variable it writes (BlockOnePass), and
// the write-write kernel then only reads the pages (pageCheck's final).
//
// The pool of pages is sized from the device's own count: a pass that runs
// out of room is void, and the level restarts from the inputs with room
// for what the blocks asked for. When even that does not fit the memory
// limit, blocks are checked in rounds of groups that share private copies
// (warp reshuffling): a page then has at most one copy per group.

// maxAttempts bounds the restarts after running out of room.
const maxAttempts = 8

func (r *checkRun) levelBlock() error {
	r.res.Levels = append(r.res.Levels, "block")
	units := r.l.blocks()
	capFit := r.capFitting()
	if capFit < 64 {
		return r.tooSmall(poolBytes(64, r.slotBytes, r.totalPages), fmt.Sprintf("level 1's private copies of %s (tables for their %d pages, and a first few copies)", r.targetNames(), r.totalPages))
	}
	// A first guess: most kernels write a page or more per block, and a
	// pass that runs out of room costs a whole run. Scatters write a page
	// in several blocks (ld_bfs at 16M vertices asked for ten copies a
	// page, and its void first pass, stopped early, still cost 4.5 of its
	// 23 ms): where the memory is plentiful, sixteen copies a page, or
	// four, the pool at most an eighth of the budget. The copies
	// themselves are not cleared (AllocScratch); their table is, 48 bytes
	// a copy (ld_bfs: 0.26 ms for sixteen).
	shards := shardsFor(units)
	guess := max(2*r.totalPages, int64(units), 1024)
	for _, perPage := range []int64{16, 4} {
		if roomy := perPage * r.totalPages; roomy > guess && poolBytes(roomy, r.slotBytes, r.totalPages) <= r.budget/8 {
			guess = roomy
			break
		}
	}
	cap := shardRound(min(guess, capFit), shards, capFit)
	var plan *reshuffle.Plan
	for attempt := 1; ; attempt++ {
		if attempt > maxAttempts {
			return fmt.Errorf("kernel %s: level 1 ran out of room for private copies %d times; giving up", r.l.Kernel.Name, maxAttempts)
		}
		// (In a phase: the allocation takes the device's time too.)
		var p *pool
		if err := r.phase("allocate page copies (block level)", func() (err error) {
			p, err = r.newPool(cap, shards)
			return err
		}); err != nil {
			return err
		}
		r.pool = p
		r.res.CopyBytes = max(r.res.CopyBytes, poolBytes(cap, r.slotBytes, r.totalPages))
		st, err := r.blockRounds(plan)
		p.release(r)
		r.pool = nil
		if err != nil {
			return err
		}
		if !st.full {
			return nil
		}
		// The pass was void: size the pool for what the blocks asked for
		// (all of them, where some stopped at their start).
		st = st.extrapolated(int64(units), r.totalPages)
		restore := r.restoreInputs
		if st.unlogged {
			// The blocks that stopped never ran their atomics, so the log
			// lacks their results: the next pass runs and logs them all,
			// from the atomically updated buffers' inputs too (ld_bfs's
			// cost: replayed from that log, it reported a race that is
			// not there).
			r.atomicsRan = false
			restore = r.restoreAll
		}
		if err := restore(); err != nil {
			return err
		}
		wantShards, want := rerunShards(st.shardWanted, capFit)
		if st.saturated {
			// The table itself filled up: the count is only a lower bound.
			want = max(want, shardRound(8*cap, wantShards, 8*cap))
		}
		copies := units
		if plan != nil {
			copies = plan.Copies
		}
		if plan == nil && (want <= capFit || st.saturated && cap < capFit) {
			if st.ranBlocks > 0 {
				r.res.Notes = append(r.res.Notes, fmt.Sprintf("level 1 ran out of its %d page copies; the blocks that started after stopped at once, and from the %d of %d that ran the grid asks for about %d; ran again with room for them", cap, st.ranBlocks, units, st.wanted))
			} else if st.wanted > cap {
				r.res.Notes = append(r.res.Notes, fmt.Sprintf("level 1 asked for %d page copies or more, more than the %d first allotted; ran again with room for them", st.wanted, cap))
			} else {
				r.res.Notes = append(r.res.Notes, fmt.Sprintf("level 1 asked for %d page copies or more, more than one of its %d shards of %d copies holds; ran again with room for them", st.wanted, shards, cap/shards))
			}
			shards = wantShards
			cap = shardRound(min(want, capFit), shards, capFit)
			continue
		}
		// Reshuffle: M groups share copies, so a page has at most M.
		pages := max(st.pages, 1)
		m := int64(copies)
		if plan != nil {
			m = int64(plan.Copies) / 2
		}
		for m >= 2 && m*pages+m*pages/8+1024 > capFit {
			m = min(m-1, capFit/(pages+pages/8+1))
		}
		if m < 2 {
			return r.tooSmall(poolBytes(2*pages+2*pages/8+1024, r.slotBytes, r.totalPages), fmt.Sprintf("level 1's private copies of %s (%d pages of %d bytes written, each in at least two copies)", r.targetNames(), pages, r.slotBytes))
		}
		pl, err := reshuffle.NewPlan(units, int(m))
		if err != nil {
			return err
		}
		plan = &pl
		cap, shards = groupCap(m, pages, capFit)
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("the blocks' private copies (%d copies of %d pages) do not fit in %s: checking in %d rounds of %d groups that share copies (warp reshuffling)",
			st.wanted, st.pages, sizeString(r.budget), pl.Rounds, pl.Copies))
	}
}

// shardRound rounds cap up to a multiple of shards, or down where that
// would pass limit (cap is at least 64 and shards at most 32, so at least
// two slots a shard remain).
func shardRound(cap, shards, limit int64) int64 {
	c := (cap + shards - 1) / shards * shards
	if c > limit {
		c = limit / shards * shards
	}
	return c
}

// rerunShards sizes the attempt after a void pass whose slot shards were
// asked for wanted[j] slots: every shard needs room for the largest
// count (with the margin a single pool had: an eighth and 1024 slots in
// all), so a kernel whose units ask for very different numbers of copies
// would waste most of the room of all but one shard. The shard count then
// halves (units of a shard of len(wanted)/2 are those of shards j and
// j + len(wanted)/2, so the counts merge exactly) while the pool does not
// fit; one shard is the single pool. A saturated count stays a lower
// bound.
func rerunShards(wanted []int64, capFit int64) (shards, cap int64) {
	counts := append([]int64(nil), wanted...)
	for {
		s := int64(len(counts))
		var most int64
		for _, w := range counts {
			most = max(most, w)
		}
		cap = s * (most + most/8 + 1024/s)
		if cap <= capFit || s == 1 {
			return s, cap
		}
		half := counts[:s/2]
		for j := range half {
			half[j] += counts[int64(j)+s/2]
		}
		counts = half
	}
}

// groupCap is the pool for m reshuffled groups of at most pages copies
// each: group g takes its slots from shard g % shards, so every shard
// holds room for ceil(m / shards) groups. Where m is no multiple of the
// shard count that rounding costs memory, and under a memory limit the
// groups come first: the shard count is the largest power of two whose
// pool fits capFit, and one shard (the single pool, which fits whenever m
// was chosen to) where none does.
func groupCap(m, pages, capFit int64) (cap, shards int64) {
	for shards = shardsFor(int(m)); ; shards /= 2 {
		per := (m + shards - 1) / shards
		cap = shards * (per*(pages+pages/8) + 1024/shards)
		if cap <= capFit || shards == 1 {
			return cap, shards
		}
	}
}

// capFitting is the most slots a pool may have within the budget.
func (r *checkRun) capFitting() int64 {
	return capFittingIn(r.budget, r.slotBytes, r.totalPages)
}

// capFittingIn is the most slots a pool may have within budget bytes.
func capFittingIn(budget, slotBytes, totalPages int64) int64 {
	lo, hi := int64(0), int64(1)<<40
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if poolBytes(mid, slotBytes, totalPages) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// tooSmall is the error when even the smallest useful layout does not fit:
// bad input when the user set the limit, else a memory error.
func (r *checkRun) tooSmall(need int64, what string) error {
	if r.opt.MemLimit > 0 {
		return &MemoryError{Need: need, Free: r.opt.MemLimit, What: what, Limit: true}
	}
	return &MemoryError{Need: need, Free: r.budget, What: what}
}

// blockRounds runs the rounds of a plan (one round, unit = block, without
// one). It stops at the first race unless --all, and returns the pool's
// state of a void pass (full) so the caller can make room.
func (r *checkRun) blockRounds(plan *reshuffle.Plan) (poolState, error) {
	units := r.l.blocks()
	rounds, copies := 1, units
	if plan != nil {
		rounds, copies = plan.Rounds, plan.Copies
		if err := r.ensureUnitCopy(); err != nil {
			return poolState{}, err
		}
	}
	r.res.RoundsPlanned, r.res.Groups = rounds, copies
	for round := 1; round <= rounds; round++ {
		if round > 1 {
			if err := r.restoreInputs(); err != nil {
				return poolState{}, err
			}
		}
		name := "block level"
		if plan != nil {
			name = fmt.Sprintf("block level, round %d of %d, %d groups", round, rounds, copies)
			m := make([]byte, 4*units)
			for b := 0; b < units; b++ {
				binary.LittleEndian.PutUint32(m[4*b:], uint32(plan.Copy(round, b)))
			}
			if err := r.b.Write(r.pool.unitCopy, m); err != nil {
				return poolState{}, err
			}
		}
		st, err := r.blockRound(name, copies)
		if err != nil || st.full {
			return st, err
		}
		r.res.Rounds = round
		if plan != nil {
			r.res.DetectionProbability = reshuffle.Probability(units, copies, round)
		}
		if (len(r.res.Races) > 0 || len(r.blockRW) > 0) && !r.opt.All {
			return poolState{}, nil
		}
	}
	r.res.DetectionProbability = 1
	return poolState{}, nil
}

// ensureUnitCopy gives the pool its block -> copy map.
func (r *checkRun) ensureUnitCopy() error {
	if r.pool.unitCopy != 0 {
		return nil
	}
	var err error
	r.pool.unitCopy, err = r.alloc(4 * int64(r.l.blocks()))
	return err
}

// blockRound is the two-pass protocol over pages, for units private copies.
func (r *checkRun) blockRound(name string, units int) (poolState, error) {
	p := r.pool
	if err := r.phase("init pass 1 ("+name+")", func() error { return p.reset(r.b) }); err != nil {
		return poolState{}, err
	}
	logs := !r.atomicsRan // (this launch runs the kernel's atomics and logs them)
	if err := r.phase("kernel pass 1 ("+name+")", func() error { return r.launch(ModeBlock, 1, r.atomicMode(), r.useShared) }); err != nil {
		return poolState{}, err
	}
	st, err := p.state(r.b)
	if err != nil || st.full {
		st.unlogged = logs && st.stopped > 0
		return st, err
	}
	if p.unitCopy == 0 {
		r.level1Wanted = st.wanted
	}
	recs, err := r.pageCheck("write-write check ("+name+")", "ldc_pages_ww", st, r.l.Kernel.BlockOnePass)
	if err != nil {
		return poolState{}, err
	}
	r.addRaces(recs, manifest.ScopeInterBlock)
	if len(r.res.Races) > 0 && !r.opt.All {
		return poolState{}, nil
	}
	if r.l.Kernel.BlockOnePass {
		// The build proved that the kernel reads no global variable it
		// writes: a second launch from U would repeat the first.
		return poolState{}, nil
	}
	if err := r.phase("kernel pass 2 ("+name+")", func() error { return r.launch(ModeBlock, 2, r.atomicMode(), r.useShared) }); err != nil {
		return poolState{}, err
	}
	st2, err := p.state(r.b)
	if err != nil || st2.full {
		return st2, err
	}
	recs, err = r.pageCheck("read-write check ("+name+")", "ldc_pages_rw", st2, false)
	if err != nil {
		return poolState{}, err
	}
	if len(recs) > 0 {
		if recs, err = r.reproducible(recs, units); err != nil {
			return poolState{}, err
		}
	}
	// A read-write difference is reported once level 2 has run: a block
	// whose warps race with each other may end differently in pass 2 with
	// no other block involved (pass 1 also took the page copies pass 2
	// finds ready, so the two passes do not even run the same code).
	r.blockRW = append(r.blockRW, recs...)
	return poolState{}, nil
}

// confirmBlockRW reports level 1's read-write differences as races
// between blocks only when level 2 found no race between the warps of a
// block: such a race alone can make a block's two passes differ, and it is
// the one the user must fix first.
func (r *checkRun) confirmBlockRW() {
	if len(r.blockRW) == 0 {
		return
	}
	for _, race := range r.res.Races {
		if race.Scope != manifest.ScopeInterBlock {
			r.res.Notes = append(r.res.Notes, "blocks also ended differently once they saw the others' writes; the races between their warps reported here can cause that alone, so it is not reported as a race between blocks (run again once they are fixed)")
			r.blockRW = nil
			return
		}
	}
	r.addRaces(r.blockRW, manifest.ScopeInterBlock)
	r.blockRW = nil
}

// pageGrid is the grid of a page check kernel (ldc_pages_ww, ldc_pages_rw)
// over pages listed pages of slotBytes: a thread a 16-byte chunk, blocks
// of 256 (whole warps: the kernels share a warp's racy words among its
// lanes).
func pageGrid(pages, slotBytes int64) [3]uint32 {
	return fusedGrid(pages * slotBytes / 16)
}

// slotKernel is the slot-order kernel (ldc_slots_ww, ldc_slots_rw) that
// does the page check kernel's work over a pool of copies copies of pages
// pages, or "" where the page kernel must: the write-write check needs a
// page's copies together unless each page has one, and the read-write
// check in slot order reads U once a copy, not once a page, so pages of
// many copies stay with the page kernel (slotRWCopies).
func slotKernel(kernel string, copies, pages int64) string {
	switch {
	case kernel == "ldc_pages_ww" && copies == pages:
		return "ldc_slots_ww"
	case kernel == "ldc_pages_rw" && copies < slotRWCopies*pages:
		return "ldc_slots_rw"
	}
	return ""
}

// slotRWCopies is the copies a page, on average, from which the read-write
// check walks the pages' chains rather than the slots (H200: slots 0.35
// ms against 0.45 at one copy a page, the same at two, 0.28 against 0.29
// at 1 to 6, 0.38 against 0.36 at 1 to 19; RESULTS, 2026-12-04).
const slotRWCopies = 4

// listedCopies is the copies a page, on average, from which pageCheck
// lists the pages' copies (H200: ld_bfs's ten a page checked a third
// faster listed; pools of one or two a page a third slower, of 1 to 6
// the same).
const listedCopies = 4

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// The page check kernels' flags (ldcheck_rt.h's LDC_CHECK_*).
const (
	checkListed = 1 // ldc_pages_index listed the pages' copies first
	checkFinal  = 2 // ldc_pages_ww: no pass 2 follows, the copies are only read
)

// checkFlags is the flags of a page check launch.
func checkFlags(listed, final bool) uint64 {
	return b2u(listed)*checkListed | b2u(final)*checkFinal
}

// indexPages lists the copies of each of the pool's npages listed pages
// in one array (ldc_pages_index), for the check kernel that follows: the
// pool's counters[1] is where the lists take their room.
func indexPages(b Backend, counters DevPtr, npages, hotLen int64) error {
	if npages == 0 {
		return nil
	}
	if err := b.Memset(counters+8, 0, 8); err != nil {
		return err
	}
	return b.Launch("ldc_pages_index", fusedGrid(npages), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(npages)), u64(uint64(hotLen))})
}

// pageCheck runs one of the page check kernels over the pages written,
// then the hot kernels on the pages it left to them, and returns the
// races recorded. final (write-write only): no pass 2 follows (the build's
// BlockOnePass, the deterministic merge), so the copies need not become
// their pass-2 states: the check reads them once and writes only U, where
// it would read them twice and write them all (ld_bfs: ten copies a page,
// 2.2 GB of them).
func (r *checkRun) pageCheck(phase, kernel string, st poolState, final bool) ([]Record, error) {
	copies := st.copies(r.pool.shardCap)
	copied := copies * r.slotBytes
	// Pages of several copies are listed first (ldc_pages_index): their
	// chains cost the check a wait per copy. Where pages have one or two,
	// the listing costs more than it saves.
	listed := copies >= listedCopies*st.pages
	slots := slotKernel(kernel, copies, st.pages)
	err := r.phase(phase, func() error {
		if slots != "" {
			return r.b.Launch(slots, pageGrid(copies, r.slotBytes), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(copies)), u64(checkFlags(false, final))})
		}
		if listed {
			if err := indexPages(r.b, r.pool.counters, st.pages, hotLimit(copies)); err != nil {
				return err
			}
		}
		return r.b.Launch(kernel, pageGrid(st.pages, r.slotBytes), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(st.pages)), u64(uint64(hotLimit(copies))), u64(checkFlags(listed, final))})
	})
	if err != nil {
		return nil, err
	}
	r.res.BytesCompared += copied
	// Each word of S (or U) is read once and each copy read (and, for
	// write-write, U written, and the copies too unless final) once.
	moved := st.pages*r.slotBytes + copied
	if kernel == "ldc_pages_ww" {
		moved += st.pages * r.slotBytes
		if !final {
			moved += copied
		}
	}
	r.res.Phases[len(r.res.Phases)-1].Bytes = moved
	// The count of hot pages comes with the records': the check's phase
	// holds no read from the host (ld_bfs's write-write check: 0.11 ms,
	// and a read took 0.02-0.03).
	recs, hot, err := r.readRecordsHot()
	if err != nil {
		return nil, err
	}
	rw := kernel == "ldc_pages_rw"
	n := hot[0]
	if rw {
		n = hot[1]
	}
	if n == 0 {
		return recs, nil
	}
	var rounds int64
	err = r.phase(phase+", hot pages", func() error {
		var err error
		rounds, err = checkHot(r.b, r.hotPool(), rw, &r.hotSeq, n)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.res.HotPages += n
	// Each round reads at least every slot's record (its page), and the
	// hot pages' base is read and written.
	r.res.Phases[len(r.res.Phases)-1].Bytes = rounds*copies*16 + 2*n*r.slotBytes
	more, err := r.readRecords()
	return append(recs, more...), err
}

// reproducible drops the read-write records of copies that do not repeat
// their own pass 1: warps racing inside a block make the block's result
// change between runs with no other block involved (level 2 finds and
// names that race). Pass 1 runs twice more from the inputs and each copy's
// pages are summed into a fingerprint; copies whose sums differ are
// unstable.
func (r *checkRun) reproducible(recs []Record, units int) ([]Record, error) {
	fp := make([][]byte, 2)
	dev, err := r.alloc(int64(units) * 8)
	if err != nil {
		return nil, err
	}
	defer r.free(dev)
	err = r.phase("repeat pass 1 twice (block level, only after read-write differences)", func() error {
		for i := range fp {
			if err := r.restoreInputs(); err != nil {
				return err
			}
			if err := r.pool.reset(r.b); err != nil {
				return err
			}
			if err := r.b.Memset(dev, 0, int64(units)*8); err != nil {
				return err
			}
			if err := r.launch(ModeBlock, 1, r.atomicMode(), r.useShared); err != nil {
				return err
			}
			st, err := r.pool.state(r.b)
			if err != nil {
				return err
			}
			if st.full {
				return fmt.Errorf("internal error: the repeat of pass 1 ran out of room it had before")
			}
			// Every slot: the kernel skips those past their shard's count.
			n := r.pool.cap
			if err := r.b.Launch("ldc_pages_fingerprint", fusedGrid(n), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(n)), u64(uint64(dev))}); err != nil {
				return err
			}
			fp[i] = make([]byte, units*8)
			if err := r.b.Read(fp[i], dev); err != nil {
				return err
			}
		}
		// The records of this launch were stray ones of no interest.
		_, err := r.readRecords()
		return err
	})
	if err != nil {
		return nil, err
	}
	var keep []Record
	for _, rec := range recs {
		g := int(rec.Group)
		if rec.Kind == RecordRW && g >= 0 && g < units && binary.LittleEndian.Uint64(fp[0][8*g:]) != binary.LittleEndian.Uint64(fp[1][8*g:]) {
			continue
		}
		keep = append(keep, rec)
	}
	return keep, nil
}

// targetNames lists the global targets for messages: "out", "a and b".
func (r *checkRun) targetNames() string {
	var names []string
	for _, al := range r.allocs {
		names = append(names, fmt.Sprintf("%s, %s", al.target.Name, sizeString(al.size)))
	}
	switch len(names) {
	case 0:
		return "no target"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func hasKind(recs []Record, kind int32) bool {
	for _, rec := range recs {
		if rec.Kind == kind {
			return true
		}
	}
	return false
}
