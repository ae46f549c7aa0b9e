package gpuruntime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"time"

	"ldcheck/privatize/manifest"
)

// Explaining a race (LDetector section 6.2): once a checked run found it,
// the kernel runs again, plain (each access once, as written), from the
// same inputs, with the tracing module, whose hooks log every access that
// touches the racy bytes: its source place (the manifest's sites), block,
// thread, the barriers the thread had passed, and the values. Two logged
// accesses of different units, between the same barriers, on common
// bytes, at least one a store, conflict; the report names one such pair
// of statements (every distinct pair with Options.All). Race-free runs
// never pay for this: the tracing module is a separate build.

// TraceCtx mirrors struct ldc_trace_ctx (ldcheck_rt.h).
type TraceCtx struct {
	GBase, Lo, Hi      uint64
	STarget, Block     int32
	MaxEvents          int32
	_                  int32
	Ev, NEv            uint64
	SBase, Epoch, From uint64
	Pend, PendAddr     uint64
}

// AccessEvent mirrors struct ldc_tev: one logged access.
type AccessEvent struct {
	Site, Block, Thread, Epoch, From, Size, Posted, Write int32
	Off, Pre, Post                                        uint64
}

const (
	// AccessEventSize is sizeof(struct ldc_tev).
	AccessEventSize = 56
	maxEvents       = 1 << 16
	// maxExplained bounds the traced reruns of one run (one per race)
	// unless every race is asked for (--all).
	maxExplained = 16
)

// ExplainOptions tune ExplainRaces.
type ExplainOptions struct {
	// All watches every racy byte of each race and reports every distinct
	// pair of statements; otherwise only the first racy element, one pair.
	All bool
}

// ExplainRaces reruns the launch with the tracing module b (a backend
// opened on the build's trace module) once per race of res and fills each
// race's Accesses (and MorePairs), or Explanation when no pair was seen.
// It adds a note with the reruns' cost.
func ExplainRaces(b Backend, l Launch, res *Result, sites []manifest.Site, opt ExplainOptions) error {
	start := time.Now()
	n := 0
	for i := range res.Races {
		rc := &res.Races[i]
		if rc.Kind == "atomic-plain" || rc.Scope == manifest.ScopeIntraWarp {
			continue // the checks named its statements (atomicplain.go, intrawarp.go)
		}
		if n == maxExplained && !opt.All {
			rc.Explanation = fmt.Sprintf("only the first %d races are explained", maxExplained)
			continue
		}
		n++
		rc.Explanation = "the traced rerun saw no two units access a target between the same barriers (a race that depends on the order the units ran in)"
		if rc.target != nil {
			lo, hi := window(rc, opt.All)
			w := watch{target: rc.target, lo: lo, hi: hi}
			evs, err := traceRun(b, l, rc, w)
			if err != nil {
				return fmt.Errorf("explaining the race on %s: %w", rc.Element, err)
			}
			explainFrom(rc, w.target, evs, sites, opt.All)
			if len(rc.Accesses) > 0 || rc.Kind != "read-write" {
				continue
			}
		}
		// A read-write race shows where a unit's results changed (out[2]),
		// which may be another variable than the one it read too early
		// (tile): watch each other target whole, in the same region.
		why := rc.Explanation
		for i := range l.Kernel.Targets {
			t := &l.Kernel.Targets[i]
			if rc.target != nil && t.Name == rc.target.Name && t.Space == rc.target.Space {
				continue
			}
			if rc.Scope == manifest.ScopeInterBlock && t.Space == manifest.SpaceShared {
				continue // each block's own: blocks never conflict on it
			}
			evs, err := traceRun(b, l, rc, watch{target: t, lo: 0, hi: -1})
			if err != nil {
				return fmt.Errorf("explaining the race on %s: %w", rc.Element, err)
			}
			explainFrom(rc, t, evs, sites, opt.All)
			if len(rc.Accesses) > 0 {
				where := rc.Element + " is"
				if rc.target == nil {
					where = "thread-local values are"
				}
				rc.Explanation = fmt.Sprintf("the conflicting accesses are on %s; %s where the reading %s's results changed", t.Name, where, unitName(rc))
				break
			}
		}
		if len(rc.Accesses) == 0 {
			rc.Explanation = why
		}
		addAccessUnits(rc)
	}
	if n > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d traced rerun(s) of the kernel on the %s backend looked for the statements (%s in all; a run without races has none)",
			n, b.Name(), time.Since(start).Round(time.Millisecond)))
	}
	return nil
}

