package privatize

import (
	"fmt"
	"strings"

	"ldcheck/passes"
	"ldcheck/privatize/manifest"
)

// Once-only operations. A replayed region, and the second of level 1's
// launches, must not repeat what cannot be put back: atomics (their value
// comes from the log), printf, and plain reads of variables that atomics
// update (their value comes from the log too: the unit's own atomics took
// effect in the first run and would change what it reads in the second,
// a unit racing with itself). The same treatment holds in the kernel body
// and in the device functions it calls; the latter reach the thread's
// replay state through LDC_SELF.

// onceScope is what onceEdits needs to know of a function body.
type onceScope struct {
	// shared holds the declaration keys of __shared__ variables: memory
	// that starts afresh in every launch, so its atomics run in every
	// launch and replay only within one.
	shared map[string]bool
	// atomic holds the declaration keys of variables whose memory atomics
	// update (passes.AtomicVars).
	atomic map[string]bool
	// userFuncs: functions defined in the user's files, by key. A call to
	// one named atomicXxx is not itself an atomic: its body gets the
	// treatment.
	userFuncs map[string]*passes.Func
	// sites: the build's site table; the atomics and the plain accesses of
	// atomically updated variables are sites, which name the two
	// statements of an atomic-plain race.
	sites *siteTable
	// kernel is the kernel's analysis when body is a kernel's (nil for a
	// device function): its regions tell which accesses can meet.
	kernel *passes.Kernel
	// plainNotes is set, for the whole module (every scope shares it),
	// when a plain access is noted for the atomic-plain check.
	plainNotes *bool
}

// onceEdits wraps the once-only operations of body. It says whether
// there were any (a device function then needs LDC_SELF).
//
// An atomic call FN(p, args) becomes LDC_AOP(FN, SITE, SH, NR, BASE)(p,
// args): its operands are evaluated in every run (a replay used to skip
// them, and with them the reads of atomically updated variables they
// hold), its access noted for the atomic-plain check, the atomic itself
// run once. Plain reads and writes of variables that atomics update go
// through LDC_AP_PLAIN, which notes them for the same check.
func onceEdits(body *passes.Node, sc *onceScope) (edits, bool) {
	var es edits
	cas := casTargets(body)
	quiet := quietSharedVars(body, sc)
	address := map[*passes.Node]bool{} // atomics' address operands: not reads
	body.Walk(func(n *passes.Node) bool {
		switch {
		case n.Kind == "UnaryExpr" || address[n]:
			return false // sizeof/alignof: not evaluated
		case isCheckedAtomic(n, sc):
			sh := 0
			if refersTo(n.Children[1], sc.shared) {
				sh = 1
			}
			nr := 0
			if passes.ResultDiscarded(n) {
				// Nothing to replay: the second run just skips it, and
				// the log needs no room for it (histograms do thousands).
				nr = 1
			}
			site := -2 // not noted (see quietSharedVars)
			if b := passes.BaseVariable(n.Children[1]); b == nil || !quiet[b.Ref] {
				site = sc.sites.add(n, manifest.SiteAtomic, varName(n.Children[1]), strings.TrimSuffix(strings.TrimSpace(n.Children[1].Type), "*"))
			}
			c := calleeSpan(n)
			es.replace(c.Pos.Offset, c.Pos.End, fmt.Sprintf("LDC_AOP(%s, %d, %d, %d, %s)", n.Name, site, sh, nr, apBase(n.Children[1], sc)))
			address[n.Children[1]] = true
		case n.Kind == "CallExpr" && sc.userFuncs[n.Ref] == nil && strings.HasPrefix(n.Name, "atomic"):
			// No callee to rewrite (a call through a macro): as before,
			// run once, unchecked against plain accesses.
			macro := "LDC_ATOMIC"
			if len(n.Children) > 1 && refersTo(n.Children[1], sc.shared) {
				macro = "LDC_ATOMIC_SHARED"
			}
			if passes.ResultDiscarded(n) {
				macro += "_NORET"
			}
			es.insert(n.Pos.Offset, macro+"(", 0)
			es.insert(n.Pos.End, ")", 1)
			if len(n.Children) > 1 {
				address[n.Children[1]] = true
			}
		case n.Kind == "CallExpr" && n.Name == "printf":
			es.insert(n.Pos.Offset, "LDC_ONCE(", 0)
			es.insert(n.Pos.End, ")", 1)
		default:
			es = append(es, plainEdit(n, sc, cas, quiet)...)
		}
		return true
	})
	return es, len(es) > 0
}

// isCheckedAtomic says whether call n is an atomic that becomes LDC_AOP
// (a CUDA atomic named directly, not one of the user's functions).
func isCheckedAtomic(n *passes.Node, sc *onceScope) bool {
	return n.Kind == "CallExpr" && sc.userFuncs[n.Ref] == nil && strings.HasPrefix(n.Name, "atomic") && len(n.Children) > 1 && calleeSpan(n) != nil
}

