package passes

import "testing"

// TestDivided reads dividends by a constant as the warp arithmetic does,
// and refuses those whose quotient is not the sum of the parts' (a
// negative or unaligned rest).
func TestDivided(t *testing.T) {
	gid := poly{"blockDim.x*blockIdx.x": 1, "tid.x": 1}
	tests := []struct {
		name      string
		a         poly
		c         int64
		rem       bool
		want      string // poly.String, or "refused"
		wantNeeds int
	}{
		{"warp", poly{"tid.x": 1}, 32, false, "1*tid.x/32", 0},
		{"lane", poly{"tid.x": 1}, 32, true, "1*tid.x%32", 0},
		{"warp row", gid, 32, false, "1*blockIdx.x*ceil(blockDim.x/32)+1*tid.x/32", 1},
		{"lane of the grid", gid, 32, true, "1*tid.x%32", 1},
		{"aligned constant", poly{"tid.x": 1, "": 64}, 32, false, "1*tid.x/32+2*", 0},
		{"multiple of the divisor", poly{"tid.x": 64}, 32, false, "2*tid.x", 0},
		{"unaligned constant", poly{"tid.x": 1, "": 16}, 32, false, "refused", 0},
		{"negative rest", poly{"tid.x": 1, "": -32}, 32, false, "refused", 0},
		{"uniform rest", poly{"tid.x": 1, "u:n": 32}, 32, false, "refused", 0},
		{"two thread indexes", poly{"tid.x": 1, "tid.y": 1}, 32, false, "refused", 0},
		{"scaled thread", poly{"tid.x": 2}, 32, false, "refused", 0},
	}
	for _, tc := range tests {
		p, needs, ok := divided(tc.a, tc.c, tc.rem)
		got := "refused"
		if ok {
			got = p.String()
		}
		if got != tc.want || (ok && len(needs) != tc.wantNeeds) {
			t.Errorf("%s: %s (%d tests), want %s (%d)", tc.name, got, len(needs), tc.want, tc.wantNeeds)
		}
	}
	covered := wholeCover(map[string]bool{"tid.x/32": true, "tid.x%32": true, "tid.y/16": true, "tid.y%8": true})
	if !covered["tid.x"] || covered["tid.y"] {
		t.Errorf("wholeCover: tid.x %v (want true), tid.y %v (want false: parts of two divisors)", covered["tid.x"], covered["tid.y"])
	}
	if got := arrayExtents("float[10][144]"); len(got) != 2 || got[0] != 10 || got[1] != 144 {
		t.Errorf("arrayExtents: %v, want [10 144]", got)
	}
}
