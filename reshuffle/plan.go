package reshuffle

import (
	"fmt"
	"math"
)

// Plan is a warp-reshuffling schedule (LDetector section 4.5) for Units
// units when only Copies private copies fit in memory. Build it with
// NewPlan; the zero Plan is not valid.
//
// The construction is a tree of contiguous groups of units:
//
//   - Round 0 (before checking) has one group: all units.
//   - Round k (1 <= k <= Rounds) splits every group of round k-1 into at most
//     Copies contiguous subgroups of balanced sizes (sizes differ by at most
//     one, larger ones first; a group of n < Copies units splits into n
//     single units). The subgroup with index c inside its parent uses
//     private copy c, so subgroups with the same index in different parents
//     share a copy, and a round never uses more than Copies copies.
//   - Round k runs the two-pass protocol with the copies as units: each
//     group is checked against its sibling groups (same parent), which sit in
//     different copies. Groups with different parents may share a copy: they
//     were already checked against each other in an earlier round (and the
//     plan stops at the first race), so their changes are disjoint and
//     sharing is as if they ran one after the other.
//
// A group of round k has at most ceil(Units/Copies^k) units, so in the last
// round every group is a single unit. Hence every pair of distinct units
// a, b is checked in exactly one round: the round in which they first fall
// into different groups (CheckRound). In Figure 5 of the paper (8 units, 2
// copies) round 1 checks {0..3} against {4..7}; round 2 checks {0,1} against
// {2,3} and {4,5} against {6,7}, with {0,1} and {4,5} sharing copy 0.
//
// Each round restarts the kernel from the saved inputs, so a round is two
// passes of the kernel and the plan costs 2*Rounds passes (Table I).
type Plan struct {
	Units  int // N: units (warps, blocks, ...) to check against each other
	Copies int // M: private copies that fit, at least 2
	Rounds int // ceil(log_M N), at least 1
}

// NewPlan plans checking units units with copies private copies. It returns
// an error for units < 1 or copies < 2. Rounds is the smallest r >= 1 with
// copies^r >= units (computed with integers), so copies >= units gives one
// round: full privatization.
func NewPlan(units, copies int) (Plan, error) {
	if units < 1 {
		return Plan{}, fmt.Errorf("reshuffle: %d units: need at least 1", units)
	}
	if copies < 2 {
		return Plan{}, fmt.Errorf("reshuffle: room for %d private copies: need at least 2", copies)
	}
	// After r ceiling divisions n = ceil(units/copies^r), since
	// ceil(ceil(x/m)/m) = ceil(x/m^2); it reaches 1 exactly when
	// copies^r >= units. No power and no n+copies-1 is formed, so nothing
	// overflows.
	rounds := 0
	for n := units; n > 1; rounds++ {
		n = n/copies + min(n%copies, 1)
	}
	return Plan{Units: units, Copies: copies, Rounds: max(rounds, 1)}, nil
}

// Passes is the number of kernel runs the plan costs: two per round.
func (p Plan) Passes() int { return 2 * p.Rounds }

// Group is one group of units in one round of a Plan: the contiguous units
// First, First+1, ..., First+Count-1, which run on private copy Copy.
type Group struct {
	First, Count int
	Copy         int
}

// GroupOf returns the group that unit belongs to in round (0 <= round <=
// Rounds; round 0 is the single group of all units, on copy 0). It panics if
// round or unit is out of range.
func (p Plan) GroupOf(round, unit int) Group {
	p.checkRound(round)
	p.checkUnit(unit)
	g := Group{First: 0, Count: p.Units, Copy: 0}
	for range round {
		g = p.child(g, unit)
	}
	return g
}

// child returns the subgroup of g that holds unit: g is split into
// min(Copies, Count) parts, the first Count%Copies of them one unit larger.
func (p Plan) child(g Group, unit int) Group {
	q, r := g.Count/p.Copies, g.Count%p.Copies
	o := unit - g.First
	big := r * (q + 1) // units in the larger parts
	if o < big {
		c := o / (q + 1)
		return Group{First: g.First + c*(q+1), Count: q + 1, Copy: c}
	}
	// Here q >= 1: if q were 0, big would be Count and o < big.
	c := r + (o-big)/q
	return Group{First: g.First + big + (c-r)*q, Count: q, Copy: c}
}

// Copy returns the private copy (0 <= Copy < Copies) that unit uses in
// round (1 <= round <= Rounds): the index of its round-round group inside
// its round-(round-1) group. It panics if round or unit is out of range.
func (p Plan) Copy(round, unit int) int {
	if round < 1 {
		panic(fmt.Sprintf("reshuffle: round %d: rounds are numbered from 1", round))
	}
	return p.GroupOf(round, unit).Copy
}

// Groups returns the groups of round (0 <= round <= Rounds) in unit order.
// Together they hold every unit once. It panics if round is out of range.
func (p Plan) Groups(round int) []Group {
	p.checkRound(round)
	var gs []Group
	for u := 0; u < p.Units; {
		g := p.GroupOf(round, u)
		gs = append(gs, g)
		u += g.Count
	}
	return gs
}

