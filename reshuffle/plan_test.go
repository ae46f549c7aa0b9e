package reshuffle

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewPlanRounds(t *testing.T) {
	tests := []struct {
		units, copies, rounds int
	}{
		// Figure 5.
		{8, 2, 3},
		// Table I: passes = 2*rounds: 2, 4, 6, 8, 10, 20.
		{960, 960, 1},
		{960, 31, 2},
		{960, 10, 3},
		{960, 6, 4},
		{960, 4, 5},
		{960, 2, 10},
		// Boundaries of ceil(log_M N).
		{1, 2, 1},
		{2, 2, 1},
		{3, 2, 2},
		{4, 2, 2},
		{5, 2, 3},
		{25, 5, 2},
		{26, 5, 3},
		{125, 5, 3},
		{126, 5, 4},
		{961, 31, 2},
		{962, 31, 3},
		{7, 1000, 1},
		{math.MaxInt, math.MaxInt, 1},
		{math.MaxInt, math.MaxInt - 1, 2},
		{1 << 40, 2, 40},
		{1<<40 + 1, 2, 41},
	}
	for _, tt := range tests {
		p, err := NewPlan(tt.units, tt.copies)
		if err != nil {
			t.Errorf("NewPlan(%d, %d): %v", tt.units, tt.copies, err)
			continue
		}
		want := Plan{Units: tt.units, Copies: tt.copies, Rounds: tt.rounds}
		if p != want {
			t.Errorf("NewPlan(%d, %d) = %+v, want %+v", tt.units, tt.copies, p, want)
		}
		if p.Passes() != 2*tt.rounds {
			t.Errorf("NewPlan(%d, %d).Passes() = %d, want %d", tt.units, tt.copies, p.Passes(), 2*tt.rounds)
		}
	}
}

func TestNewPlanErrors(t *testing.T) {
	for _, tt := range []struct{ units, copies int }{
		{0, 2}, {-1, 2}, {10, 1}, {10, 0}, {10, -3},
	} {
		if p, err := NewPlan(tt.units, tt.copies); err == nil {
			t.Errorf("NewPlan(%d, %d) = %+v, want an error", tt.units, tt.copies, p)
		}
	}
}

