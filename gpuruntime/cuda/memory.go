package cuda

import "unsafe"

// MemAlloc is cuMemAlloc_v2: bytes of device memory in the current context.
// Failure for want of memory satisfies IsOutOfMemory.
func (d *Driver) MemAlloc(bytes int64) (DevicePtr, error) {
	const call = "cuMemAlloc"
	if bytes <= 0 {
		return 0, argError(call, "size %d is not positive", bytes)
	}
	var p DevicePtr
	err := d.check(call, d.cuMemAlloc(&p, uintptr(bytes)))
	return p, err
}

// MemFree is cuMemFree_v2.
func (d *Driver) MemFree(p DevicePtr) error {
	return d.check("cuMemFree", d.cuMemFree(p))
}

// MemsetD8 is cuMemsetD8_v2: n bytes at p set to value.
func (d *Driver) MemsetD8(p DevicePtr, value uint8, n int64) error {
	const call = "cuMemsetD8"
	if n < 0 {
		return argError(call, "negative size %d", n)
	}
	return d.check(call, d.cuMemsetD8(p, value, uintptr(n)))
}

// MemcpyHtoD is cuMemcpyHtoD_v2: bytes from host memory src to dst.
func (d *Driver) MemcpyHtoD(dst DevicePtr, src unsafe.Pointer, bytes int64) error {
	const call = "cuMemcpyHtoD"
	if bytes < 0 {
		return argError(call, "negative size %d", bytes)
	}
	return d.check(call, d.cuMemcpyHtoD(dst, src, uintptr(bytes)))
}

// MemcpyDtoH is cuMemcpyDtoH_v2: bytes from src to host memory dst.
func (d *Driver) MemcpyDtoH(dst unsafe.Pointer, src DevicePtr, bytes int64) error {
	const call = "cuMemcpyDtoH"
	if bytes < 0 {
		return argError(call, "negative size %d", bytes)
	}
	return d.check(call, d.cuMemcpyDtoH(dst, src, uintptr(bytes)))
}

// MemcpyDtoD is cuMemcpyDtoD_v2. It is asynchronous with respect to the
// host (ordered on the legacy default stream).
func (d *Driver) MemcpyDtoD(dst, src DevicePtr, bytes int64) error {
	const call = "cuMemcpyDtoD"
	if bytes < 0 {
		return argError(call, "negative size %d", bytes)
	}
	return d.check(call, d.cuMemcpyDtoD(dst, src, uintptr(bytes)))
}

// MemcpyHtoDAsync is cuMemcpyHtoDAsync_v2 on stream s. The host memory must
// stay alive and unchanged until the copy is done (synchronise s); from Go
// memory (pageable) the driver stages the copy before returning, so it is
// only truly asynchronous for page-locked memory.
func (d *Driver) MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, bytes int64, s Stream) error {
	const call = "cuMemcpyHtoDAsync"
	if bytes < 0 {
		return argError(call, "negative size %d", bytes)
	}
	return d.check(call, d.cuMemcpyHtoDAsync(dst, src, uintptr(bytes), s))
}

// MemcpyDtoHAsync is cuMemcpyDtoHAsync_v2 on stream s. dst must stay alive
// and must not be read until the copy is done (synchronise s).
func (d *Driver) MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, bytes int64, s Stream) error {
	const call = "cuMemcpyDtoHAsync"
	if bytes < 0 {
		return argError(call, "negative size %d", bytes)
	}
	return d.check(call, d.cuMemcpyDtoHAsync(dst, src, uintptr(bytes), s))
}

// MemcpyDtoDAsync is cuMemcpyDtoDAsync_v2 on stream s.
func (d *Driver) MemcpyDtoDAsync(dst, src DevicePtr, bytes int64, s Stream) error {
	const call = "cuMemcpyDtoDAsync"
	if bytes < 0 {
		return argError(call, "negative size %d", bytes)
	}
	return d.check(call, d.cuMemcpyDtoDAsync(dst, src, uintptr(bytes), s))
}

// MemGetInfo is cuMemGetInfo_v2: free and total device memory, in bytes, of
// the current context's device.
func (d *Driver) MemGetInfo() (free, total int64, err error) {
	var f, t uintptr
	err = d.check("cuMemGetInfo", d.cuMemGetInfo(&f, &t))
	return int64(f), int64(t), err
}

// CopyHtoD copies the elements of src to device memory at dst (a typed
// MemcpyHtoD). T must hold no Go pointers.
func CopyHtoD[T any](d *Driver, dst DevicePtr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	return d.MemcpyHtoD(dst, unsafe.Pointer(&src[0]), int64(len(src))*int64(unsafe.Sizeof(src[0])))
}

// CopyDtoH fills dst from device memory at src (a typed MemcpyDtoH). T must
// hold no Go pointers.
func CopyDtoH[T any](d *Driver, dst []T, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return d.MemcpyDtoH(unsafe.Pointer(&dst[0]), src, int64(len(dst))*int64(unsafe.Sizeof(dst[0])))
}
