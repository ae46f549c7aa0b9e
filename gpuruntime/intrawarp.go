package gpuruntime

import (
	"fmt"
	"sort"

	"ldcheck/privatize/manifest"
)

// Intra-warp races. The lanes of a warp are scheduled independently
// (Volta and later): two lanes of one warp touching the same byte of
// shared memory, one of them writing, with no warp synchronisation
// between (__syncwarp, the *_sync shuffles, votes, matches and
// reductions, or a barrier) race. The byte comparisons cannot see them
// (the unit is the warp), so level 2 keeps, in pass 2 of every region, a
// record per 4-byte word of every shared target of a block: the warp, the
// interval (a Lamport clock per thread that warp synchronisations
// advance), the lane that wrote it and the lanes that read it, with the
// bytes each touched (struct ldc_iw in ldcheck_rt.h). A lane touching
// bytes another lane of its warp wrote, or writing bytes another read, in
// the same interval is reported, with both lanes and both statements.
//
// Cost: three 8-byte words per 4-byte word of shared target and block
// (in shared memory beside the warps' copies when it fits, else in global
// memory) and 8 bytes a thread; a compare-and-swap the first time a lane
// reads or writes a word in an interval (a word several warps touch in a
// region is marked and then only read: a race between lanes on it is also
// one between warps, which the byte comparisons check); a warp reduction
// at every warp synchronisation in pass 2.
//
// A race between lanes also makes the warp's results depend on the order
// its lanes ran in, which may differ between the two passes: the warp's
// read-write check would then see its results change with no other warp
// involved. The check leaves out the read-write records of a warp whose
// lanes raced in the region and which touched no word another warp of the
// block touched (nor one the check could not follow): the intra-warp
// report says it all, and a report between warps would name one warp and
// come and go with the schedule. A warp that read another's write touched
// that word too, so true races between warps are kept.
//
// Global targets have too many words for a record each: their records
// live in a hash table keyed by block and word (iwGlobal), sized for
// twice the targets' words, so that a block touching its own part of the
// arrays finds room; an access that finds none makes the check
// incomplete, and the report says so.

// iwRecordBytes is one word's record (LDC_IW_RECORD).
const iwRecordBytes = 3 * 8

// iwMaxScratch bounds the records in global memory (every block's area).
const iwMaxScratch = 1 << 30

// wantsIntraWarp says whether the run checks intra-warp races.
func (r *checkRun) wantsIntraWarp() bool {
	k := r.l.Kernel
	return k.Instrumented && !r.opt.Unchecked && !r.opt.Deterministic && !r.opt.NoIntraWarp && (r.shared.NShared > 0 || len(r.allocs) > 0)
}

// iwGlobalMaxEntries bounds the global records' table (256 MiB).
const iwGlobalMaxEntries = 1 << 23

// iwGlobalBlocks is how many blocks the table's keys have room for.
const iwGlobalBlocks = 1<<17 - 1

// iwGlobal is the table of the global targets' records.
type iwGlobal struct {
	keys, vals, full DevPtr
	entries          int64
}

// iwGlobalSetup allocates the global records' table: twice the global
// targets' words (a power of two, at least 4096 entries, at most
// iwGlobalMaxEntries or what a quarter of the budget holds).
func (r *checkRun) iwGlobalSetup() error {
	if len(r.allocs) == 0 {
		return nil
	}
	var words int64
	for _, al := range r.allocs {
		words += (al.size + 3) / 4
	}
	limit := int64(iwGlobalMaxEntries)
	if r.budget > 0 {
		limit = min(limit, r.budget/4/(iwRecordBytes+8))
	}
	entries := int64(4096)
	for entries < 2*words && entries < limit {
		entries *= 2
	}
	var err error
	g := &r.iwg
	if g.keys, err = r.alloc(entries * 8); err == nil {
		if g.vals, err = r.alloc(entries * iwRecordBytes); err == nil {
			g.full, err = r.alloc(8)
		}
	}
	if err != nil {
		*g = iwGlobal{}
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("races between the lanes of a warp were not checked in global memory: their table (%s) could not be allocated", FormatBytes(entries*(iwRecordBytes+8))))
		return nil
	}
	g.entries = entries
	if r.l.blocks() > iwGlobalBlocks {
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("races between the lanes of a warp were checked in global memory for the first %d blocks only (the launch has %d)", iwGlobalBlocks, r.l.blocks()))
	}
	return nil
}

