package gpuruntime

import "testing"

// TestLaneEffects: a warp's read-write record on a word its own lanes
// raced on, in the same region and block, is the lane race's effect and
// goes; one of another warp, block, word or region, and write-write
// records, stay.
func TestLaneEffects(t *testing.T) {
	iw := []Record{{Kind: RecordIWW, Space: SpaceShared, Target: 0, From: -1, To: 0, UnitA: 0, UnitB: 1, Block: 3, Group: 1, Offset: 8}}
	rw := func(block, warp int32, off int64, from int32) Record {
		return Record{Kind: RecordRW, Space: SpaceShared, Target: 0, From: from, To: 0, UnitA: warp, UnitB: -1, Block: block, Offset: off}
	}
	warp := []Record{
		rw(3, 1, 8, -1),  // the lanes' own word: goes
		rw(3, 1, 11, -1), // another byte of that word: goes
		rw(3, 1, 12, -1), // the next word: stays
		rw(3, 0, 8, -1),  // another warp: stays
		rw(2, 1, 8, -1),  // another block: stays
		rw(3, 1, 8, 0),   // another region: stays
		{Kind: RecordWW, Space: SpaceShared, From: -1, To: 0, UnitA: 1, UnitB: 2, Block: 3, Offset: 8},
	}
	got := laneEffects(append([]Record(nil), warp...), iw)
	if len(got) != len(warp)-2 {
		t.Fatalf("kept %d records, want %d: %+v", len(got), len(warp)-2, got)
	}
	for _, rec := range got {
		if rec.Kind == RecordRW && rec.Block == 3 && rec.UnitA == 1 && rec.From == -1 && rec.Offset>>2 == 2 {
			t.Errorf("kept the lane race's effect %+v", rec)
		}
	}
	if n := len(laneEffects(append([]Record(nil), warp...), nil)); n != len(warp) {
		t.Errorf("without intra-warp records, kept %d of %d", n, len(warp))
	}
}