// quietSharedVars returns the shared variables of a kernel body that
// atomics update but whose atomics and plain accesses never run in the
// same region: no atomic-plain race can happen on them (a block barrier
// orders what comes before it against what comes after, in every warp),
// so neither kind of access is noted for that check. Shared histograms
// are the usual case: cleared, counted with atomics, then read, with a
// barrier between each; noting every atomic (a hash-table insert and a
// fence) made histogram_atomic's check 30x its kernel.
//
// A variable qualifies only when it is declared in the kernel body and
// every reference to it is an atomic's
// address or a plain access the regions pass reached: one whose address
// is taken, passed or kept elsewhere is accessed where this cannot see.
// Regions are told apart by the barriers that start them, which assumes
// what replay assumes already: every thread of a block passes the same
// barriers.
func quietSharedVars(body *passes.Node, sc *onceScope) map[string]bool {
	if sc.kernel == nil {
		return nil
	}
	type use struct {
		atomic, plain map[int]bool
		escapes       bool
	}
	uses := map[string]*use{}
	get := func(key string) *use {
		if uses[key] == nil {
			uses[key] = &use{atomic: map[int]bool{}, plain: map[int]bool{}}
		}
		return uses[key]
	}
	// Only the body's own shared variables: one declared at file scope may
	// be accessed in device functions too.
	own := map[string]bool{}
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "VarDecl" && sc.shared[n.Key] {
			own[n.Key] = true
		}
		return true
	})
	watched := func(key string) bool { return own[key] && sc.atomic[key] }
	covered := map[*passes.Node]bool{}
	mark := func(n *passes.Node, key string, atomic bool) {
		n.Walk(func(c *passes.Node) bool {
			if c.Kind != "DeclRefExpr" || c.Ref != key || covered[c] {
				return true
			}
			covered[c] = true
			u := get(key)
			s, ok := sc.kernel.RegionStarts(c)
			if !ok {
				u.escapes = true
			}
			into := u.plain
			if atomic {
				into = u.atomic
			}
			for id := range s {
				into[id] = true
			}
			return true
		})
	}
	body.Walk(func(n *passes.Node) bool {
		switch {
		case n.Kind == "UnaryExpr":
			return false // sizeof/alignof: not evaluated
		case isCheckedAtomic(n, sc):
			if b := passes.BaseVariable(n.Children[1]); b != nil && watched(b.Ref) {
				mark(n.Children[1], b.Ref, true)
			}
		default:
			if b := plainAccessBase(n, sc); b != nil && watched(b.Ref) {
				mark(n, b.Ref, false)
			}
		}
		return true
	})
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "UnaryExpr" {
			return false
		}
		if n.Kind == "DeclRefExpr" && watched(n.Ref) && !covered[n] {
			get(n.Ref).escapes = true
		}
		return true
	})
	out := map[string]bool{}
	for key, u := range uses {
		meet := false
		for id := range u.atomic {
			meet = meet || u.plain[id]
		}
		if !u.escapes && !meet {
			out[key] = true
		}
	}
	return out
}

// calleeSpan is the node that spells a call's function name, when the
// call names it directly in the source (not through a macro).
func calleeSpan(n *passes.Node) *passes.Node {
	c := n.Children[0]
	for c != nil && c.Kind != "DeclRefExpr" && len(c.Children) == 1 {
		c = c.Children[0]
	}
	if c == nil || c.Kind != "DeclRefExpr" || c.Name != n.Name || c.Pos.End-c.Pos.Offset != len(n.Name) || c.Pos.Offset < n.Pos.Offset || c.Pos.End > n.Pos.End {
		return nil
	}
	return c
}

// varName is the name of the variable an address or lvalue expression
// refers to ("" when none).
func varName(n *passes.Node) string {
	if b := passes.BaseVariable(n); b != nil {
		return b.Name
	}
	return ""
}

// apBase is the C expression of the first byte of the shared variable an
// address or lvalue refers to, so that the runtime can give offsets in it
// (shared addresses mean nothing to the host); 0 elsewhere (the host finds
// a global address's buffer itself).
func apBase(n *passes.Node, sc *onceScope) string {
	b := passes.BaseVariable(n)
	if b == nil || b.Kind != "DeclRefExpr" || !sc.shared[b.Ref] || isPointerType(b.Type) {
		return "0"
	}
	return "&" + b.Name
}

// casTargets are the variables (declaration keys) that an atomicCAS of
// body updates. A plain read of one in the same function is the first
// guess of a compare-and-swap loop (old = *p; do { assumed = old; old =
// atomicCAS(p, assumed, f(assumed)); } while (assumed != old), the CUDA
// programming guide's idiom): the CAS checks it, so the atomic-plain check
// leaves it out (a plain write still counts).
func casTargets(body *passes.Node) map[string]bool {
	out := map[string]bool{}
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "CallExpr" && strings.HasPrefix(n.Name, "atomicCAS") && len(n.Children) > 1 {
			if b := passes.BaseVariable(n.Children[1]); b != nil {
				out[b.Ref] = true
			}
		}
		return true
	})
	return out
}

