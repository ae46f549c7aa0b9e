package passes

import (
	"sort"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// Proofs that hold for some launches only. The one-pass proofs decide in
// the kernel (LDC_ONE); the block race-free proofs (Target.BlockRaceFree)
// are the host's to weigh before a launch, which knows the block's size
// and the kernel's scalar arguments. So these may also rest on tests of
// the launch (manifest.LaunchTest):
//
//   - bounds: threadIdx.x is below blockDim.x whatever the guards say, so
//     tile[tx + 1] and tile[33] (under tx == 31) are apart when
//     blockDim.x <= 32;
//   - radix: a subscript c*tx + C*ty + U is one-to-one over the block when
//     |C| >= |c| * blockDim.x (c[row * n + col] with n >= blockDim.x):
//     two threads at one element then differ in neither index.

// launchAtoms maps the polynomial atoms a test may name to the names the
// manifest gives them: blockDim's, and the integer parameters the kernel
// never assigns (their values are the launch's arguments).
type launchAtoms map[string]string

func newLaunchAtoms(f *Func, u *uniformVars, params []Param) launchAtoms {
	la := launchAtoms{"blockDim.x": "blockDim.x", "blockDim.y": "blockDim.y", "blockDim.z": "blockDim.z"}
	for i, p := range f.Params {
		if i >= len(params) || params[i].Pointer || !u.uniform[p.Key] || len(u.assigns[p.Key]) > 0 || !integerType(p.Type) {
			continue
		}
		la["u:"+p.Key] = "param:" + strconv.Itoa(i)
	}
	return la
}

// name is the manifest's name for atom a, or ok false: the warps of a
// block's row are named as they are.
func (la launchAtoms) name(a string) (string, bool) {
	if name, ok := la[a]; ok {
		return name, true
	}
	if _, _, ok := manifest.CeilFactor(a); ok {
		return a, true
	}
	return "", false
}

// integerType reports whether a parameter of C type typ is an integer the
// host can read from its argument's bytes.
func integerType(typ string) bool {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	switch t {
	case "int", "unsigned", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short", "unsigned short",
		"size_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "int16_t", "uint16_t":
		return true
	}
	return false
}

// terms writes p as the manifest's terms, or ok false when an atom is not
// one the host can evaluate.
func (la launchAtoms) terms(p poly) ([]manifest.LaunchTerm, bool) {
	var out []manifest.LaunchTerm
	for m, c := range p {
		if c == 0 {
			continue
		}
		t := manifest.LaunchTerm{Coeff: c}
		if m != "" {
			for _, a := range strings.Split(m, "*") {
				name, ok := la.name(a)
				if !ok {
					return nil, false
				}
				t.Factors = append(t.Factors, name)
			}
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		return strings.Join(out[i].Factors, "*") < strings.Join(out[j].Factors, "*")
	})
	return out, true
}

// blockBounds is bounds with blockDim - 1 as the upper bound of every
// thread index the guards leave unbounded above.
func blockBounds(b map[string]bound) map[string]bound {
	out := map[string]bound{}
	for k, v := range b {
		out[k] = v
	}
	for _, d := range []string{"x", "y", "z"} {
		at := "tid." + d
		bd, seen := out[at]
		if !seen {
			bd = bound{lo: term{p: poly{}}}
		}
		if !bd.hasHi {
			bd.hi, bd.hasHi = term{p: poly{"blockDim." + d: 1, "": -1}}, true
		}
		out[at] = bd
	}
	return out
}

// launchApart proves that a and b never touch one element: in some
// dimension their spans, with blockDim bounding the thread indexes, are
// disjoint, outright or when gap >= 1 for a gap in blockDim and the
// parameters (the first such test some launch passes).
func (la launchAtoms) launchApart(a, b shape) ([]manifest.LaunchTest, []*Node, bool) {
	var found []manifest.LaunchTest
	var foundUses []*Node
	for d := range a.dims {
		// Equal subscripts meet at one thread whatever the launch.
		if d >= len(b.dims) || a.dims[d].p == nil || b.dims[d].p == nil || a.dims[d].p.equal(b.dims[d].p) {
			continue
		}
		for _, o := range [][2]shape{{a, b}, {b, a}} {
			_, hi, ok1 := span(o[0].dims[d], blockBounds(o[0].bounds), false, true)
			lo, _, ok2 := span(o[1].dims[d], blockBounds(o[1].bounds), true, false)
			if !ok1 || !ok2 {
				continue
			}
			gap, low := lowestBlock(lo.p.plus(hi.p, -1))
			if !low {
				continue
			}
			uses := append(append([]*Node{}, hi.uses...), lo.uses...)
			if v, ok := gap.constant(); ok {
				if v > 0 {
					return nil, uses, true
				}
				continue
			}
			left, ok := la.terms(gap)
			t := manifest.LaunchTest{Left: left, Right: []manifest.LaunchTerm{{Coeff: 1}}}
			if !ok || found != nil || !t.Holds([3]uint32{1, 1, 1}, func(int) (int64, bool) { return 1 << 20, true }) {
				continue
			}
			found, foundUses = []manifest.LaunchTest{t}, uses
		}
	}
	return found, foundUses, found != nil
}

// lowestBlock is p in block 0 where no other block has it smaller: both
// accesses run in one block, so a gap that only grows with blockIdx holds
// in every block once it holds in the first (block 0's bias row w[j]
// against the rows w[(1 + blockIdx.x * R + r) * H + j]). Every monomial
// naming blockIdx must have a positive coefficient and name nothing that
// can be negative (only blockIdx, blockDim and gridDim).
func lowestBlock(p poly) (poly, bool) {
	out := poly{}
	for m, c := range p {
		named, other := false, false
		for _, a := range strings.Split(m, "*") {
			switch {
			case strings.HasPrefix(a, "blockIdx."):
				named = true
			case launchSize(a):
			case a != "":
				other = true
			}
		}
		switch {
		case !named:
			out[m] += c
		case other || c < 0:
			return nil, false
		}
	}
	return out, true
}

// launchCover proves that two threads touching one element at a and b
// (one access when same) are one thread: the thread indexes they may
// differ in are covered, each by a dimension whose subscripts are the same
// one-to-one function of the indexes (a constant multiple of one index,
// or two indexes in radix, tested at launch), or by guards that pin it to
// one value in both. The launch shape needed is the one whose uncovered
// indexes are 0.
func (la launchAtoms) launchCover(a, b shape, same bool) (string, []manifest.LaunchTest, []*Node, bool) {
	if len(a.dims) != len(b.dims) {
		return "", nil, nil, false
	}
	covered := map[string]bool{}
	var tests []manifest.LaunchTest
	var uses []*Node
	for d := range a.dims {
		if a.dims[d].p == nil || b.dims[d].p == nil {
			continue
		}
		ca, ra, ok1 := a.dims[d].p.coeffs()
		cb, rb, ok2 := b.dims[d].p.coeffs()
		if !ok1 || !ok2 || !ra.equal(rb) || len(ca) != len(cb) || len(ca) == 0 || len(ca) > 2 {
			continue
		}
		sameParts := true
		for at, c := range ca {
			sameParts = sameParts && cb[at] != nil && c.equal(cb[at]) && len(c) > 0
		}
		if !sameParts {
			continue
		}
		atoms := make([]string, 0, 2)
		for at := range ca {
			atoms = append(atoms, at)
		}
		sort.Strings(atoms)
		var test *manifest.LaunchTest
		switch len(atoms) {
		case 1:
			c := ca[atoms[0]]
			if v, ok := c.constant(); ok {
				if v == 0 {
					continue
				}
			} else {
				left, ok := la.terms(c) // |C| >= 1
				if !ok {
					continue
				}
				test = &manifest.LaunchTest{Left: left, Abs: true, Right: []manifest.LaunchTerm{{Coeff: 1}}}
			}
		case 2:
			// The index with a constant coefficient is the low digit.
			lowAt, highAt := atoms[0], atoms[1]
			if _, ok := ca[lowAt].constant(); !ok {
				lowAt, highAt = highAt, lowAt
			}
			cl, ok := ca[lowAt].constant()
			if !ok || cl == 0 {
				continue
			}
			if cl < 0 {
				cl = -cl
			}
			n, ok0 := threadRange(lowAt)
			left, ok1 := la.terms(ca[highAt])
			right, ok2 := la.terms(n.times(polyConst(cl)))
			if !ok0 || !ok1 || !ok2 {
				continue
			}
			test = &manifest.LaunchTest{Left: left, Abs: true, Right: right}
			if settled, holds := constantTest(*test); settled {
				if !holds {
					continue
				}
				test = nil // (32 >= 32: the lanes under the warps)
			}
		}
		for _, at := range atoms {
			covered[at] = true
		}
		if test != nil {
			tests = append(tests, *test)
		}
		uses = append(uses, a.dims[d].uses...)
		uses = append(uses, b.dims[d].uses...)
	}
	uses = append(uses, pinCover(a, b, same, covered)...)
	need, ok := coveredShape(covered)
	if !ok {
		return "", nil, nil, false
	}
	return need, tests, uses, true
}

// blockPair proves that no two threads of a block meet at accesses a and
// b where one writes: of the proofs that hold, one without launch tests
// if any (the loosest shape), else the loosest with the fewest tests;
// with the uniform references it read. A proof that needs strides
// nonzero where the accesses run (conds, tested in the kernel) is taken
// only where no other holds.
//
// A proof whose uses are not stable on their own (a variable that changes
// between them) cannot hold with more uses beside it, so it is not a
// candidate: the counter of a strided loop makes launchCover's reading
// unstable where stridedCover's holds.
func (la launchAtoms) blockPair(a, b shape, st strides, stable func([]*Node) bool) (string, []manifest.LaunchTest, []poly, []*Node, bool) {
	type cand struct {
		need  string
		tests []manifest.LaunchTest
		uses  []*Node
	}
	var cs []cand
	n0, used0, conds0, ok0 := pairProof(a, b)
	if ok0 && len(conds0) == 0 {
		cs = append(cs, cand{n0, nil, used0})
	}
	if n, used, ok := pinnedCover(a, b, sameSite(a, b)); ok {
		cs = append(cs, cand{n, nil, used})
	}
	if tests, used, ok := la.launchApart(a, b); ok {
		cs = append(cs, cand{AnyBlock, tests, used})
	}
	if n, tests, used, ok := la.launchCover(a, b, sameSite(a, b)); ok {
		cs = append(cs, cand{n, tests, used})
	}
	if n, tests, used, ok := la.stridedCover(a, b, sameSite(a, b), st); ok {
		cs = append(cs, cand{n, tests, used})
	}
	if n, tests, used, ok := la.modCover(a, b, sameSite(a, b)); ok {
		cs = append(cs, cand{n, tests, used})
	}
	kept := cs[:0]
	for _, c := range cs {
		if stable(c.uses) {
			kept = append(kept, c)
		}
	}
	cs = kept
	if len(cs) == 0 {
		if ok0 {
			return n0, nil, conds0, used0, true
		}
		return "", nil, nil, nil, false
	}
	// Tests no launch passes are dropped (a pair "apart" only when
	// blockDim.y <= 0): they must hold for one-thread blocks and large
	// parameters. Then the loosest shape, and the fewest tests.
	plausible := func(c cand) bool {
		for _, t := range c.tests {
			if !t.Holds([3]uint32{1, 1, 1}, func(int) (int64, bool) { return 1 << 20, true }) {
				return false
			}
		}
		return true
	}
	rank := map[string]int{AnyBlock: 0, FlatBlock: 1, LineBlock: 2}
	found := false
	var best cand
	for _, c := range cs {
		if !plausible(c) {
			continue
		}
		if !found || rank[c.need] < rank[best.need] || (rank[c.need] == rank[best.need] && len(c.tests) < len(best.tests)) {
			best, found = c, true
		}
	}
	if !found {
		if ok0 {
			return n0, nil, conds0, used0, true
		}
		return "", nil, nil, nil, false
	}
	return best.need, best.tests, nil, best.uses, true
}

// addTests appends the tests of ts not yet in list.
func addTests(list []manifest.LaunchTest, ts []manifest.LaunchTest) []manifest.LaunchTest {
	for _, t := range ts {
		found := false
		for _, u := range list {
			found = found || t.String() == u.String()
		}
		if !found {
			list = append(list, t)
		}
	}
	return list
}

// Races between blocks. A global variable whose every pair of accesses
// (one a write) can only meet at one thread, whatever block and region
// each runs in, is race-free over the whole grid: no check at either
// level needs to run for it. gridPair proves that for one-dimensional
// subscripts that are linear in the thread and block indexes, with
// coefficients and rest in constants, blockDim, gridDim and the
// parameters (the same for every thread of the launch).

// gridAtomsOf lists the indexes a grid subscript may name and the
// launch size that bounds each.
var gridRanges = map[string]string{
	"tid.x": "blockDim.x", "tid.y": "blockDim.y", "tid.z": "blockDim.z",
	"blockIdx.x": "gridDim.x", "blockIdx.y": "gridDim.y", "blockIdx.z": "gridDim.z",
}

// guardedRange is how many values thread index idx can take at both a
// and b where the guards of both bound it by constants (if (t < 16)):
// from the lower of their lows to the higher of their highs.
func guardedRange(a, b shape, idx string) (poly, bool) {
	if !strings.HasPrefix(idx, "tid.") {
		return nil, false
	}
	ba, okA := a.bounds[idx]
	bb, okB := b.bounds[idx]
	if !okA || !okB || !ba.hasHi || !bb.hasHi {
		return nil, false
	}
	loA, ok1 := ba.lo.p.constant()
	loB, ok2 := bb.lo.p.constant()
	hiA, ok3 := ba.hi.p.constant()
	hiB, ok4 := bb.hi.p.constant()
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, false
	}
	lo, hi := min(loA, loB, 0), max(hiA, hiB)
	if lo < 0 || hi < lo {
		return nil, false
	}
	return polyConst(hi - lo + 1), true
}

