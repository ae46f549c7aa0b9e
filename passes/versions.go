package passes

import (
	"sort"
	"strings"
)

// Where a uniform variable's value can change between two points.
//
// The index proofs read a subscript as a polynomial in uniform variables,
// and two accesses agree on a variable's value only where no assignment
// to it runs between them. Two things make that more than a look at the
// assignments between the accesses:
//
//   - a local defined once (int q = blockIdx.x * QPB + i) is read where
//     its definition ran, which may be before a barrier or in an earlier
//     iteration: the proof reads q as its definition only where no
//     assignment to a variable of the definition can run between the
//     definition's last run and the use (captured);
//   - a region that wraps around a loop's back edge runs the end of one
//     iteration and the start of the next. In a batched search, every
//     thread reads cur[q] for query i before the loop's ++i, and thread 0
//     writes cur[q] for query i + 1 after it, in one region. Where a
//     counter's only assignment in a loop steps it by a constant, and
//     every path from the region's start to an access steps it the same
//     number of times (0 or 1), the access's subscript is read with the
//     counter's value at the region's start plus that many steps: the two
//     subscripts then differ by a constant (versioned).
//
// Both questions are answered by runs of the regions flow in which
// chosen nodes end regions the way barriers do.

// The region-ending IDs of the flows below: the anchor, a variable's
// assignments, a counter's step.
const (
	anchorSite = 0
	assignSite = 1
	stepSite   = 1 << 20 // above every barrier ID
)

// maxFlows bounds the flows one kernel's proofs may run.
const maxFlows = 64

// valueFlows caches the flows of one kernel.
type valueFlows struct {
	ka     *kernelAnalysis
	k      *Kernel
	u      *uniformVars
	single map[string]*Node
	// since: anchor node and variables -> the flow whose region ends are
	// the anchor and the variables' assignments.
	since map[sinceKey]*regionFlow
	// steps: variable -> the flow whose region ends are the barriers and
	// the variable's step.
	steps map[string]*regionFlow
}

type sinceKey struct {
	anchor *Node
	vars   string
}

func newValueFlows(ka *kernelAnalysis, k *Kernel, u *uniformVars, single map[string]*Node) *valueFlows {
	return &valueFlows{ka: ka, k: k, u: u, single: single, since: map[sinceKey]*regionFlow{}, steps: map[string]*regionFlow{}}
}

// unchangedSince reports whether, on every path to reference at, no
// assignment to vars runs after the last run of anchor (a node of the
// statement that read them).
func (vf *valueFlows) unchangedSince(anchor *Node, vars []string, at *Node) bool {
	// A declaration of a variable the anchor reads encloses the anchor's
	// scope: running it again enters that scope anew, and with it the
	// anchor's statement, before any use after the anchor. Only other
	// assignments can come between.
	var assigns []*Node
	for _, v := range vars {
		for _, a := range vf.u.assigns[v] {
			if a.Kind != "VarDecl" {
				assigns = append(assigns, a)
			}
		}
	}
	if len(assigns) == 0 {
		return true
	}
	sort.Strings(vars)
	rf := vf.anchored(sinceKey{anchor, strings.Join(vars, ",")}, assigns)
	if rf == nil {
		return false
	}
	got, ok := rf.at[at]
	return ok && !got[assignSite]
}

// anchored is the flow whose region ends are key's anchor (anchorSite)
// and the assignments (assignSite), cached under key; nil where there is
// no answer: an assignment inside the anchor's own statement (the flow
// cannot order them), or the budget spent. Each flow is a pass over the
// body: a kernel with thousands of definitions would cost their product,
// so past maxFlows the proofs that needed one are not made and the check
// runs.
func (vf *valueFlows) anchored(key sinceKey, assigns []*Node) *regionFlow {
	if rf := vf.since[key]; rf != nil {
		return rf
	}
	if len(vf.since) >= maxFlows {
		return nil
	}
	sites := map[*Node]int{key.anchor: anchorSite}
	for _, a := range assigns {
		if a == key.anchor || within(a, key.anchor) {
			return nil
		}
		sites[a] = assignSite
	}
	rf := vf.ka.flowThrough(sites, true)
	vf.since[key] = rf
	return rf
}

// within reports whether n is inside (or is) outer.
func within(n, outer *Node) bool {
	for ; n != nil; n = n.Parent {
		if n == outer {
			return true
		}
	}
	return false
}

