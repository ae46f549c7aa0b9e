package passes

import (
	"fmt"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// access is one use of a candidate variable.
type access struct {
	ref    *Node
	read   bool
	write  bool
	escape bool   // a pointer to it flows somewhere we do not follow
	atomic string // the atomic call it is an argument of
	// constCall is the call the variable is passed to as a pointer to
	// const: read there, not written (targetsPass checks that the callee
	// does not cast the const away, else the access escapes).
	constCall, constArg *Node
	// index is the subscript when the use is exactly v[index] (one
	// subscript, nothing else); nil otherwise.
	index *Node
}

func isPointerOrArray(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasSuffix(t, "*") || strings.HasSuffix(t, "]") || strings.Contains(t, "*__restrict") || strings.Contains(t, "* __restrict") || strings.Contains(t, "*const")
}

// constPointee reports whether t, a pointer type, points at const
// elements that hold no pointers (const float *, const int *__restrict):
// nothing reached through it can be written without a cast.
func constPointee(t string) bool {
	elem, ok := pointee(t)
	return ok && !strings.Contains(elem, "*") && (strings.HasPrefix(elem, "const ") || strings.HasSuffix(elem, " const"))
}

// ConstArgument reports whether call passes its argument arg (an array
// or pointer expression) as a pointer to const elements (constPointee)
// to a callee that cannot write through it: a function of funcs (the
// user's, by key) with no cast that could take the const away, in it or
// in what it calls, or a function declared elsewhere (the toolkit's:
// their const is kept).
func ConstArgument(call, arg *Node, funcs map[string]*Func) bool {
	if call == nil || call.Kind != "CallExpr" || len(call.Children) == 0 || arg == call.Children[0] || !constPointee(arg.Type) {
		return false
	}
	f := funcs[call.Ref]
	return f == nil || !castsAwayConst(f, funcs)
}

// castsAwayConst reports whether f, or a function it calls, has a cast
// that could turn a pointer to const into one it writes through
// (const_cast, or a C-style or reinterpret cast to a pointer whose
// elements are not const).
func castsAwayConst(f *Func, funcs map[string]*Func) bool {
	for _, g := range append([]*Func{f}, reachableFuncs(f, funcs)...) {
		found := false
		g.Body.Walk(func(n *Node) bool {
			switch n.Kind {
			case "CXXConstCastExpr":
				found = true
			case "CStyleCastExpr", "CXXReinterpretCastExpr", "CXXFunctionalCastExpr":
				if isPointerOrArray(n.Type) && !constPointee(n.Type) {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// libraryElementFuncs are library functions (declared by ldcheck's prelude,
// defined by the toolkit or the CPU backend, never instrumented) whose
// pointer arguments each name one object that the call reads and writes:
// the math functions with out-parameters. Every cuRAND device function
// (curand*, skipahead*) is one too: it updates the state it is given.
var libraryElementFuncs = map[string]bool{
	"sincosf": true, "sincos": true, "__sincosf": true, "sincospif": true, "sincospi": true,
	"modff": true, "modf": true, "frexpf": true, "frexp": true, "remquof": true, "remquo": true,
	"skipahead": true, "skipahead_sequence": true,
}

// LibraryElementCall reports whether n calls a library function that
// reads and writes exactly the object each pointer argument points at
// (curand_uniform(&states[i]), sincosf(x, &s[i], &c[i])). The analysis
// counts such an argument as a read and a write of that element, not as a
// pointer that escapes; privatize hands the callee the unit's copy of it.
func LibraryElementCall(n *Node) bool {
	if n.Kind != "CallExpr" || len(n.Children) == 0 || !(strings.HasPrefix(n.Name, "curand") || libraryElementFuncs[n.Name]) {
		return false
	}
	// A call names its callee first; a construction (curandState s;) does not.
	callee := n.Children[0]
	for callee.Kind == "UnexposedExpr" && len(callee.Children) == 1 {
		callee = callee.Children[0]
	}
	return callee.Kind == "DeclRefExpr" && callee.Name == n.Name
}

// libraryArgument reports whether n (an expression) is, past parentheses
// and casts, an argument of a LibraryElementCall.
func libraryArgument(n *Node) bool {
	cur, p := n, n.Parent
	for p != nil && (p.Kind == "ParenExpr" || p.Kind == "UnexposedExpr" || p.Kind == "CStyleCastExpr" || p.Kind == "CXXStaticCastExpr") {
		cur, p = p, p.Parent
	}
	return p != nil && LibraryElementCall(p) && len(p.Children) > 0 && p.Children[0] != cur
}

func isAtomicCall(n *Node) bool {
	return n.Kind == "CallExpr" && (strings.HasPrefix(n.Name, "atomic") || strings.HasPrefix(n.Name, "__atomic"))
}

// classify follows a reference up the tree to the operation that uses it.
func classify(ref *Node) access {
	a := access{ref: ref}
	cur := ref
	subscripts := 0
	var firstIndex *Node
	derived := false   // cur is a pointer computed from the variable
	converted := false // an implicit conversion (to a value, to const) lies between
	for p := cur.Parent; p != nil; cur, p = p, p.Parent {
		switch p.Kind {
		case "UnexposedExpr":
			converted = true
			continue
		case "ParenExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr", "CXXConstCastExpr":
			continue
		case "ArraySubscriptExpr":
			if p.Children[0] == cur {
				converted = false // the element is an object again
				subscripts++
				if subscripts == 1 && !derived {
					firstIndex = p.Children[1]
				}
				continue
			}
			a.read = true // the variable's value is used as an index
		case "MemberRefExpr":
			if len(p.Children) > 0 && p.Children[0] == cur {
				derived = true // a field: no longer the whole element
				converted = false
				continue
			}
			a.read = true
		case "UnaryOperator":
			switch p.Op {
			case "*":
				derived = true
				converted = false
				continue
			case "&":
				if call := enclosingAtomicFirstArg(p); call != "" {
					a.atomic = call
				} else if libraryArgument(p) {
					a.read, a.write = true, true // curand_uniform(&states[i])
				} else {
					a.escape = true
				}
			case "++", "--":
				a.read, a.write = true, true
			default:
				a.read = true
			}
		case "BinaryOperator":
			switch {
			case p.Op == "=" && p.Children[0] == cur:
				a.write = true
			case (p.Op == "+" || p.Op == "-") && isPointerOrArray(cur.Type):
				derived = true
				continue
			default:
				a.read = true
			}
		case "CompoundAssignOperator":
			a.read = true
			a.write = p.Children[0] == cur
		case "CallExpr":
			switch {
			case isAtomicCall(p) && len(p.Children) > 1 && p.Children[1] == cur:
				a.atomic = p.Name
			case p.Children[0] == cur && assigningOperator(p.Name) != "":
				// out[i] = s on a struct: clang calls the (implicit)
				// operator=, with the left operand first.
				a.write = true
				a.read = assigningOperator(p.Name) != "="
			case isPointerOrArray(cur.Type) && cur != p.Children[0] && LibraryElementCall(p):
				a.read, a.write = true, true // curand(states + i): that one state
			case isPointerOrArray(cur.Type) && cur != p.Children[0] && constPointee(cur.Type):
				// sturm(d, e2, n, x) with const float *d: the callee
				// reads the array, at indexes we do not follow.
				a.read, a.constCall, a.constArg = true, p, cur
			case isPointerOrArray(cur.Type) && cur != p.Children[0]:
				a.escape = true
			case cur != p.Children[0] && !converted && !strings.HasPrefix(cur.Type, "const ") && isLvalue(cur):
				// Bound as it is to a non-const reference parameter
				// (a by-value argument is converted first): the callee may
				// write it.
				a.read, a.write = true, true
			default:
				a.read = true
			}
		case "VarDecl", "ReturnStmt", "InitListExpr":
			switch {
			case isPointerOrArray(cur.Type):
				a.escape = true
			case p.Kind == "VarDecl" && strings.Contains(p.Type, "&") && !strings.HasPrefix(p.Type, "const "):
				// float &r = s[i]: stores through r are stores to s.
				a.escape = true
			default:
				a.read = true
			}
		default:
			a.read = true
		}
		break
	}
	if subscripts == 1 && !derived && !a.escape && a.atomic == "" {
		a.index = firstIndex
	}
	return a
}

// assigningOperator returns the operator of an overloaded-operator call
// name ("operator=", "operator+=") when it stores to its left operand, else "".
func assigningOperator(name string) string {
	op, ok := strings.CutPrefix(name, "operator")
	if !ok {
		return ""
	}
	switch op {
	case "==", "!=", "<=", ">=":
		return ""
	case "++", "--":
		return op
	}
	if strings.HasSuffix(op, "=") {
		return op
	}
	return ""
}

// isLvalue says whether n denotes an object (as opposed to a value
// computed from one).
func isLvalue(n *Node) bool {
	switch n.Kind {
	case "DeclRefExpr", "ArraySubscriptExpr", "MemberRefExpr":
		return true
	case "UnaryOperator":
		return n.Op == "*"
	}
	return false
}

// enclosingAtomicFirstArg returns the atomic call whose first argument is
// the address expression n (possibly through casts), or "".
func enclosingAtomicFirstArg(n *Node) string {
	cur := n
	for p := n.Parent; p != nil; cur, p = p, p.Parent {
		switch p.Kind {
		case "ParenExpr", "UnexposedExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr":
			continue
		case "CallExpr":
			if isAtomicCall(p) && len(p.Children) > 1 && p.Children[1] == cur {
				return p.Name
			}
		}
		return ""
	}
	return ""
}

// BaseVariable strips an address expression down to the variable it is
// computed from: &s[i].f, p + 4, (int *)q -> s, p, q; nil when it is not
// computed from one variable.
func BaseVariable(n *Node) *Node {
	for n != nil {
		switch n.Kind {
		case "DeclRefExpr":
			return n
		case "ParenExpr", "UnexposedExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr", "ArraySubscriptExpr", "MemberRefExpr", "UnaryOperator":
		case "BinaryOperator":
			if len(n.Children) == 2 && isPointerOrArray(n.Children[1].Type) && !isPointerOrArray(n.Children[0].Type) {
				n = n.Children[1]
				continue
			}
		default:
			return nil
		}
		if len(n.Children) == 0 {
			return nil
		}
		n = n.Children[0]
	}
	return nil
}

// atomicsPass: body, device functions -> the atomic operations and the
// variables they touch.
func (ka *kernelAnalysis) atomicsPass(k *Kernel) []Atomic {
	var out []Atomic
	visit := func(f *Func) {
		f.Body.Walk(func(n *Node) bool {
			if isAtomicCall(n) && len(n.Children) > 1 {
				at := Atomic{Call: n.Name, Pos: n.Pos, Class: classifyAtomic(n)}
				if b := BaseVariable(n.Children[1]); b != nil {
					at.Variable = b.Name
				}
				if f.File != nil && f.File != ka.unit.Files[0] {
					at.File = f.File.Path
				}
				// A call of the user's own atomicXxx function is not an
				// atomic: the atomics in its body are listed with it.
				if ka.funcs[n.Ref] != nil {
					at.Class = ""
				}
				out = append(out, at)
			}
			return true
		})
	}
	visit(ka.fn)
	for _, f := range ka.reach {
		visit(f)
	}
	return out
}

// candidate is a variable that might be a target.
type candidate struct {
	key, name, typ string
	kind           manifest.Kind
	space          Space
	bytes          int64
	constElem      bool
	line           int
	accesses       []access
	// privatized: the variable is a target, or is left unprivatized only
	// because each thread has its own element in 1-D launches (a 2-D
	// launch makes it shared again). The one-pass pass weighs these.
	privatized bool
	// target is the variable's index in the kernel's targets plus one
	// (0: not a target).
	target int
}

// targetsPass: accesses, atomics, variables -> targets and unchecked variables.
func (ka *kernelAnalysis) targetsPass(k *Kernel) ([]Target, []Unchecked) {
	var cands []*candidate
	byKey := map[string]*candidate{}
	add := func(c *candidate) {
		cands = append(cands, c)
		byKey[c.key] = c
	}
	for i, p := range ka.fn.Params {
		if !k.Params[i].Pointer {
			continue
		}
		add(&candidate{key: p.Key, name: p.Name, typ: p.Type, kind: manifest.KindParam, space: Global, constElem: k.Params[i].ElemConst, line: p.Pos.Line})
	}
	ka.fn.Body.Walk(func(n *Node) bool {
		if n.Kind == "VarDecl" && n.Space == Shared {
			add(&candidate{key: n.Key, name: n.Name, typ: n.Type, kind: manifest.KindShared, space: Shared, bytes: n.Size, line: n.Pos.Line})
		}
		return true
	})
	for _, key := range ka.globalOrder {
		g := ka.globals[key]
		add(&candidate{key: key, name: g.Name, typ: g.Type, kind: manifest.KindDevice, space: g.Space, bytes: g.Bytes, line: g.Pos.Line})
	}

	collect := func(body *Node) {
		body.Walk(func(n *Node) bool {
			if n.Kind == "DeclRefExpr" {
				if c := byKey[n.Ref]; c != nil {
					a := classify(n)
					if a.constCall != nil && !ConstArgument(a.constCall, a.constArg, ka.funcs) {
						a.read, a.escape = false, true
					}
					if a.escape && a.atomic == "" {
						// Passed to a function that updates it atomically.
						if call := atomicCallOf(n, ka.atomicParams); call != "" {
							a.atomic, a.escape = call, false
						}
					}
					c.accesses = append(c.accesses, a)
				}
			}
			return true
		})
	}
	collect(ka.fn.Body)
	for _, f := range ka.reach {
		collect(f.Body)
	}
	ka.candidates = cands

	defs := indexDefs{single: singleDefinitions(ka.fn.Body)}
	defs.strided = strideVariables(ka.fn.Body, defs)
	var targets []Target
	var unchecked []Unchecked
	for _, c := range cands {
		if len(c.accesses) == 0 {
			if c.kind == manifest.KindParam {
				unchecked = append(unchecked, Unchecked{Name: c.name, Reason: "not used by the kernel", Line: c.line})
			}
			continue
		}
		var writes []Pos
		atomic, escape := "", false
		atomicLine := 0
		for _, a := range c.accesses {
			if a.write {
				writes = append(writes, a.ref.Pos)
			}
			if a.atomic != "" && atomic == "" {
				atomic, atomicLine = a.atomic, a.ref.Pos.Line
			}
			escape = escape || a.escape
		}
		switch {
		case atomic != "":
			unchecked = append(unchecked, Unchecked{Name: c.name, Line: atomicLine, Atomic: true, Reason: fmt.Sprintf("touched by %s at line %d: variables updated by atomics are not privatized, so races between their plain accesses are not checked (their plain accesses against other units' atomics are: atomic-plain)", atomic, atomicLine)})
			continue
		case c.space == Constant:
			unchecked = append(unchecked, Unchecked{Name: c.name, Line: c.line, Reason: "__constant__ memory is read-only in kernels"})
			continue
		case len(writes) == 0 && (!escape || c.constElem):
			reason := "read-only in this kernel: no race possible"
			if c.constElem {
				reason = "read-only (const pointee): no race possible"
			}
			unchecked = append(unchecked, Unchecked{Name: c.name, Line: c.line, Reason: reason})
			continue
		}
		c.privatized = true
		if idx, ok := privateIndex(c, defs); ok && !escape {
			unchecked = append(unchecked, Unchecked{Name: c.name, Line: c.line, Reason: fmt.Sprintf("no race possible: every access is %s[%s], a different element for each thread (holds for 1-D launches; ldcheck run checks the launch)", c.name, idx), Requires: manifest.Requires1DLaunch})
			continue
		}
		t := Target{Name: c.name, Space: c.space, Type: c.typ, Kind: c.kind}
		if c.bytes > 0 {
			t.Bytes = c.bytes
		}
		if len(writes) > 0 {
			t.Reason = fmt.Sprintf("written at line %d and its accesses are not provably private to one thread", writes[0].Line)
		} else {
			t.Reason = "a pointer to it escapes (passed on or stored), so writes through it cannot be ruled out"
		}
		if len(writes) > 4 {
			writes = writes[:4]
		}
		t.Writes = writes
		targets = append(targets, t)
		c.target = len(targets)
	}
	return targets, unchecked
}

// singleDefinitions maps each local variable that is assigned exactly once,
// by its initializer, to that initializer.
func singleDefinitions(body *Node) map[string]*Node {
	init := map[string]*Node{}
	body.Walk(func(n *Node) bool {
		if n.Kind == "VarDecl" && n.Space == "" && len(n.Children) > 0 {
			last := n.Children[len(n.Children)-1]
			if last.Kind != "TypeRef" {
				init[n.Key] = last
			}
		}
		return true
	})
	body.Walk(func(n *Node) bool {
		if n.Kind == "DeclRefExpr" && init[n.Ref] != nil {
			if a := classify(n); a.write || a.escape {
				delete(init, n.Ref)
			}
		}
		return true
	})
	return init
}

// indexDefs is what canon knows of a kernel's locals: those assigned
// once, by their initializer (single), and the stride variables of
// grid- and block-stride loops (strided: the token canon renders them as).
type indexDefs struct {
	single  map[string]*Node
	strided map[string]string
}

// The thread-unique index forms: the global thread id in a 1-D launch,
// and the thread's index in a 1-D block; and the strides that keep a
// variable unique to its thread when added (the grid's and the block's
// thread counts).
const (
	globalThreadID   = "(+ (* blockDim.x blockIdx.x) threadIdx.x)"
	blockThreadID    = "threadIdx.x"
	gridThreads      = "(* blockDim.x gridDim.x)"
	gridStrideToken  = "grid-stride"
	blockStrideToken = "block-stride"
)

// privateIndex reports whether every access to c is c[i] with i a
// thread-unique expression: the global thread id for global memory,
// threadIdx.x for shared memory (unique within a 1-D block), or a
// variable that starts there and only ever grows by the grid's (block's)
// thread count, the grid-stride loop: thread t sees t, t+T, t+2T..., and
// no other thread sees any of them.
func privateIndex(c *candidate, defs indexDefs) (string, bool) {
	want, stride := globalThreadID, gridStrideToken
	shown := "blockIdx.x*blockDim.x+threadIdx.x"
	if c.space == Shared {
		want, stride, shown = blockThreadID, blockStrideToken, "threadIdx.x"
	}
	strided := false
	width := int64(0) // k of k*i+c, the same for every access
	for _, a := range c.accesses {
		if a.index == nil {
			return "", false
		}
		base, k, off, ok := affineIndex(a.index, defs)
		if !ok || off < 0 || off >= k || (width != 0 && k != width) {
			return "", false
		}
		width = k
		switch base {
		case want:
		case stride:
			strided = true
		default:
			return "", false
		}
	}
	if strided {
		shown += " plus multiples of the launch's thread count"
		if c.space == Shared {
			shown = "threadIdx.x plus multiples of blockDim.x"
		}
	}
	if width > 1 {
		// Thread i's elements are k*i to k*i+k-1: the threads' runs of k
		// elements do not overlap.
		shown = fmt.Sprintf("%d*(%s)+c with 0 <= c < %d", width, shown, width)
	}
	return shown, true
}

// affineIndex reads index n as k*base+c, k > 0 and c integer literals
// (k = 1, c = 0 when absent): base is n's canonical form without them.
// ok is false when a literal is not a plain integer.
func affineIndex(n *Node, defs indexDefs) (base string, k, c int64, ok bool) {
	n = stripCasts(n)
	k = 1
	if n.Kind == "BinaryOperator" && n.Op == "+" && len(n.Children) == 2 {
		if v, lit := intLiteral(n.Children[1]); lit {
			c, n = v, stripCasts(n.Children[0])
		} else if v, lit := intLiteral(n.Children[0]); lit {
			c, n = v, stripCasts(n.Children[1])
		}
	}
	if n.Kind == "BinaryOperator" && n.Op == "*" && len(n.Children) == 2 {
		if v, lit := intLiteral(n.Children[0]); lit {
			k, n = v, n.Children[1]
		} else if v, lit := intLiteral(n.Children[1]); lit {
			k, n = v, n.Children[0]
		}
	}
	if k <= 0 {
		return "", 0, 0, false
	}
	return canon(n, defs, 0), k, c, true
}

// stripCasts looks through parentheses and casts.
func stripCasts(n *Node) *Node {
	for n != nil && len(n.Children) == 1 {
		switch n.Kind {
		case "ParenExpr", "UnexposedExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXFunctionalCastExpr":
			n = n.Children[0]
		default:
			return n
		}
	}
	return n
}

// intLiteral is the value of an integer literal written as digits (a
// macro's name, a suffix other than u/l, anything else: false).
func intLiteral(n *Node) (int64, bool) {
	n = stripCasts(n)
	if n == nil || n.Kind != "IntegerLiteral" || n.File == nil || n.Pos.End > len(n.File.Source) || n.Pos.Offset >= n.Pos.End {
		return 0, false
	}
	text := strings.TrimRight(string(n.File.Source[n.Pos.Offset:n.Pos.End]), "uUlL")
	v, err := strconv.ParseInt(text, 0, 64)
	return v, err == nil
}

// strideVariables finds the locals of body that hold a thread-unique
// index and keep it unique: initialised (or assigned) only to the global
// thread id and otherwise only increased by blockDim.x * gridDim.x
// (grid-stride), or to threadIdx.x and increased by blockDim.x
// (block-stride). Their address is never taken.
func strideVariables(body *Node, defs indexDefs) map[string]string {
	type cand struct {
		base, step, token string
		bad               bool
	}
	vars := map[string]*cand{}
	kind := func(init string) *cand {
		switch init {
		case globalThreadID:
			return &cand{base: globalThreadID, step: gridThreads, token: gridStrideToken}
		case blockThreadID:
			return &cand{base: blockThreadID, step: "blockDim.x", token: blockStrideToken}
		}
		return nil
	}
	body.Walk(func(n *Node) bool {
		if n.Kind != "VarDecl" || n.Space != "" || len(n.Children) == 0 || defs.single[n.Key] != nil {
			return true
		}
		if init := n.Children[len(n.Children)-1]; init.Kind != "TypeRef" {
			if c := kind(canon(init, defs, 0)); c != nil {
				vars[n.Key] = c
			}
		}
		return true
	})
	body.Walk(func(n *Node) bool {
		c := vars[n.Ref]
		if n.Kind != "DeclRefExpr" || c == nil || c.bad {
			return true
		}
		a := classify(n)
		if a.escape || a.atomic != "" {
			c.bad = true
			return true
		}
		if !a.write {
			return true
		}
		// The write: i += step, i = i + step, or i = base again.
		p := outerExpr(n)
		ok := false
		switch {
		case p == nil || len(p.Children) != 2:
		case p.Kind == "CompoundAssignOperator" && p.Op == "+=":
			ok = canon(p.Children[1], defs, 0) == c.step
		case p.Kind == "BinaryOperator" && p.Op == "=":
			rhs := canon(p.Children[1], defs, 0)
			self := "var:" + n.Ref
			grow := "(+ " + c.step + " " + self + ")"
			if self < c.step {
				grow = "(+ " + self + " " + c.step + ")"
			}
			ok = rhs == c.base || rhs == grow
		}
		c.bad = !ok
		return true
	})
	out := map[string]string{}
	for key, c := range vars {
		if !c.bad {
			out[key] = c.token
		}
	}
	return out
}

// canon renders an index expression in a canonical form: casts and
// parentheses dropped, single-definition locals replaced by their
// definitions, stride variables by their token, operands of + and *
// sorted.
func canon(n *Node, defs indexDefs, depth int) string {
	if n == nil || depth > 16 {
		return "?"
	}
	switch n.Kind {
	case "ParenExpr", "UnexposedExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXFunctionalCastExpr":
		if len(n.Children) == 1 {
			return canon(n.Children[0], defs, depth+1)
		}
	case "MemberRefExpr":
		if len(n.Children) == 1 {
			base := canon(n.Children[0], defs, depth+1)
			switch base {
			case "threadIdx", "blockIdx", "blockDim", "gridDim":
				return base + "." + n.Name
			}
		}
	case "DeclRefExpr":
		switch n.Name {
		case "threadIdx", "blockIdx", "blockDim", "gridDim":
			return n.Name
		}
		if def := defs.single[n.Ref]; def != nil {
			return canon(def, defs, depth+1)
		}
		if tok := defs.strided[n.Ref]; tok != "" {
			return tok
		}
		return "var:" + n.Ref
	case "BinaryOperator":
		if len(n.Children) == 2 && (n.Op == "+" || n.Op == "*") {
			a, b := canon(n.Children[0], defs, depth+1), canon(n.Children[1], defs, depth+1)
			if b < a {
				a, b = b, a
			}
			return "(" + n.Op + " " + a + " " + b + ")"
		}
	}
	return "?"
}
