package gpuruntime

import (
	"encoding/binary"
	"fmt"
)

// Hot pages: a page every block writes (a flag, an accumulator shared by
// the grid) has a chain of copies as long as the grid, and the check
// kernels walk a chain on one thread a chunk: ld_backprop_racy's page of
// 524,288 copies took 4.3 s on the H200, one warp busy and the GPU idle.
// The check kernels stop at hotLimit copies and list the page; the hot
// kernels (ldcheck_rt.h) then check it with the whole grid, slot-major,
// and leave what the chunk kernels would have left: U, each copy's pass-2
// state, the same records.
const (
	// hotChain is the shortest chain the check kernels leave to the hot
	// kernels, and hotShare the least share of a pass's copies such a
	// chain must hold (hotLimit).
	hotChain = 128
	hotShare = 8
	// hotThreads, hotFinal, hotFlag and hotScratchWords are
	// LDC_HOT_THREADS, LDC_HOT_FINAL, LDC_HOT_FLAG and
	// LDC_HOT_SCRATCH_WORDS.
	hotThreads      = 64 * 256
	hotFinal        = hotThreads * 16
	hotFlag         = hotFinal + 1024*16
	hotScratchWords = hotFlag + 4
	// hotNameRounds: a byte of two writers or more names its
	// LDC_WW_UNITS lowest, one a round.
	hotNameRounds = 33
)

// hotLimit is the longest chain the check kernels walk themselves after a
// pass that made copies copies. A walk costs about 0.3 us a copy on one
// thread (ld_backprop_racy's page, H200: 21 ms for the 65,536 copies the
// chunk kernels walk before they give it up; 9 us a copy where they also
// name its racy bytes' writers), but the pages' walks run side by side;
// the hot kernels check one page at a time and read every slot of the
// pool in each of their rounds (three, up to 36 where a byte has several
// writers). So a page goes to them only when its chain is a good share of
// all the copies: then at most hotShare pages do. With a fixed 128,
// saxpy64m_racy's thousands of pages of up to 1,024 copies each went to
// the hot kernels one by one and its check ran past 150 s, where the
// chunk kernels had taken 72 (H200, thirty-seventh session).
func hotLimit(copies int64) int64 { return max(hotChain, copies/hotShare) }

// hotRoom is the most pages a pool of cap slots can have with chains of
// more than hotLen copies.
func hotRoom(cap, hotLen int64) int64 {
	if hotLen <= 0 {
		return 1
	}
	return cap/(hotLen+1) + 1
}

// hotPool is what the hot kernels work on: the pool's hot list and
// scratch (the tests build one without a checkRun).
type hotPool struct {
	hot               DevPtr
	hotCap, slotBytes int64
	// threads is the hot kernels' grid (whole blocks of 256, at most
	// hotThreads): hotThreads, but for tests on the CPU backend.
	threads int64
	// scratch gives the kernels' scratch (hotScratchWords words, its flag
	// 0 when new), called at the first hot page only.
	scratch func() (DevPtr, error)
}

func (r *checkRun) hotPool() hotPool {
	p := r.pool
	scratch := func() (DevPtr, error) {
		if p.hotScratch != 0 {
			return p.hotScratch, nil
		}
		s, err := r.alloc(hotScratchWords * 4)
		if err != nil {
			return 0, err
		}
		if err := r.b.Memset(s+DevPtr(4*hotFlag), 0, 4); err != nil {
			return 0, err
		}
		p.hotScratch = s
		return s, nil
	}
	return hotPool{hot: p.hot, hotCap: p.hotCap, slotBytes: p.slotBytes, threads: hotThreads, scratch: scratch}
}

// checkHot runs the hot kernels on the n pages the last check kernel
// listed (rw false: write-write, ldc_pages_ww; true: read-write; the
// count comes with the records', readRecordBuffer); seq numbers the
// merges, so that a flag left by an earlier one is never taken for theirs.
// It returns how many of its launches read every slot of the pool.
func checkHot(b Backend, p hotPool, rw bool, seq *uint32, n int64) (rounds int64, err error) {
	if n == 0 {
		return 0, nil
	}
	if n < 0 || n > p.hotCap {
		return rounds, fmt.Errorf("internal error: the check listed %d hot pages, with room for %d", n, p.hotCap)
	}
	pages := make([]byte, 4*n)
	if err := b.Read(pages, p.hot); err != nil {
		return rounds, err
	}
	scratch, err := p.scratch()
	if err != nil {
		return rounds, err
	}
	sp := u64(uint64(scratch))
	if p.threads < 256 || p.threads > hotThreads || p.threads%256 != 0 || p.threads < p.slotBytes/4 {
		return rounds, fmt.Errorf("internal error: hot kernels on %d threads (pages of %d bytes)", p.threads, p.slotBytes)
	}
	grid, block := [3]uint32{uint32(p.threads / 256), 1, 1}, [3]uint32{256, 1, 1}
	mergeGrid := [3]uint32{uint32((p.slotBytes/4*32 + 255) / 256), 1, 1}
	flag := make([]byte, 4)
	// merge runs a merge and says whether it set the flag.
	merge := func(page uint32, names uint32) (bool, error) {
		*seq++
		if err := b.Launch("ldc_hot_merge", mergeGrid, block, 0, [][]byte{u32(page), u32(names), u32(*seq), u32(uint32(p.threads)), sp}); err != nil {
			return false, err
		}
		if err := b.Read(flag, scratch+DevPtr(4*hotFlag)); err != nil {
			return false, err
		}
		return binary.LittleEndian.Uint32(flag) == *seq, nil
	}
	for i := int64(0); i < n; i++ {
		page := binary.LittleEndian.Uint32(pages[4*i:])
		if rw {
			rounds++
			if err := b.Launch("ldc_hot_apply", grid, block, 0, [][]byte{u32(page), u32(1), sp}); err != nil {
				return rounds, err
			}
			continue
		}
		rounds += 2 // this scan and the apply
		if err := b.Launch("ldc_hot_scan", grid, block, 0, [][]byte{u32(page), u32(0), sp}); err != nil {
			return rounds, err
		}
		multi, err := merge(page, 0)
		if err != nil {
			return rounds, err
		}
		for r := 0; multi && r < hotNameRounds; r++ {
			rounds++
			if err := b.Launch("ldc_hot_scan", grid, block, 0, [][]byte{u32(page), u32(1), sp}); err != nil {
				return rounds, err
			}
			if multi, err = merge(page, 1); err != nil {
				return rounds, err
			}
		}
		if err := b.Launch("ldc_hot_apply", grid, block, 0, [][]byte{u32(page), u32(0), sp}); err != nil {
			return rounds, err
		}
	}
	return rounds, nil
}
