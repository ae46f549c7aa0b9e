package cuda

import (
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// DefaultLibrary is the driver library Load opens when neither its argument
// nor $LDCHECK_LIBCUDA names one.
const DefaultLibrary = "libcuda.so.1"

// LibraryEnv is the environment variable that names the driver library.
const LibraryEnv = "LDCHECK_LIBCUDA"

// Driver is a loaded CUDA driver library: its handle and one Go function per
// bound entry point. Its zero value is not usable; get one from Load. The
// library stays loaded for the life of the process (a CUDA driver cannot be
// unloaded safely), so a Driver has no Close.
type Driver struct {
	path   string
	handle uintptr

	cuGetErrorName   func(r result, p **byte) result
	cuGetErrorString func(r result, p **byte) result

	cuInit             func(flags uint32) result
	cuDriverGetVersion func(v *int32) result

	cuDeviceGetCount     func(n *int32) result
	cuDeviceGet          func(dev *Device, ordinal int32) result
	cuDeviceGetName      func(name *byte, n int32, dev Device) result
	cuDeviceGetAttribute func(v *int32, attr DeviceAttribute, dev Device) result
	cuDeviceTotalMem     func(bytes *uintptr, dev Device) result

	cuDevicePrimaryCtxRetain  func(ctx *Context, dev Device) result
	cuDevicePrimaryCtxRelease func(dev Device) result
	cuCtxCreate               func(ctx *Context, flags uint32, dev Device) result
	cuCtxDestroy              func(ctx Context) result
	cuCtxSetCurrent           func(ctx Context) result
	cuCtxGetCurrent           func(ctx *Context) result
	cuCtxSynchronize          func() result

	cuModuleLoadDataEx  func(m *Module, image *byte, nopt uint32, opts *jitOption, vals *uintptr) result
	cuModuleUnload      func(m Module) result
	cuModuleGetFunction func(f *Function, m Module, name string) result
	cuModuleGetGlobal   func(p *DevicePtr, bytes *uintptr, m Module, name string) result
	cuFuncGetAttribute  func(v *int32, attr FunctionAttribute, f Function) result
	cuFuncSetAttribute  func(f Function, attr FunctionAttribute, v int32) result

	cuOccupancyMaxActiveBlocksPerMultiprocessor func(n *int32, f Function, blockSize int32, dynShared uintptr) result

	cuMemAlloc        func(p *DevicePtr, bytes uintptr) result
	cuMemFree         func(p DevicePtr) result
	cuMemsetD8        func(p DevicePtr, v uint8, n uintptr) result
	cuMemcpyHtoD      func(dst DevicePtr, src unsafe.Pointer, n uintptr) result
	cuMemcpyDtoH      func(dst unsafe.Pointer, src DevicePtr, n uintptr) result
	cuMemcpyDtoD      func(dst, src DevicePtr, n uintptr) result
	cuMemcpyHtoDAsync func(dst DevicePtr, src unsafe.Pointer, n uintptr, s Stream) result
	cuMemcpyDtoHAsync func(dst unsafe.Pointer, src DevicePtr, n uintptr, s Stream) result
	cuMemcpyDtoDAsync func(dst, src DevicePtr, n uintptr, s Stream) result
	cuMemGetInfo      func(free, total *uintptr) result

	cuLaunchKernel func(f Function, gx, gy, gz, bx, by, bz, shared uint32, s Stream, params unsafe.Pointer, extra unsafe.Pointer) result

	cuStreamCreate      func(s *Stream, flags uint32) result
	cuStreamSynchronize func(s Stream) result
	cuStreamDestroy     func(s Stream) result

	cuEventCreate      func(e *Event, flags uint32) result
	cuEventRecord      func(e Event, s Stream) result
	cuEventSynchronize func(e Event) result
	cuEventElapsedTime func(ms *float32, start, end Event) result
	cuEventDestroy     func(e Event) result

	cuTexObjectCreate  func(t *TexObject, res *resourceDesc, tex *textureDesc, view unsafe.Pointer) result
	cuTexObjectDestroy func(t TexObject) result
}

// symbol binds one exported name to one function field of a Driver.
type symbol struct {
	name string
	fn   any // pointer to a func field
}

// symbols lists every entry point Load binds. The "_v2" names are those
// cuda.h maps the plain names to (64-bit sizes and current semantics).
func (d *Driver) symbols() []symbol {
	return []symbol{
		{"cuGetErrorName", &d.cuGetErrorName},
		{"cuGetErrorString", &d.cuGetErrorString},
		{"cuInit", &d.cuInit},
		{"cuDriverGetVersion", &d.cuDriverGetVersion},
		{"cuDeviceGetCount", &d.cuDeviceGetCount},
		{"cuDeviceGet", &d.cuDeviceGet},
		{"cuDeviceGetName", &d.cuDeviceGetName},
		{"cuDeviceGetAttribute", &d.cuDeviceGetAttribute},
		{"cuDeviceTotalMem_v2", &d.cuDeviceTotalMem},
		{"cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain},
		{"cuDevicePrimaryCtxRelease_v2", &d.cuDevicePrimaryCtxRelease},
		{"cuCtxCreate_v2", &d.cuCtxCreate},
		{"cuCtxDestroy_v2", &d.cuCtxDestroy},
		{"cuCtxSetCurrent", &d.cuCtxSetCurrent},
		{"cuCtxGetCurrent", &d.cuCtxGetCurrent},
		{"cuCtxSynchronize", &d.cuCtxSynchronize},
		{"cuModuleLoadDataEx", &d.cuModuleLoadDataEx},
		{"cuModuleUnload", &d.cuModuleUnload},
		{"cuModuleGetFunction", &d.cuModuleGetFunction},
		{"cuModuleGetGlobal_v2", &d.cuModuleGetGlobal},
		{"cuFuncGetAttribute", &d.cuFuncGetAttribute},
		{"cuFuncSetAttribute", &d.cuFuncSetAttribute},
		{"cuOccupancyMaxActiveBlocksPerMultiprocessor", &d.cuOccupancyMaxActiveBlocksPerMultiprocessor},
		{"cuMemAlloc_v2", &d.cuMemAlloc},
		{"cuMemFree_v2", &d.cuMemFree},
		{"cuMemsetD8_v2", &d.cuMemsetD8},
		{"cuMemcpyHtoD_v2", &d.cuMemcpyHtoD},
		{"cuMemcpyDtoH_v2", &d.cuMemcpyDtoH},
		{"cuMemcpyDtoD_v2", &d.cuMemcpyDtoD},
		{"cuMemcpyHtoDAsync_v2", &d.cuMemcpyHtoDAsync},
		{"cuMemcpyDtoHAsync_v2", &d.cuMemcpyDtoHAsync},
		{"cuMemcpyDtoDAsync_v2", &d.cuMemcpyDtoDAsync},
		{"cuMemGetInfo_v2", &d.cuMemGetInfo},
		{"cuLaunchKernel", &d.cuLaunchKernel},
		{"cuStreamCreate", &d.cuStreamCreate},
		{"cuStreamSynchronize", &d.cuStreamSynchronize},
		{"cuStreamDestroy_v2", &d.cuStreamDestroy},
		{"cuEventCreate", &d.cuEventCreate},
		{"cuEventRecord", &d.cuEventRecord},
		{"cuEventSynchronize", &d.cuEventSynchronize},
		{"cuEventElapsedTime", &d.cuEventElapsedTime},
		{"cuEventDestroy_v2", &d.cuEventDestroy},
		{"cuTexObjectCreate", &d.cuTexObjectCreate},
		{"cuTexObjectDestroy", &d.cuTexObjectDestroy},
	}
}

// Load opens the CUDA driver library and binds its entry points. path ""
// means $LDCHECK_LIBCUDA, or DefaultLibrary (libcuda.so.1, found by the
// dynamic loader's search) when that is unset.
//
// A library that cannot be opened gives an error matching ErrNoDriver that
// names the path tried. A library that lacks one of the bound entry points
// (too old a driver, not a CUDA driver) gives an error naming every missing
// symbol. Load does not call cuInit; Init does.
func Load(path string) (*Driver, error) {
	if path == "" {
		path = os.Getenv(LibraryEnv)
	}
	if path == "" {
		path = DefaultLibrary
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("%w (tried %q: %v)", ErrNoDriver, path, err)
	}
	d := &Driver{path: path, handle: h}
	if err := d.bind(); err != nil {
		_ = purego.Dlclose(h)
		return nil, err
	}
	return d, nil
}

func (d *Driver) bind() (err error) {
	var missing []string
	for _, s := range d.symbols() {
		addr, err := purego.Dlsym(d.handle, s.name)
		if err != nil || addr == 0 {
			missing = append(missing, s.name)
			continue
		}
		if err := register(s.fn, addr); err != nil {
			return fmt.Errorf("cuda: binding %s from %s: %v", s.name, d.path, err)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("cuda: %s is not a usable CUDA driver: missing symbol(s) %s (driver too old?)",
			d.path, strings.Join(missing, ", "))
	}
	return nil
}

// register is purego.RegisterFunc with its panics (an unsupported Go type
// in a signature, a programming error) turned into an error.
func register(fn any, addr uintptr) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	purego.RegisterFunc(fn, addr)
	return nil
}

// Path is the library path Load opened.
func (d *Driver) Path() string { return d.path }

// Init is cuInit. flags must be 0.
func (d *Driver) Init(flags uint32) error {
	return d.check("cuInit", d.cuInit(flags))
}

// DriverGetVersion is cuDriverGetVersion: the CUDA version the driver
// supports, 1000*major + 10*minor (12040 for 12.4).
func (d *Driver) DriverGetVersion() (int, error) {
	var v int32
	err := d.check("cuDriverGetVersion", d.cuDriverGetVersion(&v))
	return int(v), err
}
