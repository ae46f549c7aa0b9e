package cuda

import (
	"math"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// JITOptions are the options of ModuleLoadDataEx. The zero value (or nil)
// leaves every compiler setting at the driver's default.
type JITOptions struct {
	MaxRegisters      int  // > 0: CU_JIT_MAX_REGISTERS
	GenerateLineInfo  bool // CU_JIT_GENERATE_LINE_INFO
	GenerateDebugInfo bool // CU_JIT_GENERATE_DEBUG_INFO
	LogVerbose        bool // CU_JIT_LOG_VERBOSE
	// LogBufferBytes is the size of each of the info and error log
	// buffers; 0 means 64 KiB. Longer logs are cut.
	LogBufferBytes int
}

// ModuleLoadData loads a module from a PTX, cubin or fatbin image (mumax's
// ModuleLoadData) in the current context. It is ModuleLoadDataEx with default
// options, the info log dropped.
func (d *Driver) ModuleLoadData(image []byte) (Module, error) {
	m, _, err := d.ModuleLoadDataEx(image, nil)
	return m, err
}

// ModuleLoadDataEx is cuModuleLoadDataEx with the JIT's info and error log
// buffers (CU_JIT_INFO_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER). It returns the
// info log (often empty; verbose with LogVerbose). When the load fails the
// error is an *Error whose Log holds the JIT error log (ptxas's messages for
// bad PTX), and so does its text.
//
// The image need not end in a NUL byte: a NUL-terminated copy is passed
// (PTX must be NUL-terminated; a cubin or fatbin is recognised by its header
// and the extra byte is ignored).
func (d *Driver) ModuleLoadDataEx(image []byte, o *JITOptions) (Module, string, error) {
	const call = "cuModuleLoadDataEx"
	if len(image) == 0 {
		return 0, "", argError(call, "empty module image")
	}
	img := make([]byte, len(image)+1)
	copy(img, image)

	logBytes := defaultJITLogBufferBytes
	if o != nil && o.LogBufferBytes > 0 {
		logBytes = o.LogBufferBytes
	}
	infoLog := make([]byte, logBytes)
	errLog := make([]byte, logBytes)
	// The driver writes into the buffers through addresses stored in
	// vals; pin them so that storing their addresses is legitimate.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&infoLog[0])
	pin.Pin(&errLog[0])

	opts := []jitOption{jitInfoLogBuffer, jitInfoLogBufferSize, jitErrorLogBuffer, jitErrorLogBufferSize}
	vals := []uintptr{
		uintptr(unsafe.Pointer(&infoLog[0])), uintptr(logBytes),
		uintptr(unsafe.Pointer(&errLog[0])), uintptr(logBytes),
	}
	if o != nil {
		if o.MaxRegisters > 0 {
			opts = append(opts, jitMaxRegisters)
			vals = append(vals, uintptr(o.MaxRegisters))
		}
		if o.GenerateLineInfo {
			opts = append(opts, jitGenerateLineInfo)
			vals = append(vals, 1)
		}
		if o.GenerateDebugInfo {
			opts = append(opts, jitGenerateDebugInfo)
			vals = append(vals, 1)
		}
		if o.LogVerbose {
			opts = append(opts, jitLogVerbose)
			vals = append(vals, 1)
		}
	}

	var m Module
	r := d.cuModuleLoadDataEx(&m, &img[0], uint32(len(opts)), &opts[0], &vals[0])
	runtime.KeepAlive(infoLog)
	runtime.KeepAlive(errLog)
	info := strings.TrimRight(cString(infoLog), "\n")
	if r != CodeSuccess {
		e := d.newError(call, r)
		e.Log = strings.TrimRight(cString(errLog), "\n")
		if e.Log == "" {
			e.Log = info
		}
		return 0, info, e
	}
	return m, info, nil
}

// ModuleUnload is cuModuleUnload.
func (d *Driver) ModuleUnload(m Module) error {
	return d.check("cuModuleUnload", d.cuModuleUnload(m))
}

// ModuleGetFunction is cuModuleGetFunction: the kernel of that (unmangled,
// extern "C") name. A missing kernel is CUDA_ERROR_NOT_FOUND.
func (d *Driver) ModuleGetFunction(m Module, name string) (Function, error) {
	var f Function
	if r := d.cuModuleGetFunction(&f, m, name); r != CodeSuccess {
		e := d.newError("cuModuleGetFunction", r)
		e.Message += " (kernel " + strconv.Quote(name) + ")"
		return 0, e
	}
	return f, nil
}

// ModuleGetGlobal is cuModuleGetGlobal_v2: the address and size of a
// module-scope __device__ or __constant__ variable.
func (d *Driver) ModuleGetGlobal(m Module, name string) (DevicePtr, int64, error) {
	var p DevicePtr
	var n uintptr
	if r := d.cuModuleGetGlobal(&p, &n, m, name); r != CodeSuccess {
		e := d.newError("cuModuleGetGlobal", r)
		e.Message += " (global " + strconv.Quote(name) + ")"
		return 0, 0, e
	}
	return p, int64(n), nil
}

// FuncGetAttribute is cuFuncGetAttribute (argument order as mumax's).
func (d *Driver) FuncGetAttribute(attr FunctionAttribute, f Function) (int, error) {
	var v int32
	err := d.check("cuFuncGetAttribute", d.cuFuncGetAttribute(&v, attr, f))
	return int(v), err
}

// FuncSetAttribute is cuFuncSetAttribute, e.g.
// FuncAttrMaxDynamicSharedSizeBytes to allow more than 48 KiB of dynamic
// shared memory.
func (d *Driver) FuncSetAttribute(f Function, attr FunctionAttribute, value int) error {
	return d.check("cuFuncSetAttribute", d.cuFuncSetAttribute(f, attr, int32(value)))
}

// OccupancyMaxActiveBlocksPerMultiprocessor is
// cuOccupancyMaxActiveBlocksPerMultiprocessor: how many blocks of blockSize
// threads, each with dynShared bytes of dynamic shared memory, f can have
// resident on one multiprocessor at once (registers, shared memory, threads
// and the device's block limit considered). 0 means such a block cannot run.
func (d *Driver) OccupancyMaxActiveBlocksPerMultiprocessor(f Function, blockSize int, dynShared int64) (int, error) {
	const call = "cuOccupancyMaxActiveBlocksPerMultiprocessor"
	if blockSize < 1 || blockSize > math.MaxInt32 {
		return 0, argError(call, "blockSize = %d is out of range", blockSize)
	}
	if dynShared < 0 {
		return 0, argError(call, "dynShared = %d is negative", dynShared)
	}
	var n int32
	err := d.check(call, d.cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, int32(blockSize), uintptr(dynShared)))
	return int(n), err
}