// unnamedIndexes lists the indexes a grid subscript's digits (by) leave
// out, which must then take one value: per thread dimension, the whole
// index where the subscript names no part of it, else the part its
// quotient or remainder by a divisor leaves (a warp's row names the warp,
// not the lane). A subscript naming an index and a part of it, or parts
// by two divisors, is not read: its digits are not independent. With
// threadsFree no thread index is listed.
func unnamedIndexes(by map[string]poly, threadsFree bool) ([]string, bool) {
	var out []string
	for _, d := range []string{"x", "y", "z"} {
		whole := "tid." + d
		var div int64
		named := map[string]bool{}
		for at := range by {
			dim, c, _, ok := threadPart(at)
			if !ok || dim != d {
				continue
			}
			if c != 0 && div != 0 && c != div {
				return nil, false
			}
			if c != 0 {
				div = c
			}
			named[at] = true
		}
		if named[whole] && len(named) > 1 {
			return nil, false
		}
		if threadsFree || named[whole] {
			continue
		}
		parts := []string{whole}
		if div != 0 {
			c := strconv.FormatInt(div, 10)
			parts = []string{whole + "/" + c, whole + "%" + c}
		}
		for _, p := range parts {
			if !named[p] {
				out = append(out, p)
			}
		}
	}
	for _, b := range []string{"blockIdx.x", "blockIdx.y", "blockIdx.z"} {
		if by[b] == nil {
			out = append(out, b)
		}
	}
	return out, true
}

