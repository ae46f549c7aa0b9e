package passes

import "strings"

// The second pass of a region re-runs each unit from the merged state U
// with its own writes undone, and reports a read-write race where it ends
// differently from the first. It can end differently only if the unit
// read, in the region, bytes that another unit wrote in it. When no
// variable the region's code reads is also written by that code, nothing
// it reads can have changed between the passes: the second pass would
// repeat the first, and the runtime skips it (a region's checks then
// cost one run of it, not two).
//
// The same holds for level 1, whose region is the whole kernel and whose
// units are blocks: when no global variable the kernel reads is written
// by it, level 1 needs no second launch.

// onePassPass: targets' accesses, the regions' starts -> Region.OnePass
// and Kernel.BlockOnePass. Conservative: an access the pass cannot place
// (in a device function, through a pointer or a reference that escapes,
// in code the regions pass did not reach) counts as a read and a write in
// every region; a barrier in a device function makes every region keep
// both passes.
func (ka *kernelAnalysis) onePassPass(k *Kernel) {
	for _, b := range k.Barriers {
		if !b.Warp && b.Via != "" {
			return
		}
	}
	const everywhere = -2 // a key of the maps below: every region start
	type rw struct{ read, write map[int]bool }
	// Per privatized variable: the region starts it is read in and
	// written in; global is the union over global-memory variables.
	var vars []rw
	blockRead, blockWrite := false, false
	for _, c := range ka.candidates {
		if !c.privatized {
			continue
		}
		u := rw{read: map[int]bool{}, write: map[int]bool{}}
		for _, a := range c.accesses {
			read, write := a.read, a.write
			if a.escape || a.atomic != "" || bindsReference(a.ref) {
				read, write = true, true
			}
			if !read && !write {
				continue
			}
			if c.space == Global {
				blockRead = blockRead || read
				blockWrite = blockWrite || write
			}
			starts, ok := k.RegionStarts(a.ref)
			if !ok || a.escape || a.atomic != "" {
				starts = map[int]bool{everywhere: true}
			}
			for s := range starts {
				if read {
					u.read[s] = true
				}
				if write {
					u.write[s] = true
				}
			}
		}
		vars = append(vars, u)
	}
	k.BlockOnePass = !(blockRead && blockWrite)
	covers := func(set map[int]bool, s int) bool { return set[s] || set[everywhere] }
	for i := range k.Regions {
		r := &k.Regions[i]
		r.OnePass = true
		for _, u := range vars {
			if covers(u.read, r.From) && covers(u.write, r.From) {
				r.OnePass = false
				break
			}
		}
	}
}

// bindsReference reports whether the value at ref, past the operations
// that keep it an lvalue (subscripts, members, dereferences, casts), is
// bound to a reference variable or iterated by reference in a range for:
// accesses through that name are not seen as accesses of the variable.
func bindsReference(ref *Node) bool {
	cur := ref
	for p := cur.Parent; p != nil; cur, p = p, p.Parent {
		switch p.Kind {
		case "UnexposedExpr", "ParenExpr", "CStyleCastExpr", "CXXStaticCastExpr", "CXXReinterpretCastExpr", "CXXConstCastExpr", "MemberRefExpr":
			continue
		case "ArraySubscriptExpr":
			if p.Children[0] == cur {
				continue
			}
			return false
		case "UnaryOperator":
			if p.Op == "*" {
				continue
			}
			return false
		case "VarDecl":
			return strings.ContainsRune(p.Type, '&')
		case "CXXForRangeStmt":
			return true
		}
		return false
	}
	return false
}
