package passes

import (
	"fmt"
	"sort"
	"strings"

	"ldcheck/privatize/manifest"
)

// Index proofs for one-pass regions. A region that reads and writes one
// array (a reduction's s[t] += s[t + half] under t < half) still needs no
// second pass when no thread can read an element another thread writes
// in it: the second pass re-runs each warp from the merged state with its
// own writes undone, and ends differently only where a warp read bytes
// another wrote. disjointPass proves that per pair (write, read) of the
// array's accesses in the region, from their subscripts:
//
//   - identity: the two subscripts are the same function of the thread's
//     index, one that gives each thread its own element (t, 2*t+1,
//     s[ty][tx]); then only the thread that writes an element reads it.
//     How many of threadIdx's dimensions the subscripts name decides the
//     launches it holds for (OnePassIf);
//   - ranges: in one dimension, the elements every thread may write and
//     those every thread may read are disjoint intervals, from the
//     guards on the thread's index (t < half writes [0, half), reads
//     [half, 2*half)).
//
// Subscripts are polynomials in the thread's index and in uniform
// variables: locals and parameters that every thread of the block holds
// the same value of (assigned only from uniform values, under uniform
// conditions). A uniform variable stands for one value in a region only
// if no assignment to it can run between the accesses (and guards, and
// definitions) that use it there without a barrier between: a loop
// without a barrier in it runs its counter through many values in one
// region. x + (x >> c), the padding that avoids bank conflicts, is read as
// x (it grows strictly with x).

// Launch shapes an index proof needs (Region.OnePassIf).
const (
	AnyBlock  = ""         // any launch
	FlatBlock = "block-2d" // blockDim.z == 1
	LineBlock = "block-1d" // blockDim.y == blockDim.z == 1
)

// poly is a polynomial with integer coefficients: monomial -> coefficient,
// a monomial being its atoms sorted and joined by "*" ("" the constant).
// Atoms: tid.x, tid.y, tid.z (threadIdx), blockIdx.x and the like, and
// u:KEY for a uniform variable.
type poly map[string]int64

func polyConst(v int64) poly {
	if v == 0 {
		return poly{}
	}
	return poly{"": v}
}

func (p poly) plus(q poly, sign int64) poly {
	r := poly{}
	for m, c := range p {
		r[m] += c
	}
	for m, c := range q {
		r[m] += sign * c
	}
	for m, c := range r {
		if c == 0 {
			delete(r, m)
		}
	}
	return r
}

func (p poly) times(q poly) poly {
	r := poly{}
	for ma, ca := range p {
		for mb, cb := range q {
			var atoms []string
			for _, a := range []string{ma, mb} {
				if a != "" {
					atoms = append(atoms, strings.Split(a, "*")...)
				}
			}
			sort.Strings(atoms)
			r[strings.Join(atoms, "*")] += ca * cb
		}
	}
	return r.plus(poly{}, 1)
}

// String writes p canonically: its monomials in order, each "c*m".
func (p poly) String() string {
	monos := make([]string, 0, len(p))
	for m, c := range p {
		if c != 0 {
			monos = append(monos, fmt.Sprintf("%d*%s", c, m))
		}
	}
	sort.Strings(monos)
	return strings.Join(monos, "+")
}

func (p poly) constant() (int64, bool) {
	for m := range p {
		if m != "" {
			return 0, false
		}
	}
	return p[""], true
}

func (p poly) equal(q poly) bool {
	d, ok := p.plus(q, -1).constant()
	return ok && d == 0
}

func isThreadAtom(a string) bool { return strings.HasPrefix(a, "tid.") }

// split separates a subscript into its thread part (atom -> coefficient,
// each monomial one thread atom alone) and its uniform part; ok is false
// when a monomial multiplies a thread atom by anything but a constant.
func (p poly) split() (thread map[string]int64, uni poly, ok bool) {
	thread, uni = map[string]int64{}, poly{}
	for m, c := range p {
		if !strings.Contains(m, "tid.") {
			uni[m] = c
			continue
		}
		if !isThreadAtom(m) || strings.Contains(m, "*") {
			return nil, nil, false
		}
		thread[m] = c
	}
	return thread, uni, true
}

// uniformVars finds the kernel's uniform scalar locals and parameters
// (decl keys) and, for each, where it is assigned.
type uniformVars struct {
	src     []byte
	uniform map[string]bool
	assigns map[string][]*Node // the DeclRefExpr assigned, or the VarDecl
	// unknown: scalars with a write assigns does not list (the address
	// taken, an atomic, a write of another form), or whose later writes
	// it may miss.
	unknown map[string]bool
}