// TestFigure5 is the paper's example: 8 warps, 2 copies.
func TestFigure5(t *testing.T) {
	p, err := NewPlan(8, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Group{
		{{0, 8, 0}},
		{{0, 4, 0}, {4, 4, 1}},
		{{0, 2, 0}, {2, 2, 1}, {4, 2, 0}, {6, 2, 1}},
		{{0, 1, 0}, {1, 1, 1}, {2, 1, 0}, {3, 1, 1}, {4, 1, 0}, {5, 1, 1}, {6, 1, 0}, {7, 1, 1}},
	}
	for k := range want {
		if diff := cmp.Diff(want[k], p.Groups(k)); diff != "" {
			t.Errorf("round %d groups (-want +got):\n%s", k, diff)
		}
	}
	// "if threads 1 and 5 have a data race, warp reshuffling finds the race
	// in Round 1. However, if threads 1 and 3 have a race, [it] will have to
	// at least be performed in Round 2."
	if got := p.CheckRound(1, 5); got != 1 {
		t.Errorf("CheckRound(1, 5) = %d, want 1", got)
	}
	if got := p.CheckRound(1, 3); got != 2 {
		t.Errorf("CheckRound(1, 3) = %d, want 2", got)
	}
	if got := p.CheckRound(6, 7); got != 3 {
		t.Errorf("CheckRound(6, 7) = %d, want 3", got)
	}
}

// TestUnevenSplit: a group whose size is not a multiple of the copies is
// split into balanced contiguous parts, larger ones first, and a group
// smaller than the copies splits into single units.
func TestUnevenSplit(t *testing.T) {
	p, err := NewPlan(10, 3)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rounds != 3 {
		t.Fatalf("Rounds = %d, want 3", p.Rounds)
	}
	want := [][]Group{
		{{0, 10, 0}},
		{{0, 4, 0}, {4, 3, 1}, {7, 3, 2}},
		{{0, 2, 0}, {2, 1, 1}, {3, 1, 2}, {4, 1, 0}, {5, 1, 1}, {6, 1, 2}, {7, 1, 0}, {8, 1, 1}, {9, 1, 2}},
		{{0, 1, 0}, {1, 1, 1}, {2, 1, 0}, {3, 1, 0}, {4, 1, 0}, {5, 1, 0}, {6, 1, 0}, {7, 1, 0}, {8, 1, 0}, {9, 1, 0}},
	}
	for k := range want {
		if diff := cmp.Diff(want[k], p.Groups(k)); diff != "" {
			t.Errorf("round %d groups (-want +got):\n%s", k, diff)
		}
	}
}

// TestExhaustive checks the construction for every N up to 50 and M from 2
// to 7 against its definition, pair by pair.
func TestExhaustive(t *testing.T) {
	for n := 1; n <= 50; n++ {
		for m := 2; m <= 7; m++ {
			t.Run(fmt.Sprintf("N=%d/M=%d", n, m), func(t *testing.T) {
				p, err := NewPlan(n, m)
				if err != nil {
					t.Fatal(err)
				}
				checkPlan(t, p)
			})
		}
	}
}

func checkPlan(t *testing.T, p Plan) {
	t.Helper()
	n, m := p.Units, p.Copies
	// group[k][u] is the First of u's round-k group; cp[k][u] its copy.
	group := make([][]int, p.Rounds+1)
	cp := make([][]int, p.Rounds+1)
	maxSize := n // ceil(n/m^k)
	for k := 0; k <= p.Rounds; k++ {
		group[k] = make([]int, n)
		cp[k] = make([]int, n)
		next := 0
		used := map[int]bool{}
		for _, g := range p.Groups(k) {
			if g.First != next || g.Count < 1 {
				t.Fatalf("round %d: group %+v, want one starting at %d", k, g, next)
			}
			if g.Count > maxSize {
				t.Errorf("round %d: group %+v larger than ceil(N/M^k) = %d", k, g, maxSize)
			}
			if g.Copy < 0 || g.Copy >= m {
				t.Errorf("round %d: group %+v: copy out of range", k, g)
			}
			used[g.Copy] = true
			for u := g.First; u < g.First+g.Count; u++ {
				group[k][u], cp[k][u] = g.First, g.Copy
				if got := p.GroupOf(k, u); got != g {
					t.Errorf("GroupOf(%d, %d) = %+v, want %+v", k, u, got, g)
				}
				if k > 0 {
					if got := p.Copy(k, u); got != g.Copy {
						t.Errorf("Copy(%d, %d) = %d, want %d", k, u, got, g.Copy)
					}
				}
			}
			next += g.Count
		}
		if next != n {
			t.Fatalf("round %d: groups end at unit %d, want %d", k, next, n)
		}
		if len(used) > m {
			t.Errorf("round %d uses %d copies, more than %d", k, len(used), m)
		}
		if k == 0 && group[0][n-1] != 0 {
			t.Errorf("round 0 is not one group")
		}
		maxSize = (maxSize + m - 1) / m
	}
	for u := range n {
		if group[p.Rounds][u] != u {
			t.Errorf("unit %d not alone in the last round", u)
		}
	}
	for k := 1; k <= p.Rounds; k++ {
		for a := range n {
			for b := range n {
				if group[k-1][a] == group[k-1][b] && cp[k][a] == cp[k][b] && group[k][a] != group[k][b] {
					t.Errorf("round %d: units %d and %d share a parent and a copy but not a group", k, a, b)
				}
				if group[k][a] == group[k][b] && group[k-1][a] != group[k-1][b] {
					t.Errorf("round %d: units %d and %d share a group but not its parent", k, a, b)
				}
			}
		}
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			// Separated in round k: same group of round k-1, different
			// copies in round k. Exactly one such k.
			var rounds []int
			for k := 1; k <= p.Rounds; k++ {
				if group[k-1][a] == group[k-1][b] && cp[k][a] != cp[k][b] {
					rounds = append(rounds, k)
				}
			}
			if len(rounds) != 1 {
				t.Fatalf("units %d and %d separated in rounds %v, want exactly one", a, b, rounds)
			}
			if got := p.CheckRound(a, b); got != rounds[0] {
				t.Errorf("CheckRound(%d, %d) = %d, want %d", a, b, got, rounds[0])
			}
			if got := p.CheckRound(b, a); got != rounds[0] {
				t.Errorf("CheckRound(%d, %d) = %d, want %d", b, a, got, rounds[0])
			}
			for k := 0; k <= p.Rounds; k++ {
				want := k >= rounds[0]
				if p.Separated(k, a, b) != want || p.Separated(k, b, a) != want {
					t.Errorf("Separated(%d, %d, %d) = %v, want %v", k, a, b, !want, want)
				}
			}
		}
		if p.CheckRound(a, a) != 0 || p.Separated(p.Rounds, a, a) {
			t.Errorf("unit %d separated from itself", a)
		}
	}
	// Coverage counts the pairs separated by each round.
	for k := 0; k <= p.Rounds; k++ {
		pairs, sep := 0, 0
		for a := range n {
			for b := a + 1; b < n; b++ {
				pairs++
				if group[k][a] != group[k][b] {
					sep++
				}
			}
		}
		want := 1.0
		if pairs > 0 {
			want = float64(sep) / float64(pairs)
		}
		if got := p.Coverage(k); math.Abs(got-want) > 1e-12 {
			t.Errorf("Coverage(%d) = %v, want %v", k, got, want)
		}
	}
	if got := Probability(n, m, p.Rounds); got != 1 {
		t.Errorf("Probability(%d, %d, %d) = %v at the last round, want 1", n, m, p.Rounds, got)
	}
}

