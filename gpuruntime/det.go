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
//     bytes go to the block's originals (shared targets) or to the block's
//     own copies of the global pages (level 1's pool, unit = block), and
//     every warp starts the next region from them: no second pass, nothing
//     put back, atomics and printf run once;
//   - blocks run together, as the hardware schedules them, each seeing the
//     inputs and its own writes only: once the kernel is done, the blocks'
//     copies are merged in increasing block order (ldc_pages_ww, level 1's
//     write-write check): a byte two blocks wrote is a write-write race
//     between blocks, and the highest block's value is kept.
//
// The outputs are those of the blocks run side by side from the inputs and
// merged in block order at the end, with the warps of each merged in order
// at every barrier, whatever order the hardware runs threads in: the same
// bytes every run and on both backends (but for math functions that round
// differently on the GPU and the CPU, and for atomics whose outcome depends
// on the order: the caller refuses those unless told otherwise). A
// race-free kernel gives the bytes of an unchecked run. Read-write races
// are not looked for: there is no second pass to compare with.

// deterministic runs the kernel once, deterministically (see above). A
// launch that runs out of room for the segments or the blocks' copies is
// void: the inputs are put back (every buffer: its atomics ran) and it runs
// again with room for what it asked for.
func (r *checkRun) deterministic() error {
	r.res.Levels = []string{"deterministic"}
	r.res.Deterministic = true
	var segCap, nseg, poolCap, shards int64
	asked := false
	if len(r.allocs) > 0 {
		segCap = max(64, min(r.totalPages, 4096))
		nseg = int64(r.residentBlocks())
		shards = shardsFor(r.l.blocks())
		poolCap = max(2*r.totalPages, int64(r.l.blocks()), 1024)
	}
	for attempt := 1; ; attempt++ {
		if attempt > maxAttempts {
			return fmt.Errorf("kernel %s: the deterministic run ran out of room for private copies %d times; giving up", r.l.Kernel.Name, maxAttempts)
		}
		if nseg > 0 {
			if err := r.detCopies(nseg, segCap, poolCap, shards, asked); err != nil {
				return err
			}
		}
		var recs []Record
		err := r.phase("kernel, one pass, merged in warp order at every barrier (deterministic)", func() error {
			if r.segs != nil {
				if err := r.segs.reset(r.b); err != nil {
					return err
				}
				if err := r.pool.reset(r.b); err != nil {
					return err
				}
			}
			if err := r.b.Memset(r.compared, 0, 8); err != nil {
				return err
			}
			err := r.launch(ModeReplay, 0, 0, r.useShared, func(c *Ctx) { c.Det.On = 1 })
			if err != nil {
				return err
			}
			recs, err = r.readRecords()
			return err
		})
		if err != nil {
			r.releaseDetCopies()
			return err
		}
		segFull, peak, st := false, int64(0), poolState{}
		if r.segs != nil {
			var ss segState
			if ss, err = r.segs.state(r.b); err == nil {
				segFull, peak = ss.full, ss.peak
				st, err = r.pool.state(r.b)
			}
			if err != nil {
				r.releaseDetCopies()
				return err
			}
		}
		if !segFull && !st.full {
			err := r.detFinish(recs, st)
			r.releaseDetCopies()
			return err
		}
		r.releaseDetCopies()
		// Void: start again from the inputs, atomically updated buffers
		// included (their atomics ran, and nothing replays them).
		r.res.Races, r.res.Truncated = []Race{}, false
		if err := r.restoreAll(); err != nil {
			return err
		}
		if segFull {
			old := segCap
			segCap = max(2*segCap, peak+peak/4+16)
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("a block's warps wrote more than %d pages in one region; the deterministic run ran again with room for %d", old, segCap))
		}
		if st.full {
			old := poolCap
			shards, poolCap = rerunShards(st.shardWanted, 1<<40)
			if st.saturated {
				poolCap = max(poolCap, 8*old)
			}
			poolCap = shardRound(poolCap, shards, 1<<40)
			asked = true
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("the blocks asked for %d or more copies of global pages, more than the %d first allotted; the deterministic run ran again with room for them", st.wanted, old))
		}
	}
}

// detCopies allocates a deterministic run's copies of global pages: the
// segments of the blocks running at once (their warps' copies, half the
// budget at most) and the pool of the blocks' own copies (the rest);
// asked: poolCap is what a void run asked for, not a guess to trim.
func (r *checkRun) detCopies(nseg, segCap, poolCap, shards int64, asked bool) error {
	_, _, segBytes := segmentLayout(segCap, r.slotBytes)
	n := min(nseg, r.budget/2/max(segBytes, 1))
	least := segBytes + poolBytes(64, r.slotBytes, r.totalPages)
	if n < 1 {
		return r.tooSmall(least, "--deterministic's private copies (a segment for one block's pages, and the blocks' own copies of the pages they write)")
	}
	capFit := capFittingIn(r.budget-n*segBytes, r.slotBytes, r.totalPages)
	if capFit < 64 {
		return r.tooSmall(least, "--deterministic's private copies (a segment for one block's pages, and the blocks' own copies of the pages they write)")
	}
	if asked && poolCap > capFit {
		// What a void run asked for, not a first guess: there is no
		// checking in rounds to fall back on (the run is never repeated).
		return r.tooSmall(n*segBytes+poolBytes(poolCap, r.slotBytes, r.totalPages),
			fmt.Sprintf("--deterministic's private copies (the blocks' own copies of the %d pages they wrote, and segments for %d blocks at a time)", poolCap, n))
	}
	poolCap = shardRound(min(poolCap, capFit), shards, capFit)
	s, err := r.newSegments(n, segCap)
	if err != nil {
		return err
	}
	p, err := r.newPool(poolCap, shards)
	if err != nil {
		s.release(r)
		return err
	}
	r.segs, r.pool = s, p
	r.res.CopyBytes = max(r.res.CopyBytes, s.bytes()+poolBytes(poolCap, r.slotBytes, r.totalPages))
	return nil
}

func (r *checkRun) releaseDetCopies() {
	if r.segs != nil {
		r.segs.release(r)
		r.segs = nil
	}
	if r.pool != nil {
		r.pool.release(r)
		r.pool = nil
	}
}

// detFinish merges the blocks' copies into the buffers in block order and
// reports the conflicts met: the warps' (recs, from the kernel) and the
// blocks' (from the merge).
func (r *checkRun) detFinish(recs []Record, st poolState) error {
	r.addRaces(recs, manifest.ScopeInterWarp)
	if r.pool != nil && st.pages > 0 {
		blocks, err := r.pageCheck("merge of the blocks' copies, in block order (deterministic)", "ldc_pages_ww", st, true)
		if err != nil {
			return err
		}
		r.addRaces(blocks, manifest.ScopeInterBlock)
	}
	if r.res.Truncated {
		// Records past the buffer's room are lost, and with them, maybe,
		// the pair whose second unit's value was kept.
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
