package privatize

import (
	"fmt"
	"sort"
	"strings"

	"ldcheck/passes"
)

// Predicate barriers (__syncthreads_and, __syncthreads_or,
// __syncthreads_count) end a region like __syncthreads() and return the
// block's reduction of a predicate. A region must be re-entered at a
// statement, so the call is split: the predicate is evaluated and the
// barrier hook (LDC_BARRIER_PRED) run in a statement of their own, placed
// before the statement that holds the call, and the call becomes a read of
// the hoisted result (ldc_sv_K_ID, a local of the kernel, saved and restored
// with the others). The runtime reduces the predicates of the last pass
// over the block in its block-wide check (ldc_check_pred).
//
// Where the statement is a loop whose condition holds the call, the
// condition is moved into the body, which runs the barrier first:
//
//	while (C) B            ->  while (1) { HOIST if (!(C')) break; B }
//	for (I; C; N) B        ->  for (I; ; N) { HOIST if (!(C')) break; B }
//	do B while (C);        ->  do { B' ldc_c_K_ID:; HOIST } while (C');
//
// (B' has its own continue statements turned into goto ldc_c_K_ID). An if
// or switch condition, or any other statement, is wrapped:
// { HOIST if (C') ... }. Calls that would not run every time their
// statement does (right of && or ||, a branch of ?:, a for's init or
// increment) are reported, naming the line.

// predOps maps the calls to their LDC_PRED_* op.
var predOps = map[string]string{
	"__syncthreads_and":   "LDC_PRED_AND",
	"__syncthreads_or":    "LDC_PRED_OR",
	"__syncthreads_count": "LDC_PRED_COUNT",
}

// predCall is one predicate barrier call in the kernel.
type predCall struct {
	node *passes.Node
	id   int
	call string
	// arg is the extent of the predicate between the call's parentheses.
	arg passes.Pos
	// text is the predicate with the leaf edits inside it applied.
	text string
	// anchor and how: where the barrier's statement goes (see predAnchor).
	anchor *passes.Node
	how    string
}

// resultName is the local that holds the block's result.
func (pc *predCall) resultName(K int) string { return fmt.Sprintf("ldc_sv_%d_%d", K, pc.id) }

// predName is the local that holds the thread's predicate, a value of the
// region the barrier ends: compared between the passes like the other
// locals, so a race whose effect is only on the predicate is found.
func (pc *predCall) predName(K int) string { return fmt.Sprintf("ldc_pa_%d_%d", K, pc.id) }

func (pc *predCall) hoist(K int) string {
	return fmt.Sprintf("{ %s = (%s) ? 1 : 0; LDC_TR_BAR(%d); LDC_BARRIER_PRED(%d, %d, %s, %s, %s, %s); ldc_r_%d_%d:; }",
		pc.predName(K), pc.text, pc.id, K, pc.id, predOps[pc.call], pc.call, pc.predName(K), pc.resultName(K), K, pc.id)
}

// tokenIndex returns the index of the first token at or after off.
func (kr *kernelRewrite) tokenIndex(off int) int {
	return sort.Search(len(kr.tokens), func(i int) bool { return kr.tokens[i].Offset >= off })
}

// parens returns the offsets of the first '(' at or after off and of the
// ')' that matches it.
func (kr *kernelRewrite) parens(off int) (open, close int, ok bool) {
	depth := 0
	for i := kr.tokenIndex(off); i < len(kr.tokens); i++ {
		switch kr.tokens[i].Spelling {
		case "(":
			if depth == 0 {
				open = kr.tokens[i].Offset
			}
			depth++
		case ")":
			depth--
			if depth == 0 {
				return open, kr.tokens[i].Offset, true
			}
		}
	}
	return 0, 0, false
}

// forParts returns the extents of a for statement's init, condition and
// increment (between the header's parentheses and semicolons).
func (kr *kernelRewrite) forParts(n *passes.Node) (parts [3][2]int, ok bool) {
	open, close, ok := kr.parens(n.Pos.Offset)
	if !ok {
		return parts, false
	}
	depth, k, from := 0, 0, open+1
	for i := kr.tokenIndex(open + 1); i < len(kr.tokens) && kr.tokens[i].Offset < close; i++ {
		switch kr.tokens[i].Spelling {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ";":
			if depth == 0 && k < 2 {
				parts[k] = [2]int{from, kr.tokens[i].Offset}
				k++
				from = kr.tokens[i].End
			}
		}
	}
	if k != 2 {
		return parts, false
	}
	parts[2] = [2]int{from, close}
	return parts, true
}

// stmtEnd is the offset just past statement n, its ';' included.
func (kr *kernelRewrite) stmtEnd(n *passes.Node) int {
	t := strings.TrimSpace(kr.text(n.Pos))
	if strings.HasSuffix(t, ";") || strings.HasSuffix(t, "}") {
		return n.Pos.End
	}
	if e, ok := kr.semicolonAfter(n.Pos.End); ok {
		return e
	}
	return n.Pos.End
}