// assignedThrough says whether n is the left operand of an assignment
// behind nodes libclang does not expose (a volatile lvalue's is such a
// node, which isWrite takes for a read).
func assignedThrough(n *passes.Node) bool {
	c := n
	for p := n.Parent; p != nil; c, p = p, p.Parent {
		switch p.Kind {
		case "UnexposedExpr", "ParenExpr":
			continue
		case "BinaryOperator":
			return p.Op == "=" && len(p.Children) > 0 && p.Children[0] == c
		case "CompoundAssignOperator":
			return len(p.Children) > 0 && p.Children[0] == c
		}
		return false
	}
	return false
}

// plainEdit wraps n when it is a plain access of a variable that atomics
// update: a read is read once (LDC_READ_ONCE) and every access, but the
// reads of a compare-and-swap loop (casTargets) and volatile accesses, is
// noted for the atomic-plain check (LDC_AP_PLAIN; stores: LDC_AP_WRITE).
func plainEdit(n *passes.Node, sc *onceScope, cas, quiet map[string]bool) edits {
	b := plainAccessBase(n, sc)
	if b == nil {
		return nil
	}
	p := parentSkippingParens(n)
	sh := 0
	if sc.shared[b.Ref] {
		sh = 1
	}
	var es edits
	d := depth(n)
	write := isWrite(n, p) || assignedThrough(n)
	macro := "LDC_READ_ONCE("
	if sh == 1 {
		macro = "LDC_READ_ONCE_SHARED("
	}
	// A volatile access is a relaxed one at system scope (PTX ISA, memory
	// consistency model): morally strong, so no data race with an atomic.
	// Neither it nor a compare-and-swap loop's first read is noted (site
	// -2); both are still made once.
	site := -2
	if !strings.Contains(n.Type, "volatile") && (write || !cas[b.Ref]) && !quiet[b.Ref] {
		site = sc.sites.add(n, siteKind(n, p), b.Name, n.Type)
	}
	if site != -2 && sc.plainNotes != nil {
		*sc.plainNotes = true
	}
	if write {
		// Stores are made once too (LDC_AP_WRITE).
		es.insert(n.Pos.Offset, fmt.Sprintf("(*LDC_AP_WRITE(%d, %d, %s, &(", site, sh, apBase(n, sc)), -3000+d)
		es.insert(n.Pos.End, ")))", 3000-d)
		return es
	}
	if site == -2 {
		es.insert(n.Pos.Offset, macro, -3000+d)
		es.insert(n.Pos.End, ")", 3000-d)
		return es
	}
	note := fmt.Sprintf("(*LDC_AP_PLAIN(%d, %d, %s, &(", site, sh, apBase(n, sc))
	es.insert(n.Pos.Offset, macro+note, -3000+d)
	es.insert(n.Pos.End, "))))", 3000-d)
	return es
}

// plainAccessBase returns the variable that n accesses when n is a plain
// access (the whole lvalue, not a part of it) of memory that atomics
// update; nil otherwise.
func plainAccessBase(n *passes.Node, sc *onceScope) *passes.Node {
	if !isLvalueKind(n.Kind) || extendsParent(n) || isArrayType(n.Type) || isPointerType(n.Type) {
		return nil
	}
	b := passes.BaseVariable(n)
	if b == nil || !sc.atomic[b.Ref] {
		return nil
	}
	if n.Kind == "DeclRefExpr" && (isPointerType(b.Type) || isArrayType(b.Type)) {
		return nil // the pointer itself, not the memory it points to
	}
	p := parentSkippingParens(n)
	if p == nil || (p.Kind == "UnaryOperator" && p.Op == "&") {
		return nil
	}
	return b
}

// sharedAtomicThroughParam returns why a kernel cannot be instrumented
// when a call passes shared memory to a parameter that a device function
// updates atomically: atomics in device functions are replayed as global
// ones (run once in all), and shared memory starts afresh in every launch.
func sharedAtomicThroughParam(body *passes.Node, shared map[string]bool, params map[string]map[int]bool) string {
	reason := ""
	body.Walk(func(n *passes.Node) bool {
		if reason != "" || n.Kind != "CallExpr" {
			return reason == ""
		}
		for i := range params[n.Ref] {
			if i+1 < len(n.Children) && refersTo(n.Children[i+1], shared) {
				reason = fmt.Sprintf("line %d: %s updates shared memory atomically through a pointer parameter; ldcheck replays atomics in device functions as global ones so far: update it in the kernel body", n.Pos.Line, n.Name)
			}
		}
		return reason == ""
	})
	return reason
}