func findUniform(f *Func) *uniformVars {
	u := &uniformVars{src: f.File.Source, uniform: map[string]bool{}, assigns: map[string][]*Node{}, unknown: map[string]bool{}}
	scalar := func(n *Node) bool {
		return n.Key != "" && !isPointerOrArray(n.Type) && !strings.Contains(n.Type, "&") && !strings.Contains(n.Type, "[")
	}
	type assign struct {
		at, rhs *Node // rhs nil: the variable's own value changed (++, --)
		self    bool  // the new value also depends on the old one
	}
	as := map[string][]assign{}
	for _, p := range f.Params {
		if scalar(p) {
			u.uniform[p.Key] = true
		}
	}
	f.Body.Walk(func(n *Node) bool {
		if n.Kind == "VarDecl" && n.Space == "" && scalar(n) {
			u.uniform[n.Key] = true
			if n.Init != nil {
				as[n.Key] = append(as[n.Key], assign{at: n, rhs: n.Init})
				u.assigns[n.Key] = append(u.assigns[n.Key], n)
			}
		}
		return true
	})
	f.Body.Walk(func(n *Node) bool {
		if n.Kind != "DeclRefExpr" || !u.uniform[n.Ref] {
			return true
		}
		a := classify(n)
		if a.escape || a.atomic != "" {
			u.uniform[n.Ref] = false
			u.unknown[n.Ref] = true
			return true
		}
		if !a.write {
			return true
		}
		u.assigns[n.Ref] = append(u.assigns[n.Ref], n)
		p := outerExpr(n)
		switch {
		case p != nil && p.Kind == "BinaryOperator" && p.Op == "=" && len(p.Children) == 2:
			as[n.Ref] = append(as[n.Ref], assign{at: n, rhs: p.Children[1]})
		case p != nil && p.Kind == "CompoundAssignOperator" && len(p.Children) == 2:
			as[n.Ref] = append(as[n.Ref], assign{at: n, rhs: p.Children[1], self: true})
		case p != nil && p.Kind == "UnaryOperator" && (p.Op == "++" || p.Op == "--"):
			as[n.Ref] = append(as[n.Ref], assign{at: n, self: true})
		default:
			u.uniform[n.Ref] = false
			u.unknown[n.Ref] = true
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for key, list := range as {
			if !u.uniform[key] {
				continue
			}
			for _, a := range list {
				if (a.rhs != nil && !u.expr(a.rhs)) || !u.control(a.at, f.Body) {
					u.uniform[key] = false
					changed = true
					break
				}
			}
		}
	}
	return u
}

// expr reports whether every thread computes the same value of n.
func (u *uniformVars) expr(n *Node) bool {
	n = stripCasts(n)
	if n == nil {
		return false
	}
	switch n.Kind {
	case "IntegerLiteral", "FloatingLiteral", "CharacterLiteral", "CXXBoolLiteralExpr", "UnaryExprOrTypeTraitExpr":
		return true
	case "MemberRefExpr":
		if len(n.Children) == 1 {
			switch stripCasts(n.Children[0]).Name {
			case "blockIdx", "blockDim", "gridDim":
				return true
			}
		}
		return false
	case "DeclRefExpr":
		switch {
		case n.Name == "warpSize" || n.RefKind == "EnumConstantDecl":
			return true
		case n.Name == "threadIdx":
			return false
		}
		return u.uniform[n.Ref]
	case "BinaryOperator":
		// (An operator written in a macro's body has no Op: its operands
		// decide.)
		if strings.HasSuffix(n.Op, "=") && n.Op != "==" && n.Op != "!=" && n.Op != "<=" && n.Op != ">=" {
			return false
		}
	case "UnaryOperator":
		switch n.Op {
		case "++", "--", "&", "*", "":
			return false
		}
	case "ConditionalOperator":
	default:
		return false
	}
	for _, c := range n.Children {
		if !u.expr(c) {
			return false
		}
	}
	return true
}

// control reports whether the code at n runs under uniform conditions
// only: every branch and loop condition around it uniform, and no loop
// around it left by some threads early (a break or continue under a
// condition that is not).
func (u *uniformVars) control(n, body *Node) bool {
	for cur, p := n, n.Parent; p != nil && p != body; cur, p = p, p.Parent {
		var conds []*Node
		switch p.Kind {
		case "IfStmt":
			if len(p.Children) == 2 || len(p.Children) == 3 {
				conds = append(conds, p.Children[0])
			} else {
				return false
			}
		case "WhileStmt", "SwitchStmt":
			conds = append(conds, p.Children[0])
		case "DoStmt":
			conds = append(conds, p.Children[len(p.Children)-1])
		case "ForStmt":
			for _, c := range p.Children[:len(p.Children)-1] {
				if forPartOf(u.src, p, c) == 1 {
					conds = append(conds, c)
				}
			}
		case "ConditionalOperator":
			conds = append(conds, p.Children[0])
		case "BinaryOperator":
			if p.Op == "&&" || p.Op == "||" {
				conds = append(conds, p.Children[0])
			}
		case "CXXForRangeStmt", "LambdaExpr", "GotoStmt":
			return false
		}
		for _, c := range conds {
			if c != cur && !within(n, c) && !u.expr(c) {
				return false
			}
		}
		if p.Kind == "ForStmt" || p.Kind == "WhileStmt" || p.Kind == "DoStmt" {
			left := false
			p.Walk(func(x *Node) bool {
				if (x.Kind == "BreakStmt" || x.Kind == "ContinueStmt") && !u.control(x, p) {
					left = true
				}
				return !left
			})
			if left {
				return false
			}
		}
	}
	return true
}

// forPartOf says which part of for statement n's header child c is in: 0
// init, 1 condition, 2 increment.
func forPartOf(src []byte, n, c *Node) int {
	depth, part := 0, 0
	for i := n.Pos.Offset; i < c.Pos.Offset && i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ';':
			if depth == 1 {
				part++
			}
		}
	}
	return part
}

