package privatize

import (
	"fmt"
	"sort"
	"strings"

	"ldcheck/passes"
)

// Hoisting: every local variable of a kernel is declared at the top of
// its body and its declarations become assignments, so that a region's
// start can be re-entered with goto (no jump crosses an initialisation)
// and the locals can be saved, restored and compared as one area.

// local is a kernel-local variable to hoist.
type local struct {
	node *passes.Node
	name string // after renaming
}

// collectLocals lists the kernel's local variables in source order, by
// key too. Hoisted to one scope, two locals of different scopes (or a
// local and a parameter) may collide: the later one is renamed.
func (kr *kernelRewrite) collectLocals() ([]*local, map[string]*local) {
	var locals []*local
	byKey := map[string]*local{}
	taken := map[string]bool{}
	for _, p := range kr.k.Params {
		taken[p.Name] = true
	}
	kr.fn.Body.Walk(func(n *passes.Node) bool {
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
	return locals, byKey
}

// declarationEdits turns the declarations of hoisted locals into
// assignments. The leaf edits inside an initializer are applied to its
// text here and marked consumed, as are the leaves elsewhere in the
// declaration (names), which the replacement drops.
func (kr *kernelRewrite) declarationEdits(byKey map[string]*local, leaves edits, consumed map[int]bool) (edits, error) {
	var es edits
	var err error
	kr.fn.Body.Walk(func(n *passes.Node) bool {
		if err != nil || n.Kind != "DeclStmt" {
			return err == nil
		}
		if !declaresLocalsOnly(n, byKey) {
			return true
		}
		parts, e := kr.assignments(n, byKey, leaves, consumed)
		if e != nil {
			err = e
			return false
		}
		end, repl := kr.declReplacement(n, parts)
		es.replace(n.Pos.Offset, end, repl)
		for i, lf := range leaves {
			if lf.from >= n.Pos.Offset && lf.to <= end {
				consumed[i] = true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	return es, nil
}

// declaresLocalsOnly says whether every declaration of DeclStmt n is a
// hoisted local: only then can the statement become assignments.
func declaresLocalsOnly(n *passes.Node, byKey map[string]*local) bool {
	for _, c := range n.Children {
		if c.Kind != "VarDecl" || byKey[c.Key] == nil {
			return false
		}
	}
	return true
}

// assignments returns the assignments that replace the initializers of
// DeclStmt n's variables, in order (none for a variable that has no
// initializer to run again).
func (kr *kernelRewrite) assignments(n *passes.Node, byKey map[string]*local, leaves edits, consumed map[int]bool) ([]string, error) {
	var parts []string
	for _, c := range n.Children {
		l := byKey[c.Key]
		init := kr.initializer(c)
		if init == nil {
			continue
		}
		text := ""
		if !kr.implicitConstruction(init) {
			var err error
			if text, err = kr.subApply(leaves, init.Pos, consumed); err != nil {
				return nil, err
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
			tmp, err := declare(c.Type, "ldc_init")
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", c.Pos.Line, err)
			}
			parts = append(parts, fmt.Sprintf("{ %s memcpy(&%s, &ldc_init, sizeof(%s)); }", strings.TrimSuffix(tmp, "{};")+" = "+text+";", l.name, l.name))
		case !strings.Contains(declText, "="):
			return nil, fmt.Errorf("line %d: direct initialisation of %s (write %s = ...)", c.Pos.Line, c.Name, c.Name)
		default:
			parts = append(parts, l.name+" = "+text)
		}
	}
	return parts, nil
}

// declReplacement returns the end of DeclStmt n (its ';' included) and
// the text that replaces it: the assignments parts, as one for-init
// clause or as statements.
func (kr *kernelRewrite) declReplacement(n *passes.Node, parts []string) (int, string) {
	end := n.Pos.End
	if n.Parent != nil && n.Parent.Kind == "ForStmt" {
		// for (int i = 0, j = 1; ...): the DeclStmt includes its ';'.
		return end, strings.Join(parts, ", ") + ";"
	}
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
	repl := strings.Join(stmts, " ")
	if repl == "" {
		repl = ";"
	}
	return end, repl
}

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
	fmt.Fprintf(&b, "#define LDC_ONE_%d(S, E) %s\n", K, onePassTest(kr.k))
	fmt.Fprintf(&b, "#define LDC_UNIFORM_ENDS_%d %d\n", K, uniformEnds(kr.k))
	return b.String()
}

// onePassTest is the expression, of a region's start S and end E (the
// barrier a thread is at, a constant where the macro is used), that says
// whether the region needs no second pass (passes.Region.OnePass, or
// OnePassIf in a launch of that block shape). Per end, one mask of the
// starts below the mask's width (Entry is bit 0), the block shapes' bits
// or-ed in where the launch has the shape, then one shift: the one-pass
// module evaluates it at every region end, and a mask and a shift per
// shape, and-ed and or-ed, cost ld_radixsort's region ends 16 of their
// 60 instructions. 32-bit masks where every start fits (the usual case).
// Starts beyond the width are compared one by one.
func onePassTest(k *passes.Kernel) string {
	shapes := []struct{ shape, cond string }{
		{"", ""},
		{passes.FlatBlock, "(blockDim.z == 1)"},
		{passes.LineBlock, "((blockDim.y == 1) & (blockDim.z == 1))"},
	}
	in := func(r passes.Region, shape string) bool {
		if shape == "" {
			return r.OnePass
		}
		return !r.OnePass && r.OnePassIf == shape
	}
	width, suffix := 32, "u"
	for _, r := range k.Regions {
		if r.From+1 >= 32 && r.From+1 < 64 {
			width, suffix = 64, "ull"
		}
	}
	masks := map[int][]uint64{} // end -> per shape
	var far []string
	for _, r := range k.Regions {
		for i, sh := range shapes {
			if !in(r, sh.shape) {
				continue
			}
			if r.From+1 < width {
				if masks[r.To] == nil {
					masks[r.To] = make([]uint64, len(shapes))
				}
				masks[r.To][i] |= 1 << uint(r.From+1)
				continue
			}
			f := fmt.Sprintf("((int)((S) == %d) & (int)((E) == %d))", r.From, r.To)
			if sh.cond != "" {
				f = fmt.Sprintf("(%s & %s)", sh.cond, f)
			}
			far = append(far, f)
		}
	}
	ends := make([]int, 0, len(masks))
	for e := range masks {
		ends = append(ends, e)
	}
	sort.Ints(ends)
	sort.Strings(far)
	test := "0"
	if len(ends) > 0 {
		sel := "0" + suffix
		for i := len(ends) - 1; i >= 0; i-- {
			var parts []string
			for j, m := range masks[ends[i]] {
				switch {
				case m == 0:
				case shapes[j].cond == "":
					parts = append(parts, fmt.Sprintf("%#x%s", m, suffix))
				default:
					parts = append(parts, fmt.Sprintf("(%s ? %#x%s : 0%s)", shapes[j].cond, m, suffix, suffix))
				}
			}
			sel = fmt.Sprintf("(E) == %d ? (%s) : %s", ends[i], strings.Join(parts, " | "), sel)
		}
		test = fmt.Sprintf("((int)((unsigned)((S) + 1) < %du) & (int)(((%s) >> (((S) + 1) & %d)) & 1%s))", width, sel, width-1, suffix)
	}
	for _, f := range far {
		test += " | " + f
	}
	return "(" + test + ")"
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

// uniformEnds is LDC_UNIFORM_ENDS_K: 1 where the kernel's region ends may
// use the hardware's barrier reduction (passes.Kernel.UniformEnds).
func uniformEnds(k *passes.Kernel) int {
	if k.UniformEnds {
		return 1
	}
	return 0
}