// gridForm writes p as index -> coefficient plus a rest, every
// coefficient and the rest in atoms the host can evaluate.
func (la launchAtoms) gridForm(p poly) (map[string]poly, poly, bool) {
	by, rest := map[string]poly{}, poly{}
	for m, c := range p {
		idx := ""
		var others []string
		if m != "" {
			for _, a := range strings.Split(m, "*") {
				if _, isIdx := gridRanges[a]; isIdx || isThreadAtom(a) || strings.HasPrefix(a, "cnt:") {
					if idx != "" {
						return nil, nil, false
					}
					idx = a
					continue
				}
				if _, ok := la.name(a); !ok && !strings.HasPrefix(a, "gridDim.") {
					return nil, nil, false
				}
				others = append(others, a)
			}
		}
		key := strings.Join(others, "*")
		if idx == "" {
			rest[key] += c
			continue
		}
		if by[idx] == nil {
			by[idx] = poly{}
		}
		by[idx][key] += c
	}
	return by, rest, true
}

// gridTerms is terms with gridDim's atoms too.
func (la launchAtoms) gridTerms(p poly) ([]manifest.LaunchTerm, bool) {
	ext := launchAtoms{"gridDim.x": "gridDim.x", "gridDim.y": "gridDim.y", "gridDim.z": "gridDim.z"}
	for k, v := range la {
		ext[k] = v
	}
	return ext.terms(p)
}