// indexer reads subscripts and guards as polynomials.
type indexer struct {
	u      *uniformVars
	single map[string]*Node
	macro  map[*Node]string // operators a macro's body spells (macroOperators)
	// readOnly: global variables (pointer parameters, __device__ arrays)
	// the kernel never writes. An element of one at a uniform index is
	// the same value for every thread (cc[rowlab[i] * K + t]).
	readOnly map[string]bool
	// flows: where variables change (versions.go).
	flows *valueFlows
	// viaDef: references of locals defined once, read as their
	// definitions: the points where the definitions' variables are
	// used, with no assignments of their own to check.
	viaDef map[*Node]bool
	// everyDef: read every local defined once as its definition, uniform
	// ones too. The grid proofs need it: a uniform local (int base =
	// blockIdx.x * N) holds one value per block, not one per launch.
	everyDef bool
	// needs: where shapeOf reads an access, the launch tests its
	// divisions rest on (warps.go); nil elsewhere, where such a division
	// is not read.
	needs *[]manifest.LaunchTest
	// plain: read no division that rests on a launch test; missed says
	// whether one was left unread.
	plain, missed bool
}

// op is n's operator, read from the macro's body where n has no text.
func (ix *indexer) op(n *Node) string {
	if n.Op == "" {
		return ix.macro[n]
	}
	return n.Op
}

// term is a polynomial read from the source, with the references of
// uniform variables it was read from (for the stability check).
type term struct {
	p    poly
	uses []*Node
}

func (ix *indexer) poly(n *Node, depth int) (term, bool) {
	n = stripCasts(n)
	if n == nil || depth > 16 {
		return term{}, false
	}
	if n.IsInt {
		return term{p: polyConst(n.Int)}, true
	}
	switch n.Kind {
	case "IntegerLiteral":
		if n.IsInt {
			return term{p: polyConst(n.Int)}, true
		}
		if v, ok := intLiteral(n); ok {
			return term{p: polyConst(v)}, true
		}
		return term{}, false
	case "MemberRefExpr":
		if len(n.Children) == 1 {
			switch base := stripCasts(n.Children[0]).Name; base {
			case "threadIdx":
				return term{p: poly{"tid." + n.Name: 1}}, true
			case "blockIdx", "blockDim", "gridDim":
				return term{p: poly{base + "." + n.Name: 1}}, true
			}
		}
		return term{}, false
	case "ArraySubscriptExpr":
		// An element of a read-only array at a uniform index: one atom,
		// named by the array and the index (the same in both accesses
		// only if the index is: the stability check sees its uses).
		if len(n.Children) != 2 || !integerType(n.Type) {
			return term{}, false
		}
		base := stripCasts(n.Children[0])
		if base == nil || base.Kind != "DeclRefExpr" || !ix.readOnly[base.Ref] {
			return term{}, false
		}
		idx, ok := ix.poly(n.Children[1], depth+1)
		if th, _, split := idx.p.split(); !ok || !split || len(th) > 0 {
			return term{}, false
		}
		return term{p: poly{"ld:" + base.Ref + "[" + idx.p.String() + "]": 1}, uses: idx.uses}, true
	case "DeclRefExpr":
		// A local defined once is read as its definition; a uniform one
		// only where the definition runs in a loop (int q = base + i in
		// each iteration): its counter may then be versioned across the
		// loop's step (versions.go); elsewhere it is one value, an atom.
		def, uniform := ix.single[n.Ref], ix.u.uniform[n.Ref]
		if def != nil && (!uniform || ix.everyDef || insideLoop(ix.u.src, def)) {
			if t, ok := ix.definition(def, n, depth); ok || !uniform {
				return t, ok
			}
		}
		if uniform {
			return term{p: poly{"u:" + n.Ref: 1}, uses: []*Node{n}}, true
		}
		// A local assigned more than once (x = blockIdx.x * T + tx, then
		// x = blockIdx.y * T + tx for the store): the one assignment
		// that reaches the reference on every path, if any.
		if rhs := ix.flows.reaching(n); rhs != nil {
			return ix.definition(rhs, n, depth)
		}
		return ix.counter(n, depth)
	case "UnaryOperator":
		if len(n.Children) == 1 && (n.Op == "-" || n.Op == "+") {
			t, ok := ix.poly(n.Children[0], depth+1)
			if ok && n.Op == "-" {
				t.p = poly{}.plus(t.p, -1)
			}
			return t, ok
		}
		return term{}, false
	case "BinaryOperator":
		if len(n.Children) != 2 {
			return term{}, false
		}
		a, ok1 := ix.poly(n.Children[0], depth+1)
		b, ok2 := ix.poly(n.Children[1], depth+1)
		if !ok1 || !ok2 {
			return term{}, false
		}
		uses := append(append([]*Node{}, a.uses...), b.uses...)
		switch ix.op(n) {
		case "+":
			return term{a.p.plus(b.p, 1), uses}, true
		case "-":
			return term{a.p.plus(b.p, -1), uses}, true
		case "*":
			return term{a.p.times(b.p), uses}, true
		case "<<":
			if s, ok := b.p.constant(); ok && s >= 0 && s < 31 {
				return term{a.p.times(polyConst(1 << s)), uses}, true
			}
		case "/", "%":
			if c, ok := b.p.constant(); ok && c >= 2 {
				return ix.divided(a, c, ix.op(n) == "%", uses)
			}
		case ">>":
			if s, ok := b.p.constant(); ok && s >= 1 && s < 31 {
				return ix.divided(a, 1<<s, false, uses)
			}
		case "&":
			for _, o := range [][2]term{{a, b}, {b, a}} {
				if mask, ok := o[1].p.constant(); ok {
					if c, ok := lowBits(mask); ok && c >= 2 {
						return ix.divided(o[0], c, true, uses)
					}
				}
			}
		}
	}
	return term{}, false
}