// captured reports whether definition def (the initializer of a local
// defined once) has, at reference at, the value it would have if it ran
// there: no variable it reads, directly or through other such locals, is
// assigned after def's last run.
func (vf *valueFlows) captured(def, at *Node) bool {
	vars := map[string]bool{}
	var walk func(n *Node, depth int) bool
	walk = func(n *Node, depth int) bool {
		ok := depth < 16
		n.Walk(func(c *Node) bool {
			if !ok {
				return false
			}
			if c.Kind == "DeclRefExpr" && c.Ref != "" {
				if vf.u.uniform[c.Ref] {
					vars[c.Ref] = true
				}
				if d := vf.single[c.Ref]; d != nil && !vars[c.Ref] {
					vars[c.Ref] = true
					ok = walk(d, depth+1)
				}
			}
			return true
		})
		return ok
	}
	if !walk(def, 0) {
		return false
	}
	var list []string
	for v := range vars {
		list = append(list, v)
	}
	return vf.unchangedSince(def, list, at)
}

// loopStep finds v's step: its one assignment that can run more than once
// (in a loop), v++ or v += C and the like; other assignments must be
// declarations outside loops. decl is that declaration (nil if v is a
// parameter).
func (vf *valueFlows) loopStep(v string) (site, decl *Node, step int64, ok bool) {
	for _, a := range vf.u.assigns[v] {
		if a.Kind == "VarDecl" {
			if insideLoop(vf.u.src, a) || decl != nil {
				return nil, nil, 0, false
			}
			decl = a
			continue
		}
		if site != nil {
			return nil, nil, 0, false
		}
		p := outerExpr(a)
		switch {
		case p != nil && p.Kind == "UnaryOperator" && p.Op == "++":
			site, step = p, 1
		case p != nil && p.Kind == "UnaryOperator" && p.Op == "--":
			site, step = p, -1
		case p != nil && p.Kind == "CompoundAssignOperator" && len(p.Children) == 2 && (p.Op == "+=" || p.Op == "-="):
			c, isConst := constValue(p.Children[1])
			if !isConst || c == 0 {
				return nil, nil, 0, false
			}
			if p.Op == "-=" {
				c = -c
			}
			site, step = p, c
		default:
			return nil, nil, 0, false
		}
	}
	return site, decl, step, site != nil
}

// stepsFrom is how many times v's step (site) runs on every path from
// region start `from` to reference at without a barrier: 0 or 1, ok false
// where paths differ or may step it more than once.
func (vf *valueFlows) stepsFrom(v string, site *Node, from int, at *Node) (int64, bool) {
	rf := vf.steps[v]
	if rf == nil {
		sites := map[*Node]int{site: stepSite}
		for n, id := range vf.ka.sites {
			sites[n] = id
		}
		rf = vf.ka.flowThrough(sites, true)
		vf.steps[v] = rf
	}
	got, ok := rf.at[at]
	if !ok {
		return 0, false
	}
	direct := got[from]
	stepped := rf.found[[2]int{from, stepSite}] != nil && got[stepSite]
	again := rf.found[[2]int{stepSite, stepSite}] != nil
	switch {
	case direct && !stepped:
		return 0, true
	case !direct && stepped && !again:
		return 1, true
	}
	return 0, false
}