// predAnchor finds where the barrier of call c can be run: the statement
// that holds it and how ("stmt": before it, in braces around it; "while",
// "for", "do": in the loop's body, the condition moved with it).
func (kr *kernelRewrite) predAnchor(c *passes.Node) (*passes.Node, string, error) {
	line := c.Pos.Line
	for cur := c; cur.Parent != nil; cur = cur.Parent {
		p := cur.Parent
		first := len(p.Children) > 0 && p.Children[0] == cur
		switch p.Kind {
		case "BinaryOperator":
			if (p.Op == "&&" || p.Op == "||" || p.Op == ",") && !first {
				return nil, "", fmt.Errorf("line %d: %s right of %s runs only when the left side lets it; ldcheck can replay it only where it runs every time its statement does (assign it to a variable first)", line, c.Name, p.Op)
			}
		case "ConditionalOperator":
			if !first {
				return nil, "", fmt.Errorf("line %d: %s in a branch of ?: runs only on that branch; ldcheck can replay it only where it runs every time its statement does (assign it to a variable first)", line, c.Name)
			}
		case "LambdaExpr", "StmtExpr":
			return nil, "", fmt.Errorf("line %d: %s inside a %s cannot be replayed", line, c.Name, p.Kind)
		case "CompoundStmt", "CaseStmt", "DefaultStmt", "LabelStmt":
			return cur, "stmt", nil
		case "IfStmt", "SwitchStmt", "WhileStmt":
			_, close, ok := kr.parens(p.Pos.Offset)
			if !ok {
				return nil, "", fmt.Errorf("line %d: cannot find the condition that holds %s", line, c.Name)
			}
			if cur.Pos.Offset > close {
				return cur, "stmt", nil // a branch or the body
			}
			if cur.Kind == "VarDecl" || cur.Kind == "DeclStmt" {
				return nil, "", fmt.Errorf("line %d: %s in a condition that declares a variable cannot be replayed; declare it before the statement", line, c.Name)
			}
			if p.Kind == "WhileStmt" {
				return p, "while", nil
			}
			return p, "stmt", nil
		case "ForStmt":
			parts, ok := kr.forParts(p)
			if !ok {
				return nil, "", fmt.Errorf("line %d: cannot find the header of the for loop that holds %s", line, c.Name)
			}
			switch {
			case cur.Pos.Offset >= parts[2][1]:
				return cur, "stmt", nil
			case cur.Pos.Offset >= parts[1][0] && cur.Pos.End <= parts[1][1]:
				if cur.Kind == "VarDecl" || cur.Kind == "DeclStmt" {
					return nil, "", fmt.Errorf("line %d: %s in a condition that declares a variable cannot be replayed; declare it before the loop", line, c.Name)
				}
				return p, "for", nil
			default:
				return nil, "", fmt.Errorf("line %d: %s in a for loop's init or increment cannot be replayed; move it into the loop's body or before the loop", line, c.Name)
			}
		case "DoStmt":
			if first {
				return cur, "stmt", nil
			}
			return p, "do", nil
		case "ForRangeStmt", "CXXForRangeStmt", "ReturnStmt", "ObjCAtTryStmt", "CXXTryStmt", "CXXCatchStmt", "GotoStmt":
			return nil, "", fmt.Errorf("line %d: %s in a %s cannot be replayed", line, c.Name, p.Kind)
		}
	}
	return nil, "", fmt.Errorf("line %d: cannot find the statement that holds %s", line, c.Name)
}

