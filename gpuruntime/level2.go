package gpuruntime

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"ldcheck/privatize/manifest"
)

// Level 2: unit = warp, regions between barriers, checked in the kernel at
// each barrier by the block's threads. Shared targets get a copy per warp;
// global pages the warps write go to the block's segment, which the block
// checks and empties at every region end.

// residentBlocks is how many blocks of the launch can run at once: that
// many segments let every running block hold one.
func (r *checkRun) residentBlocks() int {
	n := r.level2Resident(r.sharedLaunch)
	if n <= 0 {
		n = 2 * runtime.NumCPU()
		if r.b.Name() == "cuda" {
			n = 2048
		}
	}
	return min(n, r.l.blocks())
}

// level2Resident is how many blocks of level 2's launch, with shared
// bytes of dynamic shared memory each, the backend runs at once; 0 when it
// cannot tell.
func (r *checkRun) level2Resident(shared int64) int {
	type resident interface {
		Resident(kernel string, block [3]uint32, shared int64) (int, error)
	}
	r.useModuleFor(ModeReplay) // level 2's module: its registers decide
	rb, ok := r.b.(resident)
	if !ok {
		return 0
	}
	n, err := rb.Resident(r.l.Kernel.Name, r.l.Block, shared)
	if err != nil {
		return 0
	}
	return n
}