// gridPair proves that two threads of the launch (any blocks) touching
// one element at a and b (one access when same) are one thread, or that
// a and b never meet, with the launch tests the proof needs. With
// threadsFree, that they are in one block: the thread indexes the
// subscripts do not name may differ.
func (la launchAtoms) gridPair(a, b shape, same, threadsFree bool) ([]manifest.LaunchTest, bool) {
	if len(a.dims) != 1 || len(b.dims) != 1 || a.dims[0].p == nil || b.dims[0].p == nil {
		return nil, false
	}
	fa, ra, ok1 := la.gridForm(a.dims[0].p)
	fb, rb, ok2 := la.gridForm(b.dims[0].p)
	if !ok1 || !ok2 || len(fa) != len(fb) {
		return la.gridApart(a, b)
	}
	for idx, c := range fa {
		if fb[idx] == nil || !c.equal(fb[idx]) {
			return la.gridApart(a, b)
		}
	}
	// Loop counters (counted) take as many values as their loops run
	// iterations: one range a counter, for both accesses.
	ranges := map[string]poly{}
	for _, sh := range []shape{a, b} {
		for idx, n := range sh.counts {
			if r, seen := ranges[idx]; seen && !r.equal(n) {
				return nil, false
			}
			ranges[idx] = n
		}
	}
	rangeOf := func(idx string) poly {
		if n, ok := guardedRange(a, b, idx); ok {
			return n
		}
		if n, ok := threadRange(idx); ok {
			return n
		}
		if r, ok := gridRanges[idx]; ok {
			return poly{r: 1}
		}
		return ranges[idx]
	}
	var shift int64
	if !ra.equal(rb) {
		// The same coefficients, rests that differ by d: apart when every
		// coefficient is a constant and d is not a multiple of their gcd
		// (newVel[4*i] against newVel[4*i + 1]); else, below, when d
		// moves the lowest digit past its range (out[off + t] against
		// out[off + t + 512]).
		d, ok := rb.plus(ra, -1).constant()
		if !ok {
			return la.gridApart(a, b)
		}
		g := int64(0)
		constant := true
		for _, c := range fa {
			v, ok := c.constant()
			constant = constant && ok
			g = gcd(g, v)
		}
		if constant && g != 0 && d%g != 0 {
			return nil, true
		}
		shift = d
	}
	// One function of the indexes at both: one-to-one over the launch as
	// a mixed radix, the digits in order of their coefficients (constants
	// first, smallest first), each coefficient above what the lower
	// digits can add up to. Indexes it does not name must take one value:
	// pinned by the guards of both (t == 0), or a launch size of 1.
	var tests []manifest.LaunchTest
	one := []manifest.LaunchTerm{{Coeff: 1}}
	// A block-stride counter's digit names its thread index (threadStride).
	named := map[string]poly{}
	for idx, c := range fa {
		named[idx] = c
	}
	for idx, c := range fa {
		th := a.covers[idx]
		if th != b.covers[idx] || (th != "" && named[th] != nil) {
			return nil, false // (the digit and its thread index both named)
		}
		if th != "" {
			named[th] = c
		}
	}
	unnamed, ok := unnamedIndexes(named, threadsFree)
	if !ok {
		return nil, false
	}
	for _, idx := range unnamed {
		ba, okA := a.bounds[idx]
		bb, okB := b.bounds[idx]
		if okA && okB && ba.hasHi && bb.hasHi && ba.lo.p.equal(ba.hi.p) && bb.lo.p.equal(bb.hi.p) && (same || ba.lo.p.equal(bb.lo.p)) {
			if _, ok := la.gridTerms(ba.lo.p); ok {
				continue // one value for the whole launch
			}
		}
		n, _ := threadRange(idx)
		if _, isIdx := gridRanges[idx]; isIdx {
			n = poly{gridRanges[idx]: 1}
		}
		r, ok := la.gridTerms(n)
		if !ok {
			return nil, false
		}
		tests = append(tests, manifest.LaunchTest{Left: one, Right: r})
	}
	type digit struct {
		idx  string
		c    poly
		size int   // factors in the coefficient: constants first
		mag  int64 // then the size of its numbers (n before 16*n)
	}
	var ds []digit
	idxs := make([]string, 0, len(fa))
	for idx := range fa {
		idxs = append(idxs, idx)
	}
	sort.Strings(idxs) // the tests in one order every build
	for _, idx := range idxs {
		c := fa[idx]
		if len(c) == 0 {
			return nil, false
		}
		dg := digit{idx: idx, c: c}
		if v, ok := c.constant(); ok {
			if v == 0 {
				return nil, false
			}
			if v < 0 {
				dg.c = polyConst(-v)
			}
			dg.mag = dg.c[""]
		} else {
			for m, v := range c {
				dg.size = max(dg.size, len(strings.Split(m, "*")))
				dg.mag += max(v, -v)
			}
			// A coefficient in the parameters must be positive (launch
			// sizes are).
			left, ok := la.gridTerms(c)
			if !ok {
				return nil, false
			}
			if !launchSizes(c) {
				tests = append(tests, manifest.LaunchTest{Left: left, Right: one})
			}
		}
		ds = append(ds, dg)
	}
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].size != ds[j].size {
			return ds[i].size < ds[j].size
		}
		if ds[i].mag != ds[j].mag {
			return ds[i].mag < ds[j].mag
		}
		return ds[i].idx < ds[j].idx
	})
	// A digit whose range is not known (a grid-stride loop's count) can
	// only be the highest: no coefficient above it needs its range.
	for _, dg := range ds[:max(len(ds)-1, 0)] {
		if rangeOf(dg.idx) == nil {
			return nil, false
		}
	}
	var lowExtra int64
	if shift != 0 {
		// Element f(x) + r at one access, f(x') + r + d at the other, with
		// d = c0 * q for the lowest digit's coefficient c0: equal only if
		// f(x) = f(y) where y is x' with its lowest digit moved up by q.
		// With q at least that digit's range, the digits of y are apart
		// from those of any x, and f is one-to-one over both when the
		// lowest digit's range counts q more.
		if len(ds) == 0 || ds[0].size != 0 || rangeOf(ds[0].idx) == nil {
			return nil, false
		}
		c0 := ds[0].c[""]
		if c0 == 0 || shift%c0 != 0 {
			return nil, false
		}
		lowExtra = abs64(shift / c0)
		r, ok := la.gridTerms(rangeOf(ds[0].idx))
		if !ok {
			return nil, false
		}
		tests = append(tests, manifest.LaunchTest{Left: []manifest.LaunchTerm{{Coeff: lowExtra}}, Right: r})
	}
	for k := 1; k < len(ds); k++ {
		// c_k >= 1 + the sum over lower digits of c_i * (range_i - 1).
		right := polyConst(1)
		for i, lo := range ds[:k] {
			n := rangeOf(lo.idx)
			if i == 0 {
				n = n.plus(polyConst(lowExtra), 1)
			}
			right = right.plus(lo.c.times(n), 1).plus(lo.c, -1)
		}
		left, ok1 := la.gridTerms(ds[k].c)
		r, ok2 := la.gridTerms(right)
		if !ok1 || !ok2 {
			return nil, false
		}
		tests = append(tests, manifest.LaunchTest{Left: left, Right: r})
	}
	kept := tests[:0]
	for _, t := range tests {
		if neverHolds(t) {
			return nil, false // (no launch is helped by the proof)
		}
		if d, ok := constantGap(t); !ok || d < 0 {
			kept = append(kept, t) // (8 >= 8 says nothing)
		}
	}
	return kept, true
}