// Separated reports whether units a and b have been checked against each
// other by the end of round (0 <= round <= Rounds): whether, in some round
// k <= round, they were in the same group of round k-1 and in different
// groups (hence different copies) of round k. Because the groups of a round
// split those of the previous one, that is the same as being in different
// groups of round round. A unit is never separated from itself; every pair
// of distinct units is separated by the last round. It panics if round, a or
// b is out of range.
func (p Plan) Separated(round, a, b int) bool {
	p.checkUnit(b)
	return p.GroupOf(round, a).First != p.GroupOf(round, b).First
}

// CheckRound returns the one round (1..Rounds) in which units a and b are
// checked against each other: the round in which they first fall into
// different groups. A race between them is found in that round. It returns
// 0 if a == b and panics if a or b is out of range.
func (p Plan) CheckRound(a, b int) int {
	p.checkUnit(a)
	p.checkUnit(b)
	if a == b {
		return 0
	}
	g := Group{First: 0, Count: p.Units}
	for k := 1; ; k++ {
		ga, gb := p.child(g, a), p.child(g, b)
		if ga.First != gb.First {
			return k
		}
		g = ga
	}
}

// Coverage returns the fraction of unordered pairs of distinct units that
// this plan has checked by the end of round (0 <= round <= Rounds): the
// exact counterpart of equation (1) for the plan's groups. It equals
// Probability(Units, Copies, round) when Copies^round divides Units, may
// differ slightly otherwise, and is 1 at the last round (and for a single
// unit, which has no pairs). It panics if round is out of range.
func (p Plan) Coverage(round int) float64 {
	p.checkRound(round)
	n := int64(p.Units)
	all := n * (n - 1) / 2
	if all == 0 {
		return 1
	}
	var same int64
	for _, g := range p.Groups(round) {
		c := int64(g.Count)
		same += c * (c - 1) / 2
	}
	return float64(all-same) / float64(all)
}

func (p Plan) checkRound(round int) {
	if round < 0 || round > p.Rounds {
		panic(fmt.Sprintf("reshuffle: round %d out of range 0..%d", round, p.Rounds))
	}
}

func (p Plan) checkUnit(unit int) {
	if unit < 0 || unit >= p.Units {
		panic(fmt.Sprintf("reshuffle: unit %d out of range 0..%d", unit, p.Units-1))
	}
}

// Probability is equation (1) of the paper: the probability that a race
// between two units placed at random is found within k rounds when units
// units are checked with copies private copies,
//
//	P_k = N*(1 - 1/M^k) / (N-1),
//
// capped at 1 (it exceeds 1 when M^k > N; it is at least 1, hence 1, from
// the plan's last round on). It is exact when M^k divides N (see
// Plan.Coverage for the plan's exact value otherwise). By convention it is 1
// for fewer than two units (there is no pair to miss) and 0 for k < 1 or
// copies < 2 (nothing has been checked).
func Probability(units, copies, k int) float64 {
	if units < 2 {
		return 1
	}
	if k < 1 || copies < 2 {
		return 0
	}
	n := float64(units)
	pk := n * (1 - math.Pow(float64(copies), -float64(k))) / (n - 1)
	return min(pk, 1)
}

// TooSmallError is FitCopies's error when the budget cannot hold two
// private copies.
type TooSmallError struct {
	Budget  int64 // the memory limit, in bytes
	Fixed   int64 // bytes needed besides the private copies
	PerCopy int64 // bytes of one private copy
}

// Need is the smallest budget that works: Fixed plus two copies. It
// saturates at math.MaxInt64.
func (e *TooSmallError) Need() int64 {
	if e.PerCopy > (math.MaxInt64-e.Fixed)/2 {
		return math.MaxInt64
	}
	return e.Fixed + 2*e.PerCopy
}

func (e *TooSmallError) Error() string {
	return fmt.Sprintf("memory limit of %s is too small for checking: it needs at least %s (%s for the original state and the union, and 2 private copies of %s)",
		sizeString(e.Budget), sizeString(e.Need()), sizeString(e.Fixed), sizeString(e.PerCopy))
}

// FitCopies returns how many private copies of bytesPerCopy bytes fit in
// budget bytes once fixed bytes (the original state S and the union U) are
// set aside: floor((budget-fixed)/bytesPerCopy), capped at math.MaxInt.
// Checking needs at least 2 copies; with less room it returns a
// *TooSmallError that names the bytes needed. It also returns an error for
// a negative budget or fixed size, or bytesPerCopy < 1.
func FitCopies(budget, fixed, bytesPerCopy int64) (int, error) {
	switch {
	case budget < 0:
		return 0, fmt.Errorf("reshuffle: negative memory limit %d", budget)
	case fixed < 0:
		return 0, fmt.Errorf("reshuffle: negative fixed size %d", fixed)
	case bytesPerCopy < 1:
		return 0, fmt.Errorf("reshuffle: private copy of %d bytes: need at least 1", bytesPerCopy)
	}
	n := int64(0)
	if budget > fixed {
		n = (budget - fixed) / bytesPerCopy
	}
	if n < 2 {
		return 0, &TooSmallError{Budget: budget, Fixed: fixed, PerCopy: bytesPerCopy}
	}
	return int(min(n, int64(math.MaxInt))), nil
}

// sizeString writes a byte count exactly, with a binary-unit rounding for
// readability when it is large: "1536 bytes (1.5 KiB)".
func sizeString(n int64) string {
	s := fmt.Sprintf("%d bytes", n)
	if n == 1 {
		s = "1 byte"
	}
	if n < 1024 {
		return s
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%s (%.3g %s)", s, v, units[i])
}