// divided is a / c or a % c (warps.go). Where the reading rests on a
// launch test it is made inside shapeOf only, which hands the tests to
// the proofs with the shape (needs).
func (ix *indexer) divided(a term, c int64, rem bool, uses []*Node) (term, bool) {
	p, needs, ok := divided(a.p, c, rem)
	if ok && len(needs) > 0 && ix.needs == nil {
		ix.missed = ix.missed || ix.plain
		return term{}, false
	}
	if !ok {
		return term{}, false
	}
	if len(needs) > 0 {
		*ix.needs = addTests(*ix.needs, needs)
	}
	return term{p, uses}, true
}

// counter reads n, a reference of a for loop's counter that starts at a
// value of the thread (for (i = t; i < n; i += blockDim.x)), as start +
// step * u:i, the atom counting the loop's steps: the same for every
// thread that runs the access in one region where a barrier in the body
// keeps the threads in step, and left to the stability check (the
// reference is among the uses) or to stridedCover, which reads it as any
// number of steps.
func (ix *indexer) counter(n *Node, depth int) (term, bool) {
	start, step, _, _, ok := ix.flows.counterLoop(n.Ref, n)
	// The start is read where the loop began, and the step where it
	// runs: nothing they read may change before the access.
	if !ok || !ix.flows.captured(start, n) || (step != nil && !ix.flows.captured(step, n)) {
		return term{}, false
	}
	s := term{p: polyConst(1)}
	if step != nil {
		if s, ok = ix.poly(step, depth+1); !ok {
			return term{}, false
		}
		if th, _, split := s.p.split(); !split || len(th) > 0 {
			return term{}, false
		}
	}
	t, ok := ix.poly(start, depth+1)
	if !ok {
		return term{}, false
	}
	p := t.p.plus(s.p.times(poly{"u:" + n.Ref: 1}), 1)
	return term{p: p, uses: append(append(append([]*Node{}, t.uses...), s.uses...), n)}, true
}

// definition reads def, the initializer of the local n refers to. Its
// uniform variables are read where def runs, and it may run again (in a
// loop) after one access and before the other: the value at n must be
// the one def would have there (captured), and n, where the value is
// used, joins the uses the stability check compares.
func (ix *indexer) definition(def, n *Node, depth int) (term, bool) {
	if !ix.flows.captured(def, n) {
		return term{}, false
	}
	t, ok := ix.poly(def, depth+1)
	if ok && len(t.uses) > 0 {
		if ix.viaDef == nil {
			ix.viaDef = map[*Node]bool{}
		}
		ix.viaDef[n] = true
		t.uses = append(append([]*Node{}, t.uses...), n)
	}
	return t, ok
}

// subscript reads one dimension's subscript, looking through x + (x >> c).
func (ix *indexer) subscript(n *Node) (term, bool) {
	s := stripCasts(n)
	if s != nil && s.Kind == "BinaryOperator" && ix.op(s) == "+" && len(s.Children) == 2 {
		for i := 0; i < 2; i++ {
			x, sh := s.Children[i], stripCasts(s.Children[1-i])
			if sh == nil || sh.Kind != "BinaryOperator" || ix.op(sh) != ">>" || len(sh.Children) != 2 {
				continue
			}
			a, ok1 := ix.poly(x, 0)
			b, ok2 := ix.poly(sh.Children[0], 0)
			c, ok3 := ix.poly(sh.Children[1], 0)
			if v, k := c.p.constant(); ok1 && ok2 && ok3 && k && v > 0 && a.p.equal(b.p) {
				a.uses = append(a.uses, b.uses...)
				return a, true
			}
		}
	}
	return ix.poly(n, 0)
}

