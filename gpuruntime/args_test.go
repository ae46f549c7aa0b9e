package gpuruntime

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestWithAddresses: pointer fields get the buffers' backend addresses,
// in copies (the caller's Data stays as it was).
func TestWithAddresses(t *testing.T) {
	scalar := make([]byte, 16)
	cells := make([]byte, 32) // two 16-byte structs, a pointer at byte 8
	args := []Arg{
		{Data: scalar, Ptrs: []Ptr{{Offset: 0, Count: 1, Param: 1}}},
		{Buffer: true, Data: make([]byte, 4)},
		{Buffer: true, Data: cells, Ptrs: []Ptr{{Offset: 8, Stride: 16, Count: 2, Param: 2}}},
	}
	bufs := []DevPtr{0, 0x1000, 0x2000}
	got, err := withAddresses(args, bufs)
	if err != nil {
		t.Fatal(err)
	}
	if a := binary.LittleEndian.Uint64(got[0].Data); a != 0x1000 {
		t.Errorf("scalar's pointer = %#x, want 0x1000", a)
	}
	for i := 0; i < 2; i++ {
		if a := binary.LittleEndian.Uint64(got[2].Data[8+16*i:]); a != 0x2000 {
			t.Errorf("cells[%d]'s pointer = %#x, want 0x2000", i, a)
		}
	}
	if !bytes.Equal(scalar, make([]byte, 16)) || !bytes.Equal(cells, make([]byte, 32)) {
		t.Errorf("the caller's data changed")
	}
	if _, err := withAddresses([]Arg{{Data: scalar, Ptrs: []Ptr{{Offset: 12, Count: 1, Param: 0}}}}, []DevPtr{0}); err == nil {
		t.Errorf("a pointer to a scalar, past the end: no error")
	}
}