// addAccessUnits names, in a race whose checks saw one unit (a reading
// warp whose results changed), the units the traced accesses name too: a
// race is between two units, and the report says which.
func addAccessUnits(rc *Race) {
	if len(rc.Units) >= 2 {
		return
	}
	seen := map[int]bool{}
	for _, u := range rc.Units {
		seen[u] = true
	}
	for _, a := range rc.Accesses {
		u := a.Warp
		if rc.Scope == manifest.ScopeInterBlock {
			u = a.Block
		} else if a.Block != rc.Block {
			continue
		}
		if !seen[u] {
			seen[u] = true
			rc.Units = append(rc.Units, u)
		}
	}
	sort.Ints(rc.Units)
}

// watch is what a traced rerun watches: bytes [lo, hi) of a target (hi
// -1: all of it).
type watch struct {
	target *manifest.Target
	lo, hi int64
}

func unitName(rc *Race) string {
	if rc.Scope == manifest.ScopeInterBlock {
		return "block"
	}
	return "warp"
}

// window is the bytes of rc a traced rerun watches: for a write-write
// race the first racy scalar (element, field), whose bytes both units
// stored; for a read-write race, or with all, every racy byte: a
// read-write record marks where a unit's results changed, which may be
// elements away from the read that changed them (sdata[0] += sdata[32]).
func window(rc *Race, all bool) (lo, hi int64) {
	if all || rc.Kind == "read-write" {
		return rc.Offset, rc.Offset + rc.Length
	}
	if from, n, _, ok := scalarAt(rc.target, rc.Offset); ok {
		return from, from + n
	}
	return rc.Offset, rc.Offset + 1
}