// bound is what the guards around an access say of one thread atom:
// lo <= atom (lo is 0 when nothing else is known: threadIdx is never
// negative) and atom <= hi when hasHi.
type bound struct {
	lo, hi term
	hasHi  bool
}

// shape is an access's subscripts (a dimension whose subscript is not a
// polynomial, part[bin[j]][t], is unknown: nil p) and the bounds its guards
// put on the thread's index. Two elements are one only if every
// subscript is equal: one dimension where they differ proves them apart.
type shape struct {
	dims   []term
	bounds map[string]bound
	lv     *Node // the element accessed: the outermost subscript
	// counts: loop counters read as indexes of their own (counted) ->
	// how many values each takes.
	counts map[string]poly
	// needs: launch tests the reading of the subscripts and guards rests
	// on (a row of warps: blockDim.x >= 32 * ceil(blockDim.x/32)). A
	// proof from this shape holds only where they do.
	needs []manifest.LaunchTest
	// loose: the subscripts not read, read loosely (indexer.loose; nil
	// where read), for modCover alone.
	loose []poly
	// covers: counters of a thread's block-stride loop read as one digit
	// (threadStride) -> the thread index the digit names.
	covers map[string]string
	// fold: where dimensions fold-1 and fold are read as one, the inner
	// one's extent foldN (warps.go); 0 where none are.
	fold  int
	foldN int64
}

// shapeOf reads access a: ok is false unless it is v[i][j]... (only
// parentheses and implicit conversions between the subscripts).
func (ix *indexer) shapeOf(a access) (shape, bool) {
	if a.escape || a.atomic != "" {
		return shape{}, false
	}
	var subs []*Node
	cur := a.ref
	for p := cur.Parent; p != nil; cur, p = p, p.Parent {
		if p.Kind == "ParenExpr" || p.Kind == "UnexposedExpr" {
			continue
		}
		if p.Kind == "ArraySubscriptExpr" && len(p.Children) == 2 && p.Children[0] == cur {
			subs = append(subs, p.Children[1])
			continue
		}
		break
	}
	sh := shape{bounds: map[string]bound{}, lv: cur}
	var needs []manifest.LaunchTest
	if !ix.plain {
		ix.needs = &needs
		defer func() { ix.needs = nil }()
	}
	if len(subs) == 0 {
		// A scalar (or a whole array): one element, so only guards that
		// pin the thread's index can say one thread touches it.
		if isPointerOrArray(a.ref.Type) {
			return shape{}, false
		}
		ix.guards(a.ref, sh.bounds)
		sh.needs = needs
		return sh, len(sh.bounds) > 0
	}
	known := false
	for _, s := range subs {
		t, ok := ix.subscript(s)
		var lp poly
		if !ok {
			t = term{}
			lp, _ = ix.loose(s, 0)
		}
		known = known || ok || lp != nil
		sh.dims = append(sh.dims, t)
		sh.loose = append(sh.loose, lp)
	}
	if k, n, x, ok := ix.foldedSubscripts(subs, a.ref.Type); ok {
		sh.dims = append(append(append([]term{}, sh.dims[:k]...), x), sh.dims[k+2:]...)
		sh.loose = nil
		sh.fold, sh.foldN, known = k+1, n, true
	}
	ix.guards(a.ref, sh.bounds)
	if !known && len(sh.bounds) == 0 {
		// No subscript read and no guard: nothing to prove with. (With
		// guards, pinned indexes may still say one thread runs it.)
		return shape{}, false
	}
	derivedBounds(sh)
	sh.needs = needs
	return sh, true
}

// guards collects the bounds the if statements around ref put on the
// thread atoms: t < e, t <= e, t > e, t >= e, t == e (either side), the
// conjuncts of a condition whose then-branch holds ref, or the one
// comparison whose else-branch does.
func (ix *indexer) guards(ref *Node, bounds map[string]bound) {
	for cur, p := ref, ref.Parent; p != nil; cur, p = p, p.Parent {
		if p.Kind != "IfStmt" || (len(p.Children) != 2 && len(p.Children) != 3) || cur == p.Children[0] {
			continue
		}
		then := cur == p.Children[1]
		var conds []*Node
		var split func(n *Node)
		split = func(n *Node) {
			n = stripCasts(n)
			if n.Kind == "BinaryOperator" && ix.op(n) == "&&" && then {
				split(n.Children[0])
				split(n.Children[1])
				return
			}
			conds = append(conds, n)
		}
		split(p.Children[0])
		if !then && len(conds) != 1 {
			continue
		}
		for _, c := range conds {
			ix.guard(c, then, bounds)
		}
	}
}

