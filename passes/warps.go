package passes

import (
	"sort"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// Warp arithmetic: a thread index divided by a constant. CUDA code names
// its warp and lane as threadIdx.x / 32 and threadIdx.x % 32 (or >> 5 and
// & 31), and a warp's row of a grid as (blockIdx.x * blockDim.x +
// threadIdx.x) / 32. These are read as two thread atoms of their own,
// the quotient "tid.x/32" and the remainder "tid.x%32", with
//
//	tid.x = 32 * tid.x/32 + tid.x%32,  0 <= tid.x%32 < 32,
//	0 <= tid.x/32 < ceil(blockDim.x / 32),
//
// so a proof that covers both covers tid.x (one warp's lane 0 writes the
// warp's row). A dividend's other monomials must be multiples of the
// divisor: constants that are, or a launch size times anything, under the
// launch test that the launch size is (blockDim.x >= 32 *
// ceil(blockDim.x/32)), which the shape carries (shape.needs). The
// dividend must not be negative (C rounds a negative quotient up), so
// each monomial is a positive multiple of indexes and launch sizes.

// threadPart reads a thread atom: its dimension ("x"), and for a derived
// atom the divisor and whether it is the remainder.
func threadPart(at string) (dim string, div int64, rem bool, ok bool) {
	rest, found := strings.CutPrefix(at, "tid.")
	if !found || rest == "" {
		return "", 0, false, false
	}
	dim = rest[:1]
	if len(rest) == 1 {
		return dim, 0, false, true
	}
	if rest[1] != '/' && rest[1] != '%' {
		return "", 0, false, false
	}
	c, err := strconv.ParseInt(rest[2:], 10, 64)
	if err != nil || c < 2 {
		return "", 0, false, false
	}
	return dim, c, rest[1] == '%', true
}

// ceilAtom is the launch atom for the warps a block's dimension spans.
func ceilAtom(dim string, c int64) string {
	return "ceil(blockDim." + dim + "/" + strconv.FormatInt(c, 10) + ")"
}

// threadRange is how many values thread atom at takes in a block.
func threadRange(at string) (poly, bool) {
	dim, c, rem, ok := threadPart(at)
	switch {
	case !ok:
		return nil, false
	case c == 0:
		return poly{"blockDim." + dim: 1}, true
	case rem:
		return polyConst(c), true
	}
	return poly{ceilAtom(dim, c): 1}, true
}

// nonNegativeAtom reports whether atom a is never negative: an index, a
// launch size, a loop's count of iterations.
func nonNegativeAtom(a string) bool {
	if _, _, _, ok := threadPart(a); ok {
		return true
	}
	return launchSize(a) || strings.HasPrefix(a, "blockIdx.") || strings.HasPrefix(a, "cnt:")
}

// divided is a / c (rem false) or a % c for a constant c >= 2 (see the
// file's comment), with the launch tests the reading rests on.
func divided(a poly, c int64, rem bool) (poly, []manifest.LaunchTest, bool) {
	quot := poly{}
	thread := ""
	var needs []manifest.LaunchTest
	for m, k := range a {
		if k < 0 {
			return nil, nil, false
		}
		var factors []string
		if m != "" {
			factors = strings.Split(m, "*")
		}
		for _, f := range factors {
			if !nonNegativeAtom(f) {
				return nil, nil, false
			}
		}
		if k%c == 0 {
			quot[m] += k / c
			continue
		}
		if dim, div, _, ok := threadPart(m); ok && div == 0 && k == 1 && thread == "" {
			thread = "tid." + dim
			continue
		}
		// A launch size times the rest: blockDim.x = c * ceil(blockDim.x/c)
		// when the launch's rows are whole multiples of c.
		scaled := false
		for i, f := range factors {
			dim, found := strings.CutPrefix(f, "blockDim.")
			if !found || len(dim) != 1 {
				continue
			}
			rest := append(append([]string{}, factors[:i]...), factors[i+1:]...)
			rest = append(rest, ceilAtom(dim, c))
			sort.Strings(rest)
			quot[strings.Join(rest, "*")] += k
			needs = addTests(needs, []manifest.LaunchTest{{
				Left:  []manifest.LaunchTerm{{Coeff: 1, Factors: []string{f}}},
				Right: []manifest.LaunchTerm{{Coeff: c, Factors: []string{ceilAtom(dim, c)}}},
			}})
			scaled = true
			break
		}
		if !scaled {
			return nil, nil, false
		}
	}
	quot = quot.plus(poly{}, 1)
	if rem {
		// (c*q + t) % c is t % c: the quotient's monomials drop out.
		if thread == "" {
			return poly{}, needs, true
		}
		return poly{thread + "%" + strconv.FormatInt(c, 10): 1}, needs, true
	}
	if thread != "" {
		quot = quot.plus(poly{thread + "/" + strconv.FormatInt(c, 10): 1}, 1)
	}
	return quot, needs, true
}

// lowBits reads the constant mask of x & mask as a divisor: 2^k - 1
// keeps the remainder by 2^k.
func lowBits(mask int64) (int64, bool) {
	if mask < 1 || mask&(mask+1) != 0 {
		return 0, false
	}
	return mask + 1, true
}

// derivedBounds adds to bounds what every thread knows of the derived
// atoms its subscripts name, where the guards did not say more: a
// remainder by c is at most c - 1, a quotient below ceil(blockDim/c).
func derivedBounds(sh shape) {
	for _, d := range sh.dims {
		for m := range d.p {
			for _, at := range strings.Split(m, "*") {
				dim, c, rem, ok := threadPart(at)
				if !ok || c == 0 {
					continue
				}
				bd, seen := sh.bounds[at]
				if !seen {
					bd = bound{lo: term{p: poly{}}}
				}
				if bd.hasHi {
					continue
				}
				hi := poly{"": c - 1}
				if !rem {
					hi = poly{ceilAtom(dim, c): 1, "": -1}
				}
				bd.hi, bd.hasHi = term{p: hi}, true
				sh.bounds[at] = bd
			}
		}
	}
}

// wholeCover is covered with each thread index whose quotient and
// remainder by one divisor are both covered marked covered too.
func wholeCover(covered map[string]bool) map[string]bool {
	out := map[string]bool{}
	for at, ok := range covered {
		out[at] = ok
		dim, c, rem, parsed := threadPart(at)
		if ok && parsed && c != 0 && !rem && covered["tid."+dim+"%"+strconv.FormatInt(c, 10)] {
			out["tid."+dim] = true
		}
	}
	return out
}

// threadAtomsOf lists the thread atoms of bounds, in order.
func threadAtomsOf(bounds map[string]bound) []string {
	var out []string
	for at := range bounds {
		if isThreadAtom(at) {
			out = append(out, at)
		}
	}
	sort.Strings(out)
	return out
}

// Folded subscripts: acc[i / N][i % N] walks a two-dimensional array as
// one row of elements when N is the inner dimension's extent, its
// element's place in the two dimensions being i. Such an access is read
// with the two dimensions folded into one, subscript i, and so is every
// other access of the variable it is compared with: acc[w][s] as
// w * N + s (in bounds: s below N, as every subscript proof assumes).

// foldedSubscripts finds subs[k] = X / N and subs[k+1] = X % N, N the
// extent of dimension k+1 of type typ: k, N and X read, or ok false.
func (ix *indexer) foldedSubscripts(subs []*Node, typ string) (int, int64, term, bool) {
	extents := arrayExtents(typ)
	for k := 0; k+1 < len(subs) && k+1 < len(extents); k++ {
		q, r := stripCasts(subs[k]), stripCasts(subs[k+1])
		if q == nil || r == nil || q.Kind != "BinaryOperator" || r.Kind != "BinaryOperator" || len(q.Children) != 2 || len(r.Children) != 2 {
			continue
		}
		if ix.op(q) != "/" || ix.op(r) != "%" {
			continue
		}
		nq, ok1 := ix.poly(q.Children[1], 0)
		nr, ok2 := ix.poly(r.Children[1], 0)
		cq, k1 := nq.p.constant()
		cr, k2 := nr.p.constant()
		if !ok1 || !ok2 || !k1 || !k2 || cq != cr || cq != extents[k+1] || cq < 1 {
			continue
		}
		xq, ok1 := ix.subscript(q.Children[0])
		xr, ok2 := ix.subscript(r.Children[0])
		if !ok1 || !ok2 || !xq.p.equal(xr.p) {
			continue
		}
		return k, cq, term{p: xq.p, uses: append(append([]*Node{}, xq.uses...), xr.uses...)}, true
	}
	return 0, 0, term{}, false
}

// arrayExtents reads the extents of an array type: "float[10][144]" is
// 10, 144; 0 for a dimension it cannot read.
func arrayExtents(typ string) []int64 {
	var out []int64
	for {
		open := strings.IndexByte(typ, '[')
		if open < 0 {
			return out
		}
		end := strings.IndexByte(typ[open:], ']')
		if end < 0 {
			return out
		}
		n, err := strconv.ParseInt(strings.TrimSpace(typ[open+1:open+end]), 10, 64)
		if err != nil {
			n = 0
		}
		out = append(out, n)
		typ = typ[open+end+1:]
	}
}

// foldedAt is sh with dimensions k and k+1 folded into one, the inner's
// extent n (nil p where either is not read).
func (sh shape) foldedAt(k int, n int64) (shape, bool) {
	if sh.fold != 0 {
		return sh, sh.fold == k+1 && sh.foldN == n
	}
	if len(sh.dims) < k+2 {
		return shape{}, false
	}
	out := sh
	out.dims = append([]term{}, sh.dims[:k]...)
	outer, inner := sh.dims[k], sh.dims[k+1]
	merged := term{}
	if outer.p != nil && inner.p != nil {
		merged = term{p: outer.p.times(polyConst(n)).plus(inner.p, 1), uses: append(append([]*Node{}, outer.uses...), inner.uses...)}
	}
	out.dims = append(append(out.dims, merged), sh.dims[k+2:]...)
	out.fold, out.foldN = k+1, n
	return out, true
}

// foldAlike folds the shapes of groups alike where one of them is
// folded: ok is false where two are folded differently, or one cannot be.
func foldAlike(groups ...[]shape) bool {
	k, n := 0, int64(0)
	for _, g := range groups {
		for _, sh := range g {
			if sh.fold == 0 {
				continue
			}
			if k != 0 && (sh.fold != k || sh.foldN != n) {
				return false
			}
			k, n = sh.fold, sh.foldN
		}
	}
	if k == 0 {
		return true
	}
	for _, g := range groups {
		for i := range g {
			f, ok := g[i].foldedAt(k-1, n)
			if !ok {
				return false
			}
			g[i] = f
		}
	}
	return true
}

// Columns of a thread: counts[bin * THREADS + t], bin read from the data.
// Where a subscript is c*t + C*(anything) with C above what c*t spans
// over the block (C >= |c| * (blockDim.x - 1) + 1), two threads meet only
// at one residue mod C, which is c*t: the same t. The anything may be
// any integer per thread and access: data (an opaque atom, loose), a
// loop's counter at any iteration.

// loose reads n as a polynomial where the parts it cannot read (v >> 2 &
// 63 of a value v from memory) are atoms "any:OFFSET" of their own: the
// proofs must take them as any integer, different at each thread and
// access, as only modCover does.
func (ix *indexer) loose(n *Node, depth int) (poly, bool) {
	n = stripCasts(n)
	if n == nil || depth > 16 || !integerType(n.Type) && n.Type != "" {
		return nil, false
	}
	if t, ok := ix.poly(n, depth); ok {
		return t.p, true
	}
	if n.Kind == "BinaryOperator" && len(n.Children) == 2 {
		switch ix.op(n) {
		case "+", "-", "*":
			a, ok1 := ix.loose(n.Children[0], depth+1)
			b, ok2 := ix.loose(n.Children[1], depth+1)
			if ok1 && ok2 {
				switch ix.op(n) {
				case "+":
					return a.plus(b, 1), true
				case "-":
					return a.plus(b, -1), true
				}
				return a.times(b), true
			}
		}
	}
	return poly{"any:" + strconv.Itoa(n.Pos.Offset): 1}, true
}

// modCover proves that two threads touching one element at a and b are
// one thread, by one dimension whose subscripts are c*t + C*(anything)
// at both (see above), with the guards' pins for the other indexes: the
// launch shape and the test C >= |c| * (range(t) - 1) + 1, or ok false.
// The range is the guards' where both bound t by constants.
func (la launchAtoms) modCover(a, b shape, same bool) (string, []manifest.LaunchTest, []*Node, bool) {
	if len(a.dims) != len(b.dims) {
		return "", nil, nil, false
	}
	for d := range a.dims {
		pa, pb := a.loosely(d), b.loosely(d)
		if pa == nil || pb == nil {
			continue
		}
		ta, ra, ok1 := pa.split()
		tb, rb, ok2 := pb.split()
		if !ok1 || !ok2 || len(ta) != 1 || len(tb) != 1 {
			continue
		}
		var at string
		var c int64
		for x, k := range ta {
			at, c = x, k
		}
		if tb[at] != c || c == 0 {
			continue
		}
		// C: the gcd of every other coefficient, and of the constants'
		// difference (each a multiple of C).
		var g int64
		for _, r := range []poly{ra, rb} {
			for m, k := range r {
				if m != "" {
					g = gcd(g, k)
				}
			}
		}
		g = gcd(g, ra[""]-rb[""])
		n, ok := threadRange(at)
		if r, guarded := guardedRange(a, b, at); guarded {
			n, ok = r, true // (if (t < 8): eight columns whatever the block)
		}
		// (A residue class per thread only in one-thread blocks is no
		// proof worth a test.)
		if g < 2*abs64(c) || !ok {
			continue
		}
		// g - |c| + 1 >= |c| * range.
		left, ok1 := la.terms(polyConst(g - abs64(c) + 1))
		right, ok2 := la.terms(n.times(polyConst(abs64(c))))
		if !ok1 || !ok2 {
			continue
		}
		test := manifest.LaunchTest{Left: left, Right: right}
		var tests []manifest.LaunchTest
		if settled, holds := constantTest(test); !settled {
			tests = []manifest.LaunchTest{test}
		} else if !holds {
			continue
		}
		covered := map[string]bool{at: true}
		uses := pinCover(a, b, same, covered)
		need, ok := coveredShape(covered)
		if !ok {
			continue
		}
		return need, tests, uses, true
	}
	return "", nil, nil, false
}

// loosely is dimension d's subscript, read loosely where it could not be
// read at all (nil where neither).
func (sh shape) loosely(d int) poly {
	if sh.dims[d].p != nil {
		return sh.dims[d].p
	}
	if d < len(sh.loose) {
		return sh.loose[d]
	}
	return nil
}
