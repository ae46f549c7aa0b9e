package manifest

import "testing"

// TestLaunchTest evaluates the tests a proof may rest on, for launches
// that pass and fail them, and writes them as the reports do.
func TestLaunchTest(t *testing.T) {
	params := map[int]int64{1: 32, 2: -40}
	param := func(i int) (int64, bool) {
		v, ok := params[i]
		return v, ok
	}
	width := LaunchTest{Left: []LaunchTerm{{Coeff: 1, Factors: []string{"param:1"}}}, Abs: true, Right: []LaunchTerm{{Coeff: 1, Factors: []string{"blockDim.x"}}}}
	negative := LaunchTest{Left: []LaunchTerm{{Coeff: 1, Factors: []string{"param:2"}}}, Abs: true, Right: []LaunchTerm{{Coeff: 1, Factors: []string{"blockDim.x"}}}}
	halo := LaunchTest{Left: []LaunchTerm{{Coeff: 33}, {Coeff: -1, Factors: []string{"blockDim.y"}}}, Right: []LaunchTerm{{Coeff: 1}}}
	unknown := LaunchTest{Left: []LaunchTerm{{Coeff: 1, Factors: []string{"param:7"}}}, Right: []LaunchTerm{{Coeff: 1}}}
	// Whole warps: blockDim.x >= 32 * ceil(blockDim.x / 32).
	whole := LaunchTest{Left: []LaunchTerm{{Coeff: 1, Factors: []string{"blockDim.x"}}}, Right: []LaunchTerm{{Coeff: 32, Factors: []string{"ceil(blockDim.x/32)"}}}}
	badCeil := LaunchTest{Left: []LaunchTerm{{Coeff: 1, Factors: []string{"ceil(blockDim.x/1)"}}}, Right: []LaunchTerm{{Coeff: 1}}}
	tests := []struct {
		test  LaunchTest
		block [3]uint32
		want  bool
	}{
		{width, [3]uint32{32, 8, 1}, true},
		{width, [3]uint32{33, 1, 1}, false},
		{negative, [3]uint32{40, 1, 1}, true}, // |n| counts
		{negative, [3]uint32{41, 1, 1}, false},
		{halo, [3]uint32{1, 32, 1}, true},
		{halo, [3]uint32{1, 33, 1}, false},
		{unknown, [3]uint32{1, 1, 1}, false}, // what cannot be evaluated does not hold
		{whole, [3]uint32{256, 1, 1}, true},
		{whole, [3]uint32{32, 4, 1}, true},
		{whole, [3]uint32{48, 1, 1}, false}, // 48 < 64
		{whole, [3]uint32{1, 1, 1}, false},
		{badCeil, [3]uint32{8, 1, 1}, false},
	}
	for _, tc := range tests {
		if got := tc.test.Holds(tc.block, param); got != tc.want {
			t.Errorf("%s with block %v: %v, want %v", tc.test, tc.block, got, tc.want)
		}
	}
	if got, want := width.String(), "|param:1| >= blockDim.x"; got != want {
		t.Errorf("String: %q, want %q", got, want)
	}
	if got, want := whole.String(), "blockDim.x >= 32*ceil(blockDim.x/32)"; got != want {
		t.Errorf("String: %q, want %q", got, want)
	}
	for _, f := range []string{"ceil(blockDim.x/0)", "ceil(blockDim.w/32)", "ceil(blockDim.x/032)", "ceil(blockDim.x/32", "ceil(gridDim.x/32)"} {
		if _, _, ok := CeilFactor(f); ok {
			t.Errorf("CeilFactor(%q) read, want refused", f)
		}
	}
	if got, want := halo.String(), "33 - blockDim.y >= 1"; got != want {
		t.Errorf("String: %q, want %q", got, want)
	}
}
