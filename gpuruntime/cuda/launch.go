package cuda

import (
	"math"
	"runtime"
	"unsafe"
)

// LaunchKernel is cuLaunchKernel: f on a grid of gridX×gridY×gridZ blocks
// of blockX×blockY×blockZ threads, with sharedMemBytes of dynamic shared
// memory, on stream s (0: the legacy default stream). The launch is
// asynchronous; its execution errors surface at the next synchronisation.
//
// args has one element per kernel parameter, in order, each a pointer to a
// value of exactly that parameter's size, which the driver copies at launch:
//
//	n := int32(len(x))            // int n: 4 bytes
//	var a, b DevicePtr = ...      // float *a, *b: 8 bytes each
//	err := d.LaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, 0,
//		[]unsafe.Pointer{unsafe.Pointer(&a), unsafe.Pointer(&b), unsafe.Pointer(&n)})
//
// Passing a Go int (8 bytes) for an int parameter, or a 4-byte value for a
// pointer, is the caller's error and is not detected. The pointed-to values
// and the array itself are pinned for the call, as the driver reads them
// through the void** array.
func (d *Driver) LaunchKernel(f Function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes int, s Stream, args []unsafe.Pointer) error {
	const call = "cuLaunchKernel"
	dims := [...]struct {
		name string
		v    int
	}{
		{"gridX", gridX}, {"gridY", gridY}, {"gridZ", gridZ},
		{"blockX", blockX}, {"blockY", blockY}, {"blockZ", blockZ},
	}
	for _, dim := range dims {
		if dim.v < 1 || uint64(dim.v) > math.MaxUint32 {
			return argError(call, "%s = %d is out of range", dim.name, dim.v)
		}
	}
	if sharedMemBytes < 0 || uint64(sharedMemBytes) > math.MaxUint32 {
		return argError(call, "sharedMemBytes = %d is out of range", sharedMemBytes)
	}

	var params unsafe.Pointer
	var pin runtime.Pinner
	defer pin.Unpin()
	if len(args) > 0 {
		for i, a := range args {
			if a == nil {
				return argError(call, "kernel argument %d is a nil pointer", i)
			}
			pin.Pin(a)
		}
		pin.Pin(&args[0])
		params = unsafe.Pointer(&args[0])
	}
	r := d.cuLaunchKernel(f,
		uint32(gridX), uint32(gridY), uint32(gridZ),
		uint32(blockX), uint32(blockY), uint32(blockZ),
		uint32(sharedMemBytes), s, params, nil)
	runtime.KeepAlive(args)
	return d.check(call, r)
}

// StreamCreate is cuStreamCreate (flags: StreamDefault, StreamNonBlocking).
func (d *Driver) StreamCreate(flags uint32) (Stream, error) {
	var s Stream
	err := d.check("cuStreamCreate", d.cuStreamCreate(&s, flags))
	return s, err
}

// StreamSynchronize is cuStreamSynchronize.
func (d *Driver) StreamSynchronize(s Stream) error {
	return d.check("cuStreamSynchronize", d.cuStreamSynchronize(s))
}

// StreamDestroy is cuStreamDestroy_v2.
func (d *Driver) StreamDestroy(s Stream) error {
	return d.check("cuStreamDestroy", d.cuStreamDestroy(s))
}

// EventCreate is cuEventCreate (flags: EventDefault, EventBlockingSync,
// EventDisableTiming).
func (d *Driver) EventCreate(flags uint32) (Event, error) {
	var e Event
	err := d.check("cuEventCreate", d.cuEventCreate(&e, flags))
	return e, err
}

// EventRecord is cuEventRecord: e is recorded on stream s.
func (d *Driver) EventRecord(e Event, s Stream) error {
	return d.check("cuEventRecord", d.cuEventRecord(e, s))
}

// EventSynchronize is cuEventSynchronize.
func (d *Driver) EventSynchronize(e Event) error {
	return d.check("cuEventSynchronize", d.cuEventSynchronize(e))
}

// EventElapsedTime is cuEventElapsedTime: milliseconds from start to end,
// both recorded and complete (about 0.5 µs resolution).
func (d *Driver) EventElapsedTime(start, end Event) (float32, error) {
	var ms float32
	err := d.check("cuEventElapsedTime", d.cuEventElapsedTime(&ms, start, end))
	return ms, err
}

// EventDestroy is cuEventDestroy_v2.
func (d *Driver) EventDestroy(e Event) error {
	return d.check("cuEventDestroy", d.cuEventDestroy(e))
}
