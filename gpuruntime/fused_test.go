package gpuruntime

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/gpuruntime/cpu"
	"ldcheck/privatize/manifest"
)

// fusedBackend compiles the device runtime alone (its check kernels have
// CPU entry points) and opens it on the CPU backend.
func fusedBackend(t *testing.T) (*CPUBackend, DevPtr) {
	return fusedBackendWith(t, "")
}

// fusedBackendWith compiles extra (test kernels) after the runtime.
func fusedBackendWith(t *testing.T, extra string) (*CPUBackend, DevPtr) {
	t.Helper()
	dir, src := runtimeSource(t, extra)
	so := filepath.Join(dir, "rt.so")
	if err := cpu.Compile(context.Background(), src, so, cpu.CompileOptions{Flags: []string{"-DLDC_CPU", "-I" + dir}}); err != nil {
		t.Fatal(err)
	}
	b, err := OpenCPU(so)
	if err != nil {
		t.Fatal(err)
	}
	return b, runtimeContext(t, b)
}

// runtimeSource writes the device runtime into a fresh directory, and
// beside it a source that includes it, then extra.
func runtimeSource(t testing.TB, extra string) (dir, src string) {
	t.Helper()
	dir = t.TempDir()
	if err := WriteRuntimeInclude(dir); err != nil {
		t.Fatal(err)
	}
	src = filepath.Join(dir, "rt.cu")
	if err := os.WriteFile(src, []byte("#include \"ldcheck_rt.h\"\n"+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, src
}

// runtimeContext closes b when the test ends and finds the runtime's
// context in it.
func runtimeContext(t testing.TB, b Backend) DevPtr {
	t.Helper()
	t.Cleanup(func() { b.Close() })
	ctx, _, err := b.Symbol("ldc_g")
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

// devBytes allocates and fills device memory.
func devBytes(t testing.TB, b Backend, data []byte) DevPtr {
	t.Helper()
	p, err := b.Alloc(int64(max(len(data), 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write(p, data); err != nil {
		t.Fatal(err)
	}
	return p
}

// runOneBlock launches a test kernel as one block of threads threads,
// its first argument a fresh zeroed buffer of n bytes, then args, and
// returns the buffer's bytes after the launch.
func runOneBlock(t testing.TB, b Backend, kernel string, threads uint32, n int, args ...[]byte) []byte {
	t.Helper()
	out := devBytes(t, b, make([]byte, n))
	if err := b.Launch(kernel, [3]uint32{1, 1, 1}, [3]uint32{threads, 1, 1}, 0, append([][]byte{u64(uint64(out))}, args...)); err != nil {
		t.Fatal(err)
	}
	return readDev(t, b, out, n)
}

func readDev(t testing.TB, b Backend, p DevPtr, n int) []byte {
	out := make([]byte, n)
	if err := b.Read(out, p); err != nil {
		t.Fatal(err)
	}
	return out
}

// recordsToRaces converts the device's records to the model's races.
func recordsToRaces(recs []Record) []ByteRace {
	var out []ByteRace
	for _, r := range recs {
		br := ByteRace{Offset: int(r.Offset)}
		if r.Kind == RecordWW {
			br.Kind = WriteWrite
			br.Units = [2]int{int(r.UnitA), int(r.UnitB)}
			br.Values = []byte{byte(r.Values), byte(r.Values >> 8), byte(r.Values >> 16)}
		} else {
			br.Kind = ReadWrite
			br.Units = [2]int{int(r.UnitA), -1}
			br.Values = []byte{byte(r.Values), byte(r.Values >> 8)}
		}
		out = append(out, br)
	}
	SortRaces(out)
	return out
}

// modelRaces sorts the model's races like recordsToRaces.
func modelRaces(races []ByteRace) []ByteRace {
	out := append([]ByteRace(nil), races...)
	SortRaces(out)
	return out
}

// namedPairs keeps, of sorted write-write races, the pairs the page
// kernels name: those of each byte's 33 lowest writers (LDC_WW_UNITS),
// 32 pairs a byte.
func namedPairs(races []ByteRace) []ByteRace {
	var out []ByteRace
	n := map[int]int{}
	for _, r := range races {
		if r.Kind == WriteWrite {
			if n[r.Offset] == 32 {
				continue
			}
			n[r.Offset]++
		}
		out = append(out, r)
	}
	return out
}

// pageSetup is a pool, built on the host, holding some units' copies of
// the pages of one target.
type pageSetup struct {
	pageBytes, slotBytes int
	slots                []Slot
	data                 []byte
	heads                []int32
	pages                []uint32
	// shards > 1 deals the slots to that many shards in turn, shardCap
	// apart (upload sets it, leaving room at each shard's end as a pass
	// does); 0 or 1: one shard, the slots in order.
	shards, shardCap int
}

// phys is slot si's place in the pool on the device.
func (ps *pageSetup) phys(si int) int {
	if ps.shards <= 1 {
		return si
	}
	return si%ps.shards*ps.shardCap + si/ps.shards
}

// logical is the slots' data in ps.data's order, from the pool's data on
// the device.
func (ps *pageSetup) logical(dev []byte) []byte {
	out := make([]byte, len(ps.slots)*ps.slotBytes)
	for si := range ps.slots {
		copy(out[si*ps.slotBytes:(si+1)*ps.slotBytes], dev[ps.phys(si)*ps.slotBytes:])
	}
	return out
}

// devSlots is the room for slots the pool on the device has.
func (ps *pageSetup) devSlots() int {
	if ps.shards <= 1 {
		return len(ps.slots)
	}
	return ps.shards * ps.shardCap
}

// Slot mirrors struct ldc_slot.
type Slot struct {
	Unit, Next int32
	Page, Tab  uint32
}

// buildPages gives each unit a slot for every page where its copy differs
// from s, and for some pages where it does not (a copy taken to read), in
// a random order of slots along each chain (the device's order depends on
// timing).
func buildPages(rng *rand.Rand, s []byte, p [][]byte, pageBytes int) *pageSetup {
	ps := &pageSetup{pageBytes: pageBytes, slotBytes: (pageBytes + 15) / 16 * 16}
	npages := (len(s) + pageBytes - 1) / pageBytes
	ps.heads = make([]int32, npages)
	for pg := 0; pg < npages; pg++ {
		ps.heads[pg] = -1
		lo, hi := pg*pageBytes, min((pg+1)*pageBytes, len(s))
		var units []int
		for u := range p {
			if !bytes.Equal(p[u][lo:hi], s[lo:hi]) || rng.Intn(8) == 0 {
				units = append(units, u)
			}
		}
		rng.Shuffle(len(units), func(a, b int) { units[a], units[b] = units[b], units[a] })
		for _, u := range units {
			ps.addSlot(pg, u, p[u][lo:hi])
		}
		if len(units) > 0 {
			ps.pages = append(ps.pages, uint32(pg))
		}
	}
	return ps
}

func (ps *pageSetup) addSlot(pg, u int, content []byte) {
	slot := make([]byte, ps.slotBytes)
	copy(slot, content)
	ps.data = append(ps.data, slot...)
	ps.slots = append(ps.slots, Slot{Unit: int32(u), Next: ps.heads[pg], Page: uint32(pg), Tab: uint32(u)})
	ps.heads[pg] = int32(len(ps.slots) - 1)
}

// slotOf finds unit u's slot of page pg, or -1.
func (ps *pageSetup) slotOf(pg, u int) int {
	for s := ps.heads[pg]; s >= 0; s = ps.slots[s].Next {
		if int(ps.slots[s].Unit) == u {
			return int(s)
		}
	}
	return -1
}

// upload copies the slots' data, the slots and the chains' heads to the
// device.
func (ps *pageSetup) upload(t testing.TB, b Backend, npages int) (data, slots, heads DevPtr) {
	if ps.shards > 1 {
		ps.shardCap = (len(ps.slots)+ps.shards-1)/ps.shards + 1
	}
	link := func(s int32) uint32 {
		if s < 0 {
			return uint32(s)
		}
		return uint32(ps.phys(int(s)))
	}
	// Room no pass filled: garbage, which no kernel may read.
	d := bytes.Repeat([]byte{0xcd}, ps.devSlots()*ps.slotBytes)
	raw := bytes.Repeat([]byte{0xee}, 16*ps.devSlots())
	for si, sl := range ps.slots {
		at := ps.phys(si)
		copy(d[at*ps.slotBytes:], ps.data[si*ps.slotBytes:(si+1)*ps.slotBytes])
		binary.LittleEndian.PutUint32(raw[16*at:], uint32(sl.Unit))
		binary.LittleEndian.PutUint32(raw[16*at+4:], link(sl.Next))
		binary.LittleEndian.PutUint32(raw[16*at+8:], sl.Page)
		binary.LittleEndian.PutUint32(raw[16*at+12:], sl.Tab)
	}
	hs := make([]byte, 0, 4*npages)
	for _, h := range ps.heads {
		hs = binary.LittleEndian.AppendUint32(hs, link(h))
	}
	return devBytes(t, b, d), devBytes(t, b, raw), devBytes(t, b, hs)
}

// listPages lists the pages that have a copy in pageShards shards, as the
// device lists them (page p in shard p % pageShards), with the shards'
// counts where the pass leaves them. The list's tails (each page's first
// slot, the last of its chain) follow its pages in the same buffer (pool
// points Tails there).
func (ps *pageSetup) listPages(t testing.TB, b Backend, npages int, pageShards int64) (pages, counters DevPtr) {
	pageSpan := (int64(npages) + pageShards - 1) / pageShards
	pl := bytes.Repeat([]byte{0xee}, int(2*4*pageShards*pageSpan)) // unused entries: a page far out of range
	st := poolState{pageCounts: make([]int64, pageShards)}
	for _, pg := range ps.pages {
		j := int64(pg) & (pageShards - 1)
		k := j*pageSpan + st.pageCounts[j]
		binary.LittleEndian.PutUint32(pl[4*k:], pg)
		tail := ps.heads[pg]
		for tail >= 0 && ps.slots[tail].Next >= 0 {
			tail = ps.slots[tail].Next
		}
		binary.LittleEndian.PutUint32(pl[4*(pageShards*pageSpan+k):], uint32(ps.phys(int(tail))))
		st.pageCounts[j]++
	}
	ctr := make([]byte, poolCounterWords*8)
	if ps.shards <= 1 {
		binary.LittleEndian.PutUint64(ctr[8*4:], uint64(len(ps.slots))) // slot shard 0's count
	}
	for j := 0; j < ps.shards && ps.shards > 1; j++ {
		binary.LittleEndian.PutUint64(ctr[8*4*(1+j):], uint64((len(ps.slots)-j+ps.shards-1)/ps.shards))
	}
	for j, n := range st.pageCounts {
		binary.LittleEndian.PutUint64(ctr[8*4*(1+maxShards+j):], uint64(n))
	}
	return devBytes(t, b, pl), devBytes(t, b, ctr)
}

// pool is the context's view of what upload and listPages put on the
// device.
func (ps *pageSetup) pool(data, slots, heads, pages, counters DevPtr, npages int, pageShards int64) Pool {
	pageSpan := (int64(npages) + pageShards - 1) / pageShards
	p := Pool{Data: uint64(data), Slots: uint64(slots), Heads: uint64(heads), Pages: uint64(pages), Tails: uint64(pages) + uint64(4*pageShards*pageSpan), Counters: uint64(counters), SlotBytes: uint64(ps.slotBytes),
		Shards: uint64(max(1, ps.shards)), ShardCap: uint64(len(ps.slots)), PageShards: uint64(pageShards), PageSpan: uint64(pageSpan)}
	if ps.shards > 1 {
		p.ShardCap = uint64(ps.shardCap)
	}
	return p
}

// TestPageKernelsMatchModel runs the CUDA C page check kernels on the CPU
// backend against the Go model on random data: unit counts that are not
// powers of two, sizes that are not multiples of a page or a word, pages
// of whole elements that are not powers of two, disjoint writes, writes of
// the original value, forced overlaps, bytes more units write than a
// report names, pass-2 changes, chains in any order.
func TestPageKernelsMatchModel(t *testing.T) {
	b, ctxAddr := fusedBackend(t)
	pageKernelsMatchModel(t, b, ctxAddr, false)
}

// TestPageKernelsMatchModelOneWarp is the same with the check kernels
// launched as one warp, so that each thread's grid-stride loop takes many
// chunks, some of them past the end.
func TestPageKernelsMatchModelOneWarp(t *testing.T) {
	b, ctxAddr := fusedBackend(t)
	pageKernelsMatchModel(t, b, ctxAddr, true)
}

// TestPageKernelsMatchModelCUDA is the same on the GPU (skipped where
// there is no nvcc or no GPU): the CUDA compiler's code for the check
// kernels, with its own alignments, against the same model.
func TestPageKernelsMatchModelCUDA(t *testing.T) {
	b, ctxAddr := cudaRuntime(t)
	pageKernelsMatchModel(t, b, ctxAddr, false)
}

// pageKernelsMatchModel: oneWarp launches the check kernels as one block
// of 32 threads (their grid-stride loops then take many chunks a thread),
// not as pageGrid's blocks of 256.
func pageKernelsMatchModel(t *testing.T, b Backend, ctxAddr DevPtr, oneWarp bool) {
	const maxRec = 1 << 14
	records := devBytes(t, b, make([]byte, maxRec*RecordSize))
	nrec := devBytes(t, b, make([]byte, nrecBytes))
	// readRecs reads the records and the hot pages listed.
	readRecs := func() ([]Record, [2]int64) {
		recs, hot, truncated, err := readRecordBuffer(b, records, nrec, maxRec)
		if err != nil || truncated {
			t.Fatalf("records: %v (truncated %v)", err, truncated)
		}
		return recs, hot
	}
	rng := rand.New(rand.NewSource(7))
	trials := 0
	// Some trials leave chains of more than hotLen copies to the hot
	// kernels (hot.go), the rest to the chunk kernels alone.
	var seq uint32
	var hotPages int64
	scratch := devBytes(t, b, make([]byte, hotScratchWords*4))
	for _, units := range []int{1, 2, 3, 5, 7, 13, 31, 33, 40, 70} {
		for _, size := range []int{1, 31, 33, 100, 1000, 4099, 4100} {
			for _, overlap := range []bool{false, true} {
				pageBytes := []int{128, 120, 64, 16}[trials%4]
				s := make([]byte, size)
				rng.Read(s)
				p := make([][]byte, units)
				for i := range p {
					p[i] = bytes.Clone(s)
				}
				for j := 0; j < size; j++ {
					i := rng.Intn(units)
					switch rng.Intn(4) {
					case 0: // unit i writes byte j
						p[i][j] = s[j] + 1 + byte(rng.Intn(200))
					case 1: // unit i writes the value already there: invisible
						p[i][j] = s[j]
					}
				}
				if overlap && units > 1 {
					j := rng.Intn(size)
					p[0][j], p[units-1][j] = s[j]^0x5a, s[j]^0xa5
				}
				if units > 33 {
					// Crowded bytes: more writers than the kernel names
					// (the 33 lowest units), in a chain in any order.
					for c := 0; c < 3; c++ {
						j := rng.Intn(size)
						for i := range p {
							p[i][j] = s[j] ^ byte(1+rng.Intn(255))
						}
					}
				}
				ps := buildPages(rng, s, p, pageBytes)
				ps.shards = []int{1, 4, 2, 8}[(trials/8)%4]
				// Every other four trials, the checks in slot order where
				// pageCheck would run them so (ldc_slots_*).
				slotOrder := (trials/4)%2 == 1
				wantU, _, wantWW := FusedWriteWrite(s, p) // p becomes the pass-2 states

				sp := devBytes(t, b, s)
				npages := (size + pageBytes - 1) / pageBytes
				pageShards := []int64{32, 4, 1, 2, 8}[trials%5]
				upload := func() (data, slots, heads DevPtr) { return ps.upload(t, b, npages) }
				listPages := func() (pages, counters DevPtr) { return ps.listPages(t, b, npages, pageShards) }
				data, slots, heads := upload()
				pages, counters := listPages()
				hotLen := []int64{0, 2, 0, 1, 3, 0, 7}[trials%7]
				hotList := devBytes(t, b, make([]byte, 4*hotRoom(int64(len(ps.slots))+8, hotLen)))
				hotCap := hotRoom(int64(len(ps.slots))+8, hotLen) // (pass 2 adds up to 3 slots)
				// Every other trial, the pages' copies listed in an array
				// first (ldc_pages_index), as a run does; the others walk
				// the chains.
				listed := trials%2 == 1
				var order, pageAt DevPtr
				if listed {
					order = devBytes(t, b, bytes.Repeat([]byte{0xa5}, 4*(len(ps.slots)+8)))
					pageAt = devBytes(t, b, bytes.Repeat([]byte{0xa5}, 8*npages))
				}
				pool := func() Pool {
					p := ps.pool(data, slots, heads, pages, counters, npages, pageShards)
					p.Hot, p.HotCap = uint64(hotList), uint64(hotCap)
					p.Order, p.PageAt = uint64(order), uint64(pageAt)
					return p
				}
				// check launches a check kernel over the npl pages listed.
				check := func(kernel string, npl int64, flags uint64) {
					t.Helper()
					grid, block := pageGrid(npl, int64(ps.slotBytes)), [3]uint32{256, 1, 1}
					if oneWarp {
						grid, block = [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}
					}
					if err := b.Launch(kernel, grid, block, 0, [][]byte{u64(uint64(npl)), u64(uint64(hotLen)), u64(flags)}); err != nil {
						t.Fatal(err)
					}
				}
				// checkSlots launches a slot kernel over the slots filled.
				checkSlots := func(kernel string, flags uint64) {
					t.Helper()
					n := int64(len(ps.slots))
					grid, block := pageGrid(n, int64(ps.slotBytes)), [3]uint32{256, 1, 1}
					if oneWarp {
						grid, block = [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}
					}
					if err := b.Launch(kernel, grid, block, 0, [][]byte{u64(uint64(n)), u64(flags)}); err != nil {
						t.Fatal(err)
					}
				}
				index := func(npl int64) {
					t.Helper()
					if !listed {
						return
					}
					if err := indexPages(b, counters, npl, hotLen); err != nil {
						t.Fatal(err)
					}
					// The lists hold every copy of the pages they list:
					// those of at most min(hotLen, 255) copies.
					limit := int64(255)
					if hotLen > 0 {
						limit = min(limit, hotLen)
					}
					want := int64(0)
					for _, pg := range ps.pages {
						n := int64(0)
						for s := ps.heads[pg]; s >= 0; s = ps.slots[s].Next {
							n++
						}
						if n <= limit {
							want += n
						}
					}
					at, got := readDev(t, b, pageAt, 8*int(npl)), int64(0)
					for i := 0; i < int(npl); i++ {
						got += int64(binary.LittleEndian.Uint64(at[8*i:]) & 0xff)
					}
					if got != want {
						t.Fatalf("ldc_pages_index listed %d copies, want %d", got, want)
					}
				}
				// checkWW is the write-write check as pageCheck runs it.
				wwKernel, rwKernel := "ldc_pages_ww", "ldc_pages_rw"
				if slotOrder {
					rwKernel = "ldc_slots_rw"
				}
				checkWW := func(npl int64, final bool) {
					t.Helper()
					wwKernel = "ldc_pages_ww"
					if k := slotKernel("ldc_pages_ww", int64(len(ps.slots)), npl); slotOrder && k != "" {
						wwKernel = k
						checkSlots(wwKernel, checkFlags(false, final))
						return
					}
					index(npl)
					check(wwKernel, npl, checkFlags(listed, final))
				}
				// checked is what pageCheck does after a check kernel:
				// the records, then the hot kernels on the pages listed
				// and their records.
				checked := func(rw bool) []Record {
					t.Helper()
					recs, listed := readRecs()
					n := listed[0]
					if rw {
						n = listed[1]
					}
					if _, err := checkHot(b, hotPool{hot: hotList, hotCap: hotCap, slotBytes: int64(ps.slotBytes), threads: 256, scratch: func() (DevPtr, error) { return scratch, nil }}, rw, &seq, n); err != nil {
						t.Fatal(err)
					}
					hotPages += n
					more, listed := readRecs()
					if listed != [2]int64{} {
						t.Fatalf("the hot kernels listed hot pages: %v", listed)
					}
					return append(recs, more...)
				}
				al := &alloc{base: sp, size: int64(size), pageBytes: int64(pageBytes), pages: int64(npages)}
				ctx := Ctx{Records: uint64(records), NRecords: uint64(nrec), MaxRecords: maxRec, NAllocs: 1, Mode: ModeBlock}
				ctx.Allocs[0] = al.ctx()
				ctx.Pool = pool()
				if err := b.Write(ctxAddr, ctx.Bytes()); err != nil {
					t.Fatal(err)
				}
				// reupload replaces the pool's buffers with ps's slots and
				// pages as they are now.
				reupload := func() {
					t.Helper()
					for _, ptr := range []DevPtr{data, slots, heads, pages, counters} {
						b.Free(ptr)
					}
					data, slots, heads = upload()
					pages, counters = listPages()
					ctx.Pool = pool()
					if err := b.Write(ctxAddr, ctx.Bytes()); err != nil {
						t.Fatal(err)
					}
				}
				npl := int64(len(ps.pages))
				wwRaces := namedPairs(modelRaces(wantWW))
				if trials%3 == 2 {
					// A final write-write check (no pass 2 follows) first:
					// the same U and races, the copies only read. Then S
					// and the copies put back for the check that goes on
					// to pass 2.
					checkWW(npl, true)
					finalRecs := checked(false)
					if got := readDev(t, b, sp, size); !bytes.Equal(got, wantU) {
						t.Fatalf("final %s: units %d size %d page %d: U differs from the model", wwKernel, units, size, pageBytes)
					}
					if d := cmp.Diff(wwRaces, recordsToRaces(finalRecs)); d != "" {
						t.Fatalf("final %s: units %d size %d page %d: write-write races (-model +device):\n%s", wwKernel, units, size, pageBytes, d)
					}
					reupload()
					if err := b.Write(sp, s); err != nil {
						t.Fatal(err)
					}
				}
				checkWW(npl, false)
				wwRecs := checked(false)
				if got := readDev(t, b, sp, size); !bytes.Equal(got, wantU) {
					t.Fatalf("%s: units %d size %d page %d: U differs from the model", wwKernel, units, size, pageBytes)
				}
				gotData := ps.logical(readDev(t, b, data, ps.devSlots()*ps.slotBytes))
				for si, sl := range ps.slots {
					lo, hi := int(sl.Page)*pageBytes, min(int(sl.Page+1)*pageBytes, size)
					if got := gotData[si*ps.slotBytes : si*ps.slotBytes+hi-lo]; !bytes.Equal(got, p[sl.Unit][lo:hi]) {
						t.Fatalf("%s: units %d size %d page %d: unit %d's pass-2 page %d differs from the model", wwKernel, units, size, pageBytes, sl.Unit, sl.Page)
					}
				}
				if d := cmp.Diff(wwRaces, recordsToRaces(wwRecs)); d != "" {
					t.Fatalf("%s: units %d size %d page %d: write-write races (-model +device):\n%s", wwKernel, units, size, pageBytes, d)
				}
				if overlap && units > 1 && len(wantWW) == 0 {
					t.Fatalf("forced overlap not reported by the model")
				}

				// Pass 2: some units now end differently, some on pages
				// they had no copy of (a copy taken in pass 2, from U).
				copy(ps.data, gotData)
				for k := 0; k < 3; k++ {
					i, j := rng.Intn(units), rng.Intn(size)
					p[i][j] ^= 0x33
					pg := j / pageBytes
					si := ps.slotOf(pg, i)
					if si < 0 {
						if ps.heads[pg] < 0 {
							ps.pages = append(ps.pages, uint32(pg))
						}
						ps.addSlot(pg, i, p[i][pg*pageBytes:min((pg+1)*pageBytes, size)])
						continue
					}
					ps.data[si*ps.slotBytes+j-pg*pageBytes] ^= 0x33
				}
				reupload()
				wantRW := FusedReadWrite(bytes.Clone(s), wantU, p)
				npl = int64(len(ps.pages))
				if slotOrder {
					checkSlots(rwKernel, 0)
				} else {
					index(npl)
					check("ldc_pages_rw", npl, checkFlags(listed, false))
				}
				if d := cmp.Diff(modelRaces(wantRW), recordsToRaces(checked(true))); d != "" {
					t.Fatalf("%s: units %d size %d page %d: read-write races (-model +device):\n%s", rwKernel, units, size, pageBytes, d)
				}
				for _, ptr := range []DevPtr{sp, data, slots, heads, pages, counters, hotList} {
					b.Free(ptr)
				}
				if listed {
					b.Free(order)
					b.Free(pageAt)
				}
				trials++
			}
		}
	}
	if trials != 10*7*2 {
		t.Fatalf("ran %d trials", trials)
	}
	if hotPages < 100 {
		t.Fatalf("the hot kernels checked %d pages: the trials do not test them", hotPages)
	}
	t.Logf("%d pages checked by the hot kernels", hotPages)
}

// shardKernel writes pages of target 0 through level 1's copy-on-write
// path: block 0 writes bytes [0, 16) of every page, block b > 0 bytes
// [16b, 16b+16) of the pages p with p % 8 == b, each byte the value b+1.
// No byte has two writers; block 0 asks for far more copies than the
// others.
const shardKernel = `
extern "C" __global__ LDC_ENGINE void ldct_write_pages(unsigned long long npages) {
  unsigned b = ldc_block_linear(), t = threadIdx.x;
  const struct ldc_alloc *al = &ldc_g.allocs[0];
  for (unsigned long long pg = 0; pg < npages; pg++) {
    if (b != 0 && pg % 8 != b) continue;
    unsigned long long off = pg * 128 + 16 * b + t % 16;
    unsigned char *p = (unsigned char *)ldc_cow_grid(al, off, (void *)(al->base + off), 1);
    *p = (unsigned char)(b + 1);
  }
}
extern "C" LDC_ENGINE void ldc_entry_ldct_write_pages(void **a) { ldct_write_pages(*(unsigned long long *)a[0]); }
`

// TestSlotShardOverflow runs level 1's copy-on-write path on the CPU
// backend with 8 slot shards of 8 slots: block 0's shard overflows while
// the others fit, so the pass is void; the shards' counts size a second
// pool in which everything fits, and the write-write kernel, walking the
// pages listed in 32 shards, builds the union of the blocks' writes.
func TestSlotShardOverflow(t *testing.T) {
	b, ctxAddr := fusedBackendWith(t, shardKernel)
	const npages, blocks = 64, 8
	const maxRec = 1 << 10
	records := devBytes(t, b, make([]byte, maxRec*RecordSize))
	nrec := devBytes(t, b, make([]byte, nrecBytes))
	base := devBytes(t, b, make([]byte, npages*128))
	r := &checkRun{b: b, slotBytes: 128, totalPages: npages}
	al := &alloc{base: base, size: npages * 128, pageBytes: 128, pages: npages}
	run := func(cap, shards int64) (*pool, poolState) {
		t.Helper()
		if err := b.Write(base, make([]byte, npages*128)); err != nil { // the inputs, restored
			t.Fatal(err)
		}
		p, err := r.newPool(cap, shards)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.reset(b); err != nil {
			t.Fatal(err)
		}
		ctx := Ctx{Records: uint64(records), NRecords: uint64(nrec), MaxRecords: maxRec, NAllocs: 1, Mode: ModeBlock, Pass: 1, Pool: p.ctx()}
		ctx.Allocs[0] = al.ctx()
		if err := b.Write(ctxAddr, ctx.Bytes()); err != nil {
			t.Fatal(err)
		}
		if err := b.Launch("ldct_write_pages", [3]uint32{blocks, 1, 1}, [3]uint32{32, 1, 1}, 0, [][]byte{u64(npages)}); err != nil {
			t.Fatal(err)
		}
		st, err := p.state(b)
		if err != nil {
			t.Fatal(err)
		}
		return p, st
	}
	p, st := run(64, 8)
	wantShards := []int64{npages, 8, 8, 8, 8, 8, 8, 8}
	if !st.full || st.saturated || !slices.Equal(st.shardWanted, wantShards) || st.wanted != npages+7*8 || st.pages != npages {
		t.Fatalf("first pass: full %v saturated %v, shards asked for %v (%d in all), %d pages; want void, %v, %d pages",
			st.full, st.saturated, st.shardWanted, st.wanted, st.pages, wantShards, npages)
	}
	p.release(r)
	shards, cap := rerunShards(st.shardWanted, 1<<20)
	if shards != 8 || cap < 8*npages {
		t.Fatalf("rerun sized %d slots in %d shards", cap, shards)
	}
	p, st = run(cap, shards)
	defer p.release(r)
	if st.full || !slices.Equal(st.shardWanted, wantShards) || st.pages != npages || st.copies(p.shardCap) != st.wanted {
		t.Fatalf("second pass: full %v, shards asked for %v, %d pages", st.full, st.shardWanted, st.pages)
	}
	for j, n := range st.pageCounts {
		if n != npages/maxShards {
			t.Fatalf("page shard %d listed %d pages, want %d", j, n, npages/maxShards)
		}
	}
	// The fingerprints visit every slot of the pool and must skip those
	// no shard handed out.
	fp := devBytes(t, b, make([]byte, 8*blocks))
	if err := b.Launch("ldc_pages_fingerprint", fusedGrid(p.cap), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(p.cap)), u64(uint64(fp))}); err != nil {
		t.Fatal(err)
	}
	gotFP := readDev(t, b, fp, 8*blocks)
	for u := 0; u < blocks; u++ {
		var sum uint64
		for pg := 0; pg < npages; pg++ {
			if u != 0 && pg%8 != u {
				continue
			}
			copyOf := make([]byte, 128)
			for k := 0; k < 16; k++ {
				copyOf[16*u+k] = byte(u + 1)
			}
			h := testHash(uint64(pg) + 1)
			for k := 0; k < 32; k++ {
				h = testHash(h ^ uint64(binary.LittleEndian.Uint32(copyOf[4*k:])) ^ uint64(k)<<32)
			}
			sum += h
		}
		if got := binary.LittleEndian.Uint64(gotFP[8*u:]); got != sum {
			t.Fatalf("unit %d's fingerprint is %x, want %x", u, got, sum)
		}
	}
	if err := indexPages(b, p.counters, st.pages, 0); err != nil { // (as pageCheck does)
		t.Fatal(err)
	}
	if err := b.Launch("ldc_pages_ww", pageGrid(st.pages, 128), [3]uint32{256, 1, 1}, 0, [][]byte{u64(uint64(st.pages)), u64(0), u64(checkFlags(true, false))}); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, npages*128)
	for pg := 0; pg < npages; pg++ {
		for k := 0; k < 16; k++ {
			want[pg*128+k] = 1
			if w := pg % 8; w != 0 {
				want[pg*128+16*w+k] = byte(w + 1)
			}
		}
	}
	if got := readDev(t, b, base, npages*128); !bytes.Equal(got, want) {
		t.Fatalf("the union of the blocks' writes differs:\n got %x\nwant %x", got[:256], want[:256])
	}
	recs, _, truncated, err := readRecordBuffer(b, records, nrec, maxRec)
	if err != nil || truncated || len(recs) != 0 {
		t.Fatalf("records %v (truncated %v, %v), want none", recs, truncated, err)
	}
}

// testHash is ldc_hash.
func testHash(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// TestRerunShards: a void pass's shard counts size every shard for the
// largest, merging shards (in halves) while that does not fit.
// A void pass whose later blocks stopped at their start (on a GPU): its
// counts are those of the blocks that ran, scaled to the grid with a
// quarter more; pages at most every page; counts of a pass where every
// block ran stay exact.
func TestExtrapolatedVoidPass(t *testing.T) {
	st := poolState{full: true, wanted: 300, pages: 90, shardWanted: []int64{100, 200}, stopped: 75}
	got := st.extrapolated(100, 200)
	if got.ranBlocks != 25 || got.shardWanted[0] != 500 || got.shardWanted[1] != 1000 || got.wanted != 1500 {
		t.Errorf("100 blocks, 25 ran: %+v; want shards 500 and 1000 (4x, and a quarter more), 1500 in all", got)
	}
	if got.pages != 200 {
		t.Errorf("pages = %d, want 200 (90 x 5, at most every page)", got.pages)
	}
	if st.shardWanted[0] != 100 {
		t.Errorf("extrapolated changed its receiver's counts: %v", st.shardWanted)
	}
	exact := poolState{full: true, wanted: 300, shardWanted: []int64{300}}
	if got := exact.extrapolated(100, 200); got.wanted != 300 || got.ranBlocks != 0 {
		t.Errorf("every block ran: %+v, want the counts unchanged", got)
	}
	odd := poolState{full: true, wanted: 7, shardWanted: []int64{7}, stopped: 2}
	if got := odd.extrapolated(3, 1<<20); got.wanted != 27 { // ceil(7 * 3 * 5 / 4)
		t.Errorf("3 blocks, 1 ran, 7 wanted: %d, want 27 (rounded up)", got.wanted)
	}
}

func TestRerunShards(t *testing.T) {
	for _, tt := range []struct {
		wanted       []int64
		capFit       int64
		shards, want int64
	}{
		{[]int64{100, 100, 100, 100}, 1 << 20, 4, 4 * (100 + 12 + 256)},
		{[]int64{800, 0, 0, 0}, 1 << 20, 4, 4 * (800 + 100 + 256)},
		{[]int64{800, 0, 0, 0}, 3000, 2, 2 * (800 + 100 + 512)},
		{[]int64{800, 0, 0, 0}, 1000, 1, 800 + 100 + 1024}, // does not fit: reshuffling decides
		{[]int64{10, 20, 30, 40}, 3000, 4, 4 * (40 + 5 + 256)},
		{[]int64{10, 20, 30, 40}, 1150, 1, 100 + 12 + 1024},
		{[]int64{7}, 1 << 20, 1, 7 + 1024},
	} {
		if s, c := rerunShards(tt.wanted, tt.capFit); s != tt.shards || c != tt.want {
			t.Errorf("rerunShards(%v, %d) = %d shards, %d slots; want %d, %d", tt.wanted, tt.capFit, s, c, tt.shards, tt.want)
		}
	}
	// Reshuffled groups: as many shards as fit, one where only the single
	// pool of the m groups does.
	for _, m := range []int64{2, 3, 5, 8, 13, 33, 40, 64, 1000} {
		single := m*112 + 1024
		for _, capFit := range []int64{single, 2 * single, 1 << 40} {
			cap, s := groupCap(m, 100, capFit)
			per := (m + s - 1) / s
			if cap%s != 0 || s&(s-1) != 0 || s > maxShards || s > m || cap > capFit || cap/s < per*100 {
				t.Errorf("groupCap(%d, 100, %d) = %d slots in %d shards", m, capFit, cap, s)
			}
			if capFit == 1<<40 && s != shardsFor(int(m)) {
				t.Errorf("groupCap(%d, 100) with room to spare took %d shards", m, s)
			}
		}
	}
}

// TestMemoryLimitTooSmall: a --mem-limit that cannot hold the page tables
// fails before anything is launched, naming the bytes needed and the
// limit, as bad input.
func TestMemoryLimitTooSmall(t *testing.T) {
	b, _ := fusedBackend(t)
	data := make([]byte, 4<<20)
	k := &manifest.Kernel{Name: "k", Instrumented: true,
		Params:  []manifest.Param{{Name: "out", Type: "int *", Size: 8, Pointer: true, Elem: "int", ElemSize: 4}},
		Targets: []manifest.Target{{Index: 0, Name: "out", Space: "global", Kind: "param", Param: 0, ElemSize: 4}}}
	_, err := Check(b, Launch{Kernel: k, Grid: [3]uint32{64, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []Arg{{Param: k.Params[0], Buffer: true, Data: data}}}, Options{MemLimit: 64 << 10})
	var me *MemoryError
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want a *MemoryError", err)
	}
	// 4 MiB of ints are 32768 pages of 128 bytes: 8 bytes of tables each.
	if !me.Limit || me.Free != 64<<10 || me.Need < 32768*8 || !strings.Contains(err.Error(), "--mem-limit") {
		t.Errorf("error %q (need %d, free %d, limit %v)", err, me.Need, me.Free, me.Limit)
	}
}

// TestPageBytes: pages hold whole elements, near 128 bytes.
func TestPageBytes(t *testing.T) {
	for _, tt := range []struct{ elem, want int64 }{{0, 128}, {1, 128}, {4, 128}, {8, 128}, {12, 120}, {48, 96}, {24, 120}, {100, 100}, {128, 128}, {200, 200}} {
		if got := pageBytes(tt.elem); got != tt.want || got%max(tt.elem, 1) != 0 {
			t.Errorf("pageBytes(%d) = %d, want %d", tt.elem, got, tt.want)
		}
	}
}

// failingAlloc is a backend whose allocations start failing after the
// first few, as a device that runs out of memory in the middle of a run.
type failingAlloc struct {
	*CPUBackend
	left int
	live map[DevPtr]bool
}

func (f *failingAlloc) Alloc(n int64) (DevPtr, error) { return f.take(n, f.CPUBackend.Alloc) }

func (f *failingAlloc) AllocScratch(n int64) (DevPtr, error) {
	return f.take(n, f.CPUBackend.AllocScratch)
}

// take fails once the allocations left are used up, else allocates.
func (f *failingAlloc) take(n int64, alloc func(int64) (DevPtr, error)) (DevPtr, error) {
	if f.left == 0 {
		return 0, errors.New("out of memory (test)")
	}
	f.left--
	p, err := alloc(n)
	if err == nil {
		f.live[p] = true
	}
	return p, err
}

func (f *failingAlloc) Free(p DevPtr) error {
	delete(f.live, p)
	return f.CPUBackend.Free(p)
}

// TestOutOfMemoryMidRun: device memory that runs out while the copies are
// set up is a memory error (no verdict, not bad input), and everything the
// run allocated is freed.
func TestOutOfMemoryMidRun(t *testing.T) {
	b, _ := fusedBackend(t)
	k := &manifest.Kernel{Name: "k", Instrumented: true,
		Params:  []manifest.Param{{Name: "out", Type: "int *", Size: 8, Pointer: true, Elem: "int", ElemSize: 4}},
		Targets: []manifest.Target{{Index: 0, Name: "out", Space: "global", Kind: "param", Param: 0, ElemSize: 4}}}
	for left := 1; left < 8; left++ {
		f := &failingAlloc{CPUBackend: b, left: left, live: map[DevPtr]bool{}}
		_, err := Check(f, Launch{Kernel: k, Grid: [3]uint32{64, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []Arg{{Param: k.Params[0], Buffer: true, Data: make([]byte, 1<<16)}}}, Options{})
		if err == nil {
			t.Fatalf("%d allocations: no error", left)
		}
		var me *MemoryError
		if errors.As(err, &me) && me.Limit {
			t.Errorf("%d allocations: %v is reported as the user's limit", left, err)
		}
		if len(f.live) != 0 {
			t.Errorf("%d allocations: %d left allocated after the error %v", left, len(f.live), err)
		}
	}
}

// otherLayout is a backend whose module lays out the context with another
// size, as a module built against a different runtime header would.
type otherLayout struct{ *CPUBackend }

func (o otherLayout) Symbol(name string) (DevPtr, int64, error) {
	p, n, err := o.CPUBackend.Symbol(name)
	if name == "ldc_g" {
		n -= 8
	}
	return p, n, err
}

// TestContextLayoutChecked: a module whose context differs in size from
// the host's Ctx is refused before any launch, with a rebuild hint.
func TestContextLayoutChecked(t *testing.T) {
	b, _ := fusedBackend(t)
	k := &manifest.Kernel{Name: "k", Instrumented: true,
		Params:  []manifest.Param{{Name: "out", Type: "int *", Size: 8, Pointer: true, Elem: "int", ElemSize: 4}},
		Targets: []manifest.Target{{Index: 0, Name: "out", Space: "global", Kind: "param", Param: 0, ElemSize: 4}}}
	l := Launch{Kernel: k, Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []Arg{{Param: k.Params[0], Buffer: true, Data: make([]byte, 256)}}}
	// As built, setup passes (the run then fails at the launch: the test
	// module holds the check kernels only).
	if _, err := Check(b, l, Options{}); err == nil || strings.Contains(err.Error(), "ldc_g") {
		t.Fatalf("the module as built: %v", err)
	}
	_, err := Check(otherLayout{b}, l, Options{})
	if err == nil || !strings.Contains(err.Error(), "ldc_g") || !strings.Contains(err.Error(), "rebuild") {
		t.Fatalf("got %v, want the context size mismatch named", err)
	}
	// Same size, two fields swapped (Pool.Cap and Pool.TableMask): refused,
	// the first of them named.
	_, err = Check(&movedField{CPUBackend: b}, l, Options{})
	if err == nil || !strings.Contains(err.Error(), "Pool.Cap") || !strings.Contains(err.Error(), "rebuild") {
		t.Fatalf("got %v, want the moved field named", err)
	}
}

// movedField is a backend whose module's context has the host's size but
// two fields in the other order, as a header edited on one side would.
type movedField struct {
	*CPUBackend
	table DevPtr
}

func (m *movedField) Symbol(name string) (DevPtr, int64, error) {
	p, n, err := m.CPUBackend.Symbol(name)
	if name != "ldc_ctx_layout" || err != nil {
		return p, n, err
	}
	raw := make([]byte, n)
	if err := m.CPUBackend.Read(raw, p); err != nil {
		return 0, 0, err
	}
	for i, f := range CtxLayout() {
		if f.Path == "Pool.Cap" {
			a, b := raw[8*i:8*i+8], raw[8*i+8:8*i+16]
			for j := range a {
				a[j], b[j] = b[j], a[j]
			}
		}
	}
	if m.table, err = m.CPUBackend.Alloc(n); err != nil {
		return 0, 0, err
	}
	return m.table, n, m.CPUBackend.Write(m.table, raw)
}

// TestCtxLayoutMatchesHeader: the header's ldc_ctx_layout lists as many
// fields as Ctx has (so a field added on one side only fails here, in CI,
// before any module is refused) and every offset agrees.
func TestCtxLayoutMatchesHeader(t *testing.T) {
	b, _ := fusedBackend(t)
	p, n, err := b.Symbol("ldc_ctx_layout")
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, n)
	if err := b.Read(raw, p); err != nil {
		t.Fatal(err)
	}
	if err := checkCtxLayout(raw); err != nil {
		t.Fatal(err)
	}
	if n := binary.Size(Ctx{}); n != CtxSize {
		t.Errorf("Ctx takes %d bytes, CtxSize is %d", n, CtxSize)
	}
}

// TestCheckKernelsTakeTheWarmUpsArguments: the warm-up launches every
// check kernel with the words checkKernels says; a kernel that gained a
// parameter without it failed every --warmup run on CUDA (thirty-seventh
// session), and the CPU backend, which cannot tell, read past the
// arguments.
func TestCheckKernelsTakeTheWarmUpsArguments(t *testing.T) {
	src, err := os.ReadFile("include/ldcheck_rt.h")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range checkKernels {
		name := k.name
		m := regexp.MustCompile(`__global__[^\n(]*\b` + name + `\(([^)]*)\)`).FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no kernel of that name in ldcheck_rt.h", name)
		}
		params := strings.Split(string(m[1]), ",")
		if len(params) != k.args {
			t.Errorf("%s takes %d parameters (%s), the warm-up launches it with %d", name, len(params), m[1], k.args)
		}
		for _, p := range params {
			if !strings.Contains(p, "long long") && !strings.Contains(p, "*") {
				t.Errorf("%s: parameter %q is not 64 bits wide", name, p)
			}
		}
	}
}