// iwReset empties the global records' table before a level-2 launch and
// returns the context's part.
func (r *checkRun) iwReset() (Iw, error) {
	iw := r.shared.Iw
	g := r.iwg
	if iw.On == 0 || g.entries == 0 {
		return iw, nil
	}
	for _, z := range []struct {
		p DevPtr
		n int64
	}{{g.keys, g.entries * 8}, {g.vals, g.entries * iwRecordBytes}, {g.full, 8}} {
		if err := r.b.Memset(z.p, 0, z.n); err != nil {
			return iw, err
		}
	}
	iw.GKeys, iw.GVals, iw.GMask, iw.GFull = uint64(g.keys), uint64(g.vals), uint64(g.entries-1), uint64(g.full)
	return iw, nil
}

// iwGlobalFull adds a note when a level-2 launch's global accesses found
// no room in the table.
func (r *checkRun) iwGlobalFull() error {
	if r.shared.Iw.On == 0 || r.iwg.entries == 0 {
		return nil
	}
	raw := make([]byte, 8)
	if err := r.b.Read(raw, r.iwg.full); err != nil {
		return err
	}
	if raw[0] != 0 {
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("the intra-warp check's table of global words (%d entries) filled up: races between lanes on the words it had no room for were not checked", r.iwg.entries))
	}
	return nil
}

// iwSetup lays out a block's area (every shared target's records, then
// the threads' clocks) and places it in dynamic shared memory after the
// copies when it fits (limit), else in global memory, one area a block.
func (r *checkRun) iwSetup(limit int64) error {
	if !r.wantsIntraWarp() {
		return nil
	}
	align := func(n uint64) uint64 { return (n + 15) / 16 * 16 }
	iw := &r.shared.Iw
	var per uint64
	for i := 0; i < int(r.shared.NShared); i++ {
		iw.Off[i] = per
		per += align(iwRecordBytes * ((r.shared.SharedBytes[i] + 3) / 4))
	}
	iw.Clocks = per
	per += align(8 * uint64(r.l.threads()))
	iw.PerBlock = per
	start := (r.l.Shared + 15) / 16 * 16
	if r.sharedLaunch > 0 {
		start = (r.sharedLaunch + 15) / 16 * 16
	}
	if start+int64(per) <= limit {
		iw.InDyn, iw.DynOffset = 1, uint64(start)
		r.sharedLaunch = start + int64(per)
	} else {
		// In global memory, an area for every block of the grid. Where
		// that is more than iwMaxScratch (or a quarter of the budget), or
		// cannot be had, the check is left out and the report says so:
		// the races between warps and blocks are still checked.
		need := int64(per) * int64(r.l.blocks())
		limit := int64(iwMaxScratch)
		if r.budget > 0 {
			limit = min(limit, r.budget/4)
		}
		var p DevPtr
		var err error
		if need <= limit {
			p, err = r.alloc(need)
		}
		if need > limit || err != nil {
			r.shared.Iw = Iw{}
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("races between the lanes of a warp were not checked: their records would take %s of device memory (%s a block, for %d blocks), more than the %s they may take; a smaller grid checks them", FormatBytes(need), FormatBytes(int64(per)), r.l.blocks(), FormatBytes(limit)))
			return nil
		}
		iw.Scratch = uint64(p)
	}
	iw.On = 1
	return r.iwGlobalSetup()
}

