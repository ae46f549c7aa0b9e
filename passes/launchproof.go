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
				name, ok := la[a]
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
			gap := lo.p.plus(hi.p, -1)
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
			left, ok1 := la.terms(ca[highAt])
			right, ok2 := la.terms(poly{"blockDim." + strings.TrimPrefix(lowAt, "tid."): cl})
			if !ok1 || !ok2 {
				continue
			}
			test = &manifest.LaunchTest{Left: left, Abs: true, Right: right}
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
	for _, at := range []string{"tid.x", "tid.y", "tid.z"} {
		ba, okA := a.bounds[at]
		bb, okB := b.bounds[at]
		pinned := okA && okB && ba.hasHi && bb.hasHi && ba.lo.p.equal(ba.hi.p) && bb.lo.p.equal(bb.hi.p)
		if pinned && (same || ba.lo.p.equal(bb.lo.p)) {
			covered[at] = true
			uses = append(uses, ba.lo.uses...)
			uses = append(uses, bb.lo.uses...)
		}
	}
	switch {
	case covered["tid.x"] && covered["tid.y"] && covered["tid.z"]:
		return AnyBlock, tests, uses, true
	case covered["tid.x"] && covered["tid.y"]:
		return FlatBlock, tests, uses, true
	case covered["tid.x"]:
		return LineBlock, tests, uses, true
	}
	return "", nil, nil, false
}

// blockPair proves that no two threads of a block meet at accesses a and
// b where one writes: of the proofs that hold, one without launch tests
// if any (the loosest shape), else the loosest with the fewest tests;
// with the uniform references it read.
func (la launchAtoms) blockPair(a, b shape) (string, []manifest.LaunchTest, []*Node, bool) {
	type cand struct {
		need  string
		tests []manifest.LaunchTest
		uses  []*Node
	}
	var cs []cand
	if n, used, conds, ok := pairProof(a, b); ok && len(conds) == 0 {
		cs = append(cs, cand{n, nil, used})
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
	if len(cs) == 0 {
		return "", nil, nil, false
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
		return "", nil, nil, false
	}
	return best.need, best.tests, best.uses, true
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