// levelWarp runs level 2. serial runs one block at a time (one segment
// that every block waits for), each from the kernel's inputs (the
// segment's pristine copy of the targets, put back as each block starts):
// level 2 compares a block's two passes over each region and its warps'
// writes against what the block saw, and a block running beside others,
// or after them, sees their writes of the bytes they share: it can read
// them in one pass and not the other, and a byte two of its warps set to
// the value another block already stored there looks unwritten. Its
// verdict then depends on the order blocks ran in. Serial runs are for
// kernels level 1 found racing between blocks (the only ones whose blocks
// touch common bytes), and leave the outputs of one block only: those
// outputs are undefined anyway.
//
// pristine (serial only) puts the targets' initial bytes back as each block
// starts.
func (r *checkRun) levelWarp(serial, pristine bool) error {
	r.res.Levels = append(r.res.Levels, "warp")
	if r.onePass {
		// A test that failed before (level 1's, or a plain run's) would
		// fail again: both passes at once.
		if failed, err := r.failedLine(); err != nil {
			return err
		} else if failed != 0 {
			if err := r.twoPassLevel2(); err != nil {
				return err
			}
		}
	}
	if r.shared.Iw.On != 0 {
		r.res.Levels = append(r.res.Levels, "lane")
	}
	// estimate: the slots level 1 suggests a region may want (0: no level
	// 1 ran).
	var segCap, nseg, estimate int64
	if len(r.allocs) > 0 {
		nseg = int64(r.residentBlocks())
		if serial {
			nseg = 1
		}
		// A first guess from level 1 (the pages a block wrote in the whole
		// kernel); a region that wants more makes the launch void and it
		// runs again with room for it. Level 2 copies a page once per warp
		// that writes it, where level 1 copied it once per block: warps
		// that scatter their writes (ld_bfs on the H100: 342 pages a block
		// against level 1's 110) want several times level 1's count, and a
		// rerun costs a whole level 2, so the guess is four times it (at
		// most the block's warps, at least twice).
		segCap = max(64, min(r.totalPages, 4096))
		if r.level1Wanted > 0 {
			perBlock := (r.level1Wanted + int64(r.l.blocks()) - 1) / int64(r.l.blocks())
			estimate = min(4, max(2, int64(r.l.warps()))) * perBlock
			segCap = max(64, estimate)
		}
	}
	fit := r.segCapFitting()
	// directEntries: the entries a block's table of stores in place should
	// have, 8 bytes each: twice the words of level 1's estimate, else of
	// two of a warp's pages a warp; four times more after a region found
	// the table full. Up to maxDirectEntries the table is in shared memory
	// where it fits; beyond, in a segment in device memory (whose room for
	// copies it takes, level 1's estimate of them).
	directEntries, directShared := int64(64), int64(0)
	for directEntries < 2*max(estimate, 2*int64(r.l.warps()))*(r.slotBytes/4) {
		directEntries *= 2
	}
	// inGlobal: a region wanted more pages than a segment in shared
	// memory held; the next attempts keep them in device memory.
	inGlobal := serial
	for attempt := 1; ; attempt++ {
		if attempt > maxAttempts {
			return fmt.Errorf("kernel %s: level 2 ran out of room for private copies %d times; giving up", r.l.Kernel.Name, maxAttempts)
		}
		if nseg > 0 && r.globalUntracked() && r.untrackedNote == "" {
			var names []string
			for _, al := range r.allocs {
				names = append(names, al.target.Name)
			}
			r.untrackedNote = fmt.Sprintf("global %s: no two threads of a block touch one element where either writes it (proven by the build for this launch), and every region runs once: level 2 left %s untracked", strings.Join(names, ", "), map[bool]string{true: "it", false: "them"}[len(names) == 1])
			r.res.Notes = append(r.res.Notes, r.untrackedNote)
		}
		if nseg > 0 && !r.globalUntracked() {
			segCap = min(segCap, fit)
			if segCap < 1 {
				_, _, one := segmentLayout(1, r.slotBytes)
				return r.tooSmall(one, "level 2's private copies (a segment for one block)")
			}
			var s *segments
			// A region that runs once checks only that no two warps
			// changed one byte: its stores go in place, with a table of
			// who stored where (ldc_own). Not with the checks that note
			// accesses between the passes (intra-warp), nor where blocks
			// must run from the inputs (serial), nor in a deterministic
			// run, which merges into its own copies.
			direct := r.onePass && !serial && !r.opt.Deterministic && !r.opt.CopyStores && !r.copyStores && r.shared.Iw.On == 0
			directShared = 0
			if direct && !inGlobal && directEntries <= maxDirectEntries {
				n, offset, err := r.sharedDirectEntries(directEntries)
				if err != nil {
					return err
				}
				if n > 0 {
					if s, err = r.newSharedSegments(0, offset); err != nil {
						return err
					}
					s.segBytes = 16 + 8*n
					directShared = n
				}
			}
			if s == nil && !inGlobal {
				capS, offset, err := r.sharedSegmentCap(estimate)
				if err != nil {
					return err
				}
				if capS > 0 {
					if s, err = r.newSharedSegments(capS, offset); err != nil {
						return err
					}
				}
			}
			if s == nil {
				_, _, segBytes := segmentLayout(segCap, r.slotBytes)
				n := min(nseg, r.budget/max(segBytes, 1))
				var err error
				if s, err = r.newSegments(n, segCap); err != nil {
					return err
				}
			}
			s.direct = direct && s.directMask() != 0
			if serial && pristine {
				if err := r.withPristine(s); err != nil {
					s.release(r)
					return err
				}
			}
			r.segs = s
			r.res.CopyBytes = max(r.res.CopyBytes, s.bytes())
		}
		var recs []Record
		name := "kernel, both passes and checks at every barrier (warp level"
		if r.onePass {
			name = "kernel, one pass and a check at every barrier (warp level"
		}
		if serial && nseg > 0 {
			name += ", one block at a time"
		}
		if r.shared.SharedOwn != 0 {
			name += ", shared targets in place"
		}
		name += ")"
		err := r.phase(name, func() error {
			if r.segs != nil {
				if err := r.segs.reset(r.b); err != nil {
					return err
				}
			}
			if err := r.b.Memset(r.compared, 0, 8); err != nil {
				return err
			}
			if err := r.launch(ModeReplay, 0, r.atomicMode(), r.useShared); err != nil {
				return err
			}
			var err error
			recs, err = r.readRecords()
			return err
		})
		if err != nil {
			return err
		}
		full, peak, sharedCap, void, tableFull := false, int64(0), int64(0), false, false
		if r.segs != nil {
			st, err := r.segs.state(r.b)
			if err != nil {
				return err
			}
			full, peak, void, tableFull = st.full, st.peak, st.void, st.tableFull
			if r.segs.inDyn {
				sharedCap = r.segs.cap
			}
			r.segs.release(r)
			r.segs = nil
		}
		if r.onePass {
			line, err := r.failedLine()
			if err != nil {
				return err
			}
			if line == sharedOwnVoidLine {
				// Two warps stored to one byte of a shared target stored
				// in place: a race, or a store of the value the byte held.
				// Again, with copies, whose check tells which.
				r.sharedCopies = true
				r.res.Notes = append(r.res.Notes, "level 2 ran again with private copies of the shared targets: its run with their stores in place saw two warps of a block store to one byte of one in a region")
				if err := r.b.Memset(r.failedTest, 0, 8); err != nil {
					return err
				}
				if err := r.redoSharedCopies(); err != nil {
					return err
				}
				if err := r.restoreInputs(); err != nil {
					return err
				}
				continue
			}
			if line != 0 {
				// A region could not end after one pass: its proof's
				// stride was 0. The run is void; both passes now.
				where := fmt.Sprintf(" at line %d", line)
				if line == 1 {
					where = "" // (a region's own test names no line)
				}
				r.res.Notes = append(r.res.Notes, "level 2 ran again with both passes of every region: in its run with one, a stride that a proof of a region (or of a target's race freedom) rests on was 0"+where)
				if err := r.twoPassLevel2(); err != nil {
					return err
				}
				if err := r.restoreInputs(); err != nil {
					return err
				}
				continue
			}
		}
		if void && tableFull && directShared == directEntries && directEntries < maxDirectEntries {
			// A block stored to more words in a region than its table
			// held: again in place, with a table four times larger (if
			// one that large fits).
			directEntries = min(4*directEntries, maxDirectEntries)
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("a block stored to more words in one region than its table of stores in place held; level 2 ran again with room for %d", directEntries/2))
			if err := r.restoreInputs(); err != nil {
				return err
			}
			continue
		}
		if void {
			// Two warps of a block stored to one byte in a region (a race,
			// or a byte stored with the value it held), or the largest
			// table was full: again, with copies, whose check tells which.
			r.copyStores = true
			r.res.Notes = append(r.res.Notes, "level 2 ran again with private copies: its run with stores in place saw two warps of a block store to one byte in a region (or more words than its table held)")
			if err := r.restoreInputs(); err != nil {
				return err
			}
			continue
		}
		if !full {
			again, err := r.apGrow()
			if err != nil {
				return err
			}
			if again {
				if err := r.restoreInputs(); err != nil {
					return err
				}
				continue
			}
			if err := r.iwGlobalFull(); err != nil {
				return err
			}
			warp, grid := splitGridAP(recs)
			warp, iw := splitIntraWarp(warp)
			start := len(r.res.Races)
			r.addRaces(warp, manifest.ScopeInterWarp)
			if len(iw) > 0 {
				r.addRaces(iw, manifest.ScopeIntraWarp)
				r.intraWarpFirst(start)
			}
			// Only when there are any: addRaces finishes every race so far
			// again, and the typed values of those it already finished
			// are lost then (their records are dropped).
			if len(grid) > 0 {
				r.addRaces(grid, manifest.ScopeInterBlock)
			}
			raw := make([]byte, 8)
			if err := r.b.Read(raw, r.compared); err != nil {
				return err
			}
			r.res.BytesCompared += int64(binary.LittleEndian.Uint64(raw))
			return nil
		}
		if err := r.restoreInputs(); err != nil {
			return err
		}
		if peak > fit {
			_, _, need := segmentLayout(peak, r.slotBytes)
			return r.tooSmall(need, fmt.Sprintf("level 2's private copies (a block's warps wrote %d pages in one region)", peak))
		}
		old, where := segCap, ""
		if sharedCap > 0 {
			// The blocks of a void launch stop at the first region that
			// wanted too much: its peak is a floor. Device memory's first
			// guess (segCap) then, or the peak if that is more.
			old, where, inGlobal = sharedCap, " in device memory", true
			segCap = min(max(segCap, peak+peak/4+16), fit)
		} else {
			segCap = min(max(2*segCap, peak+peak/4+16), fit)
		}
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("a block's warps wrote more than %d pages in one region; level 2 ran again with room for %d%s", old, segCap, where))
	}
}

