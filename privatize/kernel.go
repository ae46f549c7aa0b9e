package privatize

import (
	"fmt"
	"sort"
	"strings"

	"ldcheck/passes"
)

// kernelRewrite instruments one kernel. The transformation, for kernel
// number K:
//
//   - every local variable is declared at the top of the body (renamed when
//     names collide) and its declarations become assignments, so that the
//     region-start labels can be re-entered with goto;
//   - every reference to a shared target becomes (*ldc_p_NAME), a pointer
//     to the current warp's private copy, and every load and store that may
//     touch a global target goes through the copy-on-write hooks (access.go);
//   - every block barrier becomes a hook that, in replay mode, saves the
//     thread's locals, lets the block check the region and, for the first
//     pass, restores the locals and jumps back to the region's start
//     (ldc_r_K_ID labels, reached through the ldc_dispatch_K switch);
//   - return becomes a jump to ldc_exit_K, where the exit is a region end
//     like a barrier and a finished thread keeps taking part in its block's
//     checks until every thread is done;
//   - atomics and printf run once: in the second pass an atomic returns
//     the value it returned in the first.
type kernelRewrite struct {
	src    []byte
	index  int
	k      *passes.Kernel
	fn     *passes.Func
	tokens []passes.Token
	// deviceTargets are the module-scope targets of the file, by key.
	deviceTargets map[string]string
	unit          *passes.Unit
	// sharedTracked and sharedUntracked are rewrite's verdict on the
	// kernel's shared stores (sharedWriteEdits).
	sharedTracked   bool
	sharedUntracked string
	// once: the kernel's onceScope (its own __shared__ variables are
	// added by rewrite); selfNeeded: a device function it calls has
	// once-only operations and reaches the thread's state via LDC_SELF.
	once         *onceScope
	selfNeeded   bool
	atomicParams map[string]map[int]bool
	// sites collects the build's traced accesses (trace.go).
	sites *siteTable
}

// unprivatizedParams returns the declaration keys of the kernel's pointer
// parameters that are not privatized: their memory is not in the
// runtime's allocation table, so accesses through them need no hook.
func (kr *kernelRewrite) unprivatizedParams() map[string]bool {
	private := map[string]bool{}
	for _, t := range kr.k.Targets {
		if t.Kind == "param" {
			private[t.Name] = true
		}
	}
	for _, u := range kr.k.Unchecked {
		if pi := privateParam(kr.k, u); pi >= 0 {
			private[kr.k.Params[pi].Name] = true
		}
	}
	out := map[string]bool{}
	for _, p := range kr.fn.Params {
		if !private[p.Name] {
			out[p.Key] = true
		}
	}
	return out
}

// unsupported returns why the kernel cannot be instrumented, or "".
func (kr *kernelRewrite) unsupported(u *passes.Unit, a *passes.Analysis) string {
	k := kr.k
	if kr.fn == nil {
		return "internal error: kernel body not found"
	}
	if k.Template {
		return "template kernels are not instrumented yet (write a non-template wrapper kernel to check one instantiation)"
	}
	for _, b := range k.Barriers {
		if b.Context == "device-function" {
			return fmt.Sprintf("the barrier in device function %s (called at line %d) would end a region inside a call; inline %s into the kernel", b.Via, b.Pos.Line, b.Via)
		}
		if !b.Warp && b.Call != "__syncthreads" && b.Call != "thread_block::sync" && b.Call != "cooperative_groups::sync" && predOps[b.Call] == "" {
			return fmt.Sprintf("%s at line %d: only __syncthreads(), __syncthreads_and/or/count() and block.sync() can be replayed so far", b.Call, b.Pos.Line)
		}
	}
	for _, d := range a.Diagnostics {
		if strings.Contains(d.Message, "kernel "+k.Name+" will not be instrumented") {
			return fmt.Sprintf("line %d: %s", d.Line, d.Message)
		}
	}
	var reason string
	kr.fn.Body.Walk(func(n *passes.Node) bool {
		if reason != "" {
			return false
		}
		switch {
		case n.Kind == "VarDecl" && n.Space == "" && strings.Contains(n.Type, "&"):
			reason = fmt.Sprintf("line %d: reference variable %s cannot be re-entered by region replay; use a pointer", n.Pos.Line, n.Name)
		case n.Kind == "CXXForRangeStmt":
			reason = fmt.Sprintf("line %d: range-based for loops are not supported by region replay; use an index loop", n.Pos.Line)
		case n.Kind == "LambdaExpr":
			reason = fmt.Sprintf("line %d: lambdas in kernels are not supported yet", n.Pos.Line)
		case n.Kind == "VarDecl" && n.Space == "" && strings.HasPrefix(string(kr.src[n.Pos.Offset:min(n.Pos.End, len(kr.src))]), "static"):
			reason = fmt.Sprintf("line %d: static local %s is not supported", n.Pos.Line, n.Name)
		}
		return true
	})
	if reason != "" {
		return reason
	}
	// Atomics in called device functions run once, as global ones.
	shared := map[string]bool{}
	for key := range kr.once.shared {
		shared[key] = true
	}
	kr.fn.Body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && n.Space == passes.Shared {
			shared[n.Key] = true
		}
		return true
	})
	if r := sharedAtomicThroughParam(kr.fn.Body, shared, kr.atomicParams); r != "" {
		return r
	}
	calls := map[string]bool{}
	for _, c := range k.Calls {
		calls[c] = true
	}
	for _, f := range u.Funcs {
		if calls[f.Name] && f.Body != nil {
			if r := sharedAtomicThroughParam(f.Body, kr.once.shared, kr.atomicParams); r != "" {
				return r
			}
		}
	}
	return reason
}

