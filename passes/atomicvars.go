package passes

// Variables updated by atomics are not privatized, and every access to
// them takes effect once (see privatize). An atomic may sit in a device
// function that gets the address through a parameter (atomicAdd wrappers,
// CAS loops, lock helpers), so whether a variable is updated atomically
// depends on the functions it is passed to.

// AtomicParams maps the key of each function of u to the indexes of its
// parameters that carry an address some atomic updates: the address of an
// atomic call is computed from the parameter, directly or through the
// parameters of functions it calls.
func AtomicParams(u *Unit) map[string]map[int]bool {
	funcs := map[string]*Func{}
	for _, f := range u.Funcs {
		if f.Body != nil {
			funcs[f.Key] = f
		}
	}
	out := map[string]map[int]bool{}
	// A fixed point: each round can only add parameters, and there are
	// finitely many.
	for changed := true; changed; {
		changed = false
		for key, f := range funcs {
			vars := AtomicVars(f, out)
			for i, p := range f.Params {
				if vars[p.Key] && !out[key][i] {
					if out[key] == nil {
						out[key] = map[int]bool{}
					}
					out[key][i] = true
					changed = true
				}
			}
		}
	}
	return out
}

// AtomicVars returns the declaration keys of the variables of f whose
// memory atomics update: the base variable of an atomic call's address,
// or of an argument f passes to a parameter in params (AtomicParams).
func AtomicVars(f *Func, params map[string]map[int]bool) map[string]bool {
	vars := map[string]bool{}
	if f.Body == nil {
		return vars
	}
	f.Body.Walk(func(n *Node) bool {
		if n.Kind != "CallExpr" || len(n.Children) < 2 {
			return true
		}
		if isAtomicCall(n) {
			if b := BaseVariable(n.Children[1]); b != nil {
				vars[b.Ref] = true
			}
		}
		for i := range params[n.Ref] {
			if i+1 < len(n.Children) {
				if b := BaseVariable(n.Children[i+1]); b != nil {
					vars[b.Ref] = true
				}
			}
		}
		return true
	})
	// A pointer local computed from another variable (int *ai = (int *)a)
	// updates that variable's memory when it is updated.
	from := map[string][]string{}
	f.Body.Walk(func(n *Node) bool {
		switch {
		case n.Kind == "VarDecl" && n.Init != nil && isPointerOrArray(n.Type):
			if b := BaseVariable(n.Init); b != nil {
				from[n.Key] = append(from[n.Key], b.Ref)
			}
		case n.Kind == "BinaryOperator" && n.Op == "=" && len(n.Children) == 2 && isPointerOrArray(n.Children[0].Type):
			if l := BaseVariable(n.Children[0]); l != nil && l == n.Children[0] {
				if b := BaseVariable(n.Children[1]); b != nil {
					from[l.Ref] = append(from[l.Ref], b.Ref)
				}
			}
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for v, srcs := range from {
			if !vars[v] {
				continue
			}
			for _, s := range srcs {
				if !vars[s] {
					vars[s], changed = true, true
				}
			}
		}
	}
	return vars
}

// atomicCallOf returns the name of the call that passes ref (an argument
// of the call, possibly through casts and pointer arithmetic) to a
// parameter in params, or "".
func atomicCallOf(ref *Node, params map[string]map[int]bool) string {
	cur := ref
	for p := ref.Parent; p != nil; cur, p = p, p.Parent {
		switch p.Kind {
		case "ParenExpr", "UnexposedExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr", "ArraySubscriptExpr", "MemberRefExpr", "UnaryOperator", "BinaryOperator":
			if BaseVariable(p) != ref {
				return ""
			}
			continue
		case "CallExpr":
			for i := range params[p.Ref] {
				if i+1 < len(p.Children) && p.Children[i+1] == cur {
					return p.Name
				}
			}
		}
		return ""
	}
	return ""
}
