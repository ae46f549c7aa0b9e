package gpuruntime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
)

// Ctx mirrors struct ldc_ctx in include/ldcheck_rt.h field for field (the
// explicit padding keeps the C layout); the host writes it into the
// module's ldc_g before each launch.
type Ctx struct {
	Mode, Pass, NAllocs int32
	SharedTracked       int32
	Allocs              [16]Alloc
	Pool                Pool
	Segs                Segs
	SharedScratch       uint64
	SharedPerBlock      uint64
	SharedOff           [16]uint64
	SharedBytes         [16]uint64
	NShared, AtomicMode int32
	AtomicLog           uint64
	AtomicOverflow      uint64
	Records, NRecords   uint64
	MaxRecords          int32
	AtomicSpillBits     int32 // log2 of the atomic log's spill table's entries (0: none)
	Trace, NTrace       uint64
	MaxTrace            int32
	AtomicSlots         int32
	SharedInDyn         int32
	SharedDirect        uint32 // shared targets run uncopied (bit i: target i)
	DynOffset           uint64
	Compared            uint64 // level 2 adds the bytes its checks compared here
	FailedTest          uint64 // int *: the line of a failed LDC_COND or LDC_TEST, 0 none
	OnePass             int32  // level 2 runs one pass a region (LDC_ONE_PASS_ON)
	SharedOwn           uint32 // shared targets stored in place, with owner words (bit i: target i; ownShared)
	QuietEnds           int32  // a one-pass level 2 whose quiet region ends are one barrier: 1, or 2 where they read nothing (setQuietEnds)
	_                   int32
	Det                 Det
	Ap                  Ap
	Iw                  Iw
}

// setQuietEnds decides, once for the launch, whether a region end of its
// one-pass level 2 where no thread stored to a copy is one barrier
// (ldc_one_pass_quiet): none of the checks that note accesses is on, and
// the stores to every shared target are tracked. Set last, from the
// context as launched.
//
// Its region ends are bare (QuietEnds 2) where no store goes to a copy: the
// global targets' stores go in place (ldc_own's table) or are not
// tracked, and every shared target is stored in place (owner words) or
// runs uncopied. No region then has a copy to merge, and the end needs
// no look at the block's marks before its barrier.
func (c *Ctx) setQuietEnds() {
	c.QuietEnds = 0
	if c.Mode == ModeReplay && c.OnePass != 0 && c.Ap.Mask == 0 && c.Iw.On == 0 && c.Det.On == 0 && c.Trace == 0 && (c.NShared == 0 || c.SharedTracked != 0) {
		c.QuietEnds = 1
		all := uint32(1)<<uint(c.NShared) - 1
		inPlace := (c.SharedOwn|c.SharedDirect)&all == all
		globalInPlace := c.Segs.DirectMask != 0 || c.Segs.NSeg == 0 || c.NAllocs == 0
		if inPlace && globalInPlace {
			c.QuietEnds = 2
		}
	}
}

// Iw mirrors struct ldc_iw: the intra-warp check's records and clocks
// (intrawarp.go).
type Iw struct {
	Scratch, PerBlock, DynOffset, Clocks uint64
	Off                                  [MaxShared]uint64
	GKeys, GVals, GMask, GFull           uint64
	On, InDyn                            int32
}

// Ap mirrors struct ldc_ap: the atomic-plain check's table (atomicplain.go).
type Ap struct {
	Keys, Vals, Mask, Full uint64
}

// Det mirrors struct ldc_det: a deterministic run's state (det.go).
type Det struct {
	On int32
	_  int32
}

// Alloc mirrors struct ldc_alloc: a global target cut into pages.
type Alloc struct {
	Base, Size, PageBytes, FirstPage, Pages uint64
	PageShift                               uint64 // log2(PageBytes), or 64 when not a power of two
}

// Pool mirrors struct ldc_pool: level 1's page copies.
type Pool struct {
	Data, Slots, Keys, Vals, Heads, Pages, Tails, Counters, UnitCopy uint64
	SlotBytes, Cap, TableMask                                        uint64
	Shards, ShardCap                                                 uint64 // slot shards (a power of two) and slots each
	PageShards, PageSpan                                             uint64 // shards of Pages (a power of two) and entries each
	Hot, HotCap                                                      uint64 // hot pages (struct ldc_pool)
	Order, PageAt                                                    uint64 // listed pages' copies (ldc_pages_index)
}

