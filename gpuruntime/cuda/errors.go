package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrNoDriver is matched (errors.Is) by every error that means "no usable
// CUDA here" rather than "CUDA failed": the driver library could not be
// opened, or the driver answered CUDA_ERROR_NO_DEVICE,
// CUDA_ERROR_NOT_INITIALIZED or CUDA_ERROR_STUB_LIBRARY. Callers use it to
// fall back to the CPU backend.
var ErrNoDriver = errors.New("no CUDA driver found")

// CUresult codes that this package or its callers test for. The full list is
// in cuda.h; an Error carries whatever code the driver returned.
const (
	CodeSuccess               = 0
	CodeInvalidValue          = 1
	CodeOutOfMemory           = 2
	CodeNotInitialized        = 3
	CodeDeinitialized         = 4
	CodeStubLibrary           = 34
	CodeNoDevice              = 100
	CodeInvalidDevice         = 101
	CodeInvalidImage          = 200
	CodeInvalidContext        = 201
	CodeNoBinaryForGPU        = 209
	CodeInvalidPTX            = 218
	CodeJITCompilerNotFound   = 221
	CodeUnsupportedPTXVersion = 222
	CodeInvalidHandle         = 400
	CodeNotFound              = 500
	CodeNotReady              = 600
	CodeIllegalAddress        = 700
	CodeLaunchOutOfResources  = 701
	CodeLaunchTimeout         = 702
	CodeLaunchFailed          = 719
	CodeUnknown               = 999
)

// Error is a failed driver call.
type Error struct {
	Code    int    // the CUresult
	Name    string // cuGetErrorName, e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Message string // cuGetErrorString, e.g. "out of memory"
	Call    string // the driver entry point, e.g. "cuMemAlloc"
	// Log is the JIT compiler's error log for a failed module load
	// (cuModuleLoadDataEx with CU_JIT_ERROR_LOG_BUFFER); empty otherwise.
	Log string
}

// Error returns "Call: Name: Message", followed by the JIT log on the next
// lines when there is one.
func (e *Error) Error() string {
	s := e.Call + ": " + e.Name + ": " + e.Message
	if e.Log != "" {
		s += "\n" + e.Log
	}
	return s
}

// Is makes errors.Is(err, ErrNoDriver) true for the codes that mean there is
// no usable driver or device.
func (e *Error) Is(target error) bool {
	return target == ErrNoDriver && noDriverCode(e.Code)
}

func noDriverCode(code int) bool {
	switch code {
	case CodeNoDevice, CodeNotInitialized, CodeStubLibrary:
		return true
	}
	return false
}

// IsNoDriver reports whether err means that CUDA is not usable here (no
// library, no device, stub library): errors.Is(err, ErrNoDriver).
func IsNoDriver(err error) bool { return errors.Is(err, ErrNoDriver) }

// IsOutOfMemory reports whether err is, or wraps, a driver error
// CUDA_ERROR_OUT_OF_MEMORY. (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, too many
// registers or threads for a launch, is not.)
func IsOutOfMemory(err error) bool { return HasCode(err, CodeOutOfMemory) }

// HasCode reports whether err is, or wraps, a driver *Error with that code.
func HasCode(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// check turns a CUresult into nil or an *Error named after call.
func (d *Driver) check(call string, r result) error {
	if r == CodeSuccess {
		return nil
	}
	return d.newError(call, r)
}

func (d *Driver) newError(call string, r result) *Error {
	e := &Error{Code: int(r), Call: call}
	var p *byte
	if d.cuGetErrorName(r, &p) == CodeSuccess && p != nil {
		e.Name = goString(p)
	} else {
		e.Name = fmt.Sprintf("CUDA_ERROR_%d", int(r))
	}
	p = nil
	if d.cuGetErrorString(r, &p) == CodeSuccess && p != nil {
		e.Message = goString(p)
	} else {
		e.Message = "unrecognized error code"
	}
	return e
}

// goString copies the NUL-terminated C string at p (memory owned by the
// driver) into a Go string.
func goString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// cString returns the NUL-terminated prefix of b as a string.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// argError is an error found before calling the driver (a negative size, a
// nil kernel argument): the call is named, the driver is not asked.
func argError(call, format string, args ...any) error {
	return fmt.Errorf("%s: %s", call, fmt.Sprintf(format, args...))
}