// traceRun runs the kernel once, plain, with the tracing hooks watching
// rc's bytes, and returns the logged accesses.
func traceRun(b Backend, l Launch, rc *Race, w watch) ([]AccessEvent, error) {
	r := &checkRun{named: map[DevPtr]named{}, b: b, l: l, res: &Result{Races: []Race{}, Outputs: map[string][]byte{}}, atomicSlots: FirstAtomicSlots}
	defer func() {
		for _, p := range r.temp {
			b.Free(p)
		}
	}()
	if err := r.setup(); err != nil {
		return nil, err
	}
	tc := TraceCtx{Lo: uint64(w.lo), Hi: uint64(w.hi), STarget: -1, Block: -1, MaxEvents: maxEvents}
	if rc.Scope == manifest.ScopeInterWarp {
		tc.Block = int32(rc.Block)
	}
	found := false
	if w.target.Space == manifest.SpaceShared {
		slot := 0
		for _, t := range l.Kernel.Targets {
			if t.Space != manifest.SpaceShared {
				continue
			}
			if t.Name == w.target.Name {
				tc.STarget, found = int32(slot), true
				if w.hi < 0 {
					tc.Hi = r.shared.SharedBytes[slot]
				}
				break
			}
			slot++
		}
	} else {
		for _, al := range r.allocs {
			if al.target.Name == w.target.Name {
				tc.GBase, found = uint64(al.base), true
				if w.hi < 0 {
					tc.Hi = uint64(al.size)
				}
				break
			}
		}
	}
	if !found {
		return nil, nil // not in this launch (a target of size 0)
	}
	threads := int64(l.blocks()) * int64(l.threads())
	var err error
	alloc := func(p *uint64, size int64, fill byte) {
		if err != nil {
			return
		}
		var d DevPtr
		if d, err = r.alloc(size); err == nil {
			*p = uint64(d)
			err = b.Memset(d, fill, size)
		}
	}
	alloc(&tc.Ev, maxEvents*AccessEventSize, 0)
	alloc(&tc.NEv, 8, 0)
	alloc(&tc.SBase, threads*8, 0)
	alloc(&tc.Epoch, threads*4, 0)
	alloc(&tc.From, threads*4, 0xff) // -1: kernel entry
	alloc(&tc.Pend, threads*8, 0)
	alloc(&tc.PendAddr, threads*8, 0)
	if err != nil {
		return nil, fmt.Errorf("the trace buffers: %w", err)
	}
	sym, size, err := b.Symbol("ldc_tr_g")
	if err != nil {
		return nil, fmt.Errorf("the tracing module has no trace context (rebuild with ldcheck build): %w", err)
	}
	var enc bytes.Buffer
	binary.Write(&enc, binary.LittleEndian, &tc)
	if size != int64(enc.Len()) {
		return nil, fmt.Errorf("the tracing module's context is %d bytes and this ldcheck writes %d: rebuild with ldcheck build", size, enc.Len())
	}
	if err := b.Write(sym, enc.Bytes()); err != nil {
		return nil, err
	}
	if err := r.launch(ModePlain, 0, 0); err != nil {
		return nil, err
	}
	raw := make([]byte, 4)
	if err := b.Read(raw, DevPtr(tc.NEv)); err != nil {
		return nil, err
	}
	count := min(int(int32(binary.LittleEndian.Uint32(raw))), maxEvents)
	if count <= 0 {
		return nil, nil
	}
	buf := make([]byte, count*AccessEventSize)
	if err := b.Read(buf, DevPtr(tc.Ev)); err != nil {
		return nil, err
	}
	evs := make([]AccessEvent, count)
	binary.Read(bytes.NewReader(buf), binary.LittleEndian, evs)
	// Off the watch again: a later launch of this module runs untraced.
	tc = TraceCtx{}
	enc.Reset()
	binary.Write(&enc, binary.LittleEndian, &tc)
	return evs, b.Write(sym, enc.Bytes())
}

