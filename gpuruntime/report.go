package gpuruntime

import (
	"sort"

	"ldcheck/privatize/manifest"
)

// Race is one reported race: identical records (same region, variable,
// kind, level) merged, with the byte range they cover and a count.
type Race struct {
	Kind     string         `json:"kind"`  // write-write or read-write
	Space    string         `json:"space"` // shared, global, local
	Scope    manifest.Scope `json:"scope"`
	Variable string         `json:"variable"`
	Region   RaceRegion     `json:"region"`
	Offset   int64          `json:"offset"` // first byte
	Length   int64          `json:"length"` // bytes from Offset to the last racy byte
	Elements [2]int64       `json:"elements"`
	Units    []int          `json:"units"`           // the warps (inter-warp) or blocks (inter-block) of the first record, and those of the explained accesses when the record had one
	Block    int            `json:"block,omitempty"` // for inter-warp races: the block of the first record
	// Warp is the warp of an intra-warp race (whose Units are two lanes of it).
	Warp   *int       `json:"warp,omitempty"`
	Thread int        `json:"thread,omitempty"`
	Values RaceValues `json:"values"`
	// Element names the element (or field) of the first racy byte as the
	// source writes it (partial[31], As[3][5], cells[5].mass), LastElement
	// that of the last one; Type is its C type, when the build knew it.
	Element     string `json:"element,omitempty"`
	LastElement string `json:"last_element,omitempty"`
	Type        string `json:"type,omitempty"`
	// Typed are the values of that element in its type, when they are
	// known: every byte of it was seen by the checks (or by the traced
	// rerun that explains the race).
	Typed *TypedValues `json:"typed_values,omitempty"`
	// Accesses are the two conflicting accesses the traced rerun found
	// (Options.Explain): for write-write the two writes, for read-write
	// the write and the read whose value it changed; the first is the
	// earlier statement in the source, the second the later, which a
	// report points at. Empty when the race was not explained;
	// Explanation then says why.
	Accesses    []Access `json:"accesses,omitempty"`
	Explanation string   `json:"explanation,omitempty"`
	// MorePairs are the other distinct pairs of statements that conflict
	// on the racy bytes (Options.All), in source order.
	MorePairs [][2]Access `json:"more_pairs,omitempty"`
	// SameValue: a write-write race where, at every racy byte, the two
	// units wrote the same value over a different one (a race some tools
	// call benign; Options.IgnoreSameValue drops them).
	SameValue bool `json:"same_value,omitempty"`
	// Kept, for the write-write races of a deterministic run: the unit
	// whose value its merge kept at Offset (the highest that wrote it).
	Kept     *RaceKept            `json:"kept,omitempty"`
	Count    int                  `json:"count"` // racy bytes (threads, for locals; 4-byte words, for intra-warp), counted in every block
	unitSets map[int]map[int]bool // units by block (one set, key 0, between blocks)
	// named is the units of the record at Offset whose values are given
	// (Units becomes the union of every record's).
	named    []int
	elemSize int64
	target   *manifest.Target
	slot     int // the target's slot: shared table index, or allocation
	// bytes are the records' values by offset near the first racy byte,
	// with the units of each, to put the element's value together.
	bytes map[int64]Record
	// finished: addRaces has put its fields together (and dropped bytes).
	finished bool
}

// ValueUnits are the two units whose values the report gives at Offset:
// those of the record there (Units is the union of every record's).
func (rc *Race) ValueUnits() (first, second int) {
	if len(rc.named) == 2 {
		return rc.named[0], rc.named[1]
	}
	return rc.Units[0], rc.Units[len(rc.Units)-1]
}

// RaceKept is the unit whose byte a deterministic run kept, and the byte.
type RaceKept struct {
	Unit  int `json:"unit"`
	Value int `json:"value"`
}

// Access is one access of a racy element, as the traced rerun saw it.
type Access struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Kind   string `json:"kind"` // read, write, or read-write (x += v)
	Block  int    `json:"block"`
	Thread int    `json:"thread"` // in the block, linear
	Warp   int    `json:"warp"`
	// Element is the element it touched (partial[31]).
	Element string `json:"element,omitempty"`
	// Value is what the access wrote (or read), in the element's type,
	// when known.
	Value string `json:"value,omitempty"`
	// site is the build's site of the access plus one (0: unknown).
	site int
}

// TypedValues are a racy element's values in its type: before the region
// (write-write) or the merged value U (read-write), the first unit's, and
// the second writer's (write-write).
type TypedValues struct {
	Original string `json:"original"`
	First    string `json:"first"`
	Second   string `json:"second,omitempty"`
}

// RaceRegion locates the AP region the race is in.
type RaceRegion struct {
	File      string `json:"file"`
	BeginLine int    `json:"begin_line"`
	EndLine   int    `json:"end_line"`
	From      int    `json:"from"`
	To        int    `json:"to"`
}

