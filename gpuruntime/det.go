package gpuruntime

import (
	"encoding/binary"
	"fmt"

	"ldcheck/privatize/manifest"
)

// A deterministic run (Options.Deterministic; LDetector section 4.6, "safe
// parallel execution") is level 2's first pass alone, with the merges made
// final:
//
//   - every warp runs each region on its private copies (shared targets: a
//     copy per warp; global targets: the pages it writes, in its block's
//     segment);
//   - at every region end the block merges its warps' changes in warp
//     order (where two warps changed one byte, the highest warp's value is
//     kept and the pair is a write-write race between warps), the merged
//     bytes go to the originals and every warp's copy takes them: no
//     second pass, nothing put back, atomics and printf run once;
//   - blocks run one at a time, in increasing linear block index, each
//     seeing the global memory the blocks before it left: a byte an earlier
//     block wrote is a write-write race between blocks, and the later
//     block's value is kept (struct ldc_det's owners).
//
// The outputs are those of running the blocks one after the other with the
// warps of each merged in order at every barrier, whatever order the
// hardware runs threads in: the same bytes every run and on both backends
// (but for math functions that round differently on the GPU and the CPU,
// and for atomics whose outcome depends on the order: the caller refuses
// those unless told otherwise). A race-free kernel gives the bytes of an
// unchecked run. Read-write races are not looked for: there is no second
// pass to compare with.

// owners is a deterministic run's shadow of the global pages written: per
// byte, the block that wrote it last and its value before the kernel.
type owners struct {
	cap                       int64
	pageSlot, slots, counters DevPtr
	totalPages, slotBytes     int64
}

// ownersBytes is what owners with room for cap pages take.
func ownersBytes(cap, slotBytes, totalPages int64) int64 {
	return totalPages*4 + cap*slotBytes*4 + 16
}

func (r *checkRun) newOwners(cap int64) (*owners, error) {
	o := &owners{cap: cap, totalPages: r.totalPages, slotBytes: r.slotBytes}
	for _, a := range []struct {
		dst *DevPtr
		n   int64
	}{{&o.pageSlot, r.totalPages * 4}, {&o.slots, cap * r.slotBytes * 4}, {&o.counters, 16}} {
		var err error
		if *a.dst, err = r.alloc(a.n); err != nil {
			o.release(r)
			return nil, &MemoryError{Need: ownersBytes(cap, r.slotBytes, r.totalPages), What: "--deterministic's record of which block wrote each byte"}
		}
	}
	return o, nil
}

// reset readies the owners for a launch: no page has any, no block ran.
func (o *owners) reset(b Backend) error {
	if err := b.Memset(o.pageSlot, 0xff, o.totalPages*4); err != nil {
		return err
	}
	return b.Memset(o.counters, 0, 16) // the slots are zeroed as they are taken
}

// wanted is how many pages the blocks merged into (the slots they asked for).
func (o *owners) wanted(b Backend) (int64, error) {
	raw := make([]byte, 8)
	if err := b.Read(raw, o.counters); err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(raw)), nil
}

func (o *owners) release(r *checkRun) {
	r.free(o.pageSlot)
	r.free(o.slots)
	r.free(o.counters)
}

func (o *owners) ctx() Det {
	return Det{On: 1, Counters: uint64(o.counters), PageSlot: uint64(o.pageSlot), Owners: uint64(o.slots), Cap: uint64(o.cap)}
}

