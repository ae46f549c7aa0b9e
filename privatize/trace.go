package privatize

import (
	"fmt"
	"strings"

	"ldcheck/passes"
	"ldcheck/privatize/manifest"
)

// Access tracing, for explaining races: every access to a target (the
// global ones accessEdits wraps, and every use of a shared target) is
// wrapped as (*LDC_TR(&(E), SITE, W)). SITE indexes the manifest's site
// table, which keeps the access expression's file, line and column; W is
// 1 when the access may store. Without -DLDC_TRACE the macro is the plain
// pointer, so the checked modules are unchanged; the runtime's tracing
// module, compiled with it, logs the accesses to the racy bytes.

// siteTable collects the sites of one build, in the order they are made.
type siteTable struct {
	sites []manifest.Site
	// macroSites: the site of the memory calls written through one
	// macro definition's token (memoryCallee).
	macroSites map[string]int
	// orders: each function's fences (by its body), read once.
	orders map[*passes.Node]*passes.FenceOrder
}

// newSite is the site of an access at n, of kind kind, with its place in
// the "last block" idiom.
func (st *siteTable) newSite(n *passes.Node, kind string) manifest.Site {
	s := manifest.Site{ID: len(st.sites), File: n.File.Path, Line: n.Pos.Line, Col: n.Pos.Col, Kind: kind}
	body := passes.EnclosingBody(n)
	if body == nil {
		return s
	}
	o := st.orders[body]
	if o == nil {
		if st.orders == nil {
			st.orders = map[*passes.Node]*passes.FenceOrder{}
		}
		o = passes.NewFenceOrder(body)
		st.orders[body] = o
	}
	if o.Fences() {
		s.FenceAfter, s.FenceBefore, s.TicketGuarded = o.FenceAfter(n), o.FenceBefore(n), o.TicketGuarded(n)
	}
	return s
}

// siteKind says how an access uses the lvalue n (whose parent, past
// parentheses, is p): read, write, or read-write (x += v, x++).
func siteKind(n, p *passes.Node) string {
	if !isWrite(n, p) {
		return manifest.SiteRead
	}
	if p != nil && (p.Kind == "CompoundAssignOperator" || p.Kind == "UnaryOperator" && (p.Op == "++" || p.Op == "--")) {
		return manifest.SiteReadWrite
	}
	return manifest.SiteWrite
}

// wrap makes lvalue n a site and returns the edits that trace it. The
// wrapper goes just inside any hook of the same lvalue (orders one past
// twice the depth, see accessEdits), so it sees the address the source
// computes.
func (st *siteTable) wrap(n, p *passes.Node) edits {
	return st.wrapAs(n, p, -1)
}

// wrapAs is wrap; a shared target's accesses (index shared >= 0) are
// wrapped as (*LDC_TRS(&(E), SITE, W, INDEX)), which the intra-warp check
// notes as well.
func (st *siteTable) wrapAs(n, p *passes.Node, shared int) edits {
	if st == nil || n.File == nil {
		return nil
	}
	kind := siteKind(n, p)
	id := len(st.sites)
	st.sites = append(st.sites, st.newSite(n, kind))
	// W: 1 a store, 2 an lvalue that may be stored to (bound to a
	// reference, a branch of ?:...). The tracing module logs both; the
	// intra-warp check takes only stores for writes (the others as reads:
	// a read taken for a write would be a false alarm between readers).
	w := 0
	if kind != manifest.SiteRead {
		w = 2
		if certainWrite(n, p) {
			w = 1
		}
	}
	d := depth(n)
	var es edits
	if shared >= 0 {
		es.insert(n.Pos.Offset, "(*LDC_TRS(&(", -1000+2*d+1)
		es.insert(n.Pos.End, fmt.Sprintf("), %d, %d, %d))", id, w, shared), 1000-2*d-1)
		return es
	}
	es.insert(n.Pos.Offset, "(*LDC_TR(&(", -1000+2*d+1)
	es.insert(n.Pos.End, fmt.Sprintf("), %d, %d))", id, w), 1000-2*d-1)
	return es
}

// certainWrite: n is stored to by its parent p (an assignment, a compound
// assignment, ++ or --, or an overloaded one).
func certainWrite(n, p *passes.Node) bool {
	if !isWrite(n, p) {
		return false
	}
	switch p.Kind {
	case "BinaryOperator", "CompoundAssignOperator", "UnaryOperator":
		return true
	case "CallExpr":
		return strings.HasPrefix(p.Name, "operator")
	}
	return false
}

// add makes n a site of the given kind (not traced: the atomics and the
// plain accesses of atomically updated variables, which name atomic-plain
// races) and returns its ID; -1 without a table.
func (st *siteTable) add(n *passes.Node, kind, v, elem string) int {
	if st == nil || n.File == nil {
		return -1
	}
	id := len(st.sites)
	s := st.newSite(n, kind)
	s.Var = v
	if size := passes.ScalarSize(elem); size > 0 {
		s.Elem, s.ElemSize = strings.TrimSpace(elem), size
	}
	st.sites = append(st.sites, s)
	return id
}

// sharedTraceEdits traces every access to the shared targets of body (by
// declaration key): the whole lvalue around each reference, unless it is
// an array that decays to a pointer or its address is taken (the accesses
// through that pointer are wrapped where they happen, when they are).
func sharedTraceEdits(body *passes.Node, shared map[string]int, st *siteTable) edits {
	var es edits
	body.Walk(func(n *passes.Node) bool {
		if n.Kind == "UnaryExpr" { // sizeof, alignof: not evaluated
			return false
		}
		if n.Kind != "DeclRefExpr" {
			return true
		}
		index, ok := shared[n.Ref]
		if !ok {
			return true
		}
		e := lvalueAround(n)
		p := parentSkippingParens(e)
		if isArrayType(e.Type) || p != nil && p.Kind == "UnaryOperator" && p.Op == "&" {
			return true
		}
		es = append(es, st.wrapAs(e, p, index)...)
		return true
	})
	return es
}
