package passes

import (
	"sort"
	"strings"

	"ldcheck/privatize/manifest"
)

// The second pass of a region re-runs each unit from the merged state U
// with its own writes undone, and reports a read-write race where it ends
// differently from the first. It can end differently only if the unit
// read, in the region, bytes that another unit wrote in it. When no
// variable the region's code reads is also written by that code, nothing
// it reads can have changed between the passes: the second pass would
// repeat the first, and the runtime skips it (a region's checks then
// cost one run of it, not two).
//
// The same holds for level 1, whose region is the whole kernel and whose
// units are blocks: when no global variable the kernel reads is written
// by it, level 1 needs no second launch.

// onePassPass: targets' accesses, the regions' starts and ends ->
// Region.OnePass and Kernel.BlockOnePass. A region (From, To) runs once
// when no privatized variable has both a read and a write that can run
// in it: reached from From and reaching To without crossing a barrier.
// Conservative: an access the pass cannot place (in a device function,
// through a pointer or a reference that escapes, in code the regions pass
// did not reach) counts as a read and a write in every region; a barrier
// in a device function, a goto or a lambda makes every region keep both
// passes.
func (ka *kernelAnalysis) onePassPass(k *Kernel) {
	for _, b := range k.Barriers {
		if !b.Warp && b.Via != "" {
			return
		}
	}
	// Code the regions pass follows in source order but that runs
	// elsewhere: a goto's target, a lambda's body (run where it is called).
	elsewhere := false
	ka.fn.Body.Walk(func(n *Node) bool {
		switch n.Kind {
		case "GotoStmt", "IndirectGotoStmt", "LambdaExpr":
			elsewhere = true
		}
		return !elsewhere
	})
	if elsewhere {
		return
	}
	// place is where an access can run: nil sets mean every region.
	type place struct{ starts, ends map[int]bool }
	in := func(p place, r Region) bool {
		return (p.starts == nil || p.starts[r.From]) && (p.ends == nil || p.ends[r.To])
	}
	type rw struct {
		reads, writes []place
		c             *candidate
		acc           []access // the accesses of reads and writes, placed (nil: unplaced)
		at            []place
	}
	var vars []rw
	k.BlockOnePass = true
	for _, c := range ka.candidates {
		if !c.privatized {
			continue
		}
		u := rw{c: c}
		for _, a := range c.accesses {
			read, write := a.read, a.write
			unplaced := a.escape || a.atomic != "" || bindsReference(a.ref)
			if unplaced {
				read, write = true, true
			}
			if !read && !write {
				continue
			}
			var p place
			starts, ok1 := k.RegionStarts(a.ref)
			ends, ok2 := k.RegionEnds(a.ref)
			if ok1 && ok2 && !unplaced {
				p = place{starts, ends}
			}
			u.acc = append(u.acc, a)
			u.at = append(u.at, p)
			if read {
				u.reads = append(u.reads, p)
			}
			if write {
				u.writes = append(u.writes, p)
			}
		}
		vars = append(vars, u)
		// Level 1: one global variable both read and written, anywhere.
		if c.space == Global && len(u.reads) > 0 && len(u.writes) > 0 {
			k.BlockOnePass = false
		}
	}
	any := func(ps []place, r Region) bool {
		for _, p := range ps {
			if in(p, r) {
				return true
			}
		}
		return false
	}
	ix := &indexer{u: findUniform(ka.fn), single: singleDefinitions(ka.fn.Body), macro: macroOperators(ka.unit, ka.fn.Body), readOnly: ka.readOnlyGlobals()}
	ix.flows = newValueFlows(ka, k, ix.u, ix.single)
	// A condition names the kernel's variables where the access is: only
	// names declared once in the kernel stand for one variable there.
	names, count := map[string]string{}, map[string]int{}
	decls := append([]*Node{}, ka.fn.Params...)
	ka.fn.Body.Walk(func(n *Node) bool {
		if n.Kind == "VarDecl" {
			decls = append(decls, n)
		}
		return true
	})
	for _, d := range decls {
		count[d.Name]++
	}
	for _, d := range decls {
		if count[d.Name] == 1 && d.Key != "" {
			names[d.Key] = d.Name
		}
	}
	// proof: the launch shape under which no thread of the region reads
	// an element of u that another writes there (disjoint.go).
	// shapes reads the subscripts of u's accesses in region r: ok is false
	// when one of them cannot be read (or is not placed in regions).
	shapes := func(u rw, r Region) (ws, rs []shape, ok bool) {
		for i, a := range u.acc {
			if !in(u.at[i], r) {
				continue
			}
			if u.at[i].starts == nil || a.escape || a.atomic != "" || bindsReference(a.ref) {
				return nil, nil, false
			}
			sh, ok := ix.shapeOf(a)
			if !ok {
				return nil, nil, false
			}
			sh = sh.withFacts(ka.lastIteration(k, ix.u, a.ref, r))
			sh = ix.flows.versioned(sh, a.ref, r, k.reach)
			if a.read {
				rs = append(rs, sh)
			}
			if a.write {
				ws = append(ws, sh)
			}
		}
		return ws, rs, foldAlike(ws, rs)
	}
	proof := func(u rw, r Region) (string, []Condition, bool) {
		var uses []*Node
		var conds []Condition
		ws, rs, ok := shapes(u, r)
		if !ok {
			return "", nil, false
		}
		need := AnyBlock
		for _, w := range ws {
			for _, rd := range rs {
				if len(w.needs) > 0 || len(rd.needs) > 0 {
					return "", nil, false // (decided in the kernel: no launch tests)
				}
				n, used, cs, ok := pairProof(w, rd)
				if !ok || n != AnyBlock {
					// One thread alone runs both (if (t == 0) sum += x), or
					// pinned indexes cover what the subscripts leave.
					if n2, used2, ok2 := pinnedCover(w, rd, sameSite(w, rd)); ok2 && (!ok || stricter(n2, n) == n && n2 != n) {
						n, used, ok, cs = n2, used2, true, nil
					}
				}
				if !ok {
					return "", nil, false
				}
				need = stricter(need, n)
				uses = append(uses, used...)
				// Each coefficient the proof needs nonzero is tested where
				// both accesses run (LDC_COND), with the values they use.
				for _, c := range cs {
					text, ok := condText(c, names)
					if !ok || w.lv.InMacro || rd.lv.InMacro {
						return "", nil, false
					}
					for _, lv := range []*Node{w.lv, rd.lv} {
						conds = append(conds, Condition{Line: lv.Pos.Line, Offset: lv.Pos.Offset, End: lv.Pos.End, Expr: text})
					}
				}
			}
		}
		if !ix.stable(uses, k.reach) {
			return "", nil, false
		}
		return need, conds, true
	}
	seenCond := map[Condition]bool{}
	for i := range k.Regions {
		r := &k.Regions[i]
		r.OnePass = true
		need := AnyBlock
		var conds []Condition
		for _, u := range vars {
			if any(u.reads, *r) && any(u.writes, *r) {
				n, cs, ok := proof(u, *r)
				if !ok {
					r.OnePass = false
					break
				}
				need = stricter(need, n)
				conds = append(conds, cs...)
			}
		}
		if !r.OnePass {
			continue
		}
		if need != AnyBlock {
			r.OnePass, r.OnePassIf = false, need
		}
		if len(conds) > 0 {
			r.Conditional = true
		}
		for _, c := range conds {
			if !seenCond[c] {
				seenCond[c] = true
				k.Conditions = append(k.Conditions, c)
			}
		}
	}
	// Targets no two threads of a block can race on: in every region
	// that writes the variable, the writes are apart between threads, and
	// so are the reads from the writes (no stride test in the kernel:
	// where a stride is 0 the accesses meet; tests of the launch, which
	// the host makes, may be needed: launchproof.go).
	la := newLaunchAtoms(ka.fn, ix.u, k.Params)
	st := counterStrides(ka.fn, ix.u)
	// A counter that is not uniform is read as the steps of its loop
	// (indexer.counter): every number of them is one class.
	for key := range ix.u.assigns {
		if !ix.u.uniform[key] && !ix.u.unknown[key] {
			st[key] = 1
		}
	}
	stable := func(uses []*Node) bool { return ix.stable(uses, k.reach) }
	// blockProof proves u race-free in a block. With plain, no subscript
	// is read through a division that rests on a launch test (warps.go):
	// a proof that holds without one is preferred (a pinned thread needs
	// no whole warps). missed says whether such a division was left
	// unread.
	blockProof := func(u rw, plain bool) (need string, tests []manifest.LaunchTest, conds []Condition, ok, missed bool) {
		var uses []*Node
		ix.plain, ix.missed = plain, false
		defer func() { ix.plain, ix.missed = false, false }()
		need, ok = AnyBlock, true
		for _, r := range k.Regions {
			if !ok || !any(u.writes, r) {
				continue
			}
			ws, rs, shaped := shapes(u, r)
			ok = shaped
			var pairs [][2]shape
			for i := range ws {
				for j := i; j < len(ws); j++ {
					pairs = append(pairs, [2]shape{ws[i], ws[j]})
				}
				for _, rd := range rs {
					pairs = append(pairs, [2]shape{ws[i], rd})
				}
			}
			for _, pr := range pairs {
				if !ok {
					break
				}
				n, ts, cs, used, proven := la.blockPair(pr[0], pr[1], st, stable)
				ok = proven
				need = stricter(need, n)
				tests = addTests(addTests(addTests(tests, ts), pr[0].needs), pr[1].needs)
				uses = append(uses, used...)
				// Strides the proof needs nonzero are tested where both
				// accesses run (LDC_TEST): a launch where one is 0 is
				// flagged and checked in full.
				for _, c := range cs {
					text, rendered := condText(c, names)
					if !rendered || pr[0].lv.InMacro || pr[1].lv.InMacro {
						ok = false
						break
					}
					for _, lv := range []*Node{pr[0].lv, pr[1].lv} {
						conds = append(conds, Condition{Line: lv.Pos.Line, Offset: lv.Pos.Offset, End: lv.Pos.End, Expr: text, Target: true})
					}
				}
			}
		}
		return need, tests, conds, ok && ix.stable(uses, k.reach), ix.missed
	}
	for _, u := range vars {
		if u.c.target == 0 {
			continue
		}
		need, tests, conds, ok, missed := blockProof(u, true)
		if missed {
			if n2, t2, c2, ok2, _ := blockProof(u, false); ok2 && (!ok || stricter(need, n2) != n2 || need == n2 && len(t2) < len(tests)) {
				need, tests, conds, ok = n2, t2, c2, true
			}
		}
		if ok {
			t := &k.Targets[u.c.target-1]
			t.BlockRaceFree, t.BlockRaceFreeIf, t.BlockRaceFreeWhen = need == AnyBlock, need, tests
			t.BlockRaceFreeTested = len(conds) > 0
			for _, c := range conds {
				// (A region's test at the same access flags the launch too.)
				if region := (Condition{Line: c.Line, Offset: c.Offset, End: c.End, Expr: c.Expr}); !seenCond[region] && !seenCond[c] {
					seenCond[c] = true
					k.Conditions = append(k.Conditions, c)
				}
			}
		}
	}
	// Global targets no two threads of the launch can race on, whatever
	// their blocks: every pair of accesses, in any regions (barriers do
	// not order blocks), meets at one thread only (launchproof.go).
	gx := *ix
	gx.everyDef = true
	for _, u := range vars {
		if u.c.target == 0 || u.c.space != Global {
			continue
		}
		// As for the block proofs: without divisions that rest on launch
		// tests where that proves as much.
		if gridTarget(&k.Targets[u.c.target-1], u.acc, &gx, la, true) {
			gridTarget(&k.Targets[u.c.target-1], u.acc, &gx, la, false)
		}
	}
	sort.Slice(k.Conditions, func(i, j int) bool {
		a, b := k.Conditions[i], k.Conditions[j]
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return a.Expr < b.Expr
	})
}