// local is a kernel-local variable to hoist.
type local struct {
	node *passes.Node
	name string // after renaming
}

func (kr *kernelRewrite) text(p passes.Pos) string { return string(kr.src[p.Offset:p.End]) }

// declare renders a declaration of name with the given type spelling,
// dropping top-level const (the variable is assigned later) and volatile
// (the locals are saved and compared by plain byte copies; a thread's own
// variable is not shared, so volatile has nothing to order).
func declare(typ, name string) (string, error) {
	t := dropTopQualifiers(strings.TrimSpace(typ))
	if strings.Contains(t, "(") || strings.Contains(t, "auto") || strings.Contains(t, "lambda") {
		return "", fmt.Errorf("cannot hoist local %s of type %s", name, typ)
	}
	// Value-initialised: a local read before it is written must still hold
	// one definite value, or the compiler may save and compare different
	// garbage at each end of a replayed region.
	if i := strings.IndexByte(t, '['); i >= 0 {
		return strings.TrimSpace(t[:i]) + " " + name + t[i:] + "{};", nil
	}
	return t + " " + name + "{};", nil
}

// dropTopQualifiers removes the const and volatile of the variable itself
// ("const int", "volatile float [4]", "float *const volatile"), not a
// pointee's ("const float *").
func dropTopQualifiers(t string) string {
	for {
		before := t
		for _, q := range []string{"const", "volatile"} {
			if rest, ok := strings.CutSuffix(t, q); ok && rest != "" && (rest[len(rest)-1] == ' ' || rest[len(rest)-1] == '*') {
				t = strings.TrimSpace(rest)
			}
			if rest, ok := strings.CutPrefix(t, q+" "); ok && !strings.Contains(t, "*") {
				t = strings.TrimSpace(rest)
			}
		}
		if t == before {
			return t
		}
	}
}

// semicolonAfter returns the offset just past the ';' that ends the
// statement whose expression ends at off.
func (kr *kernelRewrite) semicolonAfter(off int) (int, bool) {
	i := sort.Search(len(kr.tokens), func(i int) bool { return kr.tokens[i].Offset >= off })
	if i < len(kr.tokens) && kr.tokens[i].Spelling == ";" {
		return kr.tokens[i].End, true
	}
	return 0, false
}