// launchSize reports whether atom a is a launch size (blockDim's,
// gridDim's, the warps of a block's row), each at least 1.
func launchSize(a string) bool {
	return strings.HasPrefix(a, "blockDim.") || strings.HasPrefix(a, "gridDim.") || strings.HasPrefix(a, "ceil(blockDim.")
}

// launchSizes reports whether p is a sum of positive multiples of launch
// sizes (each at least 1).
func launchSizes(p poly) bool {
	for m, c := range p {
		if c <= 0 || m == "" {
			return false
		}
		for _, f := range strings.Split(m, "*") {
			if !launchSize(f) {
				return false
			}
		}
	}
	return len(p) > 0
}

// constantTest evaluates a test that names no launch factor: settled
// false where it names one.
func constantTest(t manifest.LaunchTest) (settled, holds bool) {
	for _, side := range [][]manifest.LaunchTerm{t.Left, t.Right} {
		for _, lt := range side {
			if len(lt.Factors) > 0 {
				return false, false
			}
		}
	}
	return true, t.Holds([3]uint32{1, 1, 1}, func(int) (int64, bool) { return 0, false })
}

// constantGap is left - right of test t where no launch term is left in
// it.
func constantGap(t manifest.LaunchTest) (int64, bool) {
	diff := testGap(t)
	for f, c := range diff {
		if f != "" && c != 0 {
			return 0, false
		}
	}
	return diff[""], !t.Abs
}