// gridTarget proves the global target t (accesses acc) race-free over the
// grid, or apart between blocks, where no proof is recorded yet or this
// one needs fewer tests of the launch. With plain, no subscript is read
// through a division that rests on a launch test; missed says whether
// such a division was left unread.
func gridTarget(t *Target, acc []access, gx *indexer, la launchAtoms, plain bool) (missed bool) {
	gx.plain, gx.missed = plain, false
	defer func() { missed = gx.missed; gx.plain, gx.missed = false, false }()
	var ws, rs []shape
	ok := true
	for _, a := range acc {
		if a.escape || a.atomic != "" || bindsReference(a.ref) {
			ok = false
			break
		}
		sh, shaped := gx.shapeOf(a)
		if !shaped {
			ok = false
			break
		}
		// Barriers do not order blocks: a loop's counter may be at
		// any of its values at either access.
		sh = gx.counted(sh)
		if a.write {
			ws = append(ws, sh)
		}
		if a.read {
			rs = append(rs, sh)
		}
	}
	ok = ok && foldAlike(ws, rs)
	// Every pair, one a write, meets at one thread (threadsFree
	// false) or in one block (true).
	pairs := func(threadsFree bool) ([]manifest.LaunchTest, bool) {
		var tests []manifest.LaunchTest
		for i := range ws {
			for j := i; j < len(ws); j++ {
				ts, proven := la.gridPair(ws[i], ws[j], sameSite(ws[i], ws[j]), threadsFree)
				if !proven {
					return nil, false
				}
				tests = addTests(addTests(addTests(tests, ts), ws[i].needs), ws[j].needs)
			}
			for _, rd := range rs {
				ts, proven := la.gridPair(ws[i], rd, sameSite(ws[i], rd), threadsFree)
				if !proven {
					return nil, false
				}
				tests = addTests(addTests(addTests(tests, ts), ws[i].needs), rd.needs)
			}
		}
		return tests, len(ws) > 0
	}
	if !ok {
		return
	}
	if tests, proven := pairs(false); proven && (!t.GridRaceFree || len(tests) < len(t.GridRaceFreeWhen)) {
		t.GridRaceFree, t.GridRaceFreeWhen = true, tests
	}
	// Apart between blocks, where that asks fewer tests of the launch
	// (each thread of a block reads cur[q], one writes it: the block
	// level need not check it, the warp level does).
	if tests, proven := pairs(true); proven && (!t.BlocksApart || len(tests) < len(t.BlocksApartWhen)) && (!t.GridRaceFree || len(tests) < len(t.GridRaceFreeWhen)) {
		t.BlocksApart, t.BlocksApartWhen = true, tests
	}
	return
}