// RaceValues are the bytes seen at the first racy byte.
type RaceValues struct {
	Original int  `json:"original"`         // the value before the region (write-write) or the merged value U (read-write)
	First    int  `json:"first"`            // the first unit's value
	Second   *int `json:"second,omitempty"` // the second writer's value (write-write)
}

// addRaces turns records into races, merging identical ones.
func (r *checkRun) addRaces(recs []Record, scope manifest.Scope) {
	k := r.l.Kernel
	if scope == manifest.ScopeInterBlock {
		for _, rec := range recs {
			if rec.Kind == RecordWW {
				r.blocksShareBytes = true
			}
		}
	}
	if r.opt.IgnoreSameValue {
		kept := recs[:0:0]
		for _, rec := range recs {
			if !sameValue(rec) {
				kept = append(kept, rec)
			}
		}
		recs = kept
	}
	var shared []manifest.Target
	for _, t := range k.Targets {
		if t.Space == manifest.SpaceShared {
			shared = append(shared, t)
		}
	}
	// Canonical order, so that both backends (and every run) report the
	// same races whatever order the checks found them in.
	regionIndex := map[[2]int32]int{}
	for i, reg := range k.Regions {
		regionIndex[[2]int32{int32(reg.From), int32(reg.To)}] = i
	}
	order := func(rec Record) []int64 {
		ri, ok := regionIndex[[2]int32{rec.From, rec.To}]
		if !ok {
			ri = len(k.Regions)
		}
		return []int64{int64(ri), int64(rec.Space), int64(rec.Target), int64(rec.Kind), int64(rec.Block), rec.Offset, int64(rec.Thread), int64(rec.UnitA), int64(rec.UnitB)}
	}
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := order(recs[i]), order(recs[j])
		for x := range a {
			if a[x] != b[x] {
				return a[x] < b[x]
			}
		}
		return false
	})
	for _, rec := range recs {
		var race Race
		race.Scope = scope
		race.Kind = "read-write"
		if rec.Kind == RecordWW {
			race.Kind = "write-write"
		}
		race.elemSize = 1
		switch rec.Space {
		case SpaceShared:
			race.Space = string(manifest.SpaceShared)
			if int(rec.Target) < len(shared) {
				race.Variable = shared[rec.Target].Name
				race.elemSize = max(shared[rec.Target].ElemSize, 1)
				race.target, race.slot = &shared[rec.Target], int(rec.Target)
			}
		case SpaceGlobal:
			race.Space = string(manifest.SpaceGlobal)
			if int(rec.Target) < len(r.allocs) {
				t := r.allocs[rec.Target].target
				race.Variable = t.Name
				race.elemSize = max(t.ElemSize, 1)
				race.target, race.slot = &r.allocs[rec.Target].target, int(rec.Target)
			}
		case SpaceLocal:
			race.Space = "local"
			race.Variable = "(thread-local values)"
		}
		race.Region = regionOf(r.l.Source, k, int(rec.From), int(rec.To))
		race.Offset, race.Length, race.Count = rec.Offset, 1, 1
		race.Units = []int{int(rec.UnitA)}
		if rec.UnitB >= 0 {
			race.Units = append(race.Units, int(rec.UnitB))
		}
		race.Block, race.Thread = int(rec.Block), int(rec.Thread)
		race.Values.Original = int(rec.Values & 0xff)
		race.Values.First = int(rec.Values >> 8 & 0xff)
		if rec.Kind == RecordWW {
			second := int(rec.Values >> 16 & 0xff)
			race.Values.Second = &second
			race.SameValue = sameValue(rec)
			if r.opt.Deterministic {
				race.Kept = &RaceKept{Unit: int(rec.UnitB), Value: second}
			}
		}
		if rec.Kind == RecordAP {
			r.apRace(&race, rec, scope)
		}
		if rec.Kind == RecordIWW || rec.Kind == RecordIRW {
			r.iwRace(&race, rec)
		}
		race.bytes = map[int64]Record{race.Offset: rec}
		r.merge(race)
	}
	for i := range r.res.Races {
		rc := &r.res.Races[i]
		if rc.finished {
			// Finished by an earlier call: its records are gone.
			continue
		}
		rc.finished = true
		rc.Elements = [2]int64{rc.Offset / rc.elemSize, (rc.Offset + rc.Length - 1) / rc.elemSize}
		rc.Units = sortedUnits(rc.unitSet())
		if rc.Scope == manifest.ScopeIntraWarp {
			// The two lanes of the record named (lanes of other warps, or
			// of other words, are other lanes).
			rc.Units = append([]int(nil), rc.named...)
			sort.Ints(rc.Units)
		}
		if rc.target != nil && rc.Space != "local" {
			rc.Element = Element(rc.target, rc.Offset)
			rc.LastElement = Element(rc.target, rc.Offset+rc.Length-1)
			if rc.Kind != "atomic-plain" && rc.Scope != manifest.ScopeIntraWarp {
				rc.Typed = typedFromRecords(rc)
			}
			if _, _, typ, ok := scalarAt(rc.target, rc.Offset); ok {
				rc.Type = typ
			}
		}
		rc.bytes = nil
	}
}

