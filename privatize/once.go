package privatize

import (
	"fmt"
	"strings"

	"ldcheck/passes"
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
}

// onceEdits wraps the once-only operations of body. It says whether
// there were any (a device function then needs LDC_SELF).
func onceEdits(body *passes.Node, sc *onceScope) (edits, bool) {
	var es edits
	address := map[*passes.Node]bool{} // atomics' address operands: not reads
	body.Walk(func(n *passes.Node) bool {
		switch {
		case n.Kind == "UnaryExpr" || address[n]:
			return false // sizeof/alignof: not evaluated
		case n.Kind == "CallExpr" && sc.userFuncs[n.Ref] == nil && strings.HasPrefix(n.Name, "atomic"):
			macro := "LDC_ATOMIC"
			if len(n.Children) > 1 && refersTo(n.Children[1], sc.shared) {
				macro = "LDC_ATOMIC_SHARED"
			}
			if passes.ResultDiscarded(n) {
				// Nothing to replay: the second run just skips it, and
				// the log needs no room for it (histograms do thousands).
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
			es = append(es, readEdit(n, sc)...)
		}
		return true
	})
	return es, len(es) > 0
}

// readEdit wraps n when it is a plain read of a variable that atomics
// update.
func readEdit(n *passes.Node, sc *onceScope) edits {
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
	if p == nil || (p.Kind == "UnaryOperator" && p.Op == "&") || isWrite(n, p) {
		return nil
	}
	macro := "LDC_READ_ONCE("
	if sc.shared[b.Ref] {
		macro = "LDC_READ_ONCE_SHARED("
	}
	var es edits
	d := depth(n)
	es.insert(n.Pos.Offset, macro, -3000+d)
	es.insert(n.Pos.End, ")", 3000-d)
	return es
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