// maxSharedSlots bounds a segment in shared memory (11.5 KiB with pages of
// 128 bytes): shared memory is carved out of the L1 cache, where the
// instrumented kernels' spilled registers live. Measured on the H100:
// ld_btree's level 2 77 -> 62 ms with 32 slots, 76 ms with 256;
// ld_radixsort 81 ms in device memory, 83 with 32, 109 with 256.
const maxSharedSlots = 32

// sharedSegmentCap is the slots of a level-2 segment in each block's
// dynamic shared memory, and its offset there; 0 when it stays in device
// memory. A segment goes in shared memory, with the most slots that fit
// (up to maxSharedSlots), when level 1's estimate is at most that many
// (or no level 1 ran), and it costs no resident blocks: shared memory the
// registers leave unused is free. A region that wants more voids the
// launch, and level 2 runs again in device memory.
func (r *checkRun) sharedSegmentCap(estimate int64) (cap, offset int64, err error) {
	if estimate > maxSharedSlots {
		return 0, 0, nil // level 1 says a region may want more
	}
	fitsBytes, offset, err := r.sharedRoom()
	if err != nil {
		return 0, 0, err
	}
	fits := func(c int64) bool {
		_, _, n := sharedSegmentLayout(c, r.slotBytes)
		return fitsBytes(n)
	}
	lo, hi := int64(0), int64(maxSharedSlots)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo < max(estimate, 8) {
		return 0, offset, nil
	}
	return lo, offset, nil
}

