package passes

import (
	"sort"
	"strings"
)

// Region starts and ends: barrier IDs, or entry/exit.
const (
	Entry = -1
	Exit  = -1
)

// starts is the set of region starts (barrier IDs or Entry) from which a
// program point can be reached without crossing a block barrier.
type starts map[int]bool

func (s starts) union(o starts) starts {
	out := starts{}
	for k := range s {
		out[k] = true
	}
	for k := range o {
		out[k] = true
	}
	return out
}

func (s starts) equal(o starts) bool {
	if len(s) != len(o) {
		return false
	}
	for k := range s {
		if !o[k] {
			return false
		}
	}
	return true
}

// jumps collects the starts that leave a loop or switch by break/continue.
type jumps struct {
	breaks, continues starts
	isLoop            bool
}

// regionFlow is the regions pass's state: a forward data-flow over the
// structured syntax tree, with loops iterated to a fixed point.
type regionFlow struct {
	src     []byte
	sites   map[*Node]int // barrier call sites -> barrier ID
	lines   map[int]int   // barrier ID -> line
	offsets map[int]int   // barrier ID -> offset
	body    *Node
	found   map[[2]int]*Region
	stack   []*jumps
	// switchIn is what flows into the innermost switch: every case label
	// can be entered from there.
	switchIn starts
	// at: the starts each variable reference was reached with.
	at map[*Node]starts
	// Each variable reference (and declaration, where a local is
	// assigned its initial value) also flows as a label of its own (a
	// negative number below Entry, labels[ref]), killed by barriers like
	// the starts: the ends a label reaches (ends) are the barriers and
	// exits the reference can reach without crossing a barrier.
	labels map[*Node]int
	ends   map[int]starts
	// seen: the labels each reference was reached with (the references
	// that run before it without a barrier between); expr: the
	// statement-level expression it is in, whose references run in an
	// order the flow does not follow.
	seen   map[*Node]starts
	exprOf map[*Node]*Node
	// startsOnly: no labels, seen or exprOf (flows that ask only which
	// starts reach a point: their cost stays linear in the body).
	startsOnly bool
}

// Reach says which references of a kernel body can run after which
// without a barrier between (the regions pass's flow).
type Reach struct {
	labels map[*Node]int
	seen   map[*Node]starts
	expr   map[*Node]*Node
}

// Between reports whether reference b can run after reference a without
// crossing a barrier (true for two references of one expression, and for
// references the regions pass did not reach: it cannot tell).
func (r *Reach) Between(a, b *Node) bool {
	if r == nil {
		return true
	}
	la, ok1 := r.labels[a]
	sb, ok2 := r.seen[b]
	if !ok1 || !ok2 || r.expr[a] == r.expr[b] {
		return true
	}
	return sb[la]
}

// isLabel tells a reference's label from a region start.
func isLabel(s int) bool { return s < Entry }

// label is the flow label of reference n.
func (rf *regionFlow) label(n *Node) int {
	l, ok := rf.labels[n]
	if !ok {
		l = Entry - 1 - len(rf.labels)
		rf.labels[n] = l
	}
	return l
}

// regionsPass: body, barrier call sites -> the AP regions.
func (ka *kernelAnalysis) regionsPass(sites map[*Node]int) ([]Region, map[*Node]starts, map[*Node]starts, *Reach) {
	rf := ka.flowThrough(sites, false)
	regions := make([]Region, 0, len(rf.found))
	for _, r := range rf.found {
		regions = append(regions, *r)
	}
	order := func(id int) int {
		if id < 0 {
			return -1
		}
		return rf.offsets[id]
	}
	sort.Slice(regions, func(i, j int) bool {
		a, b := regions[i], regions[j]
		if a.From != b.From {
			return order(a.From) < order(b.From)
		}
		if a.To == Exit || b.To == Exit {
			return b.To == Exit && a.To != Exit
		}
		return order(a.To) < order(b.To)
	})
	for i := range regions {
		regions[i].ID = i
	}
	endsAt := map[*Node]starts{}
	for n, l := range rf.labels {
		endsAt[n] = rf.ends[l]
		if endsAt[n] == nil {
			endsAt[n] = starts{}
		}
	}
	return regions, rf.at, endsAt, &Reach{labels: rf.labels, seen: rf.seen, expr: rf.exprOf}
}

