package gpuruntime

import (
	"fmt"
	"sort"

	"ldcheck/privatize/manifest"
)

// Atomic-plain races. Variables that atomics update are not privatized
// (their atomics take effect once), so the byte comparisons never see a
// plain read or write of one unit racing with another unit's atomic on the
// same location: under the CUDA memory model that is a data race. Level 2
// notes, in pass 2 of every region, each access of such a variable in a
// table on the device (struct ldc_ap in ldcheck_rt.h): the warps of a
// block between two barriers, and for global memory the blocks over the
// whole kernel. A word accessed atomically by one unit and plainly by
// another is reported, naming both units and both statements.

// apEntryBytes is one table entry: its key and LDC_AP_WORDS values.
const apEntryBytes = 8 + 5*8

// apTable is the device table of a run (zero when the kernel has no
// atomics: the check costs nothing then).
type apTable struct {
	keys, vals, full DevPtr
	entries          int64
}

// wantsAtomicPlain says whether the run checks atomic-plain races.
func (r *checkRun) wantsAtomicPlain() bool {
	k := r.l.Kernel
	return k.Instrumented && !r.opt.Unchecked && !r.opt.Deterministic && (k.Atomics > 0 || len(k.Atomic) > 0) && !k.NoPlainNotes
}

// apMaxEntries bounds the table (768 MiB).
const apMaxEntries = 1 << 24

// apSetup allocates the table, sized for the words the atomically updated
// buffers hold, in every block and in the grid, and 512 words of shared
// memory a block (at least 4096 entries, at most apMaxEntries; 2M, 96 MiB,
// when the device has no room for that). A launch where an access found
// no room runs again with a larger table (apGrow), so the first size
// must not be small where the need is large: on the H100 ld_bfs (25M
// atomicCAS on a 4M-word array) filled 2M and then 8M entries before it
// fit in 16M, and its level 2 ran four times (71 + 70 + 26 + 8 ms, a
// nearly full table probing long).
func (r *checkRun) apSetup() error {
	if !r.wantsAtomicPlain() {
		return nil
	}
	var words int64
	for _, a := range r.l.Args {
		if a.Buffer {
			for _, name := range r.l.Kernel.Atomic {
				if name == a.Param.Name {
					words += int64(len(a.Data)) / 4
				}
			}
		}
	}
	blocks := int64(r.l.blocks()) + 1
	want := min(words, 1<<21)*min(blocks, 64) + 512*blocks
	entries := int64(4096)
	for entries < 2*want && entries < apMaxEntries {
		entries *= 2
	}
	if err := r.apAlloc(entries); err == nil || entries <= apFallbackEntries {
		return err
	}
	return r.apAlloc(apFallbackEntries)
}

// apFallbackEntries is the first table's size when the device has no room
// for the one the buffers ask for.
const apFallbackEntries = 1 << 21

// apAlloc (re)allocates the table with room for entries words.
func (r *checkRun) apAlloc(entries int64) error {
	r.free(r.ap.keys)
	r.free(r.ap.vals)
	r.ap = apTable{full: r.ap.full}
	var err error
	if r.ap.keys, err = r.alloc(entries * 8); err != nil {
		return &MemoryError{Need: entries * apEntryBytes, What: "the atomic-plain check's table"}
	}
	if r.ap.vals, err = r.alloc(entries * 5 * 8); err != nil {
		return &MemoryError{Need: entries * apEntryBytes, What: "the atomic-plain check's table"}
	}
	if r.ap.full == 0 {
		if r.ap.full, err = r.alloc(8); err != nil {
			return err
		}
	}
	r.ap.entries = entries
	return nil
}

// apReset empties the table before a level-2 launch and returns the
// context's part.
func (r *checkRun) apReset() (Ap, error) {
	if r.ap.entries == 0 {
		return Ap{}, nil
	}
	for _, z := range []struct {
		p DevPtr
		n int64
	}{{r.ap.keys, r.ap.entries * 8}, {r.ap.vals, r.ap.entries * 5 * 8}, {r.ap.full, 8}} {
		if err := r.b.Memset(z.p, 0, z.n); err != nil {
			return Ap{}, err
		}
	}
	return Ap{Keys: uint64(r.ap.keys), Vals: uint64(r.ap.vals), Mask: uint64(r.ap.entries - 1), Full: uint64(r.ap.full)}, nil
}