// maxDirectEntries bounds the table of stores in place (ldc_own): 8 KiB
// a block, in shared memory where it fits without costing resident
// blocks (16 KiB when an entry was a key and an owner word apart). Shared
// memory is carved out of the L1 cache, where the instrumented
// kernels' spilled registers live: ld_radixsort's level 2 took 48.5 ms
// with a table of room for 2048 words (its last region stores 1024), 46.3
// ms with copies (H200). A region that stores to more words runs with
// copies.
const maxDirectEntries = 1024

// sharedDirectEntries is the entries of the table of stores in place
// (ldc_own) in each block's dynamic shared memory, and its offset there:
// want entries, or the most (a power of two, 64 at least) that fit without
// costing resident blocks; 0 when 64 do not.
func (r *checkRun) sharedDirectEntries(want int64) (n, offset int64, err error) {
	fits, offset, err := r.sharedRoom()
	if err != nil {
		return 0, 0, err
	}
	for n = want; n >= 64; n /= 2 {
		if fits(16 + 8*n) {
			return n, offset, nil
		}
	}
	return 0, offset, nil
}

// sharedRoom is where a level-2 segment starts in each block's dynamic
// shared memory (offset, past the kernel's and the copies'), and whether
// one of n bytes fits there without costing resident blocks: shared
// memory the registers leave unused is free.
func (r *checkRun) sharedRoom() (fits func(n int64) bool, offset int64, err error) {
	limit, err := r.b.SharedLimit(r.l.Kernel.Name)
	if err != nil {
		return nil, 0, err
	}
	offset = (max(r.l.Shared, r.sharedLaunch) + 15) / 16 * 16
	without := r.level2Resident(offset)
	return func(n int64) bool { return offset+n <= limit && r.level2Resident(offset+n) >= without }, offset, nil
}

// twoPassLevel2 turns a level 2 in one pass a region back to both
// passes: the shared targets only a one-pass run may leave uncopied
// (those whose proofs rest on tests) get their copies again.
func (r *checkRun) twoPassLevel2() error {
	r.onePass = false
	r.res.Notes = slices.DeleteFunc(r.res.Notes, func(n string) bool { return n == r.uncopiedNote || n == r.untrackedNote })
	r.uncopiedNote, r.untrackedNote = "", ""
	return r.redoSharedCopies()
}

// redoSharedCopies places the shared targets' copies again, after what
// decides them changed (a turn to two passes, or to copies after a void
// run with stores in place): the old copies in device memory go first.
func (r *checkRun) redoSharedCopies() error {
	r.free(DevPtr(r.shared.SharedScratch))
	return r.setupSharedCopies()
}

// failedLine is the line of a test an index proof rests on that failed in
// the launches so far (failed_test), 0 when none did.
func (r *checkRun) failedLine() (int32, error) {
	raw := make([]byte, 8)
	if err := r.b.Read(raw, r.failedTest); err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(raw)), nil
}

// segCapFitting is the most slots one segment may have within the budget.
func (r *checkRun) segCapFitting() int64 {
	lo, hi := int64(0), int64(1)<<32
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, _, n := segmentLayout(mid, r.slotBytes); n <= r.budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