func (kr *kernelRewrite) rewrite() (edits, string, error) {
	k, body := kr.k, kr.fn.Body
	K := kr.index
	var es edits

	// Locals: collect, rename on collisions, hoist.
	var locals []*local
	byKey := map[string]*local{}
	taken := map[string]bool{}
	for _, p := range k.Params {
		taken[p.Name] = true
	}
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && n.Space == "" {
			l := &local{node: n, name: n.Name}
			for i := 2; taken[l.name]; i++ {
				l.name = fmt.Sprintf("%s_ldc%d", n.Name, i)
			}
			taken[l.name] = true
			locals = append(locals, l)
			byKey[n.Key] = l
		}
		return true
	})

	targets := map[string]passes.Target{}
	for _, t := range k.Targets {
		targets[t.Name] = t
	}
	shared := map[string]*passes.Node{} // shared target declarations by key
	var sharedOrder []*passes.Node
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && n.Space == passes.Shared {
			if _, ok := targets[n.Name]; ok {
				shared[n.Key] = n
				sharedOrder = append(sharedOrder, n)
			}
		}
		return true
	})

	allShared := map[string]bool{} // every __shared__ variable, target or not
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && n.Space == passes.Shared {
			allShared[n.Key] = true
		}
		return true
	})

	// Leaf edits: references, barriers, returns, atomics.
	var leaves edits
	var err error
	barrierIDs := map[int]int{} // call offset -> barrier ID
	predIDs := map[int]passes.Barrier{}
	for _, b := range k.Barriers {
		if !b.Warp && predOps[b.Call] != "" {
			predIDs[b.Pos.Offset] = b
		} else if !b.Warp {
			barrierIDs[b.Pos.Offset] = b.ID
		}
	}
	var preds []*predCall
	body.Walk(func(n *passes.Node) bool {
		if err != nil {
			return false
		}
		switch n.Kind {
		case "DeclRefExpr":
			if l := byKey[n.Ref]; l != nil && l.name != n.Name {
				if kr.text(n.Pos) != n.Name {
					err = fmt.Errorf("line %d: local %s is used inside a macro and must be renamed; rename it by hand", n.Pos.Line, n.Name)
					return false
				}
				leaves.replace(n.Pos.Offset, n.Pos.End, l.name)
			}
			if _, ok := shared[n.Ref]; ok {
				if kr.text(n.Pos) != n.Name {
					err = fmt.Errorf("line %d: shared variable %s is used inside a macro; ldcheck cannot redirect it", n.Pos.Line, n.Name)
					return false
				}
				if shared[n.Ref].Extern {
					leaves.replace(n.Pos.Offset, n.Pos.End, "ldc_p_"+n.Name)
				} else {
					leaves.replace(n.Pos.Offset, n.Pos.End, "(*ldc_p_"+n.Name+")")
				}
			}
		case "CallExpr":
			if b, ok := predIDs[n.Pos.Offset]; ok && n.Name == b.Call {
				preds = append(preds, &predCall{node: n, id: b.ID, call: b.Call})
				return true // the predicate's own references are rewritten
			}
			if id, ok := barrierIDs[n.Pos.Offset]; ok {
				end, ok := kr.semicolonAfter(n.Pos.End)
				if !ok || n.Parent == nil || !isStatementParent(n.Parent) {
					err = fmt.Errorf("line %d: a barrier must be a statement of its own to be replayed", n.Pos.Line)
					return false
				}
				leaves.replace(n.Pos.Offset, end, barrierHook(K, id))
				return false
			}
		case "ReturnStmt":
			end, ok := kr.semicolonAfter(n.Pos.End)
			if !ok {
				end = n.Pos.End
			}
			leaves.replace(n.Pos.Offset, end, fmt.Sprintf("{ goto ldc_exit_%d; }", K))
			return false
		}
		return true
	})
	if err != nil {
		return nil, "", err
	}
	// Atomics, printf and reads of atomically updated variables run once.
	once := *kr.once
	once.shared = map[string]bool{}
	for key := range kr.once.shared {
		once.shared[key] = true
	}
	for key := range allShared {
		once.shared[key] = true
	}
	oe, _ := onceEdits(body, &once)
	leaves = append(leaves, oe...)
	// Global loads and stores go through the copy-on-write hooks.
	leaves = append(leaves, accessEdits(body, newAccessScope(kr.unit, kr.fn, kr.deviceTargets, kr.unprivatizedParams()), kr.sites)...)
	// Accesses to shared targets are traced too (the tracing module only).
	// They also note themselves for the intra-warp check (LDC_TRS, with
	// the target's index).
	sharedKeys := map[string]int{}
	for i, n := range sharedOrder {
		sharedKeys[n.Key] = i
	}
	leaves = append(leaves, sharedTraceEdits(body, sharedKeys, kr.sites)...)
	// Edits of other files (a macro's definition) stay out of the leaves,
	// which are this function's offsets.
	var foreign edits
	for _, e := range memoryCallEdits(body, kr.fn.File, kr.unit, kr.sites) {
		if e.file != nil {
			foreign = append(foreign, e)
		} else {
			leaves = append(leaves, e)
		}
	}
	if len(sharedOrder) > 0 {
		targets := map[string]sharedTarget{}
		for i, n := range sharedOrder {
			bytes := fmt.Sprintf("sizeof(*ldc_p_%s)", n.Name)
			if n.Extern {
				bytes = fmt.Sprintf("ldc_g.shared_bytes[%d]", i)
			}
			targets[n.Key] = sharedTarget{name: n.Name, bytes: bytes}
		}
		var sw edits
		sw, kr.sharedTracked, kr.sharedUntracked = sharedWriteEdits(body, targets, kr.src)
		leaves = append(leaves, sw...)
	}

	// Predicate barriers move to statements of their own (predbarrier.go).
	consumed := map[int]bool{}
	if len(preds) > 0 {
		pe, pl, e := kr.predEdits(preds, &leaves, consumed)
		if e != nil {
			return nil, "", e
		}
		es = append(es, pe...)
		locals = append(locals, pl...)
	}

	// Declarations become assignments; the edits inside an initializer are
	// applied to its text here and dropped from the leaves.
	body.Walk(func(n *passes.Node) bool {
		if err != nil || n.Kind != "DeclStmt" {
			return err == nil
		}
		var parts []string
		allLocal := true
		for _, c := range n.Children {
			if c.Kind != "VarDecl" || byKey[c.Key] == nil {
				allLocal = false
			}
		}
		if !allLocal {
			return true
		}
		for _, c := range n.Children {
			l := byKey[c.Key]
			init := kr.initializer(c)
			if init == nil {
				continue
			}
			text := ""
			if !kr.implicitConstruction(init) {
				var e error
				text, e = kr.subApply(leaves, init.Pos, consumed)
				if e != nil {
					err = e
					return false
				}
			}
			declText := string(kr.src[c.Pos.Offset:init.Pos.Offset])
			switch {
			case kr.implicitConstruction(init) && strings.Contains(c.Type, "["):
				// The hoisted declaration constructs the elements once.
			case kr.implicitConstruction(init):
				// Constructed again at each pass through the declaration,
				// as written: a constructor may set fields.
				parts = append(parts, fmt.Sprintf("%s = decltype(%s)()", l.name, l.name))
			case init.Kind == "InitListExpr" || strings.Contains(c.Type, "["):
				tmp, e := declare(c.Type, "ldc_init")
				if e != nil {
					err = fmt.Errorf("line %d: %v", c.Pos.Line, e)
					return false
				}
				parts = append(parts, fmt.Sprintf("{ %s memcpy(&%s, &ldc_init, sizeof(%s)); }", strings.TrimSuffix(tmp, "{};")+" = "+text+";", l.name, l.name))
			case !strings.Contains(declText, "="):
				err = fmt.Errorf("line %d: direct initialisation of %s (write %s = ...)", c.Pos.Line, c.Name, c.Name)
				return false
			default:
				parts = append(parts, l.name+" = "+text)
			}
		}
		end := n.Pos.End
		inFor := n.Parent != nil && n.Parent.Kind == "ForStmt"
		var repl string
		if inFor {
			// for (int i = 0, j = 1; ...): the DeclStmt includes its ';'.
			repl = strings.Join(parts, ", ") + ";"
		} else {
			if e, ok := kr.semicolonAfter(end); ok && !strings.HasSuffix(kr.text(n.Pos), ";") {
				end = e
			}
			var stmts []string
			for _, p := range parts {
				if strings.HasPrefix(p, "{") {
					stmts = append(stmts, p)
				} else {
					stmts = append(stmts, p+";")
				}
			}
			repl = strings.Join(stmts, " ")
			if repl == "" {
				repl = ";"
			}
		}
		es.replace(n.Pos.Offset, end, repl)
		// Leaves inside the whole statement are now either consumed or
		// outside initializers (names), which the replacement drops.
		for i, lf := range leaves {
			if lf.from >= n.Pos.Offset && lf.to <= end {
				consumed[i] = true
			}
		}
		return false
	})
	if err != nil {
		return nil, "", err
	}
	for i, lf := range leaves {
		if !consumed[i] {
			es = append(es, lf)
		}
	}

	// Prologue after the body's '{', epilogue before its '}'.
	var decls []string
	for _, l := range locals {
		d, e := declare(l.node.Type, l.name)
		if e != nil {
			return nil, "", fmt.Errorf("line %d: %v", l.node.Pos.Line, e)
		}
		decls = append(decls, d)
	}
	var pro strings.Builder
	pro.WriteString(" " + strings.Join(decls, " "))
	fmt.Fprintf(&pro, " ldc_thread ldc_t; ldc_begin(&ldc_t);")
	if kr.selfNeeded {
		pro.WriteString(" LDC_SELF_SET();")
	}
	// Aligned areas and 8-byte slots (LDC_SLOT) let the compiler save and
	// compare whole words, and keep the areas in registers where it can.
	fmt.Fprintf(&pro, " alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_%d], ldc_end[LDC_LOCALS_SIZE_%d];", K, K)
	es.insert(body.Pos.Offset+1, pro.String(), 0)

	// Shared target copies are set up right after each declaration (it must
	// be in scope); everything after that may be re-entered.
	for i, n := range sharedOrder {
		stmt := n
		if n.Parent != nil && n.Parent.Kind == "DeclStmt" {
			stmt = n.Parent
		}
		end := stmt.Pos.End
		if !strings.HasSuffix(kr.text(stmt.Pos), ";") {
			e, ok := kr.semicolonAfter(stmt.Pos.End)
			if !ok {
				return nil, "", fmt.Errorf("line %d: cannot find the end of the declaration of %s", n.Pos.Line, n.Name)
			}
			end = e
		}
		flags := ""
		if kr.sharedTracked {
			flags = fmt.Sprintf(" unsigned *ldc_f_%s = ldc_shared_flags(%d);", n.Name, i)
		}
		if n.Extern {
			// extern __shared__ T name[]: the backends declare the dynamic
			// buffer their own way; the warp's copy is a plain T pointer.
			if len(stmt.Children) != 1 {
				return nil, "", fmt.Errorf("line %d: declare extern __shared__ %s on its own line", n.Pos.Line, n.Name)
			}
			elem := strings.TrimSpace(strings.TrimSuffix(n.Type, "[]"))
			es.replace(stmt.Pos.Offset, end, fmt.Sprintf("LDC_DYNAMIC_SHARED(%s, %s); %s *ldc_p_%s = (%s *)ldc_shared_copy(&ldc_t, %d, (void *)%s, 0);%s LDC_TR_SHARED(%d, ldc_p_%s);", elem, n.Name, elem, n.Name, elem, i, n.Name, flags, i, n.Name))
			continue
		}
		es.insert(end, fmt.Sprintf(" decltype(&%s) ldc_p_%s = (decltype(&%s))ldc_shared_copy(&ldc_t, %d, (void *)&%s, sizeof(%s));%s LDC_TR_SHARED(%d, ldc_p_%s);", n.Name, n.Name, n.Name, i, n.Name, n.Name, flags, i, n.Name), 0)
	}
	var labels []string
	for _, b := range k.Barriers {
		if !b.Warp {
			labels = append(labels, fmt.Sprintf("case %d: goto ldc_r_%d_%d;", b.ID, K, b.ID))
		}
	}
	entry := fmt.Sprintf(" LDC_SAVE_%d(ldc_start); ldc_dispatch_%d: switch (ldc_t.start) { %s default: break; } ldc_r_%d_entry:;",
		K, K, strings.Join(labels, " "), K)
	es.insert(firstStatementOffset(body, shared), entry, 1)
	// LDC_TR_BAR logs the value of the thread's last traced store before
	// the region ends (the tracing module only).
	es.insert(body.Pos.End-1, fmt.Sprintf(" ldc_exit_%d: LDC_TR_BAR(-1); LDC_EXIT(%d); ", K, K), 0)

	return append(es, foreign...), kr.macros(locals), nil
}