// readOnlyGlobals lists the global variables the kernel (and the device
// functions it calls) reads but never writes, by any access, atomic or
// escape the targets pass saw. Launches give each pointer argument its own
// buffer, so no write through another name reaches them.
func (ka *kernelAnalysis) readOnlyGlobals() map[string]bool {
	ro := map[string]bool{}
	for _, c := range ka.candidates {
		if c.space != Global {
			continue
		}
		written := false
		for _, a := range c.accesses {
			written = written || a.write || a.atomic != "" || (a.escape && !c.constElem)
		}
		if !written && len(c.accesses) > 0 {
			ro[c.key] = true
		}
	}
	return ro
}

// bindsReference reports whether the value at ref, past the operations
// that keep it an lvalue (subscripts, members, dereferences, casts), is
// bound to a reference variable or iterated by reference in a range for:
// accesses through that name are not seen as accesses of the variable.
func bindsReference(ref *Node) bool {
	cur := ref
	for p := cur.Parent; p != nil; cur, p = p, p.Parent {
		switch p.Kind {
		case "UnexposedExpr", "ParenExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr", "CXXConstCastExpr", "MemberRefExpr":
			continue
		case "ArraySubscriptExpr":
			if p.Children[0] == cur {
				continue
			}
			return false
		case "UnaryOperator":
			if p.Op == "*" {
				continue
			}
			return false
		case "VarDecl":
			return strings.ContainsRune(p.Type, '&')
		case "CXXForRangeStmt":
			return true
		}
		return false
	}
	return false
}

