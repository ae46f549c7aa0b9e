package gpuruntime

import (
	"cmp"
	"fmt"
	"slices"
)

// This file is the plain Go specification of the fused checking steps of the
// two-pass protocol (LDetector sections 4.1-4.3 and 4.6; DESIGN.md sections 4
// and 6). The device-side checking code (CUDA C) must compute exactly what
// these functions compute: it is tested against them on random data. The
// model favours clarity over speed; it is not used to check real kernels.
//
// Vocabulary, for one AP region and one target (a contiguous range of bytes
// that the region may race on):
//
//   - S, the original state: the target's bytes before the region runs.
//   - A unit: what gets a private copy (a warp, a block, or a reshuffling
//     group). Units are numbered 0..N-1 and that order is the replay order.
//   - P[i], unit i's private copy. Pass 1 starts with P[i] = S.
//   - U, the union: S plus every change any unit made in pass 1.
//
// Unit i wrote byte j in pass 1 exactly when P[i][j] != S[j] after pass 1.
// The checks are value-based and byte-granular: there are no access logs and
// no bitmaps, and two units changing different bytes of one word do not
// conflict. Value-based checking is blind to some accesses (LDetector 4.7,
// DESIGN.md section 7):
//
//   - a write of the value already there (S[j]) is not seen as a write, so
//     two units can both store S[j], or one store S[j] and another store
//     something else, without a write-write race being reported;
//   - a unit that changes a byte and then restores its original value
//     (ABA) leaves no trace;
//   - in pass 2, a unit that writes U[j] to a byte it did not change in
//     pass 1 is indistinguishable from one that did not write it.
//
// Data layout on the device: each checking thread owns some bytes j and
// loops over the units in increasing order for each of them. The model
// follows the same order, so races come out sorted by byte offset and then
// by unit (see SortRaces for comparing with an implementation that collects
// them in another order).
//
// Live-out locals (DESIGN.md section 4, step 4) are compared elsewhere; this
// model covers memory only.

// RaceKind is the kind of a conflict found by the value-based checks.
type RaceKind string

const (
	// WriteWrite: two units changed the same byte in pass 1.
	WriteWrite RaceKind = "write-write"
	// ReadWrite: a unit's pass-2 result differs from the union, so what it
	// computed depended on another unit's pass-1 writes.
	ReadWrite RaceKind = "read-write"
)

// ByteRace is one byte on which two units conflict.
type ByteRace struct {
	Kind RaceKind
	// Offset is the byte offset in the target.
	Offset int
	// Units are the unit numbers involved.
	//
	// WriteWrite: the earlier writer (in unit order) first, then the later.
	//
	// ReadWrite: Units[0] is the unit whose pass-2 copy differs from U at
	// Offset. Units[1] is -1: the byte where the result differs is where the
	// unit wrote, not where it read, so the values do not say whose write it
	// read. (A caller that knows more, e.g. from a footprint, may fill it.)
	Units [2]int
	// Values seen at Offset.
	//
	// WriteWrite: {S[j], Units[0]'s pass-1 value, Units[1]'s pass-1 value}.
	//
	// ReadWrite: {U[j], Units[0]'s pass-2 value}.
	Values []byte
}

// String formats a race for test failures and debugging.
func (r ByteRace) String() string {
	return fmt.Sprintf("%s at byte %d: units %d,%d values % x", r.Kind, r.Offset, r.Units[0], r.Units[1], r.Values)
}

// FusedWriteWrite is step 2 of the protocol (LDetector section 4.1, the
// write-write check, fused with the pass-2 initialisation of section 4.2 as
// in section 4.3), for one target of len(s) bytes and len(p) units. On entry
// p[i] is unit i's private copy after pass 1; s is the original state and is
// not changed.
//
// For every byte j independently (this is what makes it data parallel and
// atomic-free: the thread that owns j replays all units' writes to j by
// itself, in unit order):
//
//  1. Unit i wrote j if p[i][j] != s[j].
//  2. If unit i wrote j and an earlier unit k also wrote j, that is a
//     write-write race, reported against the previous writer only: three
//     writers a < b < c of one byte give the races (a,b) and (b,c), not
//     (a,c). Values is {s[j], p[k][j], p[i][j]}.
//  3. u[j] is the value of the last writer of j, or s[j] if none wrote it.
//     writer[j] is the number of that unit, or -1. (The runtime keeps writer:
//     it is also the footprint / owner map that the next level uses.)
//  4. p[i][j] becomes unit i's pass-2 initial state: u[j] if i did not write
//     j, and s[j] if it did. Each unit thus re-runs the region seeing every
//     other unit's pass-1 changes but with its own changes reverted, so that
//     it recomputes them (section 4.2). Note that u and p are computed from
//     the pass-1 values before any p[i][j] is overwritten.
//
// Invariants on return:
//
//   - If races is empty, the units' change sets are disjoint and u is s with
//     every unit's pass-1 changes applied, in any order; writer[j] is the
//     only unit that changed j.
//   - Whether or not there was a race, u is the result of applying the
//     changes in increasing unit order (the last writer wins), which is also
//     what MergeDeterministic produces.
//   - writer[j] >= 0 if and only if u[j] != s[j].
//   - For every i and j: p[i][j] == s[j] if unit i wrote j, else u[j]. With
//     no race that is: s[j] where writer[j] == i, u[j] elsewhere.
//
// When races is not empty the protocol stops and reports them; u and p are
// still fully defined as above (each writer of a contested byte gets s[j]).
//
// It panics if some p[i] does not have len(s) bytes.
func FusedWriteWrite(s []byte, p [][]byte) (u []byte, writer []int, races []ByteRace) {
	checkLengths(len(s), p)
	u = make([]byte, len(s))
	writer = make([]int, len(s))
	for j := range s {
		orig := s[j]
		last := -1
		for i := range p {
			if p[i][j] == orig {
				continue
			}
			if last >= 0 {
				races = append(races, ByteRace{
					Kind:   WriteWrite,
					Offset: j,
					Units:  [2]int{last, i},
					Values: []byte{orig, p[last][j], p[i][j]},
				})
			}
			last = i
		}
		writer[j] = last
		u[j] = orig
		if last >= 0 {
			u[j] = p[last][j]
		}
		// Pass-2 initial state. Unit i wrote j iff its pass-1 value differs
		// from s[j]; that test must use the pass-1 value, so do it before
		// overwriting.
		for i := range p {
			if p[i][j] != orig {
				p[i][j] = orig
			} else {
				p[i][j] = u[j]
			}
		}
	}
	return u, writer, races
}

