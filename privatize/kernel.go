package privatize

import (
	"errors"
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
	return unprivatizedParams(kr.k, kr.fn)
}

func unprivatizedParams(k *passes.Kernel, fn *passes.Func) map[string]bool {
	private := map[string]bool{}
	for _, t := range k.Targets {
		if t.Kind == "param" {
			private[t.Name] = true
		}
	}
	for _, u := range k.Unchecked {
		if pi := privateParam(k, u); pi >= 0 {
			private[k.Params[pi].Name] = true
		}
	}
	out := map[string]bool{}
	for _, p := range fn.Params {
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

func (kr *kernelRewrite) text(p passes.Pos) string { return string(kr.src[p.Offset:p.End]) }

// semicolonAfter returns the offset just past the ';' that ends the
// statement whose expression ends at off.
func (kr *kernelRewrite) semicolonAfter(off int) (int, bool) {
	i := sort.Search(len(kr.tokens), func(i int) bool { return kr.tokens[i].Offset >= off })
	if i < len(kr.tokens) && kr.tokens[i].Spelling == ";" {
		return kr.tokens[i].End, true
	}
	return 0, false
}

// rewrite returns the kernel's edits and the macros that save, restore
// and compare its locals. The steps follow the transformation described
// at kernelRewrite. The edits are listed in the order they are made:
// edits.apply keeps that order between edits at one offset that its sort
// ties, and the consumed leaves are tracked by index.
func (kr *kernelRewrite) rewrite() (edits, string, error) {
	locals, byKey := kr.collectLocals()
	shared, sharedOrder := kr.sharedTargetDecls()
	leaves, preds, err := kr.leafEdits(byKey, shared)
	if err != nil {
		return nil, "", err
	}
	hooks, foreign, err := kr.hookEdits(sharedOrder)
	if err != nil {
		return nil, "", err
	}
	leaves = append(leaves, hooks...)

	// Predicate barriers move to statements of their own (predbarrier.go).
	var es edits
	consumed := map[int]bool{}
	if len(preds) > 0 {
		pe, pl, e := kr.predEdits(preds, &leaves, consumed)
		if e != nil {
			return nil, "", e
		}
		es = append(es, pe...)
		locals = append(locals, pl...)
	}
	de, err := kr.declarationEdits(byKey, leaves, consumed)
	if err != nil {
		return nil, "", err
	}
	es = append(es, de...)
	for i, lf := range leaves {
		if !consumed[i] {
			es = append(es, lf)
		}
	}

	// Prologue after the body's '{', epilogue before its '}'.
	pro, err := kr.prologue(locals)
	if err != nil {
		return nil, "", err
	}
	es.insert(kr.fn.Body.Pos.Offset+1, pro, 0)
	for i, n := range sharedOrder {
		if err := kr.sharedCopyEdit(&es, i, n); err != nil {
			return nil, "", err
		}
	}
	kr.dispatchEdits(&es, shared)
	return append(es, foreign...), kr.macros(locals), nil
}

// sharedTargetDecls returns the kernel's own __shared__ declarations that
// are targets, by key and in source order: the order numbers them for the
// runtime's shared-target table.
func (kr *kernelRewrite) sharedTargetDecls() (map[string]*passes.Node, []*passes.Node) {
	targets := map[string]passes.Target{}
	for _, t := range kr.k.Targets {
		targets[t.Name] = t
	}
	shared := map[string]*passes.Node{}
	var order []*passes.Node
	kr.fn.Body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && n.Space == passes.Shared {
			if _, ok := targets[n.Name]; ok {
				shared[n.Key] = n
				order = append(order, n)
			}
		}
		return true
	})
	return shared, order
}

