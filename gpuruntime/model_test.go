package gpuruntime

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copies returns n private copies of s, as at the start of pass 1.
func copies(s []byte, n int) [][]byte {
	p := make([][]byte, n)
	for i := range p {
		p[i] = slices.Clone(s)
	}
	return p
}

// write is one unit's pass-1 store.
type write struct {
	unit, off int
	val       byte
}

func TestModelFusedWriteWrite(t *testing.T) {
	tests := []struct {
		name   string
		s      []byte
		units  int
		writes []write
		// want
		u      []byte
		writer []int
		races  []ByteRace
		p2     [][]byte
	}{
		{
			name:   "no units",
			s:      []byte{1, 2, 3},
			units:  0,
			u:      []byte{1, 2, 3},
			writer: []int{-1, -1, -1},
			p2:     [][]byte{},
		},
		{
			name:   "no writes",
			s:      []byte{1, 2, 3, 4},
			units:  3,
			u:      []byte{1, 2, 3, 4},
			writer: []int{-1, -1, -1, -1},
			p2:     [][]byte{{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}},
		},
		{
			name:   "disjoint writes: u is the union",
			s:      []byte{0, 0, 0, 0, 0},
			units:  3,
			writes: []write{{0, 0, 10}, {2, 1, 21}, {2, 4, 24}, {1, 3, 13}},
			u:      []byte{10, 21, 0, 13, 24},
			writer: []int{0, 2, -1, 1, 2},
			// Each unit sees the others' changes, its own reverted.
			p2: [][]byte{
				{0, 21, 0, 13, 24},
				{10, 21, 0, 0, 24},
				{10, 0, 0, 13, 0},
			},
		},
		{
			name: "different bytes of one 4-byte word: no race (byte granularity)",
			// A little-endian int32 0x04030201; unit 0 sets its low byte,
			// unit 1 its third byte.
			s:      []byte{0x01, 0x02, 0x03, 0x04},
			units:  2,
			writes: []write{{0, 0, 0xaa}, {1, 2, 0xbb}},
			u:      []byte{0xaa, 0x02, 0xbb, 0x04},
			writer: []int{0, -1, 1, -1},
			p2:     [][]byte{{0x01, 0x02, 0xbb, 0x04}, {0xaa, 0x02, 0x03, 0x04}},
		},
		{
			name:   "same byte: write-write with values",
			s:      []byte{7, 8, 9},
			units:  4,
			writes: []write{{1, 1, 50}, {3, 1, 60}, {0, 2, 1}},
			u:      []byte{7, 60, 1},
			writer: []int{-1, 3, 0},
			races: []ByteRace{
				{Kind: WriteWrite, Offset: 1, Units: [2]int{1, 3}, Values: []byte{8, 50, 60}},
			},
			// Both writers of byte 1 get the original value back.
			p2: [][]byte{{7, 60, 9}, {7, 8, 1}, {7, 60, 1}, {7, 8, 1}},
		},
		{
			name:   "same value written by two units is still a race",
			s:      []byte{0},
			units:  2,
			writes: []write{{0, 0, 5}, {1, 0, 5}},
			u:      []byte{5},
			writer: []int{1},
			races: []ByteRace{
				{Kind: WriteWrite, Offset: 0, Units: [2]int{0, 1}, Values: []byte{0, 5, 5}},
			},
			p2: [][]byte{{0}, {0}},
		},
		{
			name:   "three writers: consecutive pairs, last writer wins",
			s:      []byte{0, 0},
			units:  5,
			writes: []write{{0, 1, 1}, {2, 1, 3}, {4, 1, 5}},
			u:      []byte{0, 5},
			writer: []int{-1, 4},
			races: []ByteRace{
				{Kind: WriteWrite, Offset: 1, Units: [2]int{0, 2}, Values: []byte{0, 1, 3}},
				{Kind: WriteWrite, Offset: 1, Units: [2]int{2, 4}, Values: []byte{0, 3, 5}},
			},
			p2: [][]byte{{0, 0}, {0, 5}, {0, 0}, {0, 5}, {0, 0}},
		},
		{
			name:  "races sorted by byte then unit",
			s:     []byte{0, 0, 0},
			units: 3,
			writes: []write{
				{0, 2, 1}, {1, 2, 2},
				{1, 0, 3}, {2, 0, 4},
			},
			u:      []byte{4, 0, 2},
			writer: []int{2, -1, 1},
			races: []ByteRace{
				{Kind: WriteWrite, Offset: 0, Units: [2]int{1, 2}, Values: []byte{0, 3, 4}},
				{Kind: WriteWrite, Offset: 2, Units: [2]int{0, 1}, Values: []byte{0, 1, 2}},
			},
			p2: [][]byte{{4, 0, 0}, {0, 0, 0}, {0, 0, 2}},
		},
		{
			// Documented blind spot: storing the value already there is not
			// a change, so unit 0's store is invisible and the real
			// write-write race with unit 1 is missed.
			name:   "writing the original value is invisible",
			s:      []byte{42, 0},
			units:  2,
			writes: []write{{0, 0, 42}, {1, 0, 43}},
			u:      []byte{43, 0},
			writer: []int{1, -1},
			p2:     [][]byte{{43, 0}, {42, 0}},
		},
		{
			// Documented blind spot: change then restore (ABA) leaves no trace.
			name:   "restoring the original value is invisible",
			s:      []byte{9},
			units:  2,
			writes: []write{{0, 0, 10}, {0, 0, 9}, {1, 0, 11}},
			u:      []byte{11},
			writer: []int{1},
			p2:     [][]byte{{11}, {9}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := slices.Clone(tt.s)
			p := copies(s, tt.units)
			for _, w := range tt.writes {
				p[w.unit][w.off] = w.val
			}
			u, writer, races := FusedWriteWrite(s, p)
			if diff := cmp.Diff(tt.u, u); diff != "" {
				t.Errorf("u (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.writer, writer); diff != "" {
				t.Errorf("writer (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.races, races); diff != "" {
				t.Errorf("races (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.p2, p); diff != "" {
				t.Errorf("pass-2 initial state (-want +got):\n%s", diff)
			}
			if !bytes.Equal(s, tt.s) {
				t.Errorf("s changed: %v, want %v", s, tt.s)
			}
		})
	}
}

func TestModelFusedReadWrite(t *testing.T) {
	s := []byte{1, 2, 3, 4}
	tests := []struct {
		name  string
		u     []byte
		pass2 [][]byte // private copies after pass 2
		races []ByteRace
	}{
		{
			name:  "no units",
			u:     []byte{1, 2, 30, 4},
			pass2: [][]byte{},
		},
		{
			name:  "every unit recomputed its changes",
			u:     []byte{10, 2, 30, 4},
			pass2: [][]byte{{10, 2, 30, 4}, {10, 2, 30, 4}},
		},
		{
			name: "one pass-2 copy differs",
			u:    []byte{10, 2, 30, 4},
			pass2: [][]byte{
				{10, 2, 30, 4},
				{10, 2, 31, 4}, // unit 1 computed 31 in pass 2, 30 in pass 1
				{10, 2, 30, 4},
			},
			races: []ByteRace{
				{Kind: ReadWrite, Offset: 2, Units: [2]int{1, -1}, Values: []byte{30, 31}},
			},
		},
		{
			name: "several differences, by byte then unit",
			u:    []byte{10, 2, 30, 4},
			pass2: [][]byte{
				{10, 2, 30, 5},
				{11, 2, 30, 6},
				{12, 2, 30, 4},
			},
			races: []ByteRace{
				{Kind: ReadWrite, Offset: 0, Units: [2]int{1, -1}, Values: []byte{10, 11}},
				{Kind: ReadWrite, Offset: 0, Units: [2]int{2, -1}, Values: []byte{10, 12}},
				{Kind: ReadWrite, Offset: 3, Units: [2]int{0, -1}, Values: []byte{4, 5}},
				{Kind: ReadWrite, Offset: 3, Units: [2]int{1, -1}, Values: []byte{4, 6}},
			},
		},
		{
			// A unit that did not write byte 1 in pass 1 but writes it in
			// pass 2 (its control flow changed) is caught...
			name:  "new write in pass 2",
			u:     []byte{10, 2, 30, 4},
			pass2: [][]byte{{10, 9, 30, 4}},
			races: []ByteRace{
				{Kind: ReadWrite, Offset: 1, Units: [2]int{0, -1}, Values: []byte{2, 9}},
			},
		},
		{
			// ...unless it writes exactly U's value there: documented
			// blind spot.
			name:  "new write of U's value in pass 2 is invisible",
			u:     []byte{10, 2, 30, 4},
			pass2: [][]byte{{10, 2, 30, 4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := slices.Clone(s)
			u := slices.Clone(tt.u)
			p := make([][]byte, len(tt.pass2))
			for i := range p {
				p[i] = slices.Clone(tt.pass2[i])
			}
			races := FusedReadWrite(s, u, p)
			if diff := cmp.Diff(tt.races, races); diff != "" {
				t.Errorf("races (-want +got):\n%s", diff)
			}
			if !bytes.Equal(u, tt.u) {
				t.Errorf("u changed: %v, want %v", u, tt.u)
			}
			if !bytes.Equal(s, tt.u) {
				t.Errorf("s = %v after copy-back, want u = %v", s, tt.u)
			}
			for i := range p {
				if !bytes.Equal(p[i], tt.u) {
					t.Errorf("p[%d] = %v, want u = %v (next region's pass-1 state)", i, p[i], tt.u)
				}
			}
		})
	}
}

// TestModelTwoPasses runs the whole protocol on a tiny "program": unit 0
// writes x[0] = 5, unit 1 writes x[1] = x[0] + 1. Unit 1 reads what unit 0
// writes: no write-write race, but a read-write race at x[1].
func TestModelTwoPasses(t *testing.T) {
	s := []byte{0, 0}
	run := func(unit int, x []byte) {
		if unit == 0 {
			x[0] = 5
		} else {
			x[1] = x[0] + 1
		}
	}
	p := copies(s, 2)
	for i := range p {
		run(i, p[i])
	}
	u, writer, races := FusedWriteWrite(s, p)
	if len(races) != 0 {
		t.Fatalf("pass 1: unexpected races %v", races)
	}
	if diff := cmp.Diff([]int{0, 1}, writer); diff != "" {
		t.Errorf("writer (-want +got):\n%s", diff)
	}
	// Unit 1 sees unit 0's x[0] = 5 and its own x[1] reverted to 0.
	if diff := cmp.Diff([][]byte{{0, 1}, {5, 0}}, p); diff != "" {
		t.Errorf("pass-2 state (-want +got):\n%s", diff)
	}
	for i := range p {
		run(i, p[i])
	}
	races = FusedReadWrite(s, u, p)
	want := []ByteRace{{Kind: ReadWrite, Offset: 1, Units: [2]int{1, -1}, Values: []byte{1, 6}}}
	if diff := cmp.Diff(want, races); diff != "" {
		t.Errorf("pass 2 races (-want +got):\n%s", diff)
	}
}

func TestModelMergeDeterministic(t *testing.T) {
	s := []byte{0, 0, 0, 7}
	p := copies(s, 3)
	p[0][0], p[2][0] = 1, 3 // racy: the later unit wins
	p[1][1] = 2
	p[0][3], p[1][3] = 8, 7 // unit 1's store of the original value is not a change
	MergeDeterministic(s, p)
	want := []byte{3, 2, 0, 8}
	if !bytes.Equal(s, want) {
		t.Errorf("s = %v, want %v", s, want)
	}
	for i := range p {
		if !bytes.Equal(p[i], want) {
			t.Errorf("p[%d] = %v, want %v", i, p[i], want)
		}
	}
}

func TestModelLengthMismatchPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"FusedWriteWrite":    func() { FusedWriteWrite(make([]byte, 4), [][]byte{make([]byte, 4), make([]byte, 3)}) },
		"FusedReadWrite":     func() { FusedReadWrite(make([]byte, 4), make([]byte, 4), [][]byte{make([]byte, 5)}) },
		"FusedReadWrite u":   func() { FusedReadWrite(make([]byte, 4), make([]byte, 3), nil) },
		"MergeDeterministic": func() { MergeDeterministic(make([]byte, 4), [][]byte{nil}) },
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

func TestModelSortRaces(t *testing.T) {
	r := []ByteRace{
		{Kind: ReadWrite, Offset: 3, Units: [2]int{1, -1}},
		{Kind: WriteWrite, Offset: 0, Units: [2]int{2, 5}},
		{Kind: ReadWrite, Offset: 3, Units: [2]int{0, -1}},
		{Kind: WriteWrite, Offset: 0, Units: [2]int{2, 4}},
	}
	SortRaces(r)
	want := []ByteRace{
		{Kind: WriteWrite, Offset: 0, Units: [2]int{2, 4}},
		{Kind: WriteWrite, Offset: 0, Units: [2]int{2, 5}},
		{Kind: ReadWrite, Offset: 3, Units: [2]int{0, -1}},
		{Kind: ReadWrite, Offset: 3, Units: [2]int{1, -1}},
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// randomRegion builds pass-1 private copies for n units over a random s of
// the given size, with disjoint change sets: every byte has at most one owner
// that changes it (to a value different from s). Non-owners sometimes store
// the original value, which must be invisible. It returns s, the copies, the
// owner of each byte (-1 for none) and each unit's changes.
func randomRegion(r *rand.Rand, n, size int) (s []byte, p [][]byte, owner []int, changes []map[int]byte) {
	s = make([]byte, size)
	for j := range s {
		s[j] = byte(r.IntN(256))
	}
	p = copies(s, n)
	owner = make([]int, size)
	changes = make([]map[int]byte, n)
	for i := range changes {
		changes[i] = map[int]byte{}
	}
	for j := range s {
		owner[j] = r.IntN(n+1) - 1 // -1: nobody writes j
		if owner[j] >= 0 {
			v := s[j] + byte(1+r.IntN(255)) // any value but s[j]
			p[owner[j]][j] = v
			changes[owner[j]][j] = v
		}
		if other := r.IntN(n); other != owner[j] && r.IntN(4) == 0 {
			p[other][j] = s[j] // a store of the original value
		}
	}
	return s, p, owner, changes
}

// sequential applies the units' changes to a copy of s, one unit after
// another.
func sequential(s []byte, changes []map[int]byte) []byte {
	u := slices.Clone(s)
	for _, c := range changes {
		for j, v := range c {
			u[j] = v
		}
	}
	return u
}

// TestModelRandom: for random s and random disjoint write sets over 1 to 40
// units (most not powers of two) and sizes that are not multiples of 32, no
// race is reported, u is the sequential application of all changes, the
// pass-2 states revert exactly each unit's own changes, and re-running the
// same (race-free) writes in pass 2 gives no read-write race. Then a forced
// overlap or a forced pass-2 difference is reported at exactly that byte.
func TestModelRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 17))
	sizes := []int{1, 3, 31, 33, 100, 1000, 4099}
	for n := 1; n <= 40; n++ {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("units=%d/size=%d", n, size), func(t *testing.T) {
				s, p, owner, changes := randomRegion(r, n, size)
				pass1 := make([][]byte, n)
				for i := range p {
					pass1[i] = slices.Clone(p[i])
				}
				orig := slices.Clone(s)

				u, writer, races := FusedWriteWrite(s, p)
				if len(races) != 0 {
					t.Fatalf("races on disjoint writes: %v", races[0])
				}
				if want := sequential(s, changes); !bytes.Equal(u, want) {
					t.Fatalf("u differs from the sequential application")
				}
				if diff := cmp.Diff(owner, writer); diff != "" {
					t.Fatalf("writer (-want +got):\n%s", diff)
				}
				for i := range p {
					for j := range s {
						want := u[j]
						if _, ok := changes[i][j]; ok {
							want = s[j]
						}
						if p[i][j] != want {
							t.Fatalf("pass-2 p[%d][%d] = %d, want %d", i, j, p[i][j], want)
						}
					}
				}
				sm := slices.Clone(s)
				MergeDeterministic(sm, cloneAll(pass1))
				if !bytes.Equal(sm, u) {
					t.Fatalf("MergeDeterministic differs from u")
				}

				// Pass 2: each unit makes the same changes again.
				for i := range p {
					for j, v := range changes[i] {
						p[i][j] = v
					}
				}
				if races := FusedReadWrite(s, u, p); len(races) != 0 {
					t.Fatalf("read-write races on a race-free region: %v", races[0])
				}
				if !bytes.Equal(s, u) {
					t.Fatalf("s is not u after copy-back")
				}

				// A forced read-write difference: one unit, one byte.
				{
					s := slices.Clone(orig)
					p := cloneAll(pass1)
					u, _, _ := FusedWriteWrite(s, p)
					for i := range p {
						for j, v := range changes[i] {
							p[i][j] = v
						}
					}
					i, j := r.IntN(n), r.IntN(size)
					p[i][j] = u[j] + 1 + byte(r.IntN(255))
					want := []ByteRace{{Kind: ReadWrite, Offset: j, Units: [2]int{i, -1}, Values: []byte{u[j], p[i][j]}}}
					if diff := cmp.Diff(want, FusedReadWrite(s, u, p)); diff != "" {
						t.Fatalf("forced read-write (-want +got):\n%s", diff)
					}
				}

				if n < 2 {
					return
				}
				// A forced overlap: a second unit changes an owned byte, or
				// two units change an unowned one.
				s = slices.Clone(orig)
				p = cloneAll(pass1)
				j := r.IntN(size)
				a, b := owner[j], r.IntN(n)
				if a < 0 {
					a = r.IntN(n)
					p[a][j] = s[j] + byte(1+r.IntN(255))
				}
				for b == a {
					b = r.IntN(n)
				}
				p[b][j] = s[j] + byte(1+r.IntN(255))
				lo, hi := min(a, b), max(a, b)
				want := []ByteRace{{
					Kind:   WriteWrite,
					Offset: j,
					Units:  [2]int{lo, hi},
					Values: []byte{s[j], p[lo][j], p[hi][j]},
				}}
				_, _, races = FusedWriteWrite(s, p)
				if diff := cmp.Diff(want, races); diff != "" {
					t.Fatalf("forced overlap at byte %d (-want +got):\n%s", j, diff)
				}
			})
		}
	}
}

// TestModelRandomRacy checks FusedWriteWrite and MergeDeterministic on
// random, overlapping writes against a second formulation of the same
// specification that loops unit by unit (the task-parallel order of the
// paper's Figure 3) instead of byte by byte, then sorts with SortRaces.
func TestModelRandomRacy(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	for trial := range 300 {
		n, size := 1+r.IntN(40), 1+r.IntN(300)
		s := make([]byte, size)
		for j := range s {
			s[j] = byte(r.IntN(4)) // few values: many stores of the original
		}
		p := copies(s, n)
		for i := range p {
			for j := range p[i] {
				if r.IntN(8) == 0 {
					p[i][j] = byte(r.IntN(4))
				}
			}
		}
		pass1 := cloneAll(p)

		wantU := slices.Clone(s)
		wantWriter := slices.Repeat([]int{-1}, size)
		var wantRaces []ByteRace
		for i := range pass1 {
			for j := range s {
				if pass1[i][j] == s[j] {
					continue
				}
				if k := wantWriter[j]; k >= 0 {
					wantRaces = append(wantRaces, ByteRace{
						Kind: WriteWrite, Offset: j, Units: [2]int{k, i},
						Values: []byte{s[j], pass1[k][j], pass1[i][j]},
					})
				}
				wantWriter[j] = i
				wantU[j] = pass1[i][j]
			}
		}
		SortRaces(wantRaces)
		wantP2 := make([][]byte, n)
		for i := range wantP2 {
			wantP2[i] = slices.Clone(wantU)
			for j := range s {
				if pass1[i][j] != s[j] {
					wantP2[i][j] = s[j]
				}
			}
		}

		u, writer, races := FusedWriteWrite(s, p)
		if diff := cmp.Diff(wantRaces, races); diff != "" {
			t.Fatalf("trial %d: races (-want +got):\n%s", trial, diff)
		}
		if !bytes.Equal(u, wantU) || !slices.Equal(writer, wantWriter) || !slices.EqualFunc(p, wantP2, bytes.Equal) {
			t.Fatalf("trial %d: u, writer or pass-2 state differs", trial)
		}
		sm := slices.Clone(s)
		MergeDeterministic(sm, cloneAll(pass1))
		if !bytes.Equal(sm, u) {
			t.Fatalf("trial %d: MergeDeterministic differs from u", trial)
		}
	}
}

func cloneAll(p [][]byte) [][]byte {
	q := make([][]byte, len(p))
	for i := range p {
		q[i] = slices.Clone(p[i])
	}
	return q
}