// flowThrough runs the regions flow over the kernel's body with sites
// (call or expression nodes -> IDs >= 0) as the points that end and start
// regions: the barrier calls for the regions themselves, other nodes for
// questions of what runs between two points (versions.go).
func (ka *kernelAnalysis) flowThrough(sites map[*Node]int, startsOnly bool) *regionFlow {
	rf := &regionFlow{src: ka.fn.File.Source, sites: sites, lines: map[int]int{}, offsets: map[int]int{}, body: ka.fn.Body, found: map[[2]int]*Region{}, at: map[*Node]starts{},
		labels: map[*Node]int{}, ends: map[int]starts{}, seen: map[*Node]starts{}, exprOf: map[*Node]*Node{}, startsOnly: startsOnly}
	for n, id := range sites {
		rf.lines[id] = n.Pos.Line
		rf.offsets[id] = n.Pos.Offset
	}
	out := rf.stmt(ka.fn.Body, starts{Entry: true})
	rf.reach(out, Exit, lineAt(ka.fn.File.Source, ka.fn.Body.Pos.End-1))
	return rf
}

func lineAt(src []byte, off int) int {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	return 1 + strings.Count(string(src[:off]), "\n")
}

// reach records that every start in from reaches end (a barrier ID or Exit)
// at endLine.
func (rf *regionFlow) reach(from starts, end, endLine int) {
	for s := range from {
		if isLabel(s) {
			if rf.ends[s] == nil {
				rf.ends[s] = starts{}
			}
			rf.ends[s][end] = true
			continue
		}
		key := [2]int{s, end}
		begin := lineAt(rf.src, rf.body.Pos.Offset)
		if s != Entry {
			begin = rf.lines[s]
		}
		r := rf.found[key]
		if r == nil {
			r = &Region{From: s, To: end, BeginLine: begin, EndLine: endLine}
			rf.found[key] = r
		}
		if endLine > r.EndLine {
			r.EndLine = endLine
		}
		if s != Entry && end != Exit && rf.offsets[end] <= rf.offsets[s] {
			r.Wraps = true
		}
	}
}

// expr passes the starts through an expression or declaration, in source
// order of the barrier calls it holds.
func (rf *regionFlow) expr(n *Node, in starts) starts {
	var calls []*Node
	n.Walk(func(c *Node) bool {
		if _, ok := rf.sites[c]; ok {
			calls = append(calls, c)
		}
		return true
	})
	sort.Slice(calls, func(i, j int) bool { return calls[i].Pos.Offset < calls[j].Pos.Offset })
	// The references of an expression that holds barriers may run on
	// either side of each: they get every start it passes through, and
	// their labels reach every barrier in it and what follows.
	labels := starts{}
	if !rf.startsOnly {
		n.Walk(func(c *Node) bool {
			if c.Kind == "DeclRefExpr" || c.Kind == "VarDecl" {
				labels[rf.label(c)] = true
			}
			return true
		})
	}
	all := in
	for _, c := range calls {
		id := rf.sites[c]
		rf.reach(in.union(labels), id, rf.lines[id])
		in = starts{id: true}
		all = all.union(in)
	}
	real, before := starts{}, starts{}
	for s := range all {
		if !isLabel(s) {
			real[s] = true
		} else {
			before[s] = true
		}
	}
	n.Walk(func(c *Node) bool {
		if c.Kind == "DeclRefExpr" || c.Kind == "VarDecl" {
			rf.at[c] = real.union(rf.at[c])
			if !rf.startsOnly {
				rf.seen[c] = before.union(rf.seen[c])
				rf.exprOf[c] = n
			}
		}
		return true
	})
	return in.union(labels)
}

func (rf *regionFlow) innermost(loop bool) *jumps {
	for i := len(rf.stack) - 1; i >= 0; i-- {
		if !loop || rf.stack[i].isLoop {
			return rf.stack[i]
		}
	}
	return nil
}

