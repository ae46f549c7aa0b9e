package passes

import "strings"

// The "last block" idiom orders accesses of different blocks without a
// barrier: each block stores its result, calls __threadfence() and takes
// a ticket with an atomic; the block whose ticket says it came last then
// reads every block's result (and resets the counter plainly):
//
//	partial[blockIdx.x] = sum;             // FenceAfter
//	__threadfence();
//	unsigned t = atomicInc(&count, n);     // FenceBefore
//	if (t == gridDim.x - 1) {              // or a shared flag set from t
//	    ... partial[b] ...                 // TicketGuarded
//	    count = 0;                         // TicketGuarded
//	}
//
// Under the CUDA memory model the fence orders each block's store before
// its atomic, and the last ticket's atomic comes after every other
// block's, so the guarded code sees the stores: not a race. Value-based
// checking sees the last block read other blocks' results (a read-write
// race between blocks) and a plain store to an atomically updated counter
// (atomic-plain). These helpers mark the accesses so that the runtime can
// leave out a report whose two accesses are ordered this way. They look at
// the code's shape only, not at the ticket's value: a guard on any atomic
// result made after a fence counts.

// FenceAfter reports whether a __threadfence() follows n in program
// order: a later statement of a compound statement that encloses n calls
// it, with no return, break or continue before it.
func (o *FenceOrder) FenceAfter(n *Node) bool { return o.fences && fenceAfter(n) }

// FenceBefore reports whether a __threadfence() precedes n in program
// order: an earlier statement of a compound statement that encloses n
// calls it.
func (o *FenceOrder) FenceBefore(n *Node) bool { return o.fences && fenceBefore(n) }

func fenceAfter(n *Node) bool {
	for cur := n; cur != nil && cur.Parent != nil; cur = cur.Parent {
		p := cur.Parent
		if p.Kind != "CompoundStmt" {
			continue
		}
		after := false
		for _, s := range p.Children {
			if s == cur {
				after = true
				continue
			}
			if !after {
				continue
			}
			if leaves(s) {
				return false
			}
			if callsFence(s) {
				return true
			}
		}
	}
	return false
}

func fenceBefore(n *Node) bool {
	for cur := n; cur != nil && cur.Parent != nil; cur = cur.Parent {
		p := cur.Parent
		if p.Kind != "CompoundStmt" {
			continue
		}
		for _, s := range p.Children {
			if s == cur {
				break
			}
			if callsFence(s) {
				return true
			}
		}
	}
	return false
}

// FenceOrder marks the accesses of one function for the "last block"
// idiom (above). A function that calls no fence has none to mark.
type FenceOrder struct {
	fences  bool
	tickets map[string]bool
}

// NewFenceOrder reads function body body.
func NewFenceOrder(body *Node) *FenceOrder {
	o := &FenceOrder{fences: body != nil && callsFence(body)}
	if o.fences {
		o.tickets = ticketVars(body)
	}
	return o
}

// Fences says whether the function calls __threadfence().
func (o *FenceOrder) Fences() bool { return o.fences }

// TicketGuarded reports whether n runs only when a condition holds that
// depends on the result of an atomic made after a __threadfence(): n is
// in a branch of an if whose condition does, or follows an if of that kind
// that returns.
func (o *FenceOrder) TicketGuarded(n *Node) bool {
	if !o.fences {
		return false
	}
	for cur := n; cur != nil && cur.Parent != nil; cur = cur.Parent {
		p := cur.Parent
		switch p.Kind {
		case "IfStmt":
			if len(p.Children) > 1 && p.Children[0] != cur && ticketValued(p.Children[0], o.tickets) {
				return true
			}
		case "CompoundStmt":
			for _, s := range p.Children {
				if s == cur {
					break
				}
				if s.Kind == "IfStmt" && len(s.Children) > 1 && leaves(s.Children[1]) && ticketValued(s.Children[0], o.tickets) {
					return true
				}
			}
		}
	}
	return false
}

// ticketVars are the variables of body (by declaration key) that hold a
// value computed from an atomic's result made after a fence: initialised
// or assigned from one, or from another such variable.
func ticketVars(body *Node) map[string]bool {
	tk := map[string]bool{}
	for changed := true; changed; {
		changed = false
		body.Walk(func(x *Node) bool {
			var key string
			var from *Node
			switch {
			case x.Kind == "VarDecl" && len(x.Children) > 0:
				key, from = x.Key, x.Children[len(x.Children)-1]
			case x.Kind == "BinaryOperator" && x.Op == "=" && len(x.Children) == 2:
				if l := stripCasts(x.Children[0]); l.Kind == "DeclRefExpr" {
					key, from = l.Ref, x.Children[1]
				}
			}
			if key != "" && !tk[key] && ticketValued(from, tk) {
				tk[key] = true
				changed = true
			}
			return true
		})
	}
	return tk
}

// ticketValued reports whether e reads an atomic's result made after a
// fence, or a variable of tk.
func ticketValued(e *Node, tk map[string]bool) bool {
	found := false
	e.Walk(func(x *Node) bool {
		switch {
		case x.Kind == "CallExpr" && strings.HasPrefix(x.Name, "atomic") && fenceBefore(x):
			found = true
		case x.Kind == "DeclRefExpr" && tk[x.Ref]:
			found = true
		}
		return !found
	})
	return found
}

// callsFence reports whether s calls __threadfence() (or
// __threadfence_system()).
func callsFence(s *Node) bool {
	found := false
	s.Walk(func(x *Node) bool {
		if x.Kind == "CallExpr" && (x.Name == "__threadfence" || x.Name == "__threadfence_system") {
			found = true
		}
		return !found && x.Kind != "LambdaExpr"
	})
	return found
}

// leaves reports whether s is, or contains, a return, break, continue or
// goto.
func leaves(s *Node) bool {
	found := false
	s.Walk(func(x *Node) bool {
		switch x.Kind {
		case "ReturnStmt", "BreakStmt", "ContinueStmt", "GotoStmt":
			found = true
		}
		return !found
	})
	return found
}

// EnclosingBody is the body of the function (or method) n is in: the
// root of its tree (Func.Body), or the compound statement under a
// function's declaration; nil when there is none.
func EnclosingBody(n *Node) *Node {
	for cur := n; cur != nil; cur = cur.Parent {
		if cur.Kind != "CompoundStmt" {
			continue
		}
		if cur.Parent == nil {
			return cur
		}
		switch cur.Parent.Kind {
		case "FunctionDecl", "FunctionTemplate", "CXXMethod":
			return cur
		}
	}
	return nil
}
