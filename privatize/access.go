package privatize

import (
	"fmt"
	"sort"
	"strings"

	"ldcheck/passes"
	"ldcheck/privatize/manifest"
)

// Access redirection for global memory (LDetector Table III, at page
// granularity): every load or store that may touch a privatized global
// allocation is wrapped as (*LDC_R(&(E))) or (*LDC_W(&(E))). The runtime
// finds the allocation, and the current unit's copy of the page holding the
// bytes: a store takes a copy on its first write (copy-on-write), a load
// reads the unit's copy when it has one and the shared base otherwise. So
// private copies grow with what a unit writes, not with the array size.
//
// E is the whole lvalue that is loaded or stored (p[i].f, not p[i]), so the
// bytes touched lie in one element, and elements never straddle a page
// (the runtime sizes pages in whole elements).

// accessScope says, for one function body, which variables can never hold
// or point into a privatized global allocation.
type accessScope struct {
	// notGlobal holds declaration keys of variables whose memory (arrays)
	// or pointee (pointers) is known not to be a privatized allocation:
	// __shared__ and local arrays, __constant__ and other module-scope
	// variables that are not targets, and kernel pointer parameters that
	// are not privatized.
	notGlobal map[string]bool
	// deviceTargets are module-scope targets by declaration key: naming
	// one is an access to a privatized allocation.
	deviceTargets map[string]string
	// traced holds the pointer parameters of notGlobal that may point
	// into shared memory (notGlobalParams): their accesses need no hook
	// but keep their trace wrapper, which names the statement of a race
	// and notes the access for the intra-warp check.
	traced map[string]bool
	// kernel: the body is a kernel's, whose region state (ldc_fs) is in
	// scope: its stores outside lambdas take LDC_WK.
	kernel bool
}

// accessEdits wraps the global loads and stores of body. depth orders the
// wrappers of nested accesses that start or end at one offset (twice the
// depth: the trace wrapper of the same access goes just inside). Each
// access also becomes a site of st (traceWrap).
//
// Accesses that cannot be edited come back as problems, one line each: an
// access written in a macro's body has no text of its own at the macro's
// use, and an operand of an operator in a macro's body cannot be told a
// read or a write.
func accessEdits(body *passes.Node, sc *accessScope, st *siteTable) (edits, []string) {
	var es edits
	var problems []string
	// A macro's argument used twice in its body (#define SQ(x) ((x) * (x)))
	// gives two accesses with one text: one wrapper serves both.
	wrapped := map[[2]int]bool{}
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "UnaryExpr" { // libclang's kind for sizeof and alignof
			return false // sizeof/alignof: not evaluated
		}
		if passes.LibraryElementCall(n) {
			es = append(es, libraryCallEdits(n, sc)...)
		}
		if !isLvalueKind(n.Kind) || extendsParent(n) {
			return true
		}
		global := sc.mayBeGlobal(n)
		if !global && !sc.throughTraced(n) {
			return true
		}
		if isArrayType(n.Type) || strings.Contains(n.Type, "(") || strings.HasPrefix(n.Type, "<") {
			return true // decays to a pointer, or names a function: no access here
		}
		p := parentSkippingParens(n)
		if p != nil && p.Kind == "UnaryOperator" && p.Op == "&" {
			return true // the address is taken; accesses through it are wrapped where they happen
		}
		// Written in a macro's body, an access can be wrapped only where it
		// is the macro's whole expansion (#define AT(i) out[i], AT(3) = 5):
		// then the macro's use is its text.
		if n.InMacro && !wholeExpansion(n) {
			problems = append(problems, fmt.Sprintf("line %d: a memory access written in the body of macro %s cannot be redirected; expand the macro by hand", n.Pos.Line, macroAt(n)))
			return false
		}
		if p != nil && p.InMacro && p.Op == "" && (p.Kind == "BinaryOperator" || p.Kind == "CompoundAssignOperator" || p.Kind == "UnaryOperator") {
			problems = append(problems, fmt.Sprintf("line %d: %s is an operand of an operator written in the body of macro %s, which ldcheck cannot tell a read from a write; expand the macro by hand", n.Pos.Line, sourceText(n), macroAt(p)))
			return false
		}
		if wrapped[[2]int{n.Pos.Offset, n.Pos.End}] {
			return false
		}
		wrapped[[2]int{n.Pos.Offset, n.Pos.End}] = true
		if global {
			hook := "LDC_R"
			if isWrite(n, p) {
				hook = "LDC_W"
				if sc.kernel && !inLambda(n) {
					hook = "LDC_WK"
				}
			}
			d := depth(n)
			es.insert(n.Pos.Offset, "(*"+hook+"(&(", -1000+2*d)
			es.insert(n.Pos.End, ")))", 1000-2*d)
		}
		es = append(es, st.wrap(n, p)...)
		return true
	})
	return es, problems
}

