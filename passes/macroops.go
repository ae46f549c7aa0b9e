package passes

import "ldcheck/passes/clang"

// macroOperators recovers the operators of the binary expressions that a
// function-like or object-like macro's body spells (PAD(i) = ((i) + ((i)
// >> 5))): libclang gives such a node no text of its own (Node.Op is
// empty), and libclang 15 cannot say which operator it is. In-order, the
// expansion's binary operators written in the body are the body's binary
// operator tokens in the order they are written; the arguments' own
// operators have their own text and are not among them. A macro defined
// more than once, a body that names another macro, or counts that differ
// recover nothing. The result is for the index proofs only: what privatize
// edits still treats those operators as unknown.
func macroOperators(u *Unit, body *Node) map[*Node]string {
	if u == nil || len(u.Macros) == 0 {
		return nil
	}
	type use struct {
		file     *SourceFile
		from, to int
	}
	groups := map[use][]*Node{}
	var walk func(n *Node)
	walk = func(n *Node) {
		if (n.Kind == "BinaryOperator" || n.Kind == "CompoundAssignOperator") && n.Op == "" && n.InMacro && len(n.Children) == 2 {
			walk(n.Children[0])
			k := use{n.File, n.Pos.Offset, n.Pos.End}
			groups[k] = append(groups[k], n)
			walk(n.Children[1])
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(body)
	out := map[*Node]string{}
	for k, nodes := range groups {
		ops, ok := macroBodyOperators(u, k.file, k.from)
		if !ok || len(ops) != len(nodes) {
			continue
		}
		for i, n := range nodes {
			out[n] = ops[i]
		}
	}
	return out
}

// macroBodyOperators returns the binary operator tokens of the body of the
// macro used at offset from of file f, in order.
func macroBodyOperators(u *Unit, f *SourceFile, from int) ([]string, bool) {
	if f == nil {
		return nil, false
	}
	name := tokenAt(f.Tokens, from)
	if name < 0 || f.Tokens[name].Kind != clang.Identifier {
		return nil, false
	}
	defs := u.Macros[f.Tokens[name].Spelling]
	if len(defs) != 1 || defs[0].File == nil {
		return nil, false
	}
	d := defs[0]
	toks := d.File.Tokens
	i := tokenAt(toks, d.Pos.Offset)
	if i < 0 {
		return nil, false
	}
	start := i + 1
	// A function-like macro: its parameter list follows the name at once.
	if start < len(toks) && toks[start].Spelling == "(" && toks[start].Offset == toks[i].End {
		for start < len(toks) && toks[start].Spelling != ")" {
			start++
		}
		start++
	}
	var ops []string
	for j := start; j < len(toks) && toks[j].Offset < d.Pos.End; j++ {
		t := toks[j]
		if t.Kind == clang.Identifier && len(u.Macros[t.Spelling]) > 0 {
			return nil, false // another macro: its operators would be mixed in
		}
		if t.Kind != clang.Punctuation || !binaryOperators[t.Spelling] || j == start {
			continue
		}
		// Binary after an operand (a name, a literal, a closing bracket);
		// a unary minus or star follows an operator or an opening one.
		p := toks[j-1]
		if p.Kind == clang.Identifier || p.Kind == clang.Literal || p.Spelling == ")" || p.Spelling == "]" {
			ops = append(ops, t.Spelling)
		}
	}
	return ops, true
}

var binaryOperators = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "<<": true, ">>": true,
	"&": true, "|": true, "^": true, "&&": true, "||": true,
	"<": true, ">": true, "<=": true, ">=": true, "==": true, "!=": true,
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"<<=": true, ">>=": true, "&=": true, "|=": true, "^=": true,
}

// tokenAt is the index of the token that starts at off, or -1.
func tokenAt(toks []Token, off int) int {
	lo, hi := 0, len(toks)
	for lo < hi {
		m := (lo + hi) / 2
		if toks[m].Offset < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(toks) && toks[lo].Offset == off {
		return lo
	}
	return -1
}