func (ix *indexer) guard(c *Node, holds bool, bounds map[string]bound) {
	if c.Kind != "BinaryOperator" || len(c.Children) != 2 {
		return
	}
	op := ix.op(c)
	l, r := stripCasts(c.Children[0]), stripCasts(c.Children[1])
	if strings.Contains(l.Type, "unsigned") != strings.Contains(r.Type, "unsigned") {
		return // converted: a negative bound would wrap
	}
	a, ok1 := ix.poly(l, 0)
	b, ok2 := ix.poly(r, 0)
	if !ok1 || !ok2 {
		return
	}
	atomOf := func(t term) string {
		th, uni, ok := t.p.split()
		if ok && len(th) == 0 && len(uni) == 1 {
			// A block index (blockIdx.x == 0): the grid proofs read it
			// (gridPair, gridApart); the block proofs name thread
			// indexes only.
			for m, k := range uni {
				if k == 1 && strings.HasPrefix(m, "blockIdx.") && !strings.Contains(m, "*") {
					return m
				}
			}
		}
		if !ok || len(uni) != 0 || len(th) != 1 {
			return ""
		}
		for at, k := range th {
			if k == 1 {
				return at
			}
		}
		return ""
	}
	uniform := func(t term) bool {
		th, _, ok := t.p.split()
		return ok && len(th) == 0
	}
	at, e := atomOf(a), b
	if at == "" || !uniform(b) {
		at, e = atomOf(b), a
		if at == "" || !uniform(a) {
			return
		}
		// Mirror the comparison: e op t is t op' e.
		switch op {
		case "<":
			op = ">"
		case "<=":
			op = ">="
		case ">":
			op = "<"
		case ">=":
			op = "<="
		}
	}
	if !holds {
		switch op {
		case "<":
			op = ">="
		case "<=":
			op = ">"
		case ">":
			op = "<="
		case ">=":
			op = "<"
		default:
			return
		}
	}
	bd, seen := bounds[at]
	if !seen {
		bd = bound{lo: term{p: poly{}}}
	}
	off := func(d int64) term { return term{p: e.p.plus(polyConst(d), 1), uses: e.uses} }
	switch op {
	case "<":
		bd.hi, bd.hasHi = off(-1), true
	case "<=":
		bd.hi, bd.hasHi = off(0), true
	case ">":
		bd.lo = off(1)
	case ">=":
		bd.lo = off(0)
	case "==":
		bd.lo, bd.hi, bd.hasHi = off(0), off(0), true
	default:
		return
	}
	bounds[at] = bd
}

// span is the interval a dimension's subscript takes over the threads the
// guards let through: ok is false when it is not known at one end or the
// other (want says which ends are needed: lo, hi).
func span(d term, bounds map[string]bound, needLo, needHi bool) (lo, hi term, ok bool) {
	th, uni, ok := d.p.split()
	if !ok {
		return term{}, term{}, false
	}
	// Each thread index adds its own interval (the indexes are bounded
	// one by one, so the sum's interval is the sum of theirs).
	lo, hi = term{p: uni, uses: d.uses}, term{p: uni, uses: d.uses}
	hiKnown := true
	atoms := make([]string, 0, len(th))
	for at := range th {
		atoms = append(atoms, at)
	}
	sort.Strings(atoms)
	add := func(t *term, b term, k int64) {
		t.p = t.p.plus(b.p.times(polyConst(k)), 1)
		t.uses = append(append([]*Node{}, t.uses...), b.uses...)
	}
	for _, at := range atoms {
		k := th[at]
		bd, seen := bounds[at]
		if !seen {
			bd = bound{lo: term{p: poly{}}}
		}
		small, large, hasLarge := bd.lo, bd.hi, bd.hasHi
		if k < 0 {
			small, large = large, small // the largest index gives the lowest value
			if !hasLarge {
				if needLo {
					return term{}, term{}, false
				}
				add(&hi, large, k)
				continue
			}
			add(&lo, small, k)
			add(&hi, large, k)
			continue
		}
		add(&lo, small, k)
		if hasLarge {
			add(&hi, large, k)
		} else {
			hiKnown = false
		}
	}
	if needHi && !hiKnown {
		return term{}, term{}, false
	}
	return lo, hi, true
}

// apart reports whether x's and y's subscripts in dimension d lie in
// disjoint intervals for every pair of threads: the uses returned are
// those the proof read.
func apart(x, y shape, d int) ([]*Node, bool) {
	if x.dims[d].p == nil || y.dims[d].p == nil {
		return nil, false
	}
	for _, o := range [][2]shape{{x, y}, {y, x}} {
		// o[0]'s largest below o[1]'s smallest.
		_, hi, ok1 := span(o[0].dims[d], o[0].bounds, false, true)
		lo, _, ok2 := span(o[1].dims[d], o[1].bounds, true, false)
		if !ok1 || !ok2 {
			continue
		}
		if gap, ok := lo.p.plus(hi.p, -1).constant(); ok && gap > 0 {
			return append(append([]*Node{}, hi.uses...), lo.uses...), true
		}
	}
	return nil, false
}