// wholeExpansion tells a node written in a macro's body that is the
// macro's whole expansion (#define AT(i) out[i]): no node above it but
// implicit conversions has the macro's use for its range.
func wholeExpansion(n *passes.Node) bool {
	if n.Pos.End <= n.Pos.Offset {
		return false
	}
	p := n.Parent
	for p != nil && p.Kind == "UnexposedExpr" && p.Pos == n.Pos {
		p = p.Parent
	}
	return p == nil || p.Pos != n.Pos
}

// macroAt names the macro used where n, written in its body, is placed.
func macroAt(n *passes.Node) string {
	if n.File == nil || n.Pos.Offset >= len(n.File.Source) {
		return "(unknown)"
	}
	src := n.File.Source[n.Pos.Offset:]
	end := 0
	for end < len(src) && (src[end] == '_' || src[end] >= 'a' && src[end] <= 'z' || src[end] >= 'A' && src[end] <= 'Z' || end > 0 && src[end] >= '0' && src[end] <= '9') {
		end++
	}
	if end == 0 {
		return "(unknown)"
	}
	return string(src[:end])
}

// sourceText is n as written, or its name where its file is not known.
func sourceText(n *passes.Node) string {
	if n.File != nil && n.Pos.End > n.Pos.Offset && n.Pos.End <= len(n.File.Source) {
		return string(n.File.Source[n.Pos.Offset:n.Pos.End])
	}
	return n.Name
}

// libraryCallEdits hands a library function that reads and writes the one
// object a pointer argument names (curand_uniform(&states[i]), sincosf's
// outputs) the unit's copy of it: LDC_W(&states[i]). The callee is not
// instrumented, so without this its stores would land in the shared state.
// A privatized element never straddles a page, so the whole object is in
// the copy.
func libraryCallEdits(call *passes.Node, sc *accessScope) edits {
	var es edits
	for _, arg := range call.Children[1:] {
		a := strip(arg)
		for a != nil && (a.Kind == "CStyleCastExpr" || a.Kind == "CXXStaticCastExpr") && len(a.Children) > 0 {
			a = strip(a.Children[len(a.Children)-1])
		}
		if a == nil || !isPointerType(a.Type) || arg.Pos.End <= arg.Pos.Offset {
			continue // not a pointer, or inside a macro's expansion (no place to edit)
		}
		global := false
		if a.Kind == "UnaryOperator" && a.Op == "&" && len(a.Children) == 1 {
			global = sc.mayBeGlobal(a.Children[0])
		} else {
			global = sc.pointerMayBeGlobal(a)
		}
		if !global {
			continue
		}
		d := depth(arg)
		es.insert(arg.Pos.Offset, "LDC_W(", -1000+2*d)
		es.insert(arg.Pos.End, ")", 1000-2*d)
	}
	return es
}

func isLvalueKind(k string) bool {
	switch k {
	case "ArraySubscriptExpr", "MemberRefExpr", "UnaryOperator", "DeclRefExpr":
		return true
	}
	return false
}

// strip looks through parentheses and implicit conversions.
func strip(n *passes.Node) *passes.Node {
	for n != nil && (n.Kind == "ParenExpr" || n.Kind == "UnexposedExpr") && len(n.Children) == 1 {
		n = n.Children[0]
	}
	return n
}

func parentSkippingParens(n *passes.Node) *passes.Node {
	p := n.Parent
	for p != nil && p.Kind == "ParenExpr" {
		p = p.Parent
	}
	return p
}

func depth(n *passes.Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent {
		d++
	}
	return d
}

func isArrayType(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasSuffix(t, "]") && !strings.Contains(t, "(*")
}

