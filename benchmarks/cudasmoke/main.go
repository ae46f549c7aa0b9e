// Command cudasmoke checks package gpuruntime/cuda on a real GPU: it loads a
// PTX file holding vadd (vadd.cu beside this file), adds two vectors of
// 1<<20 random floats on the device, checks every element on the host, and
// times the kernel and a 256 MiB device-to-device copy with CUDA events.
//
//	CGO_ENABLED=0 go build -o cudasmoke ./benchmarks/cudasmoke
//	nvcc -ptx -arch=sm_80 -o vadd.ptx benchmarks/cudasmoke/vadd.cu
//	./cudasmoke vadd.ptx
//
// It needs no Go and no CUDA toolkit where it runs, only the driver
// (libcuda.so.1, or -lib / $LDCHECK_LIBCUDA). Exit status: 0 all correct,
// 1 a wrong result, 2 any other failure (no driver, a driver error, usage).
package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"unsafe"

	"ldcheck/gpuruntime/cuda"
)

func init() {
	// The CUDA context is current per OS thread: keep main on one.
	runtime.LockOSThread()
}

// errMismatch marks a wrong result (exit status 1).
var errMismatch = errors.New("result mismatch")

func main() {
	lib := flag.String("lib", "", "CUDA driver library (default $LDCHECK_LIBCUDA, else libcuda.so.1)")
	n := flag.Int("n", 1<<20, "vector length for vadd")
	iters := flag.Int("iters", 100, "timed repetitions of each measurement")
	copyMiB := flag.Int("copy-mib", 256, "size of the device-to-device copy, MiB")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: cudasmoke [flags] FILE.ptx\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *n <= 0 || *iters <= 0 || *copyMiB <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*lib, flag.Arg(0), *n, *iters, int64(*copyMiB)<<20); err != nil {
		fmt.Fprintln(os.Stderr, "cudasmoke:", err)
		if errors.Is(err, errMismatch) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

func run(lib, ptxFile string, n, iters int, copyBytes int64) (err error) {
	ptx, err := os.ReadFile(ptxFile)
	if err != nil {
		return err
	}
	d, err := cuda.Load(lib)
	if err != nil {
		return err
	}
	if err := d.Init(0); err != nil {
		return err
	}
	version, err := d.DriverGetVersion()
	if err != nil {
		return err
	}
	dev, err := d.DeviceGet(0)
	if err != nil {
		return err
	}
	name, err := d.DeviceGetName(dev)
	if err != nil {
		return err
	}
	major, minor, err := d.DeviceComputeCapability(dev)
	if err != nil {
		return err
	}
	sms, err := d.DeviceGetAttribute(cuda.AttrMultiprocessorCount, dev)
	if err != nil {
		return err
	}
	totalMem, err := d.DeviceTotalMem(dev)
	if err != nil {
		return err
	}
	ctx, err := d.DevicePrimaryCtxRetain(dev)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.DevicePrimaryCtxRelease(dev) })
	if err := d.CtxSetCurrent(ctx); err != nil {
		return err
	}

	fmt.Printf("%-28s %s\n", "library", d.Path())
	fmt.Printf("%-28s CUDA %d.%d\n", "driver", version/1000, version%1000/10)
	fmt.Printf("%-28s %s, sm_%d%d, %d SMs, %.1f GiB\n", "device 0", name, major, minor, sms, float64(totalMem)/(1<<30))

	mod, info, err := d.ModuleLoadDataEx(ptx, nil)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.ModuleUnload(mod) })
	if info != "" {
		fmt.Printf("%-28s %s\n", "JIT info log", info)
	}
	vadd, err := d.ModuleGetFunction(mod, "vadd")
	if err != nil {
		return err
	}
	regs, err := d.FuncGetAttribute(cuda.FuncAttrNumRegs, vadd)
	if err != nil {
		return err
	}

	stream, err := d.StreamCreate(cuda.StreamNonBlocking)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.StreamDestroy(stream) })
	start, err := d.EventCreate(cuda.EventDefault)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.EventDestroy(start) })
	stop, err := d.EventCreate(cuda.EventDefault)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.EventDestroy(stop) })

	// timeIt runs f iters times between two events on stream and returns
	// the mean milliseconds per run, after one untimed warm-up run.
	timeIt := func(f func() error) (float64, error) {
		if err := f(); err != nil {
			return 0, err
		}
		if err := d.EventRecord(start, stream); err != nil {
			return 0, err
		}
		for range iters {
			if err := f(); err != nil {
				return 0, err
			}
		}
		if err := d.EventRecord(stop, stream); err != nil {
			return 0, err
		}
		if err := d.EventSynchronize(stop); err != nil {
			return 0, err
		}
		ms, err := d.EventElapsedTime(start, stop)
		return float64(ms) / float64(iters), err
	}

	// vadd on random data, checked element by element.
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float32, n)
	b := make([]float32, n)
	for i := range a {
		a[i] = rng.Float32()*2000 - 1000
		b[i] = rng.Float32()*2000 - 1000
	}
	bytes := int64(n) * 4
	var bufs [3]cuda.DevicePtr
	for i := range bufs {
		if bufs[i], err = d.MemAlloc(bytes); err != nil {
			return err
		}
		p := bufs[i]
		defer keepFirst(&err, func() error { return d.MemFree(p) })
	}
	if err := cuda.CopyHtoD(d, bufs[0], a); err != nil {
		return err
	}
	if err := cuda.CopyHtoD(d, bufs[1], b); err != nil {
		return err
	}
	if err := d.MemsetD8(bufs[2], 0xFF, bytes); err != nil { // NaNs: unwritten elements fail the check
		return err
	}
	n32 := int32(n)
	args := []unsafe.Pointer{unsafe.Pointer(&bufs[0]), unsafe.Pointer(&bufs[1]), unsafe.Pointer(&bufs[2]), unsafe.Pointer(&n32)}
	const block = 256
	grid := (n + block - 1) / block
	launch := func() error { return d.LaunchKernel(vadd, grid, 1, 1, block, 1, 1, 0, stream, args) }
	if err := launch(); err != nil {
		return err
	}
	if err := d.StreamSynchronize(stream); err != nil {
		return err
	}
	c := make([]float32, n)
	if err := cuda.CopyDtoH(d, c, bufs[2]); err != nil {
		return err
	}
	mismatches := 0
	for i := range c {
		if want := a[i] + b[i]; c[i] != want {
			if mismatches < 5 {
				fmt.Fprintf(os.Stderr, "vadd: c[%d] = %g, want %g + %g = %g\n", i, c[i], a[i], b[i], want)
			}
			mismatches++
		}
	}
	vaddMs, err := timeIt(launch)
	if err != nil {
		return err
	}
	verdict := "ok"
	if mismatches > 0 {
		verdict = fmt.Sprintf("WRONG (%d of %d elements)", mismatches, n)
	}
	fmt.Printf("%-28s %s; %d regs; %.2f us/launch; %.1f GB/s (3 x %d bytes)\n",
		fmt.Sprintf("vadd n=%d", n), verdict, regs, vaddMs*1e3, 3*float64(bytes)/(vaddMs*1e-3)/1e9, bytes)

	// Device-to-device copy, checked at both ends and in the middle.
	src, err := d.MemAlloc(copyBytes)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.MemFree(src) })
	dst, err := d.MemAlloc(copyBytes)
	if err != nil {
		return err
	}
	defer keepFirst(&err, func() error { return d.MemFree(dst) })
	if err := d.MemsetD8(src, 0xA5, copyBytes); err != nil {
		return err
	}
	if err := d.MemsetD8(dst, 0, copyBytes); err != nil {
		return err
	}
	copyMs, err := timeIt(func() error { return d.MemcpyDtoDAsync(dst, src, copyBytes, stream) })
	if err != nil {
		return err
	}
	copyOK := true
	probe := make([]byte, 4096)
	for _, off := range []int64{0, copyBytes/2 - 2048, copyBytes - 4096} {
		if err := cuda.CopyDtoH(d, probe, dst+cuda.DevicePtr(off)); err != nil {
			return err
		}
		for _, v := range probe {
			if v != 0xA5 {
				copyOK = false
			}
		}
	}
	verdict = "ok"
	if !copyOK {
		verdict = "WRONG"
	}
	fmt.Printf("%-28s %s; %.3f ms/copy; %.1f GB/s (read+write)\n",
		fmt.Sprintf("memcpy DtoD %d MiB", copyBytes>>20), verdict, copyMs, 2*float64(copyBytes)/(copyMs*1e-3)/1e9)

	free, total, err := d.MemGetInfo()
	if err != nil {
		return err
	}
	fmt.Printf("%-28s %.1f of %.1f GiB free\n", "memory", float64(free)/(1<<30), float64(total)/(1<<30))

	if mismatches > 0 || !copyOK {
		return errMismatch
	}
	return d.CtxSynchronize()
}

// keepFirst runs f (a release) and keeps its error if *err is nil.
func keepFirst(err *error, f func() error) {
	if e := f(); e != nil && *err == nil {
		*err = e
	}
}
