package gpuruntime

import (
	"testing"

	"ldcheck/privatize/manifest"
)

func TestElement(t *testing.T) {
	partial := &manifest.Target{Name: "partial", Elem: "float", ElemSize: 4, Bytes: 256}
	tile := &manifest.Target{Name: "As", Elem: "float", ElemSize: 4, Bytes: 1024, Dims: []int64{16, 16}}
	cells := &manifest.Target{Name: "cells", Elem: "Cell", ElemSize: 24, Fields: []manifest.Field{
		{Name: "mass", Offset: 0, Size: 4, Type: "float"}, {Name: "pos.x", Offset: 8, Size: 8, Type: "double"}, {Name: "id", Offset: 16, Size: 6, Type: "short[3]"}}}
	for _, tc := range []struct {
		t    *manifest.Target
		off  int64
		want string
		typ  string
	}{
		{partial, 124, "partial[31]", "float"},
		{partial, 127, "partial[31]", "float"},
		{tile, 4*(3*16+5) + 2, "As[3][5]", "float"},
		{cells, 5 * 24, "cells[5].mass", "float"},
		{cells, 5*24 + 9, "cells[5].pos.x", "double"},
		{cells, 5*24 + 19, "cells[5].id[1]", "short"},
		{cells, 5*24 + 5, "cells[5]", ""}, // padding
		{&manifest.Target{Name: "raw"}, 7, "raw[byte 7]", ""},
	} {
		if got := Element(tc.t, tc.off); got != tc.want {
			t.Errorf("Element(%s, %d) = %q, want %q", tc.t.Name, tc.off, got, tc.want)
		}
		_, _, typ, _ := scalarAt(tc.t, tc.off)
		if typ != tc.typ {
			t.Errorf("scalarAt(%s, %d) type %q, want %q", tc.t.Name, tc.off, typ, tc.typ)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		b    []byte
		want string
	}{
		{"float", []byte{0, 0, 0x50, 0x40}, "3.25"},
		{"const float", []byte{0, 0, 0x80, 0xbf}, "-1"},
		{"double", []byte{0, 0, 0, 0, 0, 0, 0x0a, 0x40}, "3.25"},
		{"int", []byte{0xf9, 0xff, 0xff, 0xff}, "-7"},
		{"unsigned int", []byte{0xf9, 0xff, 0xff, 0xff}, "4294967289"},
		{"short", []byte{0xfe, 0xff}, "-2"},
		{"unsigned char", []byte{200}, "200"},
		{"bool", []byte{1}, "true"},
		{"long long", []byte{1, 0, 0, 0, 0, 0, 0, 0}, "1"},
		{"Cell", []byte{0x34, 0x12}, "0x1234"},
	} {
		if got := FormatValue(tc.typ, tc.b); got != tc.want {
			t.Errorf("FormatValue(%q, % x) = %q, want %q", tc.typ, tc.b, got, tc.want)
		}
	}
}

// The typed value of a racy float comes from its four bytes' records,
// only when all four were racy between the same units.
func TestTypedFromRecords(t *testing.T) {
	partial := &manifest.Target{Name: "partial", Elem: "float", ElemSize: 4, Bytes: 256}
	rc := &Race{Kind: "write-write", Offset: 124, target: partial, bytes: map[int64]Record{}}
	a, b := []byte{0, 0, 0x50, 0x40}, []byte{0, 0, 0x80, 0x3f} // 3.25, 1
	for i := int64(0); i < 4; i++ {
		rc.bytes[124+i] = Record{Kind: RecordWW, UnitA: 0, UnitB: 1, Offset: 124 + i, Values: uint32(a[i])<<8 | uint32(b[i])<<16}
	}
	got := typedFromRecords(rc)
	if got == nil || got.Original != "0" || got.First != "3.25" || got.Second != "1" {
		t.Fatalf("typed values %+v, want 0, 3.25, 1", got)
	}
	delete(rc.bytes, 125)
	if got := typedFromRecords(rc); got != nil {
		t.Errorf("with a byte not racy: %+v, want none", got)
	}
}