func isPointerType(t string) bool {
	t = strings.TrimSpace(t)
	t = strings.TrimSuffix(t, "const")
	t = strings.TrimSuffix(t, "volatile")
	t = strings.TrimSuffix(strings.TrimSpace(t), "__restrict")
	t = strings.TrimSpace(t)
	return strings.HasSuffix(t, "*") || strings.Contains(t, "(*)")
}

// subscriptBase returns the array or pointer operand of a subscript (C
// allows i[p]).
func subscriptBase(n *passes.Node) *passes.Node {
	if len(n.Children) != 2 {
		return nil
	}
	b, i := n.Children[0], n.Children[1]
	if !isPointerType(b.Type) && !isArrayType(strip(b).Type) && (isPointerType(i.Type) || isArrayType(strip(i).Type)) {
		return i
	}
	return b
}

// extendsParent reports whether n is only part of a larger lvalue: an
// array element's array (a[i] in a[i][j]) or a struct whose field is
// selected (s in s.f).
func extendsParent(n *passes.Node) bool {
	p := n.Parent
	for p != nil && (p.Kind == "ParenExpr" || (p.Kind == "UnexposedExpr" && isArrayType(n.Type))) {
		p = p.Parent
	}
	if p == nil {
		return false
	}
	switch p.Kind {
	case "ArraySubscriptExpr":
		return isArrayType(n.Type) && strip(subscriptBase(p)) == n
	case "MemberRefExpr":
		return len(p.Children) > 0 && strip(p.Children[0]) == n && !isPointerType(n.Type)
	}
	return false
}

// mayBeGlobal reports whether lvalue n may lie in a privatized global
// allocation.
func (sc *accessScope) mayBeGlobal(n *passes.Node) bool {
	n = strip(n)
	if n == nil {
		return false
	}
	switch n.Kind {
	case "DeclRefExpr":
		_, ok := sc.deviceTargets[n.Ref]
		return ok
	case "ArraySubscriptExpr":
		b := subscriptBase(n)
		if b == nil {
			return false
		}
		if sb := strip(b); isArrayType(sb.Type) {
			return sc.mayBeGlobal(sb) // an element of an array object
		}
		return sc.pointerMayBeGlobal(b)
	case "MemberRefExpr":
		if len(n.Children) == 0 {
			return true // this->field inside a member function
		}
		b := n.Children[0]
		if isPointerType(b.Type) {
			return sc.pointerMayBeGlobal(b)
		}
		return sc.mayBeGlobal(b)
	case "UnaryOperator":
		return n.Op == "*" && len(n.Children) == 1 && sc.pointerMayBeGlobal(n.Children[0])
	}
	return false
}

// throughTraced reports whether lvalue n is reached through one of
// sc.traced (p[i], *p, p->f).
func (sc *accessScope) throughTraced(n *passes.Node) bool {
	if len(sc.traced) == 0 {
		return false
	}
	var b *passes.Node
	switch n.Kind {
	case "ArraySubscriptExpr":
		b = subscriptBase(n)
	case "MemberRefExpr":
		if len(n.Children) > 0 && isPointerType(n.Children[0].Type) {
			b = n.Children[0]
		}
	case "UnaryOperator":
		if n.Op == "*" && len(n.Children) == 1 {
			b = n.Children[0]
		}
	}
	if b == nil || !isPointerType(strip(b).Type) {
		return false
	}
	v := passes.BaseVariable(b)
	return v != nil && sc.traced[v.Ref]
}

// pointerMayBeGlobal reports whether pointer expression p may point into a
// privatized allocation: unless it is computed from a variable known not
// to, it may (the runtime checks the address).
func (sc *accessScope) pointerMayBeGlobal(p *passes.Node) bool {
	v := passes.BaseVariable(p)
	if v == nil {
		return true
	}
	return !sc.notGlobal[v.Ref]
}