// stmt returns the starts that flow out of statement n given those flowing in.
func (rf *regionFlow) stmt(n *Node, in starts) starts {
	if len(in) == 0 {
		return in // unreachable code
	}
	switch n.Kind {
	case "CompoundStmt":
		for _, c := range n.Children {
			in = rf.stmt(c, in)
		}
		return in
	case "IfStmt":
		parts := n.Children
		if len(parts) < 2 {
			return rf.expr(n, in)
		}
		var cond, then, els *Node
		if len(parts) >= 3 {
			cond, then, els = parts[len(parts)-3], parts[len(parts)-2], parts[len(parts)-1]
		} else {
			cond, then = parts[0], parts[1]
		}
		in = rf.expr(cond, in)
		out := rf.stmt(then, in)
		if els != nil {
			return out.union(rf.stmt(els, in))
		}
		return out.union(in)
	case "ForStmt", "WhileStmt", "CXXForRangeStmt":
		body := n.Children[len(n.Children)-1]
		// The header's parts: a for's init runs once; the condition (a
		// barrier in it, __syncthreads_or(...), ends a region at each
		// test) before every iteration and at the exit; the increment
		// after the body and continues.
		var init, cond, inc []*Node
		for _, c := range n.Children[:len(n.Children)-1] {
			switch {
			case n.Kind == "WhileStmt":
				cond = append(cond, c)
			case n.Kind == "ForStmt" && rf.forPart(n, c) == 0:
				init = append(init, c)
			case n.Kind == "ForStmt" && rf.forPart(n, c) == 1:
				cond = append(cond, c)
			case n.Kind == "ForStmt":
				inc = append(inc, c)
			}
		}
		through := func(parts []*Node, s starts) starts {
			for _, c := range parts {
				s = rf.expr(c, s)
			}
			return s
		}
		in = through(init, in)
		j := &jumps{breaks: starts{}, continues: starts{}, isLoop: true}
		rf.stack = append(rf.stack, j)
		head, back := in, starts{}
		for {
			out := rf.stmt(body, through(cond, head))
			back = through(inc, out.union(j.continues))
			next := in.union(back)
			if next.equal(head) {
				break
			}
			head = next
		}
		rf.stack = rf.stack[:len(rf.stack)-1]
		if rf.infinite(n) {
			return j.breaks
		}
		if entersOnce(rf.src, n) {
			// Only an iteration's end reaches the exit test.
			return through(cond, back).union(j.breaks)
		}
		return through(cond, head).union(j.breaks)
	case "DoStmt":
		body := n.Children[0]
		j := &jumps{breaks: starts{}, continues: starts{}, isLoop: true}
		rf.stack = append(rf.stack, j)
		head := in
		var out starts
		for {
			out = rf.stmt(body, head).union(j.continues)
			for _, c := range n.Children[1:] {
				out = rf.expr(c, out) // the condition
			}
			next := in.union(out)
			if next.equal(head) {
				break
			}
			head = next
		}
		rf.stack = rf.stack[:len(rf.stack)-1]
		return out.union(j.breaks)
	case "SwitchStmt":
		j := &jumps{breaks: starts{}, continues: starts{}}
		rf.stack = append(rf.stack, j)
		in = rf.expr(n.Children[0], in)
		body := n.Children[len(n.Children)-1]
		saved := rf.switchIn
		rf.switchIn = in
		out := rf.stmt(body, starts{})
		rf.switchIn = saved
		rf.stack = rf.stack[:len(rf.stack)-1]
		return out.union(j.breaks).union(in)
	case "CaseStmt", "DefaultStmt":
		in = in.union(rf.switchIn)
		return rf.stmt(n.Children[len(n.Children)-1], in)
	case "BreakStmt":
		if j := rf.innermost(false); j != nil {
			j.breaks = j.breaks.union(in)
		}
		return starts{}
	case "ContinueStmt":
		if j := rf.innermost(true); j != nil {
			j.continues = j.continues.union(in)
		}
		return starts{}
	case "ReturnStmt":
		in = rf.expr(n, in)
		rf.reach(in, Exit, n.Pos.Line)
		return starts{}
	case "LabelStmt":
		return rf.stmt(n.Children[len(n.Children)-1], in)
	}
	return rf.expr(n, in)
}

// forPart says which part of for statement n's header child c is in: 0
// init, 1 condition, 2 increment.
func (rf *regionFlow) forPart(n, c *Node) int { return forPartOf(rf.src, n, c) }

// infinite reports whether a loop has no exit but break: for(;;), while(1),
// while(true).
func (rf *regionFlow) infinite(n *Node) bool {
	switch n.Kind {
	case "WhileStmt":
		c := n.Children[0]
		return c.Kind == "CXXBoolLiteralExpr" && string(rf.src[c.Pos.Offset:c.Pos.End]) == "true" ||
			c.Kind == "IntegerLiteral" && string(rf.src[c.Pos.Offset:c.Pos.End]) != "0"
	case "ForStmt":
		// The condition is the middle of the three ';'-separated clauses.
		body := n.Children[len(n.Children)-1]
		header := string(rf.src[n.Pos.Offset:body.Pos.Offset])
		open, close := strings.IndexByte(header, '('), strings.LastIndexByte(header, ')')
		if open < 0 || close < open {
			return false
		}
		parts := strings.Split(header[open+1:close], ";")
		return len(parts) == 3 && strings.TrimSpace(parts[1]) == ""
	}
	return false
}
