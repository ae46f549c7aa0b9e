package gpuruntime

// DevPtr is an address in the backend's memory.
type DevPtr uint64

// Backend is where instrumented kernels run: an NVIDIA GPU through the
// driver API, or the host CPU with a fiber per GPU thread. Everything above
// it (the checking protocol, reports) is the same for both.
type Backend interface {
	Name() string
	// Alloc returns n bytes of zeros.
	Alloc(n int64) (DevPtr, error)
	// AllocScratch returns n bytes whose contents are unspecified, for
	// buffers that are written before they are read (level 1's page
	// copies): zeroing gigabytes of them cost as much as a pass. The CPU
	// backend fills them with 0xa5, so that a reader that relies on
	// zeros shows in the tests.
	AllocScratch(n int64) (DevPtr, error)
	Free(p DevPtr) error
	Write(dst DevPtr, src []byte) error
	Read(dst []byte, src DevPtr) error
	Copy(dst, src DevPtr, n int64) error
	Memset(dst DevPtr, v byte, n int64) error
	// Symbol returns the address and size of a module-scope variable.
	// The address holds the variable for every later launch, whatever
	// its block size (the CUDA backend may launch a kernel from a
	// register-limited copy of the module; it keeps the variables in step).
	Symbol(name string) (DevPtr, int64, error)
	// Launch runs a kernel of the module: name is the manifest's kernel
	// name for user kernels, or ldc_fused_ww / ldc_fused_rw.
	Launch(name string, grid, block [3]uint32, shared int64, args [][]byte) error
	// FreeMemory is the device memory free for allocations now (the CPU
	// backend: the host's available memory).
	FreeMemory() (int64, error)
	// SharedLimit is how many bytes of dynamic shared memory a launch of
	// the named kernel may ask for (the device's per-block limit less the
	// kernel's static shared memory).
	SharedLimit(name string) (int64, error)
	// Resident is how many blocks of a launch of the named kernel with
	// blocks of that shape and that much dynamic shared memory can be
	// resident at once (running at the same time): on a GPU, the
	// occupancy of one multiprocessor times their number; on the CPU,
	// the worker threads a launch uses. An error when such a block cannot
	// run at all.
	Resident(kernel string, block [3]uint32, shared int64) (int, error)
	// Timer returns a function that, called after work was queued, waits
	// for it and returns the seconds since the Timer call.
	Timer() func() (float64, error)
	// Texture returns the value of a texture object parameter
	// (cudaTextureObject_t) that reads the argument buffer at p: size
	// bytes, launch.TextureHeader bytes of descriptor and then the
	// elements, of --arg's TYPE elem; texel is what the kernel's fetches
	// return (manifest.Param.Texel, "" when unknown). The CPU backend's
	// texture object is the buffer's address; the CUDA backend makes a
	// linear texture object of texel's channels over a copy of the
	// elements, alive until Close.
	Texture(p DevPtr, size int64, elem, texel string) (uint64, error)
	// OnePass reports whether level 2 can run one pass a region
	// (Ctx.OnePass): the CPU library always can; on the GPU, the build's
	// one-pass module must be loaded.
	OnePass() bool
	Close() error
}