// isWrite reports whether lvalue n (whose parent, past parentheses, is p)
// may be stored to. Anything but a plain read (an implicit conversion to a
// value, an operand of a non-assigning operator) counts as a store: a
// reference bound to it may be written through, and a needless copy of a
// page costs memory, not correctness.
func isWrite(n, p *passes.Node) bool {
	if p == nil {
		return false
	}
	lhs := len(p.Children) > 0 && strip(p.Children[0]) == strip(n)
	switch p.Kind {
	case "UnexposedExpr", "ArraySubscriptExpr", "IfStmt", "WhileStmt", "DoStmt", "ForStmt", "SwitchStmt", "CaseStmt",
		"CStyleCastExpr", "CXXStaticCastExpr", "CXXFunctionalCastExpr":
		return false
	case "BinaryOperator":
		return p.Op == "=" && lhs
	case "CompoundAssignOperator":
		return lhs
	case "UnaryOperator":
		return p.Op == "++" || p.Op == "--"
	case "MemberRefExpr":
		return false // n is a pointer read to select a field (p[i]->f)
	case "CallExpr":
		// Overloaded operators list the left operand first; a plain call
		// lists the callee first. Arguments bound to references may be
		// written by the callee.
		if strings.HasPrefix(p.Name, "operator") && lhs {
			op := strings.TrimPrefix(p.Name, "operator")
			return strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">=" || op == "++" || op == "--"
		}
		return true
	}
	return true
}

// libcMemory names the memory functions whose stores bypass loads and
// stores the compiler can see; calls to them go to the runtime's versions,
// which copy through the access hooks.
var libcMemory = map[string]string{
	"memcpy": "ldc_memcpy", "__builtin_memcpy": "ldc_memcpy",
	"memset": "ldc_memset", "__builtin_memset": "ldc_memset",
	"memmove": "ldc_memmove", "__builtin_memmove": "ldc_memmove",
}

// memoryCallEdits renames the callee of memcpy/memset/memmove calls in
// body, written in file f. A call written through a macro of the user's
// (#define COPY(d, s, n) memcpy(d, s, n)) is renamed in the macro's
// definition, an edit of the file that defines it: the stores of a call
// left as memcpy would bypass the hooks, and races on them go unseen.
//
// With a site table, each call also becomes a traced statement: the callee
// is LDC_MEM_AT(SITE, ldc_memcpy), which the tracing module turns into a
// call that logs the bytes written (site SITE) and, for memcpy and
// memmove, read (site SITE+1); elsewhere it is the plain runtime function.
// A macro's definition is one text for all its uses, so the calls through
// one macro share the site of the first of them.
func memoryCallEdits(body *passes.Node, f *passes.SourceFile, u *passes.Unit, st *siteTable) edits {
	var es edits
	body.Walk(func(n *passes.Node) bool {
		if n.Kind != "CallExpr" || libcMemory[n.Name] == "" || len(n.Children) == 0 {
			return true
		}
		callee := strip(n.Children[0])
		if callee == nil || callee.Kind != "DeclRefExpr" {
			return true
		}
		if string(f.Source[callee.Pos.Offset:callee.Pos.End]) == n.Name {
			es.replace(callee.Pos.Offset, callee.Pos.End, st.memoryCallee(n, ""))
			return true
		}
		// Expanded from a macro: the call's place is the macro's name.
		i := sort.Search(len(f.Tokens), func(i int) bool { return f.Tokens[i].Offset >= callee.Pos.Offset })
		if i < len(f.Tokens) && f.Tokens[i].Offset == callee.Pos.Offset {
			es = append(es, macroEdits(u, f.Tokens[i].Spelling, n, st, map[string]bool{})...)
		}
		return true
	})
	return es
}

// memoryCallee is the text that replaces the callee of the memory call n:
// the runtime's function, with n's trace sites when there is a table. def
// names the macro definition's token that names the callee (file:offset),
// when the call is written through a macro.
func (st *siteTable) memoryCallee(n *passes.Node, def string) string {
	fn := libcMemory[n.Name]
	if st == nil || n.File == nil {
		return fn
	}
	if def != "" {
		if id, ok := st.macroSites[def]; ok {
			return fmt.Sprintf("LDC_MEM_AT(%d, %s)", id, fn)
		}
	}
	id := len(st.sites)
	st.sites = append(st.sites, manifest.Site{ID: id, File: n.File.Path, Line: n.Pos.Line, Col: n.Pos.Col, Kind: manifest.SiteWrite})
	if fn != "ldc_memset" {
		st.sites = append(st.sites, manifest.Site{ID: id + 1, File: n.File.Path, Line: n.Pos.Line, Col: n.Pos.Col, Kind: manifest.SiteRead})
	}
	if def != "" {
		if st.macroSites == nil {
			st.macroSites = map[string]int{}
		}
		st.macroSites[def] = id
	}
	return fmt.Sprintf("LDC_MEM_AT(%d, %s)", id, fn)
}