// TestLargePlans spot-checks plans too large for TestExhaustive's pairwise
// loops, including Table I's.
func TestLargePlans(t *testing.T) {
	for _, tt := range []struct{ n, m int }{{960, 31}, {960, 10}, {960, 6}, {960, 2}, {1000003, 7}} {
		p, err := NewPlan(tt.n, tt.m)
		if err != nil {
			t.Fatal(err)
		}
		last := p.Groups(p.Rounds)
		if len(last) != tt.n {
			t.Errorf("%+v: %d groups in the last round, want %d", p, len(last), tt.n)
		}
		if c := p.Coverage(p.Rounds); c != 1 {
			t.Errorf("%+v: Coverage at the last round = %v", p, c)
		}
		for _, pair := range [][2]int{{0, tt.n - 1}, {0, 1}, {tt.n / 2, tt.n/2 + 1}, {tt.n - 2, tt.n - 1}} {
			k := p.CheckRound(pair[0], pair[1])
			if k < 1 || k > p.Rounds || p.Separated(k-1, pair[0], pair[1]) || !p.Separated(k, pair[0], pair[1]) {
				t.Errorf("%+v: CheckRound%v = %d inconsistent with Separated", p, pair, k)
			}
		}
	}
}

func TestProbability(t *testing.T) {
	// Table I, last four rows: 960 warps, 2 copies, 2..5 rounds.
	for _, tt := range []struct{ k, percent int }{{2, 75}, {3, 88}, {4, 94}, {5, 97}} {
		if got := math.Round(100 * Probability(960, 2, tt.k)); got != float64(tt.percent) {
			t.Errorf("Probability(960, 2, %d) = %v%%, want %d%%", tt.k, got, tt.percent)
		}
	}
	// Table I, 100% rows: the last round of each plan.
	for _, m := range []int{960, 31, 10, 6, 4, 2} {
		p, _ := NewPlan(960, m)
		if got := Probability(960, m, p.Rounds); got != 1 {
			t.Errorf("Probability(960, %d, %d) = %v, want 1", m, p.Rounds, got)
		}
		if got := Probability(960, m, p.Rounds-1); got >= 1 {
			t.Errorf("Probability(960, %d, %d) = %v before the last round, want < 1", m, p.Rounds-1, got)
		}
	}
	// The closed form matches the plan's exact coverage when M^k divides N.
	for _, tt := range []struct{ n, m int }{{8, 2}, {960, 2}, {243, 3}, {96, 4}, {50, 5}, {1, 3}} {
		p, _ := NewPlan(tt.n, tt.m)
		for k := 0; k <= p.Rounds; k++ {
			if tt.n%int(math.Pow(float64(tt.m), float64(k))) != 0 {
				break
			}
			if got, want := Probability(tt.n, tt.m, k), p.Coverage(k); math.Abs(got-want) > 1e-12 {
				t.Errorf("Probability(%d, %d, %d) = %v, Coverage = %v", tt.n, tt.m, k, got, want)
			}
		}
	}
	// Conventions.
	for _, tt := range []struct {
		n, m, k int
		want    float64
	}{
		{1, 2, 1, 1}, {0, 2, 1, 1}, {960, 2, 0, 0}, {960, 1, 3, 0}, {960, 2, 100, 1}, {2, 2, 1, 1}, {8, 2, 1, 4.0 / 7},
	} {
		if got := Probability(tt.n, tt.m, tt.k); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Probability(%d, %d, %d) = %v, want %v", tt.n, tt.m, tt.k, got, tt.want)
		}
	}
}