// neverHolds reports whether no launch passes test t: left - right is a
// constant below 0 plus launch sizes (each at least 1) with coefficients
// no larger than 0 (blockDim.x >= 1 + blockDim.x, 256 >= 256 + blockDim.x).
func neverHolds(t manifest.LaunchTest) bool {
	if t.Abs {
		return false
	}
	diff := testGap(t)
	most := diff[""]
	for f, c := range diff {
		switch {
		case f == "" || c == 0:
		case c < 0 && gridRanges["tid."+strings.TrimPrefix(f, "blockDim.")] == f, c < 0 && gridRanges["blockIdx."+strings.TrimPrefix(f, "gridDim.")] == f:
			most += c
		default:
			return false
		}
	}
	return most < 0
}

// testGap is left - right of test t, by the product of launch factors
// of each term ("" for the constant).
func testGap(t manifest.LaunchTest) map[string]int64 {
	diff := map[string]int64{}
	for _, lt := range t.Left {
		diff[strings.Join(lt.Factors, "*")] += lt.Coeff
	}
	for _, lt := range t.Right {
		diff[strings.Join(lt.Factors, "*")] -= lt.Coeff
	}
	return diff
}

// gridApart proves that a and b never touch one element, whatever blocks
// run them: one subscript's span over the whole launch lies below the
// other's, outright or under one launch test (block 0's bias row w[j],
// j < blockDim.x, against the rows w[(1 + blockIdx.x * R + r) * H + j],
// which start at H: apart when H >= blockDim.x). Each span must be in the
// launch's constants alone: a loop variable may hold different values at
// the two accesses.
func (la launchAtoms) gridApart(a, b shape) ([]manifest.LaunchTest, bool) {
	if len(a.dims) != 1 || len(b.dims) != 1 || a.dims[0].p == nil || b.dims[0].p == nil {
		return nil, false
	}
	for _, o := range [][2]shape{{a, b}, {b, a}} {
		_, hi, ok1 := span(o[0].dims[0], blockBounds(o[0].bounds), false, true)
		lo, _, ok2 := span(o[1].dims[0], blockBounds(o[1].bounds), true, false)
		if !ok1 || !ok2 {
			continue
		}
		top, ok1 := overBlocks(hi.p, o[0].bounds, true)
		bottom, ok2 := overBlocks(lo.p, o[1].bounds, false)
		if !ok1 || !ok2 {
			continue
		}
		if _, ok := la.gridTerms(top); !ok {
			continue
		}
		if _, ok := la.gridTerms(bottom); !ok {
			continue
		}
		gap := bottom.plus(top, -1)
		if v, ok := gap.constant(); ok {
			if v > 0 {
				return nil, true
			}
			continue
		}
		left, ok := la.gridTerms(gap)
		if !ok {
			continue
		}
		// Of the two orders, the one a launch of many small blocks
		// passes (the bias row below the rows, not above them).
		t := manifest.LaunchTest{Left: left, Right: []manifest.LaunchTerm{{Coeff: 1}}}
		if t.HoldsIn(&[3]uint32{1 << 10, 1, 1}, [3]uint32{1, 1, 1}, func(int) (int64, bool) { return 1 << 20, true }) {
			return []manifest.LaunchTest{t}, true
		}
	}
	return nil, false
}