// macroEdits renames call's callee in the definitions of macro and of the
// macros its body uses, where they are defined in the user's files.
func macroEdits(u *passes.Unit, macro string, call *passes.Node, st *siteTable, seen map[string]bool) edits {
	if seen[macro] {
		return nil
	}
	seen[macro] = true
	var es edits
	for _, d := range u.Macros[macro] {
		toks := d.File.Tokens
		i := sort.Search(len(toks), func(i int) bool { return toks[i].Offset >= d.Pos.Offset })
		for i++; i < len(toks) && toks[i].Offset < d.Pos.End; i++ { // past the macro's own name
			switch t := toks[i]; {
			case t.Spelling == call.Name:
				es = append(es, edit{from: t.Offset, to: t.End, text: st.memoryCallee(call, fmt.Sprintf("%s:%d", d.File.Path, t.Offset)), file: d.File})
			case u.Macros[t.Spelling] != nil:
				es = append(es, macroEdits(u, t.Spelling, call, st, seen)...)
			}
		}
	}
	return es
}

// notGlobalParams finds the pointer parameters of device functions that
// can only point outside the privatized allocations: at every call, in
// every kernel and device function of the file, the argument is an array
// (or a part of one, or such a parameter) that is not a target (a shared
// array, whose warps' copies are not in the allocation table either, or a
// kernel parameter left unprivatized). Accesses through them need no
// hook: sturm(d, e2, n, x) reading a shared matrix in a loop paid a
// lookup of the allocation table for every element. Iterated to a fixed
// point, so parameters handed on from one device function to another
// keep the property; a function whose name is used other than in a call
// (a pointer to it) keeps every parameter hooked. Keyed by the function's
// key, then the parameter's.
func notGlobalParams(u *passes.Unit, a *passes.Analysis, deviceTargets map[string]string) map[string]map[string]bool {
	byKey := map[string]*passes.Func{}
	kernelScope := map[string]map[string]bool{} // kernel key -> its unprivatized params
	for _, f := range u.Funcs {
		byKey[f.Key] = f
	}
	for _, k := range a.Kernels {
		for _, f := range u.Funcs {
			if f.Kernel && f.Name == k.Name && f.Body != nil {
				kernelScope[f.Key] = unprivatizedParams(k, f)
			}
		}
	}
	out := map[string]map[string]bool{}
	for _, f := range u.Funcs {
		if f.Kernel || !f.Device || f.Body == nil {
			continue
		}
		for _, p := range f.Params {
			if isPointerType(p.Type) {
				if out[f.Key] == nil {
					out[f.Key] = map[string]bool{}
				}
				out[f.Key][p.Key] = true
			}
		}
	}
	// A parameter the function assigns (p = out; p++) or takes the
	// address of may come to point anywhere.
	for _, f := range u.Funcs {
		params := out[f.Key]
		if params == nil {
			continue
		}
		f.Body.Walk(func(n *passes.Node) bool {
			if n.Kind == "DeclRefExpr" && params[n.Ref] {
				e := n
				for e.Parent != nil && (e.Parent.Kind == "ParenExpr" || e.Parent.Kind == "UnexposedExpr" && e.Parent.Type == n.Type) {
					e = e.Parent
				}
				q := e.Parent
				switch {
				case q == nil:
				case (q.Kind == "BinaryOperator" || q.Kind == "CompoundAssignOperator") && len(q.Children) > 0 && q.Children[0] == e && (q.Op == "=" || q.Kind == "CompoundAssignOperator"):
					delete(params, n.Ref)
				case q.Kind == "UnaryOperator" && (q.Op == "&" || q.Op == "++" || q.Op == "--"):
					delete(params, n.Ref)
				}
			}
			return true
		})
	}
	// A function named other than as a callee may be called from
	// anywhere.
	for _, f := range u.Funcs {
		if f.Body == nil {
			continue
		}
		f.Body.Walk(func(n *passes.Node) bool {
			if n.Kind == "DeclRefExpr" && out[n.Ref] != nil {
				if p := parentSkippingParens(n); p == nil || !isCallee(n) {
					delete(out, n.Ref)
				}
			}
			return true
		})
	}
	scopes := map[string]*accessScope{}
	for changed := true; changed; {
		changed = false
		for _, f := range u.Funcs {
			if f.Body == nil || (!f.Kernel && !f.Device) {
				continue
			}
			sc := scopes[f.Key]
			if sc == nil {
				sc = newAccessScope(u, f, deviceTargets, kernelScope[f.Key])
				scopes[f.Key] = sc
			}
			for key := range out[f.Key] {
				sc.notGlobal[key] = true
			}
			if f.Kernel && kernelScope[f.Key] == nil {
				continue // not analysed as a kernel: its calls are not checked
			}
			f.Body.Walk(func(n *passes.Node) bool {
				callee := out[n.Ref]
				if n.Kind != "CallExpr" || callee == nil || byKey[n.Ref] == nil {
					return true
				}
				g := byKey[n.Ref]
				for i, p := range g.Params {
					if !callee[p.Key] {
						continue
					}
					if i+1 >= len(n.Children) || !sc.argumentNotGlobal(n.Children[i+1]) {
						delete(callee, p.Key)
						changed = true
					}
				}
				return true
			})
		}
	}
	return out
}

