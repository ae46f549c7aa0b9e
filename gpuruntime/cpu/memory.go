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
//
// Each buffer sits between inaccessible guard pages: it ends exactly where
// the guard after it begins, and the guard is as large as the buffer plus
// 1 MiB. Its start is therefore aligned to the largest power of two (up to
// the page size) that divides its size: an array of any element type is
// naturally aligned, and one element too many already faults. A kernel reading or writing past the
// end faults there, and the engine fails the launch with the address, which
// Locate maps back to the buffer.
type Buffer struct {
	m *mapping
}

type mapping struct {
	mem []byte // the whole mapping, guards included; nil once freed
	off int    // where the buffer starts in mem
	n   int
}

// GuardBefore is the size of the inaccessible zone before each buffer's
// page-aligned body.
const GuardBefore = 64 << 10

// guardAfter is the size of the inaccessible zone after a body of the given
// page-rounded size.
func guardAfter(body int) int { return body + 1<<20 }

// Alloc maps n zeroed bytes between guard pages. A zero-byte buffer still
// gets a distinct address, as cudaMalloc gives one.
func Alloc(n int) (Buffer, error) {
	if n < 0 {
		return Buffer{}, fmt.Errorf("alloc: negative size %d", n)
	}
	page := syscall.Getpagesize()
	pages := (n + page - 1) / page * page
	total := GuardBefore + pages + guardAfter(pages)
	// Address space only: the guards are never backed by memory.
	mem, err := syscall.Mmap(-1, 0, total, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return Buffer{}, fmt.Errorf("alloc %d bytes: %w", n, err)
	}
	if pages > 0 {
		if err := syscall.Mprotect(mem[GuardBefore:GuardBefore+pages], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			syscall.Munmap(mem)
			return Buffer{}, fmt.Errorf("alloc %d bytes: %w", n, err)
		}
	}
	// The page end is 4096-aligned and n a multiple of the alignment asked
	// for, so the start is aligned too.
	return Buffer{&mapping{mem: mem, off: GuardBefore + pages - n, n: n}}, nil
}

// Ptr is the buffer's device address (0 for a zero or freed Buffer).
func (b Buffer) Ptr() uintptr {
	if b.m == nil || b.m.mem == nil {
		return 0
	}
	return uintptr(unsafe.Pointer(&b.m.mem[b.m.off]))
}

// Bytes is the buffer's memory (nil for a zero or freed Buffer).
func (b Buffer) Bytes() []byte {
	if b.m == nil || b.m.mem == nil {
		return nil
	}
	return b.m.mem[b.m.off : b.m.off+b.m.n : b.m.off+b.m.n]
}

// Len is the size asked of Alloc.
func (b Buffer) Len() int {
	if b.m == nil || b.m.mem == nil {
		return 0
	}
	return b.m.n
}

// Locate says where addr is relative to the buffer: its offset from the
// buffer's start (negative before it, >= Len() past its end) and whether it
// lies in the buffer's mapping (the buffer or its guards) at all.
func (b Buffer) Locate(addr uintptr) (offset int64, ok bool) {
	if b.m == nil || b.m.mem == nil {
		return 0, false
	}
	lo := uintptr(unsafe.Pointer(&b.m.mem[0]))
	if addr < lo || addr >= lo+uintptr(len(b.m.mem)) {
		return 0, false
	}
	return int64(addr) - int64(b.Ptr()), true
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