// Segs mirrors struct ldc_segs: level 2's per-block segments.
type Segs struct {
	Mem, Busy, Status                                                  uint64
	SegBytes, Cap, TableMask                                           uint64
	OffKeys, OffVals, OffSlots, OffPages, OffWritten, OffData, OffSnap uint64
	NSeg                                                               int32
	InDyn                                                              int32  // the block's segment is in its dynamic shared memory, DynOffset bytes in
	Pristine                                                           uint64 // the targets before the kernel, put back as each block starts (serial level 2)
	DynOffset                                                          uint64
	DirectMask                                                         uint64 // stores in place: the mask of ldc_own's table, 0 for copies (segments.direct)
}

// Modes of the instrumented code (LDC_MODE_*).
const (
	ModePlain  = 0
	ModeBlock  = 1
	ModeReplay = 2
)

// Race record kinds and spaces (LDC_RACE_*, LDC_SPACE_*).
const (
	RecordWW    = 1
	RecordRW    = 2
	RecordAP    = 3 // atomic-plain: a plain access and another unit's atomic
	RecordIWW   = 4 // intra-warp write-write: two lanes of one warp (intrawarp.go)
	RecordIRW   = 5 // intra-warp read-write
	SpaceShared = 1
	SpaceGlobal = 2
	SpaceLocal  = 3
	MaxShared   = 16
	// FirstAtomicSlots is the atomic log's first room per thread; a
	// kernel that needs more is run again with what it asked for.
	FirstAtomicSlots = 16
	CtxSize          = 1712
	RecordSize       = 56
	TraceEntrySize   = 24
)

// Bytes encodes the context as the device expects it.
func (c *Ctx) Bytes() []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, c)
	return b.Bytes()
}

// Record mirrors struct ldc_record.
type Record struct {
	Kind, Space, Target int32
	From, To            int32
	UnitA, UnitB        int32
	Block, Thread       int32
	Group               int32 // level 1: the private copy UnitA ran on
	Offset              int64
	Values              uint32
	_                   uint32
}

// TraceEntry mirrors struct ldc_trace: one thread's end of one pass of a region.
type TraceEntry struct {
	Block, Thread, Pass, From, To, Differ int32
}

// DecodeRecords reads n records from raw device memory.
func DecodeRecords(raw []byte, n int) []Record {
	out := make([]Record, n)
	binary.Read(bytes.NewReader(raw[:n*RecordSize]), binary.LittleEndian, out)
	return out
}

// DecodeTrace reads n trace entries.
func DecodeTrace(raw []byte, n int) []TraceEntry {
	out := make([]TraceEntry, n)
	binary.Read(bytes.NewReader(raw[:n*TraceEntrySize]), binary.LittleEndian, out)
	return out
}

// FieldOffset is where one field of Ctx lies in the bytes the device reads.
type FieldOffset struct {
	Path   string // Go field path, e.g. "Pool.SlotBytes"
	Offset int64
}

// CtxLayout lists the offset of every field of Ctx as Bytes encodes it, in
// the order of the runtime header's ldc_ctx_layout table: declaration
// order, a nested struct's fields in its place, the first element's fields
// for an array of structs, padding left out.
func CtxLayout() []FieldOffset {
	var out []FieldOffset
	var walk func(t reflect.Type, path string, at int64)
	walk = func(t reflect.Type, path string, at int64) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			ft := f.Type
			if f.Name != "_" {
				p := path + f.Name
				switch {
				case ft.Kind() == reflect.Struct:
					walk(ft, p+".", at)
				case ft.Kind() == reflect.Array && ft.Elem().Kind() == reflect.Struct:
					walk(ft.Elem(), p+"[0].", at)
				default:
					out = append(out, FieldOffset{Path: p, Offset: at})
				}
			}
			at += int64(binary.Size(reflect.Zero(ft).Interface()))
		}
	}
	walk(reflect.TypeOf(Ctx{}), "", 0)
	return out
}

// checkCtxLayout compares a module's ldc_ctx_layout (raw, little-endian
// 8-byte offsets) with CtxLayout and names the first field that differs.
func checkCtxLayout(raw []byte) error {
	want := CtxLayout()
	if len(raw) != 8*len(want) {
		return fmt.Errorf("the module's context has %d fields and this ldcheck's %d", len(raw)/8, len(want))
	}
	for i, f := range want {
		if got := int64(binary.LittleEndian.Uint64(raw[8*i:])); got != f.Offset {
			return fmt.Errorf("field %d of the module's context (%s here) is at byte %d there and at %d here", i, f.Path, got, f.Offset)
		}
	}
	return nil
}
