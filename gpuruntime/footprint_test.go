package gpuruntime

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// oneScan is the footprint definition: each maximal run of one block's
// bytes in a target's writer map is one range of that block, in order.
func oneScan(blocks int, writers [][]int32) (index []uint64, ranges []Range) {
	per := make([][]Range, blocks)
	for a, w := range writers {
		for j := 0; j < len(w); {
			k := j
			for k < len(w) && w[k] == w[j] {
				k++
			}
			if b := w[j]; b >= 0 && int(b) < blocks {
				per[b] = append(per[b], Range{Alloc: int32(a), Start: uint64(j), Len: uint64(k - j)})
			}
			j = k
		}
	}
	for b := 0; b < blocks; b++ {
		index = append(index, uint64(len(ranges)))
		ranges = append(ranges, per[b]...)
	}
	return append(index, uint64(len(ranges))), ranges
}

// The parallel scan joins runs that its segment boundaries cut: the same
// ranges as one scan, whatever the segments.
func TestFootprintsMatchOneScan(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 20; trial++ {
		blocks := 1 + rng.Intn(50)
		r := &checkRun{l: Launch{Grid: [3]uint32{uint32(blocks), 1, 1}, Block: [3]uint32{32, 1, 1}}}
		var writers [][]int32
		for a := 0; a < 1+rng.Intn(3); a++ {
			// Long runs (so that some cross the 64K segment boundaries),
			// unwritten bytes (-1), and sizes that are not multiples of
			// anything.
			n := rng.Intn(400000)
			w := make([]int32, n)
			for j := 0; j < n; {
				run := 1 + rng.Intn(90000)
				b := int32(rng.Intn(blocks+1)) - 1
				for k := j; k < min(n, j+run); k++ {
					w[k] = b
				}
				j += run
			}
			writers = append(writers, w)
			r.allocs = append(r.allocs, &alloc{size: int64(n)})
		}
		gotIndex, gotRanges := r.footprints(writers)
		wantIndex, wantRanges := oneScan(blocks, writers)
		if d := cmp.Diff(wantIndex, gotIndex); d != "" {
			t.Fatalf("trial %d: index (-one scan +footprints):\n%s", trial, d)
		}
		if d := cmp.Diff(wantRanges, gotRanges); d != "" {
			t.Fatalf("trial %d: ranges (-one scan +footprints):\n%s", trial, d)
		}
	}
}