// pinnedCover proves that two threads touching one element at a and b
// (one access when same) are one thread, from the thread indexes each
// can differ in: none where the two subscripts are the same constant
// multiple of the index plus the same rest (s[ty][0] and s[ty][0]), and
// none where the guards of both pin it to one value (if (tx == 0)). The
// launch shape needed is the one whose other indexes are 0.
func pinnedCover(a, b shape, same bool) (string, []*Node, bool) {
	covered := map[string]bool{}
	var uses []*Node
	if len(a.dims) != len(b.dims) {
		return "", nil, false
	}
	for d := range a.dims {
		if _, atom, cond, ok := scaled(a.dims[d], b.dims[d]); ok && atom != "" && cond == nil {
			covered[atom] = true
			uses = append(uses, a.dims[d].uses...)
			uses = append(uses, b.dims[d].uses...)
		}
	}
	uses = append(uses, pinCover(a, b, same, covered)...)
	need, ok := coveredShape(covered)
	if !ok {
		return "", nil, false
	}
	return need, uses, true
}

// pinCover adds to covered the thread indexes the guards of a and b pin
// to one value (the same for both, unless they are one access), and
// returns the uniform references the pins read.
func pinCover(a, b shape, same bool, covered map[string]bool) []*Node {
	var uses []*Node
	for _, at := range threadAtomsOf(a.bounds) {
		ba, okA := a.bounds[at]
		bb, okB := b.bounds[at]
		pinned := okA && okB && ba.hasHi && bb.hasHi && ba.lo.p.equal(ba.hi.p) && bb.lo.p.equal(bb.hi.p)
		if pinned && (same || ba.lo.p.equal(bb.lo.p)) {
			covered[at] = true
			uses = append(uses, ba.lo.uses...)
			uses = append(uses, bb.lo.uses...)
		}
	}
	return uses
}

// coveredShape is the launch shape in which two threads that agree on the
// covered indexes are one thread: the indexes not covered must be 0.
func coveredShape(covered map[string]bool) (string, bool) {
	covered = wholeCover(covered)
	switch {
	case covered["tid.x"] && covered["tid.y"] && covered["tid.z"]:
		return AnyBlock, true
	case covered["tid.x"] && covered["tid.y"]:
		return FlatBlock, true
	case covered["tid.x"]:
		return LineBlock, true
	}
	return "", false
}

// sameSite reports whether a and b are one access (a read and a write of
// one compound assignment).
func sameSite(a, b shape) bool { return a.lv == b.lv }
