package gpuruntime

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Private copies of global targets are pages (see ldcheck_rt.h): a unit's
// first store to a page copies it, so copies grow with what units write.
// A page holds whole elements, so that no access the instrumenter wraps
// (one element or a field of one) straddles two pages; its size is near
// pageTarget bytes: a warp's 32 coalesced 4-byte stores fill one page.
const (
	pageTarget = 128
	maxPage    = 4096
)

// pageBytes is the page size for elements of elem bytes (0: unknown).
func pageBytes(elem int64) int64 {
	switch {
	case elem <= 0:
		return pageTarget
	case elem >= pageTarget:
		return elem
	case pageTarget%elem == 0:
		return pageTarget
	}
	return elem * (pageTarget / elem)
}

func (al *alloc) ctx() Alloc {
	shift := uint64(64)
	if al.pageBytes&(al.pageBytes-1) == 0 {
		shift = uint64(bits.TrailingZeros64(uint64(al.pageBytes)))
	}
	return Alloc{Base: uint64(al.base), Size: uint64(al.size), PageBytes: uint64(al.pageBytes), FirstPage: uint64(al.firstPage), Pages: uint64(al.pages), PageShift: shift}
}

// layoutPages numbers the pages of every target (one id space for all).
func (r *checkRun) layoutPages() error {
	r.slotBytes = 16
	for _, al := range r.allocs {
		al.pageBytes = pageBytes(al.target.ElemSize)
		if al.pageBytes > maxPage {
			return fmt.Errorf("%s: elements of %d bytes are larger than ldcheck's largest page (%d bytes)", al.target.Name, al.target.ElemSize, maxPage)
		}
		al.firstPage = r.totalPages
		al.pages = (al.size + al.pageBytes - 1) / al.pageBytes
		r.totalPages += al.pages
		r.slotBytes = max(r.slotBytes, (al.pageBytes+15)/16*16)
	}
	if r.totalPages >= 1<<32-1 {
		return fmt.Errorf("the global targets span %d pages; ldcheck handles 2^32", r.totalPages)
	}
	return nil
}

// MemoryError says a checked run does not fit in the memory it may use.
type MemoryError struct {
	Need, Free int64
	What       string
	// Limit is set when the user's --mem-limit was the bound: that is
	// bad input (exit 2), not a failure of the tool.
	Limit bool
}

func (e *MemoryError) Error() string {
	if e.Limit {
		return fmt.Sprintf("%s need at least %s, more than --mem-limit %s allows; raise --mem-limit", e.What, sizeString(e.Need), sizeString(e.Free))
	}
	if e.Free == 0 {
		return fmt.Sprintf("%s need %s of device memory, which could not be allocated; use a smaller launch or array", e.What, sizeString(e.Need))
	}
	return fmt.Sprintf("%s need %s of device memory, and %s are free; use a smaller launch or array", e.What, sizeString(e.Need), sizeString(e.Free))
}

// FormatBytes renders a byte count for people: 512 bytes, 64 KiB, 12 MiB.
func FormatBytes(n int64) string { return sizeString(n) }