// versioned reads the loop counters of sh (the shape of the access at
// reference at, in region r) as their value at r's start plus the steps
// taken since: sh's subscripts and bounds shifted, and the counters'
// uses dropped (the value is then exact, not one to keep stable).
func (vf *valueFlows) versioned(sh shape, at *Node, r Region, reach *Reach) shape {
	byVar := map[string][]*Node{}
	terms := append([]term{}, sh.dims...)
	for _, b := range sh.bounds {
		terms = append(terms, b.lo)
		if b.hasHi {
			terms = append(terms, b.hi)
		}
	}
	for _, t := range terms {
		for _, use := range t.uses {
			if vf.u.uniform[use.Ref] {
				byVar[use.Ref] = append(byVar[use.Ref], use)
			}
		}
	}
	shift := map[string]int64{}
	vars := make([]string, 0, len(byVar))
	for v := range byVar {
		vars = append(vars, v)
	}
	sort.Strings(vars) // (the flows run in one order: maxFlows)
	for _, v := range vars {
		uses := byVar[v]
		site, decl, step, ok := vf.loopStep(v)
		if !ok {
			continue
		}
		// A region that runs v's declaration has no value of v at its start.
		if decl != nil {
			if s, placed := vf.k.RegionStarts(decl); !placed || s[r.From] {
				continue
			}
		}
		n, ok := vf.stepsFrom(v, site, r.From, at)
		if !ok {
			continue
		}
		// Every use reads the value v has at the access: none is read
		// before a step the access follows (a guard above the step).
		for _, x := range uses {
			if reach.expr[x] != nil && reach.expr[x] == reach.expr[at] {
				continue
			}
			anchor := x
			if reach.expr[x] != nil {
				anchor = reach.expr[x]
			}
			if !vf.unchangedSince(anchor, []string{v}, at) {
				ok = false
				break
			}
		}
		if ok {
			shift["u:"+v] = n * step
		}
	}
	if len(shift) == 0 {
		return sh
	}
	move := func(t term) (term, bool) {
		if t.p == nil {
			return t, true
		}
		p, ok := t.p.shifted(shift)
		if !ok {
			return t, false
		}
		var uses []*Node
		for _, use := range t.uses {
			if _, gone := shift["u:"+use.Ref]; !gone || !vf.u.uniform[use.Ref] {
				uses = append(uses, use)
			}
		}
		return term{p: p, uses: uses}, true
	}
	out := shape{lv: sh.lv, bounds: map[string]bound{}, needs: sh.needs, fold: sh.fold, foldN: sh.foldN, loose: sh.loose}
	for _, d := range sh.dims {
		m, ok := move(d)
		if !ok {
			return sh
		}
		out.dims = append(out.dims, m)
	}
	for atom, b := range sh.bounds {
		var ok1, ok2 bool
		b.lo, ok1 = move(b.lo)
		ok2 = true
		if b.hasHi {
			b.hi, ok2 = move(b.hi)
		}
		if !ok1 || !ok2 {
			return sh
		}
		out.bounds[atom] = b
	}
	return out
}

// shifted is p with each atom a of by replaced by a + by[a]; ok is false
// where an atom appears squared (the shift would not stay one term).
func (p poly) shifted(by map[string]int64) (poly, bool) {
	out := poly{}
	for m, c := range p {
		if strings.Contains(m, "[") {
			// An element at an index (ld:...): its index would move too.
			for a := range by {
				if strings.Contains(m, a) {
					return nil, false
				}
			}
		}
		var rest []string
		var moved string
		for _, a := range strings.Split(m, "*") {
			if _, ok := by[a]; ok {
				if moved != "" {
					return nil, false
				}
				moved = a
				continue
			}
			if a != "" {
				rest = append(rest, a)
			}
		}
		out = out.plus(poly{m: c}, 1)
		if moved != "" && by[moved] != 0 {
			sort.Strings(rest)
			out = out.plus(poly{strings.Join(rest, "*"): c * by[moved]}, 1)
		}
	}
	return out, true
}

// strides: uniform integer variables every value of which lies in one
// residue class modulo a constant (key -> modulus >= 2). A loop that
// tiles rows with for (j = 0; j < TILE; j += ROWS) runs j through 0,
// ROWS, 2*ROWS... in one region: the proofs cannot read one value of j
// there, but two values of j always differ by a multiple of ROWS
// (stridedCover).
type strides map[string]int64