// isCallee reports whether reference n names the function a call calls.
func isCallee(n *passes.Node) bool {
	cur, p := n, n.Parent
	for p != nil && (p.Kind == "ParenExpr" || p.Kind == "UnexposedExpr") {
		cur, p = p, p.Parent
	}
	return p != nil && p.Kind == "CallExpr" && len(p.Children) > 0 && p.Children[0] == cur
}

// argumentNotGlobal reports whether pointer argument n points into memory
// that is not a privatized allocation: an array of sc's notGlobal (or an
// element's address, or an offset from it), or a parameter of it.
func (sc *accessScope) argumentNotGlobal(n *passes.Node) bool {
	n = strip(n)
	if n == nil {
		return false
	}
	switch n.Kind {
	case "DeclRefExpr":
		return sc.notGlobal[n.Ref] && (isArrayType(n.Type) || isPointerType(n.Type))
	case "ArraySubscriptExpr":
		// A row of a multi-dimensional array (L[nxt]), itself an array.
		return isArrayType(n.Type) && len(n.Children) == 2 && sc.argumentNotGlobal(n.Children[0])
	case "BinaryOperator":
		if len(n.Children) != 2 {
			return false
		}
		for _, c := range n.Children {
			if isPointerType(c.Type) || isArrayType(c.Type) {
				return sc.argumentNotGlobal(c)
			}
		}
	case "UnaryOperator":
		if n.Op != "&" || len(n.Children) != 1 {
			return false
		}
		e := strip(n.Children[0])
		return e != nil && e.Kind == "ArraySubscriptExpr" && len(e.Children) == 2 && isArrayType(strip(e.Children[0]).Type) && sc.argumentNotGlobal(e.Children[0])
	}
	return false
}

// newAccessScope collects what body's variables are: locals and shared
// variables of the body, the file's module-scope variables, and (for a
// kernel) its parameters that are not privatized.
func newAccessScope(u *passes.Unit, fn *passes.Func, deviceTargets map[string]string, unprivatizedParams map[string]bool) *accessScope {
	sc := &accessScope{notGlobal: map[string]bool{}, deviceTargets: deviceTargets}
	for _, g := range u.Globals {
		if _, ok := deviceTargets[g.Key]; !ok && !isPointerType(g.Type) {
			sc.notGlobal[g.Key] = true
		}
	}
	fn.Body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && (n.Space == passes.Shared || (n.Space == "" && isArrayType(n.Type))) {
			sc.notGlobal[n.Key] = true
		}
		return true
	})
	for key := range unprivatizedParams {
		sc.notGlobal[key] = true
	}
	return sc
}

// inLambda reports whether n is in a lambda's body, where the enclosing
// kernel's locals (ldc_fs) may not be captured.
func inLambda(n *passes.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Kind == "LambdaExpr" {
			return true
		}
	}
	return false
}