func sizeString(n int64) string {
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// setBudget fixes the memory the copies may take: --mem-limit, else the
// free memory less a margin for the driver and the checks' own buffers.
func (r *checkRun) setBudget() error {
	if r.opt.MemLimit > 0 {
		r.budget = r.opt.MemLimit
		return nil
	}
	free, err := r.b.FreeMemory()
	if err != nil {
		return err
	}
	r.budget = max(free-max(free/16, 256<<20), free/2)
	return nil
}

// pool is level 1's page copies and tables on the device.
type pool struct {
	cap, tableSize int64
	slotBytes      int64
	totalPages     int64
	// The slots are cut into shards of shardCap, one per unit residue,
	// and the list of pages written into pageShards lists of pageSpan, one
	// per page residue (see struct ldc_pool): their counters then spread
	// over many addresses instead of serializing on one.
	shards, shardCap     int64
	pageShards, pageSpan int64
	data, slots          DevPtr
	keys, vals           DevPtr
	heads, pages, tails  DevPtr // tails: per entry of pages, the page's first slot
	counters             DevPtr
	unitCopy             DevPtr
	// hot lists the pages the check kernels leave to the hot kernels
	// (chains longer than hotLimit), hotCap of them at most; hotScratch is
	// those kernels' partial results (hot.go), allocated at the first hot
	// page.
	hot, hotScratch DevPtr
	hotCap          int64
	// order and pageAt: each listed page's copies in one array, made
	// before each check kernel (ldc_pages_index).
	order, pageAt DevPtr
	// mem is the one allocation the arrays above are carved from (all
	// but unitCopy and hotScratch).
	mem DevPtr
}

// maxShards is LDC_POOL_SHARDS: the most shards of either kind. Thirty-two
// counters take what one counter serialized down to what the other
// atomics of a copy cost.
const maxShards = 32

// poolCounterWords is LDC_POOL_COUNTERS: the flag's sector and a sector
// per shard of either kind.
const poolCounterWords = 4 * (1 + 2*maxShards)

// poolBytes is what a pool of cap slots takes. Its table has room for
// four times as many claims as slots, so that a pass that runs out of
// slots still counts (nearly) every copy the units asked for, and the
// next attempt is sized once. The page list has up to maxShards entries
// more than pages: each page shard rounds its share up.
func poolBytes(cap, slotBytes, totalPages int64) int64 {
	table := tableFor(2 * cap)
	return cap*(slotBytes+16+4) + table*12 + totalPages*(4+8) + (totalPages+maxShards)*(4+4) + poolCounterWords*8 + hotRoom(cap, hotChain)*4 + 10*256 // (each part rounded up to 256 bytes)
}

// tableFor sizes a hash table for n entries at most half full.
func tableFor(n int64) int64 {
	t := int64(1024)
	for t < 2*n {
		t *= 2
	}
	return t
}

// shardsFor is the slot shards for units private copies: a power of two,
// as many as there are units up to maxShards (a unit's slots all come
// from one shard, so more shards than units would stay empty).
func shardsFor(units int) int64 {
	s := int64(1)
	for s < maxShards && 2*s <= int64(units) {
		s *= 2
	}
	return s
}

func (p *pool) ctx() Pool {
	return Pool{Data: uint64(p.data), Slots: uint64(p.slots), Keys: uint64(p.keys), Vals: uint64(p.vals), Heads: uint64(p.heads),
		Pages: uint64(p.pages), Tails: uint64(p.tails), Counters: uint64(p.counters), UnitCopy: uint64(p.unitCopy), SlotBytes: uint64(p.slotBytes), Cap: uint64(p.cap), TableMask: uint64(p.tableSize - 1),
		Shards: uint64(p.shards), ShardCap: uint64(p.shardCap), PageShards: uint64(p.pageShards), PageSpan: uint64(p.pageSpan),
		Hot: uint64(p.hot), HotCap: uint64(p.hotCap), Order: uint64(p.order), PageAt: uint64(p.pageAt)}
}

// newPool allocates a pool of cap slots in shards shards (a power of two
// dividing cap).
func (r *checkRun) newPool(cap, shards int64) (*pool, error) {
	if shards < 1 || shards > maxShards || shards&(shards-1) != 0 || cap%shards != 0 {
		return nil, fmt.Errorf("internal error: a pool of %d slots in %d shards", cap, shards)
	}
	p := &pool{cap: cap, tableSize: tableFor(2 * cap), slotBytes: r.slotBytes, totalPages: r.totalPages,
		shards: shards, shardCap: cap / shards, pageShards: maxShards, hotCap: hotRoom(cap, hotChain)}
	p.pageSpan = (r.totalPages + p.pageShards - 1) / p.pageShards
	// One allocation, carved: a dozen took 0.5 ms of ld_bisect's run on
	// the H200 (48 MiB in all), and clearing each on allocation cleared
	// gigabytes that reset clears again or that are written before they
	// are read (AllocScratch). Only the slots, the page lists and the hot
	// list are cleared here.
	parts := []struct {
		dst  *DevPtr
		n    int64
		zero bool
	}{
		{&p.data, cap * p.slotBytes, false}, // (copied from their pages before they are read)
		{&p.slots, cap * 16, true}, {&p.keys, p.tableSize * 8, false}, {&p.vals, p.tableSize * 4, false},
		{&p.heads, r.totalPages * 4, false}, {&p.pages, p.pageShards * p.pageSpan * 4, true},
		{&p.tails, p.pageShards * p.pageSpan * 4, false}, {&p.counters, poolCounterWords * 8, false},
		{&p.hot, p.hotCap * 4, true}, {&p.order, cap * 4, false}, {&p.pageAt, r.totalPages * 8, false}, // (ldc_pages_index's)
	}
	total := int64(0)
	for _, a := range parts {
		total += (a.n + 255) / 256 * 256
	}
	mem, err := r.allocScratch(total)
	if err != nil {
		return nil, &MemoryError{Need: poolBytes(cap, r.slotBytes, r.totalPages), What: "level 1's private copies of pages"}
	}
	p.mem = mem
	at := mem
	for _, a := range parts {
		*a.dst = at
		if a.zero {
			if err := r.b.Memset(at, 0, a.n); err != nil {
				p.release(r)
				return nil, err
			}
		}
		at += DevPtr((a.n + 255) / 256 * 256)
	}
	return p, nil
}

// reset empties the pool for a fresh pass 1.
func (p *pool) reset(b Backend) error {
	for _, z := range []struct {
		ptr DevPtr
		v   byte
		n   int64
	}{{p.keys, 0, p.tableSize * 8}, {p.vals, 0, p.tableSize * 4}, {p.heads, 0xff, p.totalPages * 4}, {p.counters, 0, poolCounterWords * 8}} {
		if err := b.Memset(z.ptr, z.v, z.n); err != nil {
			return err
		}
	}
	return nil
}

func (p *pool) release(r *checkRun) {
	for _, q := range []DevPtr{p.mem, p.unitCopy, p.hotScratch} {
		r.free(q)
	}
}

// poolState is what the device counted during the last pass.
type poolState struct {
	wanted, pages int64 // slots the units asked for; distinct pages written
	full          bool  // some unit found no room: the pass is void
	// saturated: the table filled up too, so wanted is a lower bound.
	saturated bool
	// shardWanted is what each slot shard was asked for (it may pass the
	// shard's room), pageCounts how many pages each page shard listed.
	shardWanted, pageCounts []int64
	// stopped: blocks that returned at their start, the pass already void
	// (ldc_pool_stopped, on a GPU); the counts are then those of the
	// others, until extrapolated.
	stopped int64
	// ranBlocks is how many of the grid's blocks the counts come from
	// where extrapolated scaled them up to the grid (0: every block ran).
	ranBlocks int64
	// unlogged: the void pass was the one that runs and logs the
	// kernel's atomics, and blocks of it stopped: the log is incomplete.
	unlogged bool
}

// extrapolated scales the counts of a void pass whose later blocks
// stopped at their start up to the grid of blocks blocks, as if every
// block asked for what those that ran asked on average, and a quarter
// more (a grid's later blocks may ask for more; too little costs one
// more void pass, which stops early too). pages stays at most
// totalPages.
func (st poolState) extrapolated(blocks, totalPages int64) poolState {
	ran := blocks - st.stopped
	if st.stopped <= 0 || ran <= 0 {
		return st
	}
	scale := func(n int64) int64 { return (n*blocks*5 + ran*4 - 1) / (ran * 4) }
	out := st
	out.ranBlocks = ran
	out.wanted = 0
	out.shardWanted = make([]int64, len(st.shardWanted))
	for j, w := range st.shardWanted {
		out.shardWanted[j] = scale(w)
		out.wanted += out.shardWanted[j]
	}
	out.pages = min(scale(st.pages), totalPages)
	return out
}

// copies is the slots the pass filled: each shard's count up to its room.
func (st poolState) copies(shardCap int64) int64 {
	var n int64
	for _, w := range st.shardWanted {
		n += min(w, shardCap)
	}
	return n
}

func (p *pool) state(b Backend) (poolState, error) {
	raw := make([]byte, poolCounterWords*8)
	if err := b.Read(raw, p.counters); err != nil {
		return poolState{}, err
	}
	word := func(i int64) int64 { return int64(binary.LittleEndian.Uint64(raw[8*i:])) }
	flag := word(2)
	st := poolState{full: flag != 0, saturated: flag == 2, stopped: word(0)}
	for j := int64(0); j < p.shards; j++ {
		st.shardWanted = append(st.shardWanted, word(4*(1+j)))
		st.wanted += word(4 * (1 + j))
	}
	for j := int64(0); j < p.pageShards; j++ {
		st.pageCounts = append(st.pageCounts, word(4*(1+maxShards+j)))
		st.pages += word(4 * (1 + maxShards + j))
	}
	return st, nil
}

// segments is level 2's per-block copies: nseg segments, each with room
// for cap slots, reused by the blocks that run one after another.
type segments struct {
	nseg, cap, table int64
	segBytes         int64
	off              [7]int64 // keys, vals, slots, pages, written, data, snap
	mem, busy        DevPtr
	status           DevPtr
	slotBytes        int64
	pristine         DevPtr // serial level 2: the targets' initial bytes, 0 otherwise
	// inDyn: one segment in each block's dynamic shared memory, dynOffset
	// bytes in; mem and busy are unused.
	inDyn     bool
	dynOffset int64
	// direct: a level 2 of one pass a region stores in place, where the
	// kernel does, and the segment holds the table that tells when two
	// warps store to one byte in a region (ldc_own), not copies.
	direct bool
}

// directMask is the mask of ldc_own's table: the most entries (8 bytes
// each, a power of two) that fit in the segment after its counters; 0 when
// fewer than 64 do.
func (s *segments) directMask() uint64 {
	n := int64(64)
	if 16+8*n > s.segBytes {
		return 0
	}
	for 16+16*n <= s.segBytes {
		n *= 2
	}
	return uint64(n - 1)
}

// segmentLayout places a segment's arrays for cap slots.
func segmentLayout(cap, slotBytes int64) (table int64, off [7]int64, total int64) {
	return layoutSegment(cap, slotBytes, tableFor(2*cap))
}

// sharedSegmentLayout is segmentLayout for a segment in shared memory:
// the smallest table that stays half full (two keys a slot at most),
// where the global one's floor of 1024 entries would take 12 KiB.
func sharedSegmentLayout(cap, slotBytes int64) (table int64, off [7]int64, total int64) {
	table = 16
	for table < 4*cap {
		table *= 2
	}
	return layoutSegment(cap, slotBytes, table)
}

func layoutSegment(cap, slotBytes, table int64) (_ int64, off [7]int64, total int64) {
	sizes := []int64{table * 8, table * 4, cap * 16, cap * 16, cap * (slotBytes / 4), cap * slotBytes, cap * slotBytes}
	at := int64(16) // the counters
	for i, n := range sizes {
		off[i] = at
		at += (n + 15) / 16 * 16
	}
	return table, off, at
}

func (r *checkRun) newSegments(nseg, cap int64) (*segments, error) {
	s := &segments{nseg: nseg, cap: cap, slotBytes: r.slotBytes}
	s.table, s.off, s.segBytes = segmentLayout(cap, r.slotBytes)
	var err error
	if s.mem, err = r.alloc(nseg * s.segBytes); err != nil {
		return nil, &MemoryError{Need: nseg * s.segBytes, What: "level 2's private copies of pages"}
	}
	if s.busy, err = r.alloc(nseg * 4); err != nil {
		return nil, err
	}
	if s.status, err = r.alloc(16); err != nil {
		return nil, err
	}
	return s, nil
}

// newSharedSegments is a segment in every block's dynamic shared memory,
// at offset: only the status words are device memory.
func (r *checkRun) newSharedSegments(cap, offset int64) (*segments, error) {
	s := &segments{nseg: 1, cap: cap, slotBytes: r.slotBytes, inDyn: true, dynOffset: offset}
	s.table, s.off, s.segBytes = sharedSegmentLayout(cap, r.slotBytes)
	var err error
	if s.status, err = r.alloc(16); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *segments) reset(b Backend) error {
	if s.inDyn {
		return b.Memset(s.status, 0, 16)
	}
	if err := b.Memset(s.mem, 0, s.nseg*s.segBytes); err != nil {
		return err
	}
	if err := b.Memset(s.busy, 0, s.nseg*4); err != nil {
		return err
	}
	return b.Memset(s.status, 0, 16)
}

func (s *segments) release(r *checkRun) {
	if !s.inDyn {
		r.free(s.mem)
		r.free(s.busy)
	}
	r.free(s.status)
	if s.pristine != 0 {
		r.free(s.pristine)
	}
}

// bytes is the device memory the segments take.
func (s *segments) bytes() int64 {
	if s.inDyn {
		return 16
	}
	return s.nseg*s.segBytes + s.nseg*4 + 16
}

// sharedBytes is the dynamic shared memory a launch needs for them: up to
// the segment's end (0 when they are in device memory).
func (s *segments) sharedBytes() int64 {
	if s == nil || !s.inDyn {
		return 0
	}
	return s.dynOffset + s.segBytes
}

// pristineBytes is the size of the targets' initial bytes, each at a
// 16-byte-aligned offset, as ldc_seg_acquire walks them.
func (r *checkRun) pristineBytes() int64 {
	var n int64
	for _, al := range r.allocs {
		n += (al.size + 15) / 16 * 16
	}
	return n
}

// withPristine gives the (single) segment the targets' initial bytes:
// every block then starts from them (serial level 2).
func (r *checkRun) withPristine(s *segments) error {
	buf := make([]byte, r.pristineBytes())
	var at int64
	for _, al := range r.allocs {
		copy(buf[at:], al.initial)
		at += (al.size + 15) / 16 * 16
	}
	p, err := r.alloc(int64(len(buf)))
	if err != nil {
		return &MemoryError{Need: int64(len(buf)), What: "level 2's copy of the kernel's inputs (one block at a time)"}
	}
	s.pristine = p
	return r.b.Write(p, buf)
}

func (s *segments) ctx() Segs {
	c := Segs{Mem: uint64(s.mem), Busy: uint64(s.busy), Status: uint64(s.status), SegBytes: uint64(s.segBytes), Cap: uint64(s.cap), TableMask: uint64(s.table - 1),
		OffKeys: uint64(s.off[0]), OffVals: uint64(s.off[1]), OffSlots: uint64(s.off[2]), OffPages: uint64(s.off[3]), OffWritten: uint64(s.off[4]),
		OffData: uint64(s.off[5]), OffSnap: uint64(s.off[6]), NSeg: int32(s.nseg), Pristine: uint64(s.pristine),
		DynOffset: uint64(s.dynOffset)}
	if s.inDyn {
		c.InDyn = 1
	}
	if s.direct {
		c.DirectMask = s.directMask()
	}
	return c
}

// segState is what a level-2 launch left in its segments' status words.
type segState struct {
	full bool  // a segment ran out of slots
	peak int64 // the most slots one block's region asked for
	// void: a launch that stored in place was void (ldc_own); tableFull:
	// because a block's table was full (else two warps of a block stored
	// to one byte in a region).
	void, tableFull bool
}

// state reads the status words, in one read.
func (s *segments) state(b Backend) (segState, error) {
	raw := make([]byte, 16)
	if err := b.Read(raw, s.status); err != nil {
		return segState{}, err
	}
	w := func(i int) uint32 { return binary.LittleEndian.Uint32(raw[4*i:]) }
	st := segState{full: w(0) != 0, peak: int64(w(1))}
	if s.direct {
		two, room := w(2) != 0, w(3) != 0
		st.void, st.tableFull = two || room, room && !two
	}
	return st, nil
}
