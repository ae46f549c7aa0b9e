package cuda

// result is a CUresult (a C enum: 32 bits).
type result = int32

// Device is a CUdevice: a device ordinal as the driver names it.
type Device int32

// Handles the driver returns; opaque pointers on its side.
type (
	Context  uintptr // CUcontext
	Module   uintptr // CUmodule
	Function uintptr // CUfunction
	Stream   uintptr // CUstream; 0 is the legacy default stream
	Event    uintptr // CUevent
)

// DevicePtr is a CUdeviceptr: an address in device memory. It is 8 bytes,
// the size of a pointer parameter of a kernel, so a pointer to a DevicePtr
// variable is what LaunchKernel wants for such a parameter.
type DevicePtr uint64

// DeviceAttribute is a CUdevice_attribute.
type DeviceAttribute int32

// Device attributes (values from cuda.h).
const (
	AttrMaxThreadsPerBlock             DeviceAttribute = 1
	AttrMaxBlockDimX                   DeviceAttribute = 2
	AttrMaxBlockDimY                   DeviceAttribute = 3
	AttrMaxBlockDimZ                   DeviceAttribute = 4
	AttrMaxGridDimX                    DeviceAttribute = 5
	AttrMaxGridDimY                    DeviceAttribute = 6
	AttrMaxGridDimZ                    DeviceAttribute = 7
	AttrMaxSharedMemoryPerBlock        DeviceAttribute = 8
	AttrTotalConstantMemory            DeviceAttribute = 9
	AttrWarpSize                       DeviceAttribute = 10
	AttrMaxRegistersPerBlock           DeviceAttribute = 12
	AttrClockRate                      DeviceAttribute = 13 // kHz
	AttrMultiprocessorCount            DeviceAttribute = 16
	AttrMemoryClockRate                DeviceAttribute = 36 // kHz
	AttrGlobalMemoryBusWidth           DeviceAttribute = 37 // bits
	AttrL2CacheSize                    DeviceAttribute = 38
	AttrMaxThreadsPerMultiprocessor    DeviceAttribute = 39
	AttrUnifiedAddressing              DeviceAttribute = 41
	AttrComputeCapabilityMajor         DeviceAttribute = 75
	AttrComputeCapabilityMinor         DeviceAttribute = 76
	AttrMaxSharedMemoryPerMultiproc    DeviceAttribute = 81
	AttrMaxRegistersPerMultiprocessor  DeviceAttribute = 82
	AttrCooperativeLaunch              DeviceAttribute = 95
	AttrMaxSharedMemoryPerBlockOptin   DeviceAttribute = 97
	AttrVirtualMemoryManagementSupport DeviceAttribute = 102
	AttrMaxBlocksPerMultiprocessor     DeviceAttribute = 106
	AttrMaxPersistingL2CacheSize       DeviceAttribute = 108
	AttrReservedSharedMemoryPerBlock   DeviceAttribute = 111
)

// FunctionAttribute is a CUfunction_attribute.
type FunctionAttribute int32

// Function attributes (values from cuda.h).
const (
	FuncAttrMaxThreadsPerBlock         FunctionAttribute = 0
	FuncAttrSharedSizeBytes            FunctionAttribute = 1 // static shared memory
	FuncAttrConstSizeBytes             FunctionAttribute = 2
	FuncAttrLocalSizeBytes             FunctionAttribute = 3
	FuncAttrNumRegs                    FunctionAttribute = 4
	FuncAttrPTXVersion                 FunctionAttribute = 5
	FuncAttrBinaryVersion              FunctionAttribute = 6
	FuncAttrCacheModeCA                FunctionAttribute = 7
	FuncAttrMaxDynamicSharedSizeBytes  FunctionAttribute = 8
	FuncAttrPreferredSharedMemCarveout FunctionAttribute = 9
)

// jitOption is a CUjit_option.
type jitOption int32

// JIT options (values from cuda.h).
const (
	jitMaxRegisters          jitOption = 0
	jitInfoLogBuffer         jitOption = 3
	jitInfoLogBufferSize     jitOption = 4
	jitErrorLogBuffer        jitOption = 5
	jitErrorLogBufferSize    jitOption = 6
	jitGenerateDebugInfo     jitOption = 11
	jitLogVerbose            jitOption = 12
	jitGenerateLineInfo      jitOption = 13
	defaultJITLogBufferBytes           = 64 << 10
)

// Stream creation flags (CUstream_flags).
const (
	StreamDefault     uint32 = 0
	StreamNonBlocking uint32 = 1 // no implicit synchronisation with stream 0
)

// Event creation flags (CUevent_flags).
const (
	EventDefault       uint32 = 0
	EventBlockingSync  uint32 = 1
	EventDisableTiming uint32 = 2
)

// Primary-context / context creation flags (CUctx_flags), for CtxCreate.
const (
	CtxSchedAuto         uint32 = 0
	CtxSchedSpin         uint32 = 1
	CtxSchedYield        uint32 = 2
	CtxSchedBlockingSync uint32 = 4
)