// overBlocks is p with each block index at the end of its range that
// makes p largest (high) or smallest: the guards' bound, else 0 or
// gridDim - 1. ok is false where a block index is multiplied by anything
// but a constant.
func overBlocks(p poly, bounds map[string]bound, high bool) (poly, bool) {
	out := poly{}
	for m, c := range p {
		if !strings.Contains(m, "blockIdx.") {
			out[m] += c
			continue
		}
		if strings.Contains(m, "*") {
			return nil, false
		}
		lo, hi := poly{}, poly{"gridDim." + strings.TrimPrefix(m, "blockIdx."): 1, "": -1}
		if bd, seen := bounds[m]; seen {
			lo = bd.lo.p
			if bd.hasHi {
				hi = bd.hi.p
			}
		}
		v := lo
		if (c > 0) == high {
			v = hi
		}
		out = out.plus(v.times(polyConst(c)), 1)
	}
	return out, true
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// stridedCover is launchCover where a dimension's subscripts also add a
// strided counter (strides) times the same coefficient s: tile[ty + j][tx]
// over j = 0, 8, 16, 24, or cent[i] over i = t, t + blockDim.x, ... (the
// counter then counts the steps: modulus 1, s = blockDim.x). The two
// accesses may see different values of the counter, but those differ by a
// multiple of its modulus M: two threads meet only if c*(t1 - t2) =
// k*M*s for the dimension's thread part c*t, and when |M*s| exceeds what
// the thread part can span over the block (|c| * (blockDim - 1), summed),
// k is 0 and the thread part alone decides, as in launchCover. The
// counter's references are dropped from the uses: its value need not
// hold still, only its class.
func (la launchAtoms) stridedCover(a, b shape, same bool, st strides) (string, []manifest.LaunchTest, []*Node, bool) {
	if len(st) == 0 || len(a.dims) != len(b.dims) {
		return "", nil, nil, false
	}
	a2, b2 := shape{bounds: a.bounds, lv: a.lv}, shape{bounds: b.bounds, lv: b.lv}
	var tests []manifest.LaunchTest
	stripped := false
	for d := range a.dims {
		ta, tb := a.dims[d], b.dims[d]
		if ta.p != nil && tb.p != nil {
			if key, s, ok := counterTerm(ta.p, tb.p, st); ok {
				th, _, split := ta.p.split()
				if !split || len(th) == 0 {
					return "", nil, nil, false
				}
				// |M*s| - 1 >= the thread part's span: the sum of
				// |c| * (blockDim - 1), the constant c's of each index.
				step := s.times(polyConst(st[key]))
				span := poly{"": 1}
				for at, c := range th {
					n, ok := threadRange(at)
					if !ok {
						return "", nil, nil, false
					}
					span = span.plus(n.times(polyConst(abs64(c))), 1).plus(polyConst(abs64(c)), -1)
				}
				t, ok := la.stepTest(step, span)
				if !ok {
					return "", nil, nil, false
				}
				if t != nil {
					tests = append(tests, *t)
				}
				ta, tb = withoutCounter(ta, key, s), withoutCounter(tb, key, s)
				stripped = true
			}
		}
		a2.dims, b2.dims = append(a2.dims, ta), append(b2.dims, tb)
	}
	if !stripped {
		return "", nil, nil, false
	}
	need, more, uses, ok := la.launchCover(a2, b2, same)
	if !ok {
		return "", nil, nil, false
	}
	return need, append(tests, more...), uses, true
}

// stepTest is the launch test |step| >= span (nil where it always holds:
// blockDim.x >= blockDim.x): step's sign is its coefficients' where they
// are all positive over launch sizes, else it is tested as |step|.
func (la launchAtoms) stepTest(step, span poly) (*manifest.LaunchTest, bool) {
	positive := true
	for m, c := range step {
		for _, f := range strings.Split(m, "*") {
			positive = positive && c > 0 && (f == "" || launchSize(f))
		}
	}
	if v, ok := step.constant(); ok {
		step, positive = polyConst(abs64(v)), true
	}
	if positive {
		// step - span >= 0, its positive terms on the left.
		diff := step.plus(span, -1)
		if d, ok := diff.constant(); ok {
			return nil, d >= 0
		}
		l, r := poly{}, poly{}
		for m, c := range diff {
			if c > 0 {
				l[m] = c
			} else {
				r[m] = -c
			}
		}
		lt, ok1 := la.terms(l)
		rt, ok2 := la.terms(r)
		if !ok1 || !ok2 {
			return nil, false
		}
		return &manifest.LaunchTest{Left: lt, Right: rt}, true
	}
	lt, ok1 := la.terms(step)
	rt, ok2 := la.terms(span)
	if !ok1 || !ok2 {
		return nil, false
	}
	return &manifest.LaunchTest{Left: lt, Abs: true, Right: rt}, true
}

// counterTerm finds, in two subscripts of one dimension, a strided
// counter both add once, times the same coefficient (a constant, or a
// product of launch sizes and parameters: blockDim.x), and in no other
// monomial (nor inside an element's index, ld:...).
func counterTerm(p, q poly, st strides) (string, poly, bool) {
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		atom := "u:" + key
		sp, ok1 := coefficientOf(p, atom)
		sq, ok2 := coefficientOf(q, atom)
		if ok1 && ok2 && len(sp) > 0 && sp.equal(sq) {
			return key, sp, true
		}
	}
	return "", nil, false
}

