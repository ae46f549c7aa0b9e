package gpuruntime

import (
	"testing"

	"ldcheck/privatize/manifest"
)

// occupancy is a backend with a GPU's shared-memory limits: blocksPerSM
// blocks fit an SM while they take at most perSM bytes of shared memory
// together (registers allow no more).
type occupancy struct {
	*CPUBackend
	limit, perSM int64
	blocksPerSM  int
}

func (o occupancy) SharedLimit(string) (int64, error) { return o.limit, nil }

func (o occupancy) Resident(kernel string, block [3]uint32, shared int64) (int, error) {
	n := o.blocksPerSM
	if shared > 0 {
		n = min(n, int(o.perSM/shared))
	}
	return 132 * n, nil
}

// TestSharedSegmentLayout: a segment in shared memory has the smallest
// table that stays half full (two keys a slot), 16-byte aligned arrays,
// and its written flags and tables before the data (ldc_seg_acquire
// zeroes [0, off_slots) and [off_written, off_data)).
func TestSharedSegmentLayout(t *testing.T) {
	for _, c := range []int64{1, 8, 31, 32} {
		table, off, total := sharedSegmentLayout(c, 128)
		if table < 4*c || table&(table-1) != 0 || (table > 16 && table/2 >= 4*c) {
			t.Errorf("cap %d: table %d entries", c, table)
		}
		for i, o := range off {
			if o%16 != 0 || (i > 0 && o < off[i-1]) {
				t.Errorf("cap %d: offsets %v", c, off)
			}
		}
		if off[4] > off[5] || total < off[6]+c*128 {
			t.Errorf("cap %d: written at %d, data at %d, total %d", c, off[4], off[5], total)
		}
	}
	if _, _, n := sharedSegmentLayout(maxSharedSlots, 128); n > 12<<10 {
		t.Errorf("a full shared segment takes %d bytes; the L1 cache it comes out of is the spills'", n)
	}
}

// TestSharedSegmentCap: the segment goes in shared memory with as many
// slots as fit without losing a resident block, up to maxSharedSlots; not
// when level 1's estimate is larger, or when too few fit.
func TestSharedSegmentCap(t *testing.T) {
	cpu, _ := fusedBackend(t)
	k := &manifest.Kernel{Name: "k"}
	run := func(o occupancy, kernelShared, estimate int64) (int64, int64) {
		t.Helper()
		o.CPUBackend = cpu
		r := &checkRun{b: o, l: Launch{Kernel: k, Grid: [3]uint32{1024, 1, 1}, Block: [3]uint32{128, 1, 1}, Shared: kernelShared}, slotBytes: 128}
		c, off, err := r.sharedSegmentCap(estimate)
		if err != nil {
			t.Fatal(err)
		}
		return c, off
	}
	roomy := occupancy{limit: 227 << 10, perSM: 228 << 10, blocksPerSM: 4}
	if c, off := run(roomy, 100, 0); c != maxSharedSlots || off != 112 {
		t.Errorf("no level 1, room: %d slots at %d, want %d at 112", c, off, maxSharedSlots)
	}
	if c, _ := run(roomy, 0, 20); c != maxSharedSlots {
		t.Errorf("level 1 estimate 20: %d slots, want %d", c, maxSharedSlots)
	}
	if c, _ := run(roomy, 0, maxSharedSlots+1); c != 0 {
		t.Errorf("level 1 estimate over the cap: %d slots, want device memory", c)
	}
	// 16 blocks an SM by registers, 64 KiB of shared memory for all of
	// them: 4 KiB a block, where a block uses 2 KiB itself.
	tight := occupancy{limit: 48 << 10, perSM: 64 << 10, blocksPerSM: 16}
	c, _ := run(tight, 2<<10, 0)
	if _, _, n := sharedSegmentLayout(c, 128); c != 0 && 2<<10+n > 4<<10 {
		t.Errorf("%d slots (%d bytes) cost resident blocks", c, n)
	}
	if c != 0 {
		t.Errorf("tight: %d slots; fewer than 8 fit in 2 KiB, want device memory", c)
	}
	half := occupancy{limit: 48 << 10, perSM: 128 << 10, blocksPerSM: 16}
	c, _ = run(half, 2<<10, 0)
	if _, _, n := sharedSegmentLayout(c, 128); c < 8 || 2<<10+n > 8<<10 {
		t.Errorf("8 KiB a block: %d slots (%d bytes)", c, n)
	}
	if _, _, n := sharedSegmentLayout(c+1, 128); c < maxSharedSlots && 2<<10+n <= 8<<10 {
		t.Errorf("8 KiB a block: %d slots, but %d fit", c, c+1)
	}
}