// leafEdits makes the edits of single expressions and statements: renamed
// locals, shared targets redirected to the warp's copy, block barriers
// and returns. Predicate barriers are returned instead, to be moved out
// of their expressions once every other edit is known (predEdits).
func (kr *kernelRewrite) leafEdits(byKey map[string]*local, shared map[string]*passes.Node) (edits, []*predCall, error) {
	K := kr.index
	barrierIDs, predIDs := kr.blockBarriers()
	var leaves edits
	var preds []*predCall
	var err error
	kr.fn.Body.Walk(func(n *passes.Node) bool {
		if err != nil {
			return false
		}
		switch n.Kind {
		case "DeclRefExpr":
			if err = kr.refEdits(&leaves, n, byKey, shared); err != nil {
				return false
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
		return nil, nil, err
	}
	return leaves, preds, nil
}

// blockBarriers returns the kernel's block barrier calls by offset: plain
// ones with their barrier ID, predicate ones (__syncthreads_and, ...)
// with their barrier. Warp barriers end no region.
func (kr *kernelRewrite) blockBarriers() (map[int]int, map[int]passes.Barrier) {
	barrierIDs := map[int]int{}
	predIDs := map[int]passes.Barrier{}
	for _, b := range kr.k.Barriers {
		if !b.Warp && predOps[b.Call] != "" {
			predIDs[b.Pos.Offset] = b
		} else if !b.Warp {
			barrierIDs[b.Pos.Offset] = b.ID
		}
	}
	return barrierIDs, predIDs
}

// refEdits renames a reference to a renamed local and points one to a
// shared target at the warp's copy. A reference spelled through a macro
// cannot be edited in place, hence the errors.
func (kr *kernelRewrite) refEdits(leaves *edits, n *passes.Node, byKey map[string]*local, shared map[string]*passes.Node) error {
	if l := byKey[n.Ref]; l != nil && l.name != n.Name {
		if kr.text(n.Pos) != n.Name {
			return fmt.Errorf("line %d: local %s is used inside a macro and must be renamed; rename it by hand", n.Pos.Line, n.Name)
		}
		leaves.replace(n.Pos.Offset, n.Pos.End, l.name)
	}
	if decl, ok := shared[n.Ref]; ok {
		if kr.text(n.Pos) != n.Name {
			return fmt.Errorf("line %d: shared variable %s is used inside a macro; ldcheck cannot redirect it", n.Pos.Line, n.Name)
		}
		if decl.Extern {
			leaves.replace(n.Pos.Offset, n.Pos.End, "ldc_p_"+n.Name)
		} else {
			leaves.replace(n.Pos.Offset, n.Pos.End, "(*ldc_p_"+n.Name+")")
		}
	}
	return nil
}

// hookEdits makes the edits that route the kernel's operations through
// the runtime's hooks, in this order (the build's sites are numbered as
// they are met): once-only operations, global loads and stores, traced
// shared accesses, memcpy and memset, and shared stores. It returns the
// edits in this function's text and, apart, those of other files (a
// macro's definition), which are not leaves.
func (kr *kernelRewrite) hookEdits(sharedOrder []*passes.Node) (own, foreign edits, err error) {
	body := kr.fn.Body
	own = append(own, kr.onceOnlyEdits()...)
	// Global loads and stores go through the copy-on-write hooks.
	sc := newAccessScope(kr.unit, kr.fn, kr.deviceTargets, kr.unprivatizedParams())
	sc.kernel = true
	ae, problems := accessEdits(body, sc, kr.sites)
	if len(problems) > 0 {
		return nil, nil, errors.New(problems[0])
	}
	own = append(own, ae...)
	// Accesses whose region runs once only if a stride is not 0 test it
	// there (passes.Condition), outside every other wrapper.
	for _, c := range kr.k.Conditions {
		macro := "LDC_COND("
		if c.Target {
			macro = fmt.Sprintf("LDC_TEST(%d, ", c.Line)
		}
		own.insert(c.Offset, "("+macro+c.Expr+"), ", -3000)
		own.insert(c.End, ")", 3000)
	}
	// Accesses to shared targets are traced too (the tracing module only).
	// They also note themselves for the intra-warp check (LDC_TRS, with
	// the target's index).
	sharedKeys := map[string]int{}
	for i, n := range sharedOrder {
		sharedKeys[n.Key] = i
	}
	own = append(own, sharedTraceEdits(body, sharedKeys, kr.sites)...)
	for _, e := range memoryCallEdits(body, kr.fn.File, kr.unit, kr.sites) {
		if e.file != nil {
			foreign = append(foreign, e)
		} else {
			own = append(own, e)
		}
	}
	if len(sharedOrder) > 0 {
		own = append(own, kr.sharedStoreEdits(sharedOrder)...)
	}
	return own, foreign, nil
}

// onceOnlyEdits makes atomics, printf and reads of atomically updated
// variables run once. Every __shared__ variable of the kernel, target or
// not, is shared for this: its atomics are the block's, not the thread's.
func (kr *kernelRewrite) onceOnlyEdits() edits {
	once := *kr.once
	once.shared = map[string]bool{}
	for key := range kr.once.shared {
		once.shared[key] = true
	}
	kr.fn.Body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && n.Space == passes.Shared {
			once.shared[n.Key] = true
		}
		return true
	})
	oe, _ := onceEdits(kr.fn.Body, &once)
	return oe
}

// sharedStoreEdits makes the stores to shared targets note what they
// write, and records in kr whether every store could be tracked
// (sharedWriteEdits): the manifest tells the runtime.
func (kr *kernelRewrite) sharedStoreEdits(sharedOrder []*passes.Node) edits {
	targets := map[string]sharedTarget{}
	for i, n := range sharedOrder {
		bytes := fmt.Sprintf("sizeof(*ldc_p_%s)", n.Name)
		if n.Extern {
			bytes = fmt.Sprintf("ldc_g.shared_bytes[%d]", i)
		}
		targets[n.Key] = sharedTarget{name: n.Name, bytes: bytes}
	}
	var sw edits
	var funcs map[string]*passes.Func
	if kr.once != nil {
		funcs = kr.once.userFuncs
	}
	sw, kr.sharedTracked, kr.sharedUntracked = sharedWriteEdits(kr.fn.Body, targets, kr.src, funcs)
	return sw
}

// prologue is what goes right after the body's '{': the hoisted locals,
// the thread's state and the areas its locals are saved in at a region's
// start and end.
func (kr *kernelRewrite) prologue(locals []*local) (string, error) {
	K := kr.index
	var decls []string
	for _, l := range locals {
		d, e := declare(l.node.Type, l.name)
		if e != nil {
			return "", fmt.Errorf("line %d: %v", l.node.Pos.Line, e)
		}
		decls = append(decls, d)
	}
	var pro strings.Builder
	pro.WriteString(" " + strings.Join(decls, " "))
	// LDC_FAST_DECL: the region state the one-pass module keeps in
	// registers (struct ldc_fast); on a GPU it also returns from a block
	// of a level-1 pass that is already void (ldc_pool_stopped), which is
	// why it comes before any of the kernel's code.
	fmt.Fprintf(&pro, " ldc_thread ldc_t; ldc_begin(&ldc_t, LDC_UNIFORM_ENDS_%d); LDC_FAST_DECL;", K)
	if kr.selfNeeded {
		pro.WriteString(" LDC_SELF_SET();")
	}
	// Aligned areas and 8-byte slots (LDC_SLOT) let the compiler save and
	// compare whole words, and keep the areas in registers where it can.
	fmt.Fprintf(&pro, " alignas(16) unsigned char ldc_start[LDC_LOCALS_SIZE_%d], ldc_end[LDC_LOCALS_SIZE_%d];", K, K)
	return pro.String(), nil
}

// sharedCopyEdit sets up the warp's copy of shared target number i right
// after its declaration n (it must be in scope); everything after that
// may be re-entered.
func (kr *kernelRewrite) sharedCopyEdit(es *edits, i int, n *passes.Node) error {
	stmt := n
	if n.Parent != nil && n.Parent.Kind == "DeclStmt" {
		stmt = n.Parent
	}
	end := stmt.Pos.End
	if !strings.HasSuffix(kr.text(stmt.Pos), ";") {
		e, ok := kr.semicolonAfter(stmt.Pos.End)
		if !ok {
			return fmt.Errorf("line %d: cannot find the end of the declaration of %s", n.Pos.Line, n.Name)
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
			return fmt.Errorf("line %d: declare extern __shared__ %s on its own line", n.Pos.Line, n.Name)
		}
		elem := strings.TrimSpace(strings.TrimSuffix(n.Type, "[]"))
		es.replace(stmt.Pos.Offset, end, fmt.Sprintf("LDC_DYNAMIC_SHARED(%s, %s); %s *ldc_p_%s = (%s *)ldc_shared_copy(&ldc_t, %d, (void *)%s, 0);%s LDC_TR_SHARED(%d, ldc_p_%s);", elem, n.Name, elem, n.Name, elem, i, n.Name, flags, i, n.Name))
		return nil
	}
	es.insert(end, fmt.Sprintf(" decltype(&%s) ldc_p_%s = (decltype(&%s))ldc_shared_copy(&ldc_t, %d, (void *)&%s, sizeof(%s));%s LDC_TR_SHARED(%d, ldc_p_%s);", n.Name, n.Name, n.Name, i, n.Name, n.Name, flags, i, n.Name), 0)
	return nil
}

// dispatchEdits adds the region entry (a replayed region jumps from the
// ldc_dispatch switch to its start label) and the exit all returns jump
// to, which ends the thread's last region like a barrier.
func (kr *kernelRewrite) dispatchEdits(es *edits, shared map[string]*passes.Node) {
	K, body := kr.index, kr.fn.Body
	var labels []string
	for _, b := range kr.k.Barriers {
		if !b.Warp {
			labels = append(labels, fmt.Sprintf("case %d: goto ldc_r_%d_%d;", b.ID, K, b.ID))
		}
	}
	entry := fmt.Sprintf(" LDC_SAVE_%d(ldc_start); ldc_dispatch_%d: switch (LDC_RESUME(ldc_t.start)) { %s default: break; } ldc_r_%d_entry:;",
		K, K, strings.Join(labels, " "), K)
	es.insert(firstStatementOffset(body, shared), entry, 1)
	// LDC_TR_BAR logs the value of the thread's last traced store before
	// the region ends (the tracing module only).
	es.insert(body.Pos.End-1, fmt.Sprintf(" ldc_exit_%d: LDC_TR_BAR(-1); LDC_EXIT(%d); ", K, K), 0)
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

// refersTo reports whether expression n mentions one of the declarations.
func refersTo(n *passes.Node, keys map[string]bool) bool {
	found := false
	n.Walk(func(c *passes.Node) bool {
		found = found || (c.Kind == "DeclRefExpr" && keys[c.Ref])
		return !found
	})
	return found
}