// firstStatementOffset is where the re-enterable part of the body starts:
// after the last shared declaration that is a target (their copy pointers
// must be set up before any region starts), else right after '{'.
func firstStatementOffset(body *passes.Node, shared map[string]*passes.Node) int {
	off := body.Pos.Offset + 1
	for _, c := range body.Children {
		if c.Kind == "DeclStmt" {
			for _, v := range c.Children {
				if _, ok := shared[v.Key]; ok && c.Pos.End > off {
					off = c.Pos.End
				}
			}
		}
	}
	return off
}

func isStatementParent(p *passes.Node) bool {
	switch p.Kind {
	case "CompoundStmt", "IfStmt", "ForStmt", "WhileStmt", "DoStmt", "CaseStmt", "DefaultStmt", "LabelStmt":
		return true
	}
	return false
}

// initializer returns a VarDecl's initializer expression, or nil.
func (kr *kernelRewrite) initializer(v *passes.Node) *passes.Node {
	return v.Init
}

// implicitConstruction says whether init is the construction clang
// supplies for a class-type variable declared without an initializer
// ("S s;"): a constructor call with no arguments and no parentheses.
func (kr *kernelRewrite) implicitConstruction(init *passes.Node) bool {
	return init.Kind == "CallExpr" && len(init.Children) == 0 && !strings.ContainsAny(kr.text(init.Pos), "({")
}

