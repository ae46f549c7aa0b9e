package passes_test

import (
	"fmt"
	"testing"

	"ldcheck/passes"
)

// TestFenceOrder marks the accesses of the "last block" idiom
// (testdata/last_block.cu): the stores a fence follows, the atomic a fence
// precedes, and the accesses only the block holding the last ticket makes,
// through a shared flag or an early return. Without a fence nothing is
// marked.
func TestFenceOrder(t *testing.T) {
	lib := loadClang(t)
	u, _, err := passes.Parse(lib, "testdata/last_block.cu", passes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every reference to partial, out or count, as line:kind marks.
	marks := func(f *passes.Func) map[string]string {
		o := passes.NewFenceOrder(f.Body)
		got := map[string]string{}
		f.Body.Walk(func(n *passes.Node) bool {
			if n.Kind != "DeclRefExpr" || (n.Name != "partial" && n.Name != "out" && n.Name != "count") {
				return true
			}
			m := ""
			if o.FenceAfter(n) {
				m += "A"
			}
			if o.FenceBefore(n) {
				m += "B"
			}
			if o.TicketGuarded(n) {
				m += "T"
			}
			got[fmt.Sprintf("%s@%d", n.Name, n.Pos.Line)] += m + ";"
			return true
		})
		return got
	}
	want := map[string]map[string]string{
		"sum":     {"partial@6": "A;", "count@8": "B;", "partial@14": "BT;", "out@15": "BT;", "count@16": "BT;"},
		"early":   {"partial@20": "A;", "count@22": "B;", "out@23": "BT;", "partial@23": "BT;BT;"},
		"nofence": {"partial@26": ";", "count@27": ";", "out@28": ";", "partial@28": ";"},
	}
	for _, f := range u.Funcs {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		got := marks(f)
		for k, v := range w {
			if got[k] != v {
				t.Errorf("%s: %s marked %q, want %q (all: %v)", f.Name, k, got[k], v, got)
			}
		}
		delete(want, f.Name)
	}
	if len(want) > 0 {
		t.Errorf("kernels not found: %v", want)
	}
}
