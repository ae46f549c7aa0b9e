package cpu

import (
	"fmt"
	"syscall"
	"unsafe"
)

// A Buffer is device memory of the CPU backend: an anonymous mapping outside
// the Go heap, so its address is stable and kernels (C) may hold it. The zero
// Buffer is empty. Copies of a Buffer share the mapping; Free releases it for
// all of them.
type Buffer struct {
	m *mapping
}

type mapping struct {
	mem []byte // whole pages; nil once freed
	n   int
}

// Alloc maps n zeroed bytes. A zero-byte buffer still gets a distinct
// address, as cudaMalloc gives one.
func Alloc(n int) (Buffer, error) {
	if n < 0 {
		return Buffer{}, fmt.Errorf("alloc: negative size %d", n)
	}
	size := n
	if size == 0 {
		size = 1
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return Buffer{}, fmt.Errorf("alloc %d bytes: %w", n, err)
	}
	return Buffer{&mapping{mem: mem, n: n}}, nil
}

// Ptr is the buffer's device address (0 for a zero or freed Buffer).
func (b Buffer) Ptr() uintptr {
	if b.m == nil || b.m.mem == nil {
		return 0
	}
	return uintptr(unsafe.Pointer(&b.m.mem[0]))
}

// Bytes is the buffer's memory (nil for a zero or freed Buffer).
func (b Buffer) Bytes() []byte {
	if b.m == nil || b.m.mem == nil {
		return nil
	}
	return b.m.mem[:b.m.n:b.m.n]
}

// Len is the size asked of Alloc.
func (b Buffer) Len() int {
	if b.m == nil || b.m.mem == nil {
		return 0
	}
	return b.m.n
}

// Free unmaps the buffer; freeing twice is harmless.
func (b Buffer) Free() error {
	if b.m == nil || b.m.mem == nil {
		return nil
	}
	mem := b.m.mem
	b.m.mem = nil
	return syscall.Munmap(mem)
}