// subApply returns the text of p with the leaf edits inside it applied,
// marking them consumed.
func (kr *kernelRewrite) subApply(leaves edits, p passes.Pos, consumed map[int]bool) (string, error) {
	var inner edits
	for i, lf := range leaves {
		if consumed[i] {
			continue // applied already, as part of a text that moved
		}
		if lf.from >= p.Offset && lf.to <= p.End && !(lf.from == lf.to && (lf.from == p.End && lf.order == 0 || lf.from == p.Offset && lf.order == 1)) {
			inner = append(inner, edit{from: lf.from - p.Offset, to: lf.to - p.Offset, text: lf.text, order: lf.order})
			consumed[i] = true
		}
	}
	return inner.apply(kr.src[p.Offset:p.End])
}

// barrierHook is what a block barrier statement becomes.
func barrierHook(K, id int) string {
	// LDC_TR_BAR (the tracing module only) logs the value of the thread's
	// last traced store before other threads can overwrite it, and starts
	// its next region.
	return fmt.Sprintf("{ LDC_TR_BAR(%d); LDC_BARRIER(%d, %d); ldc_r_%d_%d:; }", id, K, id, K, id)
}

// macros defines, before the user's code, the per-kernel save, restore
// and compare of the thread's locals (the state a replayed region must
// start from and the live-out values compared between passes).
func (kr *kernelRewrite) macros(locals []*local) string {
	K := kr.index
	var size, put, get, cmp []string
	for _, l := range locals {
		size = append(size, "LDC_SLOT(sizeof("+l.name+"))")
		put = append(put, "LDC_PUT(ldc_q, "+l.name+");")
		get = append(get, "LDC_GET(ldc_q, "+l.name+");")
		cmp = append(cmp, compareLocal(l))
	}
	size = append(size, "1")
	var b strings.Builder
	fmt.Fprintf(&b, "// kernel %s\n", kr.k.Name)
	fmt.Fprintf(&b, "#define LDC_LOCALS_SIZE_%d (%s)\n", K, strings.Join(size, " + "))
	fmt.Fprintf(&b, "#define LDC_SAVE_%d(B) do { unsigned char *ldc_q = (B); %s (void)ldc_q; } while (0)\n", K, strings.Join(put, " "))
	fmt.Fprintf(&b, "#define LDC_LOAD_%d(B) do { const unsigned char *ldc_q = (B); %s (void)ldc_q; } while (0)\n", K, strings.Join(get, " "))
	fmt.Fprintf(&b, "#define LDC_DIFF_%d(B) do { const unsigned char *ldc_q = (B); int ldc_d = 0; %s ldc_t.differ = ldc_d; } while (0)\n", K, strings.Join(cmp, " "))
	return b.String()
}