// apGrow is called after a level-2 launch: when an access found no room
// in the table, it makes a table four times larger and says so (true: the
// launch must run again), or, at the largest size, adds a note that the
// check was incomplete.
func (r *checkRun) apGrow() (bool, error) {
	if r.ap.entries == 0 {
		return false, nil
	}
	raw := make([]byte, 8)
	if err := r.b.Read(raw, r.ap.full); err != nil {
		return false, err
	}
	if raw[0] == 0 {
		return false, nil
	}
	if r.ap.entries < apMaxEntries {
		old := r.ap.entries
		if err := r.apAlloc(min(4*old, apMaxEntries)); err != nil {
			return false, err
		}
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("the atomic-plain check's table (%d words) filled up; level 2 ran again with room for %d", old, r.ap.entries))
		return true, nil
	}
	r.res.Notes = append(r.res.Notes, fmt.Sprintf("the atomic-plain check's table (%d words) filled up: races between plain accesses and atomics on the words it had no room for were not checked", r.ap.entries))
	return false, nil
}

// splitGridAP moves the atomic-plain records between blocks (block -1)
// out of level 2's records.
func splitGridAP(recs []Record) (warp, grid []Record) {
	for _, rec := range recs {
		if rec.Kind == RecordAP && rec.Block < 0 {
			grid = append(grid, rec)
		} else {
			warp = append(warp, rec)
		}
	}
	return warp, grid
}

// apSite is site i of the build, if it exists.
func (r *checkRun) apSite(i int) (manifest.Site, bool) {
	if i < 0 || i >= len(r.l.Sites) || i == 0xffff {
		return manifest.Site{}, false
	}
	return r.l.Sites[i], true
}

// apRace fills race (kind, variable, offset, units, accesses) from an
// atomic-plain record.
func (r *checkRun) apRace(race *Race, rec Record, scope manifest.Scope) {
	race.Kind = "atomic-plain"
	race.target, race.elemSize = nil, 1
	plainSite, atomicSite := int(rec.Values&0xffff), int(rec.Values>>16)
	reporter := plainSite
	if rec.Target&2 != 0 {
		reporter = atomicSite
	}
	if s, ok := r.apSite(reporter); ok {
		race.Variable = s.Var
	}
	race.Offset = rec.Offset
	if rec.Target&1 == 0 {
		// A global address: the buffer (or module variable) holding it.
		addr := DevPtr(rec.Offset)
		found := false
		for base, n := range r.named {
			if addr >= base && int64(addr-base) < n.size {
				race.Variable, race.Offset, found = n.name, int64(addr-base), true
				if n.param != nil {
					race.target = &manifest.Target{Name: n.name, Space: manifest.SpaceGlobal, Kind: manifest.KindParam, Type: n.param.Type, Elem: n.param.Elem, ElemSize: n.param.ElemSize}
				}
				break
			}
		}
		if !found && race.Variable != "" {
			if base, n, err := r.b.Symbol(race.Variable); err == nil && addr >= base && int64(addr-base) < n {
				race.Offset = int64(addr - base)
				found = true
			}
		}
		if !found {
			race.Offset = 0
		}
	}
	if race.target == nil && race.Variable != "" {
		race.target = &manifest.Target{Name: race.Variable, Space: manifest.Space(race.Space)}
		if s, ok := r.apSite(reporter); ok && s.Var == race.Variable {
			race.target.Elem, race.target.ElemSize = s.Elem, s.ElemSize
		}
	}
	if race.target != nil {
		race.elemSize = max(race.target.ElemSize, 1)
	}
	race.Units = []int{int(rec.UnitA), int(rec.UnitB)}
	race.Block, race.Thread = int(rec.Block), 0
	race.Values = RaceValues{}
	// The two statements: the plain access and the atomic, in source order.
	var acc []Access
	for _, x := range []struct {
		site, thread int
	}{{plainSite, int(rec.Thread)}, {atomicSite, int(rec.Group)}} {
		s, ok := r.apSite(x.site)
		if !ok {
			acc = nil
			break
		}
		a := Access{File: s.File, Line: s.Line, Col: s.Col, Kind: s.Kind, Block: int(rec.Block), Thread: x.thread, site: x.site + 1}
		if scope == manifest.ScopeInterBlock {
			a.Block, a.Thread = x.thread/max(r.l.threads(), 1), x.thread%max(r.l.threads(), 1)
		}
		a.Warp = a.Thread / 32
		if race.target != nil {
			a.Element = Element(race.target, race.Offset)
		}
		acc = append(acc, a)
	}
	if len(acc) == 2 {
		sort.SliceStable(acc, func(i, j int) bool {
			if acc[i].Line != acc[j].Line {
				return acc[i].Line < acc[j].Line
			}
			return acc[i].Col < acc[j].Col
		})
		race.Accesses = acc
	} else {
		race.Explanation = "the build did not record the statements of this atomic and plain access"
	}
}