// FusedReadWrite is step 4 of the protocol (LDetector section 4.2), fused with
// the copy-back. On entry p[i] is unit i's private copy after pass 2 and u is
// the union built by FusedWriteWrite.
//
// Unit i has a read-write race at byte j if p[i][j] != u[j]. Why this is the
// test: unit i started pass 2 from u with its own pass-1 changes reverted to
// s. If it computes what it computed in pass 1, it writes back exactly its
// pass-1 changes and its copy becomes u again; the paper proves that p[i] ==
// u if and only if its pass-2 writes equal its pass-1 writes. A difference
// means the other units' changes, which it saw in pass 2 but not in pass 1,
// changed what it computed: it read a byte another unit writes. Values is
// {u[j], p[i][j]} and Units is {i, -1}.
//
// Then, race or not, s = u (the region's result becomes the state the next
// region starts from) and every p[i] = u (ready as the next region's pass-1
// state, P1 = S). u is not changed.
//
// It panics if u or some p[i] does not have len(s) bytes.
func FusedReadWrite(s, u []byte, p [][]byte) (races []ByteRace) {
	if len(u) != len(s) {
		panic(fmt.Sprintf("gpuruntime: union has %d bytes, target has %d", len(u), len(s)))
	}
	checkLengths(len(s), p)
	for j := range s {
		for i := range p {
			if p[i][j] != u[j] {
				races = append(races, ByteRace{
					Kind:   ReadWrite,
					Offset: j,
					Units:  [2]int{i, -1},
					Values: []byte{u[j], p[i][j]},
				})
			}
			p[i][j] = u[j]
		}
		s[j] = u[j]
	}
	return races
}

// MergeDeterministic is the deterministic mode (LDetector section 4.6;
// DESIGN.md section 6): a single pass with private copies, then at every
// barrier and at kernel end the units' changes are merged in increasing unit
// order with no checking. On entry p[i] is unit i's copy after the region.
//
// For every byte j, the result is the value of the last unit i (in unit
// order) with p[i][j] != s[j], or s[j] if there is none; it is written into s
// and every p[i] is reset to s, ready for the next region.
//
// Each unit's copy depends only on s and the unit's own code (it reads no
// other unit's writes during the region), so the result is the same on every
// run and every backend, even for a racy kernel. It is the same value as the
// u of FusedWriteWrite. It need not equal any sequential execution: a later
// unit that stores the original value s[j] does not undo an earlier unit's
// change, because that store is not seen as a change.
//
// It panics if some p[i] does not have len(s) bytes.
func MergeDeterministic(s []byte, p [][]byte) {
	checkLengths(len(s), p)
	for j := range s {
		v := s[j]
		for i := range p {
			if p[i][j] != s[j] {
				v = p[i][j]
			}
		}
		s[j] = v
		for i := range p {
			p[i][j] = v
		}
	}
}

// SortRaces sorts races into the model's order: by Offset, then Units[0],
// then Units[1], then Kind. An implementation that finds races in parallel
// and records them in another order is compared with the model after sorting
// both.
func SortRaces(races []ByteRace) {
	slices.SortStableFunc(races, func(a, b ByteRace) int {
		return cmp.Or(
			cmp.Compare(a.Offset, b.Offset),
			cmp.Compare(a.Units[0], b.Units[0]),
			cmp.Compare(a.Units[1], b.Units[1]),
			cmp.Compare(a.Kind, b.Kind),
		)
	})
}

func checkLengths(n int, p [][]byte) {
	for i := range p {
		if len(p[i]) != n {
			panic(fmt.Sprintf("gpuruntime: private copy %d has %d bytes, target has %d", i, len(p[i]), n))
		}
	}
}