// deterministic runs the kernel once, deterministically (see above). A
// launch that runs out of room for the segment or the owners is void: the
// inputs are put back (every buffer: its atomics ran) and it runs again
// with room for what it asked for; the second run asks for the same.
func (r *checkRun) deterministic() error {
	r.res.Levels = []string{"deterministic"}
	r.res.Deterministic = true
	var segCap int64
	if len(r.allocs) > 0 {
		segCap = max(64, min(r.totalPages, 4096))
	}
	for attempt := 1; ; attempt++ {
		if attempt > maxAttempts {
			return fmt.Errorf("kernel %s: the deterministic run ran out of room for private copies %d times; giving up", r.l.Kernel.Name, maxAttempts)
		}
		var own *owners
		ownUsed := int64(0)
		if len(r.allocs) > 0 {
			_, _, segBytes := segmentLayout(segCap, r.slotBytes)
			if need := segBytes + ownersBytes(1, r.slotBytes, r.totalPages); need > r.budget {
				return r.tooSmall(need, "--deterministic's private copies (a segment for one block, and the record of which block wrote each byte)")
			}
			ownFit := (r.budget - segBytes - ownersBytes(0, r.slotBytes, r.totalPages)) / (r.slotBytes * 4)
			s, err := r.newSegments(1, segCap)
			if err != nil {
				return err
			}
			r.segs = s
			// Room for every page of the targets, or as many as fit: the
			// run takes only what the blocks write, and can use no more.
			if own, err = r.newOwners(min(r.totalPages, ownFit)); err != nil {
				s.release(r)
				r.segs = nil
				return err
			}
			ownUsed = own.cap
		}
		var recs []Record
		err := r.phase("kernel, one pass, merged in warp and block order at every barrier (deterministic)", func() error {
			if r.segs != nil {
				if err := r.segs.reset(r.b); err != nil {
					return err
				}
				if err := own.reset(r.b); err != nil {
					return err
				}
			}
			if err := r.b.Memset(r.compared, 0, 8); err != nil {
				return err
			}
			err := r.launch(ModeReplay, 0, 0, r.useShared, func(c *Ctx) {
				if own != nil {
					c.Det = own.ctx()
				} else {
					c.Det.On = 1 // no global targets: no turns, no owners (blocks touch no common target)
				}
			})
			if err != nil {
				return err
			}
			recs, err = r.readRecords()
			return err
		})
		if err != nil {
			return err
		}
		segFull, peak, wanted := false, int64(0), int64(0)
		if r.segs != nil {
			if segFull, peak, err = r.segs.state(r.b); err != nil {
				return err
			}
			if wanted, err = own.wanted(r.b); err != nil {
				return err
			}
			// What the run took: the owners' room is allocated for every
			// page, but only the pages written are touched.
			r.res.CopyBytes = max(r.res.CopyBytes, r.segs.bytes()+ownersBytes(min(wanted, ownUsed), r.slotBytes, r.totalPages))
			r.segs.release(r)
			r.segs = nil
			own.release(r)
		}
		if wanted > ownUsed {
			// The owners had all the room there is.
			_, _, segBytes := segmentLayout(segCap, r.slotBytes)
			return r.tooSmall(segBytes+ownersBytes(wanted, r.slotBytes, r.totalPages), fmt.Sprintf("--deterministic's private copies (a segment for one block's pages, and the record of which block wrote each byte of the %d pages written)", wanted))
		}
		if !segFull {
			var warps, blocks []Record
			for _, rec := range recs {
				if rec.Block < 0 {
					blocks = append(blocks, rec)
				} else {
					warps = append(warps, rec)
				}
			}
			r.addRaces(warps, manifest.ScopeInterWarp)
			r.addRaces(blocks, manifest.ScopeInterBlock)
			if r.res.Truncated {
				// Records past the buffer's room are lost, and with them,
				// maybe, the pair whose second unit's value was kept.
				for i := range r.res.Races {
					r.res.Races[i].Kept = nil
				}
				r.res.Notes = append(r.res.Notes, fmt.Sprintf("the merges met more conflicts than ldcheck keeps records of (%d): the races are not all listed, nor whose value was kept (the highest unit that wrote each byte, as always)", maxRecords/2))
			}
			raw := make([]byte, 8)
			if err := r.b.Read(raw, r.compared); err != nil {
				return err
			}
			r.res.BytesCompared += int64(binary.LittleEndian.Uint64(raw))
			return nil
		}
		// Void: start again from the inputs, atomically updated buffers
		// included (their atomics ran, and nothing replays them).
		r.res.Races, r.res.Truncated = []Race{}, false
		if err := r.restoreAll(); err != nil {
			return err
		}
		old := segCap
		segCap = max(2*segCap, peak+peak/4+16)
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("a block's warps wrote more than %d pages in one region; the deterministic run ran again with room for %d", old, segCap))
	}
}