func TestFitCopies(t *testing.T) {
	tests := []struct {
		budget, fixed, per int64
		want               int
		need               int64  // > 0: a *TooSmallError with this Need
		msg                string // part of the error text
	}{
		{budget: 2304, fixed: 1024, per: 640, want: 2},
		{budget: 2943, fixed: 1024, per: 640, want: 2},
		{budget: 2944, fixed: 1024, per: 640, want: 3},
		{budget: 1 << 30, fixed: 0, per: 1 << 20, want: 1024},
		{budget: 6 << 30, fixed: 2 << 30, per: 1 << 30, want: 4},
		{budget: math.MaxInt64, fixed: 0, per: 1, want: int(min(math.MaxInt64, int64(math.MaxInt)))},
		{budget: 2303, fixed: 1024, per: 640, need: 2304, msg: "at least 2304 bytes (2.25 KiB)"},
		{budget: 1000, fixed: 1024, per: 640, need: 2304, msg: "memory limit of 1000 bytes"},
		{budget: 0, fixed: 0, per: 1, need: 2, msg: "2 private copies of 1 byte"},
		{budget: 1 << 30, fixed: 0, per: 1 << 30, need: 2 << 30, msg: "(2 GiB)"},
		{budget: 100, fixed: 10, per: math.MaxInt64, need: math.MaxInt64},
		{budget: -1, fixed: 0, per: 1, msg: "negative memory limit"},
		{budget: 10, fixed: -1, per: 1, msg: "negative fixed size"},
		{budget: 10, fixed: 0, per: 0, msg: "private copy of 0 bytes"},
		{budget: 10, fixed: 0, per: -5, msg: "private copy of -5 bytes"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("FitCopies(%d, %d, %d)", tt.budget, tt.fixed, tt.per)
		got, err := FitCopies(tt.budget, tt.fixed, tt.per)
		if tt.msg == "" && tt.need == 0 {
			if err != nil || got != tt.want {
				t.Errorf("%s = %d, %v; want %d", name, got, err, tt.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s = %d, want an error", name, got)
			continue
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %q does not contain %q", name, err, tt.msg)
		}
		var small *TooSmallError
		if isSmall := errors.As(err, &small); isSmall != (tt.need > 0) {
			t.Errorf("%s: error %q: TooSmallError = %v, want %v", name, err, isSmall, tt.need > 0)
		} else if isSmall && small.Need() != tt.need {
			t.Errorf("%s: Need() = %d, want %d", name, small.Need(), tt.need)
		}
	}
}

func TestOutOfRangePanics(t *testing.T) {
	p, _ := NewPlan(10, 3)
	for name, f := range map[string]func(){
		"GroupOf round -1":    func() { p.GroupOf(-1, 0) },
		"GroupOf round 4":     func() { p.GroupOf(4, 0) },
		"GroupOf unit 10":     func() { p.GroupOf(1, 10) },
		"GroupOf unit -1":     func() { p.GroupOf(1, -1) },
		"Copy round 0":        func() { p.Copy(0, 0) },
		"Groups round 4":      func() { p.Groups(4) },
		"Separated unit b":    func() { p.Separated(1, 0, 10) },
		"CheckRound unit a":   func() { p.CheckRound(-1, 0) },
		"CheckRound same bad": func() { p.CheckRound(10, 10) },
		"Coverage round 4":    func() { p.Coverage(4) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}