// predEdits rewrites the kernel's predicate barrier calls (see above). It
// consumes the leaf edits inside each predicate (they move with it) and
// those of moved loop conditions, adds the call replacements to leaves,
// and returns the statement edits and the result locals to declare.
func (kr *kernelRewrite) predEdits(calls []*predCall, leaves *edits, consumed map[int]bool) (edits, []*local, error) {
	K := kr.index
	var es edits
	var locals []*local
	for _, pc := range calls {
		for _, o := range calls {
			if o != pc && o.node.Pos.Offset >= pc.node.Pos.Offset && o.node.Pos.End <= pc.node.Pos.End {
				return nil, nil, fmt.Errorf("line %d: %s inside the predicate of another one cannot be replayed; assign it to a variable first", o.node.Pos.Line, o.call)
			}
		}
		open, close, ok := kr.parens(pc.node.Pos.Offset)
		if !ok || close > pc.node.Pos.End {
			return nil, nil, fmt.Errorf("line %d: cannot find the predicate of %s", pc.node.Pos.Line, pc.call)
		}
		pc.arg = passes.Pos{Offset: open + 1, End: close, Line: pc.node.Pos.Line}
		if pc.anchor, pc.how, _ = kr.predAnchor(pc.node); pc.anchor == nil {
			_, _, err := kr.predAnchor(pc.node)
			return nil, nil, err
		}
	}
	for _, pc := range calls {
		// Edits that straddle the call (a replacement around it) cannot
		// stay where they are once the call becomes a name.
		for i, lf := range *leaves {
			if consumed[i] || lf.from == lf.to {
				continue
			}
			in := lf.from >= pc.node.Pos.Offset && lf.to <= pc.node.Pos.End
			out := lf.to <= pc.node.Pos.Offset || lf.from >= pc.node.Pos.End
			around := lf.from <= pc.node.Pos.Offset && lf.to >= pc.node.Pos.End
			if !in && !out || around {
				return nil, nil, fmt.Errorf("line %d: %s cannot be moved out of the expression that holds it; assign it to a variable first", pc.node.Pos.Line, pc.call)
			}
		}
		text, err := kr.subApply(*leaves, pc.arg, consumed)
		if err != nil {
			return nil, nil, err
		}
		if strings.Contains(text, "\n") {
			if strings.Contains(text, "//") || strings.Contains(text, "#") {
				return nil, nil, fmt.Errorf("line %d: the predicate of %s spans lines with comments or directives; write it on one line", pc.node.Pos.Line, pc.call)
			}
			text = strings.Join(strings.Fields(text), " ")
		}
		pc.text = text
	}
	for _, pc := range calls {
		repl := pc.resultName(K)
		if pc.anchor == pc.node {
			repl = "(void)" + repl
		}
		// Everything inside the call was consumed with the predicate.
		for i, lf := range *leaves {
			if !consumed[i] && lf.from >= pc.node.Pos.Offset && lf.to <= pc.node.Pos.End {
				consumed[i] = true
			}
		}
		leaves.replace(pc.node.Pos.Offset, pc.node.Pos.End, repl)
		locals = append(locals, &local{node: &passes.Node{Kind: "VarDecl", Type: "int"}, name: pc.predName(K)},
			&local{node: &passes.Node{Kind: "VarDecl", Type: "int"}, name: pc.resultName(K)})
	}
	// One set of statement edits per anchor, its barriers in source order.
	type group struct {
		anchor *passes.Node
		how    string
		calls  []*predCall
	}
	var groups []*group
	byAnchor := map[*passes.Node]*group{}
	for _, pc := range calls {
		g := byAnchor[pc.anchor]
		if g == nil {
			g = &group{anchor: pc.anchor, how: pc.how}
			byAnchor[pc.anchor] = g
			groups = append(groups, g)
		}
		g.calls = append(g.calls, pc)
	}
	depth := func(n *passes.Node) int {
		d := 0
		for ; n.Parent != nil; n = n.Parent {
			d++
		}
		return d
	}
	for _, g := range groups {
		sort.Slice(g.calls, func(i, j int) bool { return g.calls[i].node.Pos.Offset < g.calls[j].node.Pos.Offset })
		var hs []string
		for _, pc := range g.calls {
			hs = append(hs, pc.hoist(K))
		}
		hoists := strings.Join(hs, " ")
		d := depth(g.anchor)
		a := g.anchor
		switch g.how {
		case "stmt":
			es.insert(a.Pos.Offset, "{ "+hoists+" ", -10000+d)
			es.insert(kr.stmtEnd(a), " }", -20000-d)
		case "while", "for":
			var from, to int
			if g.how == "while" {
				open, close, _ := kr.parens(a.Pos.Offset)
				from, to = open+1, close
			} else {
				parts, _ := kr.forParts(a)
				from, to = parts[1][0], parts[1][1]
			}
			cond, err := kr.subApply(*leaves, passes.Pos{Offset: from, End: to}, consumed)
			if err != nil {
				return nil, nil, err
			}
			if strings.Contains(cond, "\n") {
				if strings.Contains(cond, "//") || strings.Contains(cond, "#") {
					return nil, nil, fmt.Errorf("line %d: a loop condition with %s spans lines with comments or directives; write it on one line", g.calls[0].node.Pos.Line, g.calls[0].call)
				}
				cond = strings.Join(strings.Fields(cond), " ")
			}
			keep := " "
			if g.how == "while" {
				keep = "1"
			}
			es.replace(from, to, keep)
			body := a.Children[len(a.Children)-1]
			es.insert(body.Pos.Offset, "{ "+hoists+" if (!("+cond+")) break; ", -10000+d)
			es.insert(kr.stmtEnd(body), " }", -20000-d)
		case "do":
			body := a.Children[0]
			label := fmt.Sprintf("ldc_c_%d_%d", K, g.calls[0].id)
			used := false
			var walk func(n *passes.Node)
			walk = func(n *passes.Node) {
				for _, c := range n.Children {
					switch c.Kind {
					case "ForStmt", "WhileStmt", "DoStmt", "CXXForRangeStmt":
						continue // its continues are its own
					case "ContinueStmt":
						leaves.replace(c.Pos.Offset, c.Pos.End, "goto "+label)
						used = true
						continue
					}
					walk(c)
				}
			}
			if body.Kind == "ContinueStmt" {
				return nil, nil, fmt.Errorf("line %d: do continue; while (...) is not supported", body.Pos.Line)
			}
			walk(body)
			tail := hoists
			if used {
				tail = label + ":; " + hoists
			}
			if body.Kind == "CompoundStmt" {
				es.insert(body.Pos.End-1, " "+tail+" ", -20000-d)
			} else {
				es.insert(body.Pos.Offset, "{ ", -10000+d)
				es.insert(kr.stmtEnd(body), " "+tail+" }", -20000-d)
			}
		}
	}
	return es, locals, nil
}