// typedFromRecords puts the first racy scalar's values together from the
// records of its bytes, when every byte of it was racy between the same
// two units (a byte no unit changed, or only one, has no record, and its
// values are not known here).
func typedFromRecords(rc *Race) *TypedValues {
	from, n, typ, ok := scalarAt(rc.target, rc.Offset)
	if !ok || n > 8 {
		return nil
	}
	first, ok := rc.bytes[rc.Offset]
	if !ok {
		return nil
	}
	orig, a, b := make([]byte, n), make([]byte, n), make([]byte, n)
	for i := int64(0); i < n; i++ {
		rec, ok := rc.bytes[from+i]
		if !ok || rec.UnitA != first.UnitA || rec.UnitB != first.UnitB || rec.Block != first.Block {
			return nil
		}
		orig[i], a[i], b[i] = byte(rec.Values), byte(rec.Values>>8), byte(rec.Values>>16)
	}
	tv := &TypedValues{Original: FormatValue(typ, orig), First: FormatValue(typ, a)}
	if rc.Kind == "write-write" {
		tv.Second = FormatValue(typ, b)
	}
	return tv
}

// merge adds a record's race to the race it is identical to, if any. A
// race names one record's place: its first byte, and for inter-warp
// (and thread-local) races the block of the record at that byte (the
// lowest block, records arriving in block order) and only that block's
// warps: warps of different blocks are different warps, so a union of
// their numbers would name warps that made no access.
func (r *checkRun) merge(race Race) {
	key := 0
	if race.Scope != manifest.ScopeInterBlock {
		key = race.Block
	}
	for i := range r.res.Races {
		o := &r.res.Races[i]
		if o.Kind == race.Kind && o.Space == race.Space && o.Scope == race.Scope && o.Variable == race.Variable && o.Region.From == race.Region.From && o.Region.To == race.Region.To {
			end := max(o.Offset+o.Length, race.Offset+race.Length)
			if o.finished {
				// Finished by an earlier addRaces: finish it again.
				o.finished = false
				if o.bytes == nil {
					o.bytes = map[int64]Record{}
				}
			}
			for off, rec := range race.bytes {
				if len(o.bytes) < 64 {
					if _, seen := o.bytes[off]; !seen {
						o.bytes[off] = rec
					}
				}
			}
			if race.Offset < o.Offset {
				o.Offset = race.Offset
				o.Values = race.Values
				o.Units, o.named = race.Units, race.Units
				o.Block, o.Thread = race.Block, race.Thread
				o.Kept = race.Kept
				if race.Scope == manifest.ScopeIntraWarp {
					o.Warp, o.Accesses, o.Explanation = race.Warp, race.Accesses, race.Explanation
				}
			} else if race.Offset == o.Offset && race.Block == o.Block && race.Kept != nil && (o.Kept == nil || race.Kept.Unit > o.Kept.Unit) {
				// Another pair of writers of the named byte: the merge kept
				// the highest one's value.
				o.Kept = race.Kept
			}
			o.SameValue = o.SameValue && race.SameValue
			o.Length = end - o.Offset
			o.Count++
			if o.unitSets[key] == nil {
				o.unitSets[key] = map[int]bool{}
			}
			for _, u := range race.Units {
				o.unitSets[key][u] = true
			}
			return
		}
	}
	race.named = race.Units
	race.unitSets = map[int]map[int]bool{key: {}}
	for _, u := range race.Units {
		race.unitSets[key][u] = true
	}
	r.res.Races = append(r.res.Races, race)
}

// unitSet is the units of the race's named block (all units, between blocks).
func (rc *Race) unitSet() map[int]bool {
	if rc.Scope == manifest.ScopeInterBlock {
		return rc.unitSets[0]
	}
	return rc.unitSets[rc.Block]
}

// sameValue: a write-write record whose two units wrote the same value.
func sameValue(rec Record) bool {
	return rec.Kind == RecordWW && rec.Values>>8&0xff == rec.Values>>16&0xff
}

// regionOf finds the region's source lines in the manifest.
func regionOf(file string, k *manifest.Kernel, from, to int) RaceRegion {
	rr := RaceRegion{File: file, From: from, To: to}
	for _, reg := range k.Regions {
		if reg.From == from && reg.To == to {
			rr.BeginLine, rr.EndLine = reg.BeginLine, reg.EndLine
			return rr
		}
	}
	// Level 1 checks the whole kernel as one region.
	if from == -1 && to == -1 {
		rr.BeginLine = k.Line
		for _, reg := range k.Regions {
			rr.EndLine = max(rr.EndLine, reg.EndLine)
		}
	}
	return rr
}

func sortedUnits(m map[int]bool) []int {
	var out []int
	for u := range m {
		out = append(out, u)
	}
	sort.Ints(out)
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}