// explainFrom pairs the logged accesses of rc into conflicting pairs of
// statements and fills rc's Accesses, MorePairs or Explanation.
func explainFrom(rc *Race, target *manifest.Target, evs []AccessEvent, sites []manifest.Site, all bool) {
	unitOf := func(e AccessEvent) int {
		if rc.Scope == manifest.ScopeInterBlock {
			return int(e.Block)
		}
		return int(e.Thread) / 32
	}
	// One access per statement, unit, region instance and direction is
	// enough to name the statements (a loop repeats them).
	type key struct {
		site, unit, block, epoch int
		write                    bool
		off                      uint64
	}
	seen := map[key]bool{}
	byOff := map[uint64][]AccessEvent{} // accesses by their first byte
	var offs []uint64
	for _, e := range evs {
		if e.Site < 0 || int(e.Site) >= len(sites) {
			continue
		}
		if rc.Scope != manifest.ScopeInterBlock && rc.Region.From != -1 && int(e.From) != rc.Region.From {
			continue // another region of the kernel
		}
		k := key{int(e.Site), unitOf(e), int(e.Block), int(e.Epoch), e.Write != 0, e.Off}
		if !seen[k] {
			seen[k] = true
			if byOff[e.Off] == nil {
				offs = append(offs, e.Off)
			}
			byOff[e.Off] = append(byOff[e.Off], e)
		}
	}
	sort.Slice(offs, func(i, j int) bool { return offs[i] < offs[j] })
	inUnits := func(u int) bool {
		for _, x := range rc.Units {
			if x == u {
				return true
			}
		}
		return false
	}
	reads := func(e AccessEvent) bool { return sites[e.Site].Kind != manifest.SiteWrite }
	type pair struct {
		a, b  AccessEvent // write-write: the two writes; read-write: the write, the read
		score int
	}
	best := map[[2]int32]pair{}
	// Accesses of one element start at one byte; a pair is looked for
	// among them (quadratic in the accesses of one element only).
	for _, off := range offs {
		kept := byOff[off]
		if len(kept) > 512 {
			kept = kept[:512]
		}
		for i := range kept {
			for j := range kept {
				x, y := kept[i], kept[j]
				if i == j || unitOf(x) == unitOf(y) {
					continue
				}
				if rc.Scope != manifest.ScopeInterBlock && (x.Block != y.Block || x.Epoch != y.Epoch) {
					continue
				}
				var p pair
				switch {
				case rc.Kind == "write-write" && x.Write != 0 && y.Write != 0 && i < j:
					p = pair{a: x, b: y}
					if inUnits(unitOf(x)) && inUnits(unitOf(y)) {
						p.score = 2
					}
				case rc.Kind == "read-write" && x.Write != 0 && reads(y):
					p = pair{a: x, b: y}
					if len(rc.Units) > 0 && unitOf(y) == rc.Units[0] {
						p.score++
					}
					if inUnits(unitOf(x)) {
						p.score++
					}
				default:
					continue
				}
				k := [2]int32{p.a.Site, p.b.Site}
				if rc.Kind == "write-write" && k[0] > k[1] {
					k[0], k[1] = k[1], k[0]
				}
				if o, ok := best[k]; !ok || p.score > o.score {
					best[k] = p
				}
			}
		}
	}
	if len(best) == 0 {
		rc.Explanation = fmt.Sprintf("the traced rerun saw no two units access %s between the same barriers (a race that depends on the order the units ran in)", rc.Element)
		return
	}
	var pairs []pair
	for _, p := range best {
		pairs = append(pairs, p)
	}
	pos := func(e AccessEvent) [3]int {
		s := sites[e.Site]
		return [3]int{s.Line, s.Col, int(e.Site)}
	}
	less := func(a, b [3]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].score != pairs[j].score {
			return pairs[i].score > pairs[j].score
		}
		if pa, pb := pos(pairs[i].a), pos(pairs[j].a); pa != pb {
			return less(pa, pb)
		}
		return less(pos(pairs[i].b), pos(pairs[j].b))
	})
	ordered := func(p pair) [2]Access {
		a, b := access(target, p.a, sites), access(target, p.b, sites)
		if less(pos(p.b), pos(p.a)) {
			return [2]Access{b, a}
		}
		return [2]Access{a, b}
	}
	first := ordered(pairs[0])
	rc.Accesses, rc.Explanation = first[:], ""
	if all {
		for _, p := range pairs[1:] {
			rc.MorePairs = append(rc.MorePairs, ordered(p))
		}
		sort.SliceStable(rc.MorePairs, func(i, j int) bool {
			a, b := rc.MorePairs[i], rc.MorePairs[j]
			if a[1].Line != b[1].Line || a[1].Col != b[1].Col {
				return a[1].Line < b[1].Line || a[1].Line == b[1].Line && a[1].Col < b[1].Col
			}
			return a[0].Line < b[0].Line || a[0].Line == b[0].Line && a[0].Col < b[0].Col
		})
	}
}

// access describes a logged access, with the value it stored (or read)
// in the element's type when it covers the whole scalar.
func access(target *manifest.Target, e AccessEvent, sites []manifest.Site) Access {
	s := sites[e.Site]
	a := Access{File: s.File, Line: s.Line, Col: s.Col, Kind: s.Kind, Block: int(e.Block), Thread: int(e.Thread), Warp: int(e.Thread) / 32,
		Element: Element(target, int64(e.Off)), site: int(e.Site) + 1}
	v, ok := e.Pre, true
	if e.Write != 0 {
		v, ok = e.Post, e.Posted != 0
	}
	if !ok || e.Size <= 0 || e.Size > 8 {
		return a
	}
	raw := make([]byte, e.Size)
	for i := range raw {
		raw[i] = byte(v >> (8 * i))
	}
	typ := ""
	if from, n, t, found := scalarAt(target, int64(e.Off)); found && from == int64(e.Off) && n == int64(e.Size) {
		typ = t
	}
	a.Value = FormatValue(typ, raw)
	return a
}
