package privatize

import (
	"fmt"
	"strings"

	"ldcheck/passes"
)

// Tracked shared writes. The checks at a barrier compare every warp's copy
// of every shared target with the others; a region that writes a few words
// of a large tile would pay for the whole tile, times the warps, at every
// barrier. So every store to a shared target also sets a flag for the 16
// bytes it touches (LDC_SW for plain stores, LDC_SA for the address given
// to an atomic; ldc_memcpy and friends flag what they write), and the checks
// visit flagged granules only.
//
// A store the flags miss would leave the warps' copies apart after the
// barrier, so tracking is all or nothing per kernel: it is on only when
// every use of every shared target is a read, a store, or an address passed
// straight to an atomic or to memcpy/memset/memmove. Anything else (the
// array decaying into a pointer variable or a call, a reference bound to an
// element, an address kept) lets stores happen where the compiler cannot
// see them, and the kernel is checked byte by byte as before.

// sharedTarget is what the store hooks need of a shared target: the
// names of the warp's copy and flags (ldc_p_NAME, ldc_f_NAME) and an
// expression for its size in bytes.
type sharedTarget struct {
	name, bytes string
}

// hook is the call that flags the store to (or atomic on) address a.
func (t sharedTarget) hook(macro string) string {
	return fmt.Sprintf("%s(ldc_p_%s, ldc_f_%s, %s, ", macro, t.name, t.name, t.bytes)
}

// sharedWriteEdits returns the edits that flag the stores to the shared
// targets (by declaration key), and whether every store is flagged. When
// it is not, the edits are nil and the string says why.
func sharedWriteEdits(body *passes.Node, targets map[string]sharedTarget, src []byte, funcs map[string]*passes.Func) (edits, bool, string) {
	var es edits
	why := ""
	body.Walk(func(n *passes.Node) bool {
		if why != "" {
			return false
		}
		if n.Kind == "UnaryExpr" { // libclang's kind for sizeof and alignof
			return false // sizeof/alignof: not evaluated
		}
		if n.Kind != "DeclRefExpr" {
			return true
		}
		tg, ok := targets[n.Ref]
		if !ok {
			return true
		}
		e := lvalueAround(n)
		p := parentSkippingParens(e)
		switch {
		case p != nil && p.Kind == "UnaryOperator" && p.Op == "&":
			if c := callTaking(p); c != nil && (strings.HasPrefix(c.Name, "atomic") || memoryCall(c, src)) {
				d := depth(p)
				es.insert(p.Pos.Offset, tg.hook("LDC_SA"), -1000+2*d)
				es.insert(p.Pos.End, ")", 1000-2*d)
				return true
			}
			why = fmt.Sprintf("line %d: the address of %s is kept or passed on", p.Pos.Line, n.Name)
		case isArrayType(e.Type):
			// The array decays to a pointer: fine only as memcpy's and
			// friends' argument (the runtime's versions flag the stores).
			if c := callTaking(e); c != nil && memoryCall(c, src) {
				return true
			}
			// Passed as a pointer to const (a device function that
			// reads the tile): no store through it to flag.
			if c, arg := callArgument(e); c != nil && passes.ConstArgument(c, arg, funcs) {
				return true
			}
			why = fmt.Sprintf("line %d: %s is used as a pointer", e.Pos.Line, n.Name)
		case isWrite(e, p) && (p.Kind == "BinaryOperator" || p.Kind == "CompoundAssignOperator" || p.Kind == "UnaryOperator"):
			d := depth(e)
			es.insert(e.Pos.Offset, "(*"+tg.hook("LDC_SW")+"&(", -1000+2*d)
			es.insert(e.Pos.End, ")))", 1000-2*d)
		case e.Parent != nil && (e.Parent.Kind == "UnexposedExpr" || e.Parent.Kind == "ParenExpr" && p != nil && p.Kind == "UnexposedExpr"):
			// Read (the implicit lvalue-to-rvalue conversion).
		default:
			why = fmt.Sprintf("line %d: %s is used where ldcheck cannot see whether it is written", e.Pos.Line, n.Name)
		}
		return true
	})
	if why != "" {
		return nil, false, why
	}
	return es, true, ""
}

// lvalueAround climbs from a reference to a variable to the whole lvalue
// it is the base of: tile[ty][tx], s.f, cells[i].mass.
func lvalueAround(n *passes.Node) *passes.Node {
	e := n
	for {
		p := e.Parent
		for p != nil && (p.Kind == "ParenExpr" || p.Kind == "UnexposedExpr" && isArrayType(e.Type)) {
			p = p.Parent
		}
		if p == nil {
			return e
		}
		switch {
		case p.Kind == "ArraySubscriptExpr" && isArrayType(e.Type) && strip(subscriptBase(p)) == e:
		case p.Kind == "MemberRefExpr" && len(p.Children) > 0 && strip(p.Children[0]) == e && !isPointerType(e.Type):
		default:
			return e
		}
		e = p
	}
}

// callTaking returns the call that takes n (through casts and parentheses)
// as one of its arguments, or nil.
func callTaking(n *passes.Node) *passes.Node {
	c, _ := callArgument(n)
	return c
}

// callArgument is callTaking, with the argument as the call sees it
// (after the conversions and casts between n and the call).
func callArgument(n *passes.Node) (call, arg *passes.Node) {
	arg = n
	p := n.Parent
	for p != nil && (p.Kind == "ParenExpr" || p.Kind == "UnexposedExpr" || p.Kind == "CStyleCastExpr" || p.Kind == "CXXStaticCastExpr" || p.Kind == "CXXReinterpretCastExpr") {
		arg, p = p, p.Parent
	}
	if p == nil || p.Kind != "CallExpr" {
		return nil, nil
	}
	return p, arg
}

// memoryCall says whether c is a memcpy/memset/memmove call that
// memoryCallEdits sends to the runtime.
func memoryCall(c *passes.Node, src []byte) bool {
	if libcMemory[c.Name] == "" || len(c.Children) == 0 {
		return false
	}
	callee := strip(c.Children[0])
	return callee != nil && callee.Kind == "DeclRefExpr" && string(src[callee.Pos.Offset:callee.Pos.End]) == c.Name
}