// compareLocal is the statement of LDC_DIFF that compares local l with
// its saved copy: byte for byte, or, for a struct with padding, only the
// bytes that hold its members (see passes.Node.ValueBytes). The pieces
// are the analysis's layout; should the compiler's differ (sizeof tells),
// the whole variable is compared.
func compareLocal(l *local) string {
	whole := "LDC_CMP(ldc_q, ldc_d, " + l.name + ");"
	vb := l.node.ValueBytes
	if len(vb) == 0 || l.node.Size <= 0 {
		return whole
	}
	var b strings.Builder
	fmt.Fprintf(&b, "if (sizeof(%s) == %d) {", l.name, l.node.Size)
	for _, r := range vb {
		fmt.Fprintf(&b, " LDC_CMP_AT(ldc_q, ldc_d, %s, %d, %d);", l.name, r[0], r[1]-r[0])
	}
	fmt.Fprintf(&b, " ldc_q += LDC_SLOT(sizeof(%s)); } else %s", l.name, whole)
	return b.String()
}

// refersTo reports whether expression n mentions one of the declarations.
func refersTo(n *passes.Node, keys map[string]bool) bool {
	found := false
	n.Walk(func(c *passes.Node) bool {
		found = found || (c.Kind == "DeclRefExpr" && keys[c.Ref])
		return !found
	})
	return found
}