// splitIntraWarp moves the intra-warp records out of level 2's records.
func splitIntraWarp(recs []Record) (rest, iw []Record) {
	for _, rec := range recs {
		if rec.Kind == RecordIWW || rec.Kind == RecordIRW {
			iw = append(iw, rec)
		} else {
			rest = append(rest, rec)
		}
	}
	// Every order the lanes ran in gives the same records, but not in the
	// same order, nor (where three lanes or more conflict) the same
	// count: one record per word and pair of statements, the lowest lanes.
	sort.SliceStable(iw, func(i, j int) bool {
		a, b := iw[i], iw[j]
		switch {
		case a.Block != b.Block:
			return a.Block < b.Block
		case a.Target != b.Target:
			return a.Target < b.Target
		case a.Offset != b.Offset:
			return a.Offset < b.Offset
		case a.Kind != b.Kind:
			return a.Kind < b.Kind
		case a.UnitA != b.UnitA:
			return a.UnitA < b.UnitA
		case a.UnitB != b.UnitB:
			return a.UnitB < b.UnitB
		}
		return a.Values < b.Values
	})
	type key struct {
		block, target, kind, from, to int32
		offset                        int64
	}
	seen := map[key]bool{}
	out := iw[:0]
	for _, rec := range iw {
		k := key{rec.Block, rec.Target, rec.Kind, rec.From, rec.To, rec.Offset}
		if !seen[k] {
			seen[k] = true
			out = append(out, rec)
		}
	}
	return rest, out
}

// iwRace fills race (units: the two lanes; accesses: the two statements)
// from an intra-warp record.
func (r *checkRun) iwRace(race *Race, rec Record) {
	race.Kind = "read-write"
	if rec.Kind == RecordIWW {
		race.Kind = "write-write"
	}
	warp := int(rec.Group)
	race.Warp = &warp
	race.Thread = 0
	race.Values = RaceValues{}
	race.SameValue = false
	var acc []Access
	for _, x := range []struct{ site, lane int }{{int(rec.Values & 0xffff), int(rec.UnitA)}, {int(rec.Values >> 16), int(rec.UnitB)}} {
		a := Access{Kind: "write", Block: int(rec.Block), Thread: warp*32 + x.lane, Warp: warp}
		if rec.Kind == RecordIRW {
			a.Kind = "read"
		}
		if s, ok := r.apSite(x.site); ok {
			a.File, a.Line, a.Col, a.Kind = s.File, s.Line, s.Col, s.Kind
		}
		if race.target != nil {
			a.Element = Element(race.target, race.Offset)
		}
		acc = append(acc, a)
	}
	if acc[0].Line != 0 && acc[1].Line != 0 {
		sort.SliceStable(acc, func(i, j int) bool {
			if acc[i].Line != acc[j].Line {
				return acc[i].Line < acc[j].Line
			}
			return acc[i].Col < acc[j].Col
		})
		race.Accesses = acc
	} else {
		race.Explanation = "one of the two accesses was made by memcpy, memset or memmove, whose statements are not recorded"
	}
}

// intraWarpFirst orders the races level 2 found (those from start on) by
// region, a region's intra-warp races before its inter-warp ones: lanes
// that race can make their warp end its two passes differently, which
// reads as a read-write race between warps, and the race between lanes is
// its cause.
func (r *checkRun) intraWarpFirst(start int) {
	index := map[[2]int]int{}
	for i, reg := range r.l.Kernel.Regions {
		index[[2]int{reg.From, reg.To}] = i
	}
	rank := func(rc Race) int {
		i, ok := index[[2]int{rc.Region.From, rc.Region.To}]
		if !ok {
			i = len(index)
		}
		i *= 2
		if rc.Scope != manifest.ScopeIntraWarp {
			i++
		}
		return i
	}
	tail := r.res.Races[start:]
	sort.SliceStable(tail, func(i, j int) bool { return rank(tail[i]) < rank(tail[j]) })
}
