package passes

import "strings"

// A region that starts inside a loop and ends past it runs the loop's
// last iteration. Where every iteration crosses a barrier, an access in
// the loop's body that reaches a barrier after the loop (or the exit)
// without crossing one ran in the iteration after which the loop's
// condition failed: for (d = n; d > 0; d >>= 1) then ran it with d == 1.
// The index proofs read the access's subscripts and guards with that
// value: a Blelloch scan's up-sweep under t < d is then thread 0's alone
// in the region that leaves the loop, where thread 0 also clears the root.

// lastIteration returns the values the loops around ref must have had
// when ref ran in region r: uniform atom -> value.
func (ka *kernelAnalysis) lastIteration(k *Kernel, u *uniformVars, ref *Node, r Region) map[string]int64 {
	var facts map[string]int64
	src := ka.fn.File.Source
	for cur, p := ref, ref.Parent; p != nil; cur, p = p, p.Parent {
		if p.Kind != "ForStmt" || len(p.Children) == 0 || cur != p.Children[len(p.Children)-1] {
			continue
		}
		if r.To != Exit {
			at, ok := barrierOffset(k, r.To)
			if !ok || (at >= p.Pos.Offset && at < p.Pos.End) {
				continue // the region ends inside the loop
			}
		}
		key, ok := halvingLoop(src, p, u)
		if !ok || !everyIterationSyncs(k, cur) || leavesEarly(cur) {
			continue
		}
		if facts == nil {
			facts = map[string]int64{}
		}
		facts["u:"+key] = 1
	}
	return facts
}

// barrierOffset is where block barrier id is written in the kernel.
func barrierOffset(k *Kernel, id int) (int, bool) {
	for _, b := range k.Barriers {
		if b.ID == id {
			return b.Pos.Offset, !b.Warp && b.Via == ""
		}
	}
	return 0, false
}

// halvingLoop recognizes for (...; v > 0; v >>= 1) (also v >= 1, v != 0,
// 0 < v; v /= 2, v = v >> 1, v = v / 2) over a uniform integer v that its
// body never assigns: an iteration after which the condition fails ran
// with v == 1 (v > 0 held as it began, v / 2 <= 0 after it).
func halvingLoop(src []byte, loop *Node, u *uniformVars) (string, bool) {
	_, cond, inc := forHeader(src, loop)
	body := loop.Children[len(loop.Children)-1]
	if cond == nil || inc == nil {
		return "", false
	}
	ref := func(n *Node) string {
		n = stripCasts(n)
		if n != nil && n.Kind == "DeclRefExpr" && u.uniform[n.Ref] && integerType(n.Type) {
			return n.Ref
		}
		return ""
	}
	lit := func(n *Node, v int64) bool {
		x, ok := intLiteral(n)
		return ok && x == v
	}
	op := func(n *Node) string { return n.Op }
	c := stripCasts(cond)
	if c.Kind != "BinaryOperator" || len(c.Children) != 2 {
		return "", false
	}
	l, r := c.Children[0], c.Children[1]
	var v string
	switch {
	case (op(c) == ">" || op(c) == "!=") && lit(r, 0):
		v = ref(l)
	case op(c) == ">=" && lit(r, 1):
		v = ref(l)
	case (op(c) == "<" || op(c) == "!=") && lit(l, 0):
		v = ref(r)
	}
	if v == "" {
		return "", false
	}
	halves := func(n *Node) bool {
		n = stripCasts(n)
		if n.Kind != "BinaryOperator" || len(n.Children) != 2 || ref(n.Children[0]) != v {
			return false
		}
		return op(n) == ">>" && lit(n.Children[1], 1) || op(n) == "/" && lit(n.Children[1], 2)
	}
	i := stripCasts(inc)
	switch {
	case i.Kind == "CompoundAssignOperator" && len(i.Children) == 2 && ref(i.Children[0]) == v:
		if !(op(i) == ">>=" && lit(i.Children[1], 1) || op(i) == "/=" && lit(i.Children[1], 2)) {
			return "", false
		}
	case i.Kind == "BinaryOperator" && op(i) == "=" && len(i.Children) == 2 && ref(i.Children[0]) == v:
		if !halves(i.Children[1]) {
			return "", false
		}
	default:
		return "", false
	}
	for _, a := range u.assigns[v] {
		if a.Pos.Offset >= body.Pos.Offset && a.Pos.Offset < body.Pos.End {
			return "", false
		}
	}
	return v, true
}

// everyIterationSyncs reports whether the loop body has a block barrier
// among its own statements (not under a branch or an inner loop): a
// thread that goes round again crosses it before it can leave.
func everyIterationSyncs(k *Kernel, body *Node) bool {
	if body.Kind != "CompoundStmt" {
		return false
	}
	for _, s := range body.Children {
		s = stripCasts(s)
		if s.Kind != "CallExpr" {
			continue
		}
		for _, b := range k.Barriers {
			if !b.Warp && b.Via == "" && b.Pos.Offset == s.Pos.Offset && strings.HasPrefix(b.Call, "__syncthreads") {
				return true
			}
		}
	}
	return false
}