// counterStrides finds the strided variables: each assignment is a step
// by a constant (++, --, += C, -= C) or sets a constant, the constants
// all in one class modulo the steps' gcd; or, in place of the constants,
// one starting value only (a parameter's argument, or one declaration
// outside loops, whose uniform initializer runs once).
func counterStrides(f *Func, u *uniformVars) strides {
	params := map[string]bool{}
	for _, p := range f.Params {
		params[p.Key] = true
	}
	out := strides{}
	for key, list := range u.assigns {
		if !u.uniform[key] {
			continue
		}
		var g int64
		var consts []int64
		once := 0 // starting values that are not constants
		ok := true
		for _, a := range list {
			if !integerType(a.Type) {
				ok = false
				break
			}
			if a.Kind == "VarDecl" {
				if c, isConst := constValue(a.Init); isConst {
					consts = append(consts, c)
				} else if insideLoop(u.src, a) {
					ok = false
				} else {
					once++
				}
				continue
			}
			p := outerExpr(a)
			switch {
			case p != nil && p.Kind == "UnaryOperator" && (p.Op == "++" || p.Op == "--"):
				g = gcd(g, 1)
			case p != nil && p.Kind == "CompoundAssignOperator" && len(p.Children) == 2 && (p.Op == "+=" || p.Op == "-="):
				c, isConst := constValue(p.Children[1])
				if !isConst {
					ok = false
				}
				g = gcd(g, c)
			case p != nil && p.Kind == "BinaryOperator" && p.Op == "=" && len(p.Children) == 2:
				c, isConst := constValue(p.Children[1])
				if !isConst {
					ok = false
				}
				consts = append(consts, c)
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if params[key] {
			once++
		}
		if !ok || g < 2 || (once > 0 && len(consts) > 0) || once > 1 {
			continue
		}
		for _, c := range consts {
			if ((c-consts[0])%g+g)%g != 0 {
				ok = false
			}
		}
		if ok {
			out[key] = g
		}
	}
	return out
}

// reaching returns the right-hand side of the one assignment of ref's
// variable (a local scalar assigned more than once, each time by a plain
// = or its declaration) that every path to ref runs last: no path reaches
// ref from the kernel's entry, or from another assignment, without it.
// nil where there is none, or where the flows' budget is spent.
func (vf *valueFlows) reaching(ref *Node) *Node {
	v := ref.Ref
	list := vf.u.assigns[v]
	if v == "" || vf.u.unknown[v] || len(list) < 2 || len(list) > 8 {
		return nil
	}
	for _, a := range list {
		anchor, rhs := plainAssignment(a)
		if anchor == nil || within(ref, anchor) {
			continue
		}
		var others []*Node
		for _, b := range list {
			if b == a {
				continue
			}
			if b.Kind == "VarDecl" {
				if b.Init == nil {
					return nil
				}
				b = b.Init
			}
			others = append(others, b)
		}
		rf := vf.anchored(sinceKey{anchor, "reaching:" + v}, others)
		if rf == nil {
			return nil
		}
		if got, ok := rf.at[ref]; ok && len(got) == 1 && got[anchorSite] {
			return rhs
		}
	}
	return nil
}

// outerExpr is n's parent past parentheses and implicit conversions: the
// operator that assigns a variable reference n, if one does.
func outerExpr(n *Node) *Node {
	p := n.Parent
	for p != nil && (p.Kind == "ParenExpr" || p.Kind == "UnexposedExpr") {
		p = p.Parent
	}
	return p
}

// plainAssignment is a's assignment as a flow site (the declaration's
// initializer, or the = expression) and its right-hand side; nil for
// steps and compound assignments.
func plainAssignment(a *Node) (site, rhs *Node) {
	if a.Kind == "VarDecl" {
		return a.Init, a.Init
	}
	p := outerExpr(a)
	if p != nil && p.Kind == "BinaryOperator" && p.Op == "=" && len(p.Children) == 2 && stripCasts(p.Children[0]) == a {
		return p, p.Children[1]
	}
	return nil, nil
}

// counterLoop reads the for statement around at that steps v: the
// expression v starts at (int v = start or v = start in the header), the
// step (v += step, or nil for ++v and v++), and the bound of the
// condition v < bound (v <= bound: inclusive; nil where the condition is
// not of that form). ok is false where the innermost for that assigns v
// does not step it there, or also assigns it in its body or condition.
func (vf *valueFlows) counterLoop(v string, at *Node) (start, step, bound *Node, inclusive, ok bool) {
	if vf.u.unknown[v] {
		return nil, nil, nil, false, false
	}
	src := vf.u.src
	isV := func(n *Node) bool {
		n = stripCasts(n)
		return n != nil && n.Kind == "DeclRefExpr" && n.Ref == v
	}
	for cur, p := at, at.Parent; p != nil; cur, p = p, p.Parent {
		if p.Kind != "ForStmt" || len(p.Children) == 0 || cur != p.Children[len(p.Children)-1] {
			continue
		}
		init, cond, inc := forHeader(src, p)
		if inc == nil {
			continue
		}
		steps := false
		for _, a := range vf.u.assigns[v] {
			steps = steps || within(a, inc)
		}
		if !steps {
			continue
		}
		// The loop that steps v: its header must say all.
		body := p.Children[len(p.Children)-1]
		for _, a := range vf.u.assigns[v] {
			if within(a, body) || (cond != nil && within(a, cond)) {
				return nil, nil, nil, false, false
			}
		}
		if init != nil {
			init.Walk(func(n *Node) bool {
				switch {
				case n.Kind == "VarDecl" && n.Key == v && n.Init != nil:
					start = n.Init
				case n.Kind == "BinaryOperator" && n.Op == "=" && len(n.Children) == 2 && isV(n.Children[0]):
					start = n.Children[1]
				}
				return start == nil
			})
		}
		if start == nil {
			return nil, nil, nil, false, false
		}
		x := stripCasts(inc)
		switch {
		case x.Kind == "UnaryOperator" && x.Op == "++" && len(x.Children) == 1 && isV(x.Children[0]):
		case x.Kind == "CompoundAssignOperator" && x.Op == "+=" && len(x.Children) == 2 && isV(x.Children[0]):
			step = x.Children[1]
		default:
			return nil, nil, nil, false, false
		}
		if c := stripCasts(cond); c != nil && c.Kind == "BinaryOperator" && len(c.Children) == 2 {
			switch {
			case isV(c.Children[0]) && (c.Op == "<" || c.Op == "<="):
				bound, inclusive = c.Children[1], c.Op == "<="
			case isV(c.Children[1]) && (c.Op == ">" || c.Op == ">="):
				bound, inclusive = c.Children[0], c.Op == ">="
			}
		}
		return start, step, bound, inclusive, true
	}
	return nil, nil, nil, false, false
}

// loopRange is counterLoop where v starts at a constant j0, steps by a
// constant S > 0 and is bounded: in the body, v is j0 + S*k for some k >=
// 0 with v below the bound.
func (vf *valueFlows) loopRange(v string, at *Node) (j0, step int64, bound *Node, inclusive, ok bool) {
	start, by, bound, inclusive, ok := vf.counterLoop(v, at)
	if !ok || bound == nil {
		return 0, 0, nil, false, false
	}
	if j0, ok = constValue(start); !ok {
		return 0, 0, nil, false, false
	}
	step = 1
	if by != nil {
		if step, ok = constValue(by); !ok || step <= 0 {
			return 0, 0, nil, false, false
		}
	}
	return j0, step, bound, inclusive, true
}

// counterAtom names the k of a loop counter j0 + S*k: "cnt:KEY", an index
// of the grid proofs whose number of values is in shape.counts.
func counterAtom(v string) string { return "cnt:" + v }

// counted is sh with each loop counter of its subscripts (loopRange)
// read as j0 + S*k: two accesses, or two threads, may be at different
// iterations, so k is an index of its own, with as many values as the
// loop has iterations at most (a bound in the launch's constants: a
// constant, a parameter the kernel never assigns, blockDim, gridDim).
func (ix *indexer) counted(sh shape) shape {
	out := shape{lv: sh.lv, bounds: sh.bounds, counts: map[string]poly{}, needs: sh.needs, fold: sh.fold, foldN: sh.foldN, covers: sh.covers}
	for _, d := range sh.dims {
		if d.p == nil {
			out.dims = append(out.dims, d)
			continue
		}
		vars := map[string]bool{}
		for _, use := range d.uses {
			if ix.u.uniform[use.Ref] {
				vars[use.Ref] = true
			}
		}
		keys := make([]string, 0, len(vars))
		for v := range vars {
			keys = append(keys, v)
		}
		sort.Strings(keys)
		for _, v := range keys {
			j0, step, bound, inclusive, ok := ix.flows.loopRange(v, sh.lv)
			if !ok {
				if p, ok := ix.gridStride(d.p, v, sh.lv); ok {
					out.counts[counterAtom(v)] = nil
					d = withoutCounter(term{p: p, uses: d.uses}, v, poly{})
				}
				continue
			}
			b, ok := ix.poly(bound, 0)
			if !ok {
				continue
			}
			// Iterations: v runs over j0, j0 + S, ... below the bound
			// (at most bound - j0 of them where the bound is not a
			// constant: more values only make the proof's tests stricter).
			last := b.p.plus(polyConst(j0), -1)
			if inclusive {
				last = last.plus(polyConst(1), 1)
			}
			count := last
			if n, isConst := last.constant(); isConst {
				count = polyConst(max(1, (n+step-1)/step))
			}
			p, ok := d.p.substituted("u:"+v, poly{"": j0, counterAtom(v): step})
			if !ok {
				continue
			}
			out.counts[counterAtom(v)] = count
			d = withoutCounter(term{p: p, uses: d.uses}, v, poly{})
		}
		for _, use := range d.uses {
			if ix.u.uniform[use.Ref] {
				continue
			}
			if p, th, count, ok := ix.threadStride(d.p, use.Ref, use); ok {
				if out.covers == nil {
					out.covers = map[string]string{}
				}
				out.counts[counterAtom(use.Ref)], out.covers[counterAtom(use.Ref)] = count, th
				d = withoutCounter(term{p: p, uses: d.uses}, use.Ref, poly{})
				break
			}
		}
		out.dims = append(out.dims, d)
	}
	return out
}

// gridStride reads uniform counter v of a grid-stride loop (for (base =
// blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x)) in
// p as start + step * k, k an index of its own whose count is not known:
// the grid proofs take it only as the highest digit, which needs none.
// Start and step are in launch sizes and block indexes alone (no
// variable that could change), the step a positive multiple of launch
// sizes.
func (ix *indexer) gridStride(p poly, v string, at *Node) (poly, bool) {
	start, by, _, _, ok := ix.flows.counterLoop(v, at)
	if !ok || by == nil {
		return nil, false
	}
	s, ok1 := ix.poly(start, 0)
	st, ok2 := ix.poly(by, 0)
	if !ok1 || !ok2 || len(s.uses) > 0 || len(st.uses) > 0 || !launchSizes(st.p) {
		return nil, false
	}
	for m := range s.p {
		for _, f := range strings.Split(m, "*") {
			if f != "" && !strings.HasPrefix(f, "blockIdx.") && !launchSize(f) {
				return nil, false
			}
		}
	}
	return p.substituted("u:"+v, s.p.plus(st.p.times(poly{counterAtom(v): 1}), 1))
}

// threadStride reads a thread's block-stride counter (for (i = t; i < N;
// i += blockDim.x), ref one of its references in p) as one digit: c*t +
// c*blockDim.x*k, the counter's value times c, is c times an index of its
// own that takes N values, and names the thread index t (th): two
// threads of a block never share a value of it (t < blockDim.x).
func (ix *indexer) threadStride(p poly, v string, ref *Node) (out poly, th string, count poly, ok bool) {
	start, by, bound, inclusive, ok := ix.flows.counterLoop(v, ref)
	if !ok || by == nil || bound == nil || !ix.flows.captured(start, ref) || !ix.flows.captured(by, ref) {
		return nil, "", nil, false
	}
	s, ok1 := ix.poly(start, 0)
	st, ok2 := ix.poly(by, 0)
	b, ok3 := ix.poly(bound, 0)
	if !ok1 || !ok2 || !ok3 || len(s.p) != 1 || len(b.uses) > 0 {
		return nil, "", nil, false
	}
	for m, c := range s.p {
		dim, div, _, isThread := threadPart(m)
		if !isThread || div != 0 || c != 1 || !st.p.equal(poly{"blockDim." + dim: 1}) {
			return nil, "", nil, false
		}
		th = m
	}
	// p holds c*t + c*blockDim.x*u:v, and neither elsewhere.
	c := p[th]
	step, ok := coefficientOf(p, "u:"+v)
	if c == 0 || !ok || !step.equal(st.p.times(polyConst(c))) {
		return nil, "", nil, false
	}
	rest := p.plus(poly{th: c}, -1).plus(st.p.times(poly{"u:" + v: c}), -1)
	for m := range rest {
		if strings.Contains(m, th) || strings.Contains(m, "u:"+v) {
			return nil, "", nil, false
		}
	}
	count = b.p
	if inclusive {
		count = count.plus(polyConst(1), 1)
	}
	return rest.plus(poly{counterAtom(v): c}, 1), th, count, true
}

// substituted is p with atom replaced by the polynomial by; ok is false
// where the atom is squared or inside an element's index.
func (p poly) substituted(atom string, by poly) (poly, bool) {
	out := poly{}
	for m, c := range p {
		var rest []string
		n := 0
		for _, a := range strings.Split(m, "*") {
			switch {
			case a == atom:
				n++
			case strings.Contains(a, atom):
				return nil, false
			case a != "":
				rest = append(rest, a)
			}
		}
		switch n {
		case 0:
			out = out.plus(poly{m: c}, 1)
		case 1:
			sort.Strings(rest)
			out = out.plus(poly{strings.Join(rest, "*"): c}.times(by), 1)
		default:
			return nil, false
		}
	}
	return out, true
}