// parityApart reports whether subscripts x and y (of two threads, in one
// dimension) can never be equal because their difference is not divisible
// by the power of two that divides every variable term: nxt = 1 - cur
// against cur differs by 1 - 2*cur, odd for every cur (a double buffer's
// two halves). Monomials with a thread atom stand for a different thread
// in x and in y, so they do not cancel; uniform ones do. The argument
// holds modulo 2^64 too, so wrapping arithmetic does not break it. Every
// variable read must be an integer (a float cast to an index is not).
func parityApart(x, y term) ([]*Node, bool) {
	if x.p == nil || y.p == nil {
		return nil, false
	}
	uses := append(append([]*Node{}, x.uses...), y.uses...)
	for _, u := range uses {
		if !integerType(u.Type) {
			return nil, false
		}
	}
	hasThread := func(m string) bool {
		for _, a := range strings.Split(m, "*") {
			if isThreadAtom(a) {
				return true
			}
		}
		return false
	}
	twos := func(c int64) int { // the 2-adic valuation of c != 0
		n := 0
		for c%2 == 0 {
			c /= 2
			n++
		}
		return n
	}
	var coeffs []int64
	uni := poly{}
	for _, side := range []struct {
		p    poly
		sign int64
	}{{x.p, 1}, {y.p, -1}} {
		for m, c := range side.p {
			if m != "" && hasThread(m) {
				coeffs = append(coeffs, c)
			} else {
				uni[m] += side.sign * c
			}
		}
	}
	c0 := uni[""]
	for m, c := range uni {
		if m != "" && c != 0 {
			coeffs = append(coeffs, c)
		}
	}
	if c0 == 0 {
		return nil, false
	}
	v := 63
	for _, c := range coeffs {
		if c != 0 {
			v = min(v, twos(c))
		}
	}
	if twos(c0) >= v {
		return nil, false
	}
	return uses, true
}

// same reports whether x and y have, in the dimensions that name thread
// atoms alone, the same subscripts, and which atoms those dimensions
// cover: distinct threads that differ in a covered atom touch different
// elements.
func same(x, y shape) (covered map[string]bool, uses []*Node) {
	covered = map[string]bool{}
	for d := range x.dims {
		if x.dims[d].p == nil || y.dims[d].p == nil {
			continue
		}
		tx, ux, ok1 := x.dims[d].p.split()
		ty, uy, ok2 := y.dims[d].p.split()
		if !ok1 || !ok2 || len(tx) != 1 || len(ty) != 1 || !ux.equal(uy) {
			continue
		}
		for at, k := range tx {
			if k != 0 && ty[at] == k {
				covered[at] = true
				uses = append(uses, x.dims[d].uses...)
				uses = append(uses, y.dims[d].uses...)
			}
		}
	}
	return covered, uses
}

// coeffs writes p as the sum over thread atoms of coefficient * atom,
// plus a uniform rest; ok is false when a monomial holds two thread atoms.
func (p poly) coeffs() (by map[string]poly, rest poly, ok bool) {
	by, rest = map[string]poly{}, poly{}
	for m, c := range p {
		var atom string
		var others []string
		for _, a := range strings.Split(m, "*") {
			switch {
			case m == "":
			case isThreadAtom(a) && atom == "":
				atom = a
			case isThreadAtom(a):
				return nil, nil, false
			default:
				others = append(others, a)
			}
		}
		if atom == "" {
			rest[m] = c
			continue
		}
		if by[atom] == nil {
			by[atom] = poly{}
		}
		by[atom][strings.Join(others, "*")] += c
	}
	return by, rest, true
}

// multiple says whether d = q * c for a rational q (every monomial in the
// same ratio), and returns q as num/den (den > 0); c must not be zero.
func multiple(d, c poly) (num, den int64, ok bool) {
	var m0 string
	for m := range c {
		if m0 == "" || m < m0 {
			m0 = m
		}
	}
	a, b := c[m0], d[m0]
	if a == 0 {
		return 0, 0, false
	}
	for m := range c {
		if d[m]*a != c[m]*b {
			return 0, 0, false
		}
	}
	for m := range d {
		if d[m]*a != c[m]*b {
			return 0, 0, false
		}
	}
	if a < 0 {
		a, b = -a, -b
	}
	return b, a, true
}