// coefficientOf is the polynomial atom is multiplied by in p, where the
// atom appears once in a monomial, beside launch sizes and parameters
// only; ok is false where it appears otherwise (squared, times a thread
// index or another variable, inside an element's index).
func coefficientOf(p poly, atom string) (poly, bool) {
	out := poly{}
	for m, c := range p {
		if !strings.Contains(m, atom) {
			continue
		}
		n := 0
		var rest []string
		for _, f := range strings.Split(m, "*") {
			switch {
			case f == atom:
				n++
			case strings.Contains(f, atom), strings.HasPrefix(f, "tid."), strings.HasPrefix(f, "ld:"), strings.HasPrefix(f, "u:"):
				// (Another variable, a parameter too: kept out, simply.)
				return nil, false
			default:
				rest = append(rest, f)
			}
		}
		if n != 1 {
			return nil, false
		}
		out[strings.Join(rest, "*")] += c
	}
	return out, true
}

// withoutCounter is t less s times the counter key, and less the
// counter's references.
func withoutCounter(t term, key string, s poly) term {
	out := term{p: t.p.plus(s.times(poly{"u:" + key: 1}), -1)}
	for _, use := range t.uses {
		if use.Ref != key {
			out.uses = append(out.uses, use)
		}
	}
	return out
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
