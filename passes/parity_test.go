package passes

import "testing"

// TestParityApart: two subscripts are apart when their difference is odd
// (or, generally, not divisible by the power of two that divides every
// variable term), with thread terms standing for different threads.
func TestParityApart(t *testing.T) {
	intRef := &Node{Kind: "DeclRefExpr", Type: "int"}
	floatRef := &Node{Kind: "DeclRefExpr", Type: "float"}
	cur := poly{"u:cur": 1}
	tests := []struct {
		name string
		x, y poly
		uses []*Node
		want bool
	}{
		{"1-cur against cur", poly{"": 1, "u:cur": -1}, cur, []*Node{intRef}, true},
		{"2-cur against cur: equal at cur = 1", poly{"": 2, "u:cur": -1}, cur, []*Node{intRef}, false},
		{"2*t against 2*t+1 (two threads)", poly{"tid.x": 2}, poly{"tid.x": 2, "": 1}, nil, true},
		{"2*t against 4*t+1", poly{"tid.x": 2}, poly{"tid.x": 4, "": 1}, nil, true},
		{"2*t against t: thread 0 meets thread 0, 2 meets 4", poly{"tid.x": 2}, poly{"tid.x": 1}, nil, false},
		{"t against t+1: a thread's neighbour", poly{"tid.x": 1}, poly{"tid.x": 1, "": 1}, nil, false},
		{"4*u+2 against 4*u: 2 not divisible by 4", poly{"u:cur": 4, "": 2}, poly{"u:cur": 4}, []*Node{intRef}, true},
		{"4*u+2 against 2*t: 2 divisible by 2", poly{"u:cur": 4, "": 2}, poly{"tid.x": 2}, []*Node{intRef}, false},
		{"the same subscript", cur, cur, []*Node{intRef}, false},
		{"a float variable read as an index", poly{"": 1, "u:cur": -1}, cur, []*Node{floatRef}, false},
		{"an unknown subscript", nil, cur, []*Node{intRef}, false},
	}
	for _, tc := range tests {
		_, got := parityApart(term{p: tc.x, uses: tc.uses}, term{p: tc.y, uses: tc.uses})
		if got != tc.want {
			t.Errorf("%s: apart %v, want %v", tc.name, got, tc.want)
		}
		if _, back := parityApart(term{p: tc.y, uses: tc.uses}, term{p: tc.x, uses: tc.uses}); back != got {
			t.Errorf("%s: not symmetric", tc.name)
		}
	}
}