// scaled compares one dimension of x and y whose subscripts are C*t + Bx
// and C*t + By for one thread atom t and one coefficient C (a constant, or
// a polynomial in uniform variables, such as a tree's stride): equal
// elements need C*(tx - ty) = By - Bx. When By - Bx = q*C with q not an
// integer they never are (apart: step*(2t+2)-1 against step*(2t+1)-1);
// when By = Bx only one thread touches each element (same, atom t). Both
// hold only if C is not 0: cond is C when that is not a constant.
func scaled(x, y term) (apart bool, same string, cond poly, ok bool) {
	if x.p == nil || y.p == nil {
		return false, "", nil, false
	}
	bx, rx, ok1 := x.p.coeffs()
	by, ry, ok2 := y.p.coeffs()
	if !ok1 || !ok2 || len(bx) != 1 || len(by) != 1 {
		return false, "", nil, false
	}
	var atom string
	var c poly
	for a, k := range bx {
		atom, c = a, k
	}
	if !c.equal(by[atom]) || len(c) == 0 {
		return false, "", nil, false
	}
	if v, isConst := c.constant(); isConst && v == 0 {
		return false, "", nil, false
	}
	if _, isConst := c.constant(); !isConst {
		cond = c
	}
	d := ry.plus(rx, -1)
	if len(d) == 0 {
		return false, atom, cond, true
	}
	num, den, ok := multiple(d, c)
	if ok && num%den != 0 {
		return true, "", cond, true
	}
	return false, "", nil, false
}

// pairProof proves that no thread reads, at read access r, an element
// another thread writes at write access w; it returns the launch shape the
// proof needs, the uniform references it read and the coefficients that
// must not be 0 where the accesses run (conds), or ok false.
func pairProof(w, r shape) (need string, uses []*Node, conds []poly, ok bool) {
	if len(w.dims) != len(r.dims) {
		return "", nil, nil, false
	}
	for d := range w.dims {
		if u, ok := apart(w, r, d); ok {
			return AnyBlock, u, nil, true
		}
		if u, ok := parityApart(w.dims[d], r.dims[d]); ok {
			return AnyBlock, u, nil, true
		}
	}
	covered := map[string]bool{}
	var ids []poly
	var apartConds []poly
	var apartUses []*Node
	found := false
	for d := range w.dims {
		ap, atom, cond, ok := scaled(w.dims[d], r.dims[d])
		if !ok {
			continue
		}
		dimUses := append(append([]*Node{}, w.dims[d].uses...), r.dims[d].uses...)
		if ap && (!found || cond == nil) {
			found, apartUses, apartConds = true, dimUses, nil
			if cond != nil {
				apartConds = []poly{cond}
			}
		}
		if atom != "" {
			covered[atom] = true
			uses = append(uses, dimUses...)
			if cond != nil {
				ids = append(ids, cond)
			}
		}
	}
	if found {
		return AnyBlock, apartUses, apartConds, true
	}
	if need, ok := coveredShape(covered); ok {
		return need, uses, ids, true
	}
	return "", nil, nil, false
}

// condText writes cond as a C expression of the kernel's variables (names
// holds each uniform variable's name where the access is), or ok false.
func condText(cond poly, names map[string]string) (string, bool) {
	monos := make([]string, 0, len(cond))
	for m := range cond {
		monos = append(monos, m)
	}
	sort.Strings(monos)
	var terms []string
	for _, m := range monos {
		parts := []string{fmt.Sprintf("(long long)%d", cond[m])}
		for _, a := range strings.Split(m, "*") {
			switch {
			case a == "":
			case strings.HasPrefix(a, "u:"):
				n, ok := names[strings.TrimPrefix(a, "u:")]
				if !ok {
					return "", false
				}
				parts = append(parts, "(long long)("+n+")")
			case strings.HasPrefix(a, "blockIdx.") || strings.HasPrefix(a, "blockDim.") || strings.HasPrefix(a, "gridDim."):
				parts = append(parts, "(long long)("+a+")")
			default:
				return "", false
			}
		}
		terms = append(terms, strings.Join(parts, " * "))
	}
	if len(terms) == 0 {
		return "", false
	}
	return strings.Join(terms, " + "), true
}

// stable reports whether no assignment to the uniform variables of uses
// can run between two of them without a barrier between: each then
// stands for one value across the proof's accesses.
func (ix *indexer) stable(uses []*Node, reach *Reach) bool {
	for _, use := range uses {
		if ix.viaDef[use] {
			continue // a point of use only: its definition's variables are among uses
		}
		for _, a := range ix.u.assigns[use.Ref] {
			// A declaration runs once per entry to its scope: between two
			// uses only inside a loop.
			if a.Kind == "VarDecl" && !insideLoop(ix.u.src, a) {
				continue
			}
			for _, p := range uses {
				for _, q := range uses {
					if reach.Between(p, a) && reach.Between(a, q) {
						return false
					}
				}
			}
		}
	}
	return true
}

// insideLoop reports whether n can run more than once: it is in a loop
// (a for statement's init runs once, before it).
func insideLoop(src []byte, n *Node) bool {
	for cur, p := n, n.Parent; p != nil; cur, p = p, p.Parent {
		switch p.Kind {
		case "ForStmt":
			if cur == p.Children[len(p.Children)-1] || forPartOf(src, p, cur) != 0 {
				return true
			}
		case "WhileStmt", "DoStmt", "CXXForRangeStmt":
			return true
		}
	}
	return false
}

// stricter returns the more demanding of two launch shapes.
func stricter(a, b string) string {
	rank := map[string]int{AnyBlock: 0, FlatBlock: 1, LineBlock: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