// leavesEarly reports whether the loop body can leave the loop other than
// by its condition (break, return, goto).
func leavesEarly(body *Node) bool {
	left := false
	body.Walk(func(n *Node) bool {
		switch n.Kind {
		case "BreakStmt", "ReturnStmt", "GotoStmt", "IndirectGotoStmt":
			left = true
		}
		return !left
	})
	return left
}

// withFacts is sh with the uniform atoms of facts replaced by their values
// in its subscripts and bounds.
func (sh shape) withFacts(facts map[string]int64) shape {
	if len(facts) == 0 {
		return sh
	}
	out := shape{lv: sh.lv, bounds: map[string]bound{}, needs: sh.needs, fold: sh.fold, foldN: sh.foldN, loose: sh.loose}
	for _, d := range sh.dims {
		if d.p != nil {
			d = term{p: d.p.substitute(facts), uses: d.uses}
		}
		out.dims = append(out.dims, d)
	}
	for at, b := range sh.bounds {
		b.lo = term{p: b.lo.p.substitute(facts), uses: b.lo.uses}
		if b.hasHi {
			b.hi = term{p: b.hi.p.substitute(facts), uses: b.hi.uses}
		}
		out.bounds[at] = b
	}
	return out
}

// substitute is p with the atoms of vals replaced by their values.
func (p poly) substitute(vals map[string]int64) poly {
	r := poly{}
	for m, c := range p {
		var rest []string
		for _, a := range strings.Split(m, "*") {
			if v, ok := vals[a]; ok {
				c *= v
			} else if a != "" {
				rest = append(rest, a)
			}
		}
		r[strings.Join(rest, "*")] += c
	}
	return r.plus(poly{}, 1)
}

// entersOnce reports whether for statement n runs its body at least once:
// its init sets a variable to a constant its condition accepts
// (for (int d = 256; d > 0; d >>= 1)). The regions pass then drops the
// path that skips the loop, which would pair the code before the loop
// with the code after it in a region no run has.
func entersOnce(src []byte, n *Node) bool {
	if n.Kind != "ForStmt" || len(n.Children) < 3 {
		return false
	}
	init, cond, _ := forHeader(src, n)
	if init == nil || cond == nil {
		return false
	}
	// The variable the init sets, and its value.
	var key string
	var v int64
	switch init = stripCasts(init); {
	case init.Kind == "DeclStmt" && len(init.Children) == 1 && init.Children[0].Kind == "VarDecl" && init.Children[0].Init != nil:
		d := init.Children[0]
		val, ok := constValue(d.Init)
		if !ok || !integerType(d.Type) {
			return false
		}
		key, v = d.Key, val
	case init.Kind == "BinaryOperator" && init.Op == "=" && len(init.Children) == 2:
		l := stripCasts(init.Children[0])
		val, ok := constValue(init.Children[1])
		if !ok || l.Kind != "DeclRefExpr" || !integerType(l.Type) {
			return false
		}
		key, v = l.Ref, val
	default:
		return false
	}
	c := stripCasts(cond)
	if c.Kind != "BinaryOperator" || len(c.Children) != 2 || key == "" {
		return false
	}
	l, r := stripCasts(c.Children[0]), stripCasts(c.Children[1])
	op := c.Op
	var k int64
	switch {
	case l.Kind == "DeclRefExpr" && l.Ref == key:
		val, ok := constValue(r)
		if !ok {
			return false
		}
		k = val
	case r.Kind == "DeclRefExpr" && r.Ref == key:
		val, ok := constValue(l)
		if !ok {
			return false
		}
		// k op v, written v op' k.
		k, op = val, map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
	default:
		return false
	}
	if v < 0 || k < 0 {
		return false // signed and unsigned comparisons differ there
	}
	switch op {
	case "<":
		return v < k
	case "<=":
		return v <= k
	case ">":
		return v > k
	case ">=":
		return v >= k
	case "!=":
		return v != k
	}
	return false
}

// constValue is the value of an integer constant expression written with
// literals (and macros of them) and + - * / << >>.
func constValue(n *Node) (int64, bool) {
	n = stripCasts(n)
	if n == nil {
		return 0, false
	}
	if n.IsInt {
		return n.Int, true
	}
	if v, ok := intLiteral(n); ok {
		return v, true
	}
	if n.Kind != "BinaryOperator" || len(n.Children) != 2 {
		return 0, false
	}
	a, ok1 := constValue(n.Children[0])
	b, ok2 := constValue(n.Children[1])
	if !ok1 || !ok2 || a < 0 || b < 0 || a > 1<<31 || b > 1<<31 {
		return 0, false
	}
	switch n.Op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/":
		if b != 0 {
			return a / b, true
		}
	case "<<":
		if b < 31 {
			return a << b, true
		}
	case ">>":
		if b < 63 {
			return a >> b, true
		}
	}
	return 0, false
}

// forHeader is for statement loop's init, condition and increment (nil
// where the header leaves one out).
func forHeader(src []byte, loop *Node) (init, cond, inc *Node) {
	for _, c := range loop.Children[:len(loop.Children)-1] {
		switch forPartOf(src, loop, c) {
		case 0:
			init = c
		case 1:
			cond = c
		case 2:
			inc = c
		}
	}
	return init, cond, inc
}
