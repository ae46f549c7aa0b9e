package gpuruntime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"ldcheck/gpuruntime/cpu"
	"ldcheck/privatize/manifest"
)

// BuildOptions say how to compile an instrumented source into modules.
type BuildOptions struct {
	Arch     string   // sm_XX; "" means the GPU present, else sm_80
	NVCC     string   // nvcc to use; "" means nvcc on PATH if any
	Clang    string   // clang for PTX when there is no nvcc; "" means clang-15 or clang on PATH
	Includes []string // user -I
	Defines  []string // user -D
	Std      string
	// ClangInclude holds the CUDA prelude for compiling without a toolkit.
	ClangInclude string
	// RuntimeInclude holds ldcheck_rt.h (and nothing that shadows CUDA's headers).
	RuntimeInclude string
	// CPUInclude holds stubs only the CPU compile needs (cooperative_groups.h).
	CPUInclude string
	SkipCPU    bool
	SkipDevice bool // tests that only run on the CPU
}

// CompileError is a failure to compile instrumented code: a bug of
// ldcheck's, reported with the compiler's message (mapped back to the
// user's lines by the #line directives).
type CompileError struct {
	Compiler, Output, Dir string
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("internal error: the instrumented source does not compile with %s (please report it with %s):\n%s", e.Compiler, e.Dir, e.Output)
}

// Built is what Compile produced, for the user to read.
type Built struct {
	Notes []string
}

// Compile compiles DIR/<instrumented> into the device module (PTX, with nvcc
// or clang) and the CPU library, recording their names in m.
func Compile(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions) (*Built, error) {
	b := &Built{}
	dir, err := filepath.Abs(dir) // the compilers run inside dir
	if err != nil {
		return nil, err
	}
	src := filepath.Join(dir, m.Output)
	base := strings.TrimSuffix(m.Output, ".cu")
	nvcc, arch, std, user := toolchain(opt)
	ptx := base + ".ptx"
	if err := removeSASS(dir); err != nil {
		return nil, err
	}
	// The device module and the CPU library are two compilers' work on
	// the same source, neither waiting for the other; so are the modules
	// after them (each the source again with other defines, or the native
	// source), once both are known to exist. Run in sequence, a build was
	// nine compiles one after the other (about 20 s on two cores).
	device := func() ([]string, error) {
		switch {
		case opt.SkipDevice:
		case nvcc != "":
			// No fused multiply-add: the CPU backend computes a*b+c with two
			// roundings, and both backends must see the same values to report
			// the same racy bytes.
			args := append([]string{"-ptx", "-arch=" + arch, "-std=" + std, "-lineinfo", "--fmad=false", "-I" + opt.RuntimeInclude}, user...)
			args = append(args, "-o", filepath.Join(dir, ptx), src)
			if err := run(ctx, dir, nvcc, args); err != nil {
				return nil, err
			}
			m.PTX, m.Arch = ptx, arch
			return []string{fmt.Sprintf("device module: %s (nvcc, %s)", ptx, arch)}, nil
		default:
			clang := findClang(opt.Clang)
			if clang == "" {
				return []string{"no nvcc and no clang-15: no device module built; only the CPU backend can run this build"}, nil
			}
			var notes []string
			if opt.Arch != "" && opt.Arch != "sm_80" {
				notes = append(notes, "without nvcc the device module is PTX for sm_80 (it runs on newer GPUs); --arch "+opt.Arch+" needs nvcc")
			}
			args := append(clangArgs(opt.ClangInclude, std), "-ffp-contract=off", "-I"+opt.RuntimeInclude)
			args = append(args, user...)
			args = append(args, "-S", "-o", filepath.Join(dir, ptx), src)
			if err := run(ctx, dir, clang, args); err != nil {
				return nil, err
			}
			m.PTX, m.Arch = ptx, "sm_80"
			return append(notes, fmt.Sprintf("device module: %s (clang, sm_80 PTX)", ptx)), nil
		}
		return nil, nil
	}
	cpuLib := func() ([]string, error) {
		if opt.SkipCPU {
			return nil, nil
		}
		so := base + ".so"
		flags := append([]string{"-DLDC_CPU", "-I" + opt.RuntimeInclude, "-std=" + std}, user...)
		if opt.CPUInclude != "" {
			flags = append(flags, "-I"+opt.CPUInclude)
		}
		err := cpu.Compile(ctx, src, filepath.Join(dir, so), cpu.CompileOptions{Flags: flags})
		switch {
		case err == nil:
			m.CPU = so
			return []string{"CPU library: " + so}, nil
		case strings.Contains(err.Error(), "install g++"):
			return []string{"no C++ compiler: no CPU library built (" + err.Error() + ")"}, nil
		default:
			return nil, &CompileError{Compiler: "the C++ compiler (CPU backend)", Output: err.Error(), Dir: dir}
		}
	}
	notes, err := concurrently(device, cpuLib)
	b.Notes = append(b.Notes, notes...)
	if err != nil {
		return nil, err
	}
	// Each writes its own fields of m, and reads only those set above.
	var more []func() ([]string, error)
	note := func(f func() []string) func() ([]string, error) { return func() ([]string, error) { return f(), nil } }
	if m.PTX != "" {
		more = append(more,
			note(func() []string { return compileDet(ctx, dir, m, opt, nvcc, arch, std, user) }),
			note(func() []string { return compileIntraWarp(ctx, dir, m, opt, nvcc, arch, std, user) }),
			note(func() []string { return compileBlockOnly(ctx, dir, m, opt, nvcc, arch, std, user) }),
			note(func() []string { return compileOnePass(ctx, dir, m, opt, nvcc, arch, std, user) }))
	}
	if len(m.Sites) > 0 {
		more = append(more, note(func() []string { return compileTrace(ctx, dir, m, opt, nvcc, arch, std, user) }))
	}
	if m.NativeSource != "" {
		more = append(more, note(func() []string { return compileNative(ctx, dir, m, opt, nvcc, arch, std, user) }))
	}
	notes, _ = concurrently(more...)
	b.Notes = append(b.Notes, notes...)
	if nvcc != "" && !opt.SkipDevice {
		b.Notes = append(b.Notes, compileSASS(ctx, dir, nvcc, sassArch(opt), sassModules(m))...)
	}
	return b, nil
}

// compileDet compiles the device module of deterministic runs: the
// instrumented source again with -DLDC_DET (see LDC_DET_ON in the runtime
// header for why it is a module of its own).
func compileDet(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string) []string {
	ptx, notes := compileModeModule(ctx, dir, m, opt, nvcc, arch, std, user, "LDC_DET", "det", "deterministic", "--deterministic will need --backend cpu")
	m.DetPTX = ptx
	return notes
}

// compileIntraWarp compiles the device module of intra-warp runs: the
// instrumented source again with -DLDC_IW (see LDC_IW_BUILT in the
// runtime header for why it is a module of its own). Kernels without a
// target need none.
func compileIntraWarp(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string) []string {
	if !hasTarget(m) {
		return nil
	}
	ptx, notes := compileModeModule(ctx, dir, m, opt, nvcc, arch, std, user, "LDC_IW", "iw", "intra-warp", "--intra-warp will need --backend cpu")
	m.IntraWarpPTX = ptx
	return notes
}

// compileBlockOnly compiles the device module level 1 runs from: the
// instrumented source again with -DLDC_BLOCK_ONLY (see LDC_REPLAY_BUILT in
// the runtime header for why). Kernels without a target have no level 1.
func compileBlockOnly(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string) []string {
	if !hasTarget(m) {
		return nil
	}
	ptx, notes := compileModeModule(ctx, dir, m, opt, nvcc, arch, std, user, "LDC_BLOCK_ONLY", "blk", "level-1", "level 1 will run from the checked module, slower")
	m.BlockPTX = ptx
	return notes
}

// compileOnePass compiles the device module of level 2 in one pass a
// region: the instrumented source again with -DLDC_ONE_PASS (see
// LDC_ONE_PASS_ON in the runtime header for why). Only kernels whose
// every region may end after one pass (under the launch's conditions)
// can use it.
func compileOnePass(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string) []string {
	any := false
	for i := range m.Kernels {
		any = any || m.Kernels[i].HasTargets() && m.Kernels[i].MayRunOnePass()
	}
	if !any {
		return nil
	}
	ptx, notes := compileModeModule(ctx, dir, m, opt, nvcc, arch, std, user, "LDC_ONE_PASS", "once", "one-pass level-2", "level 2 will replay every region, slower")
	m.OnePassPTX = ptx
	return notes
}

// compileModeModule compiles a device module that some launches of
// ldcheck run load instead of the checked one (-D define, file
// .SUFFIX.ptx); it returns the file, "" when none was built. A failure
// costs those launches on the GPU only (without says how), so it is a
// note, not an error.
func compileModeModule(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string, define, suffix, what, without string) (string, []string) {
	ptx := strings.TrimSuffix(m.Output, ".cu") + "." + suffix + ".ptx"
	ok, err := compilePTXVariant(ctx, dir, m, opt, nvcc, arch, std, user, define, ptx)
	switch {
	case !ok:
		return "", nil
	case err != nil:
		return "", []string{fmt.Sprintf("no %s device module (%s): %v", what, without, err)}
	}
	return ptx, []string{what + " device module: " + ptx}
}

// concurrently runs the compiles fs at once, at most maxCompiles (and a
// core each), and returns their notes in the order of fs (a build's output
// reads the same however the compilers finish) and the first error in
// that order.
func concurrently(fs ...func() ([]string, error)) ([]string, error) {
	notes := make([][]string, len(fs))
	errs := make([]error, len(fs))
	atOnce(len(fs), min(runtime.NumCPU(), maxCompiles), func(i int) { notes[i], errs[i] = fs[i]() })
	var all []string
	for i := range fs {
		if errs[i] != nil {
			return all, errs[i]
		}
		all = append(all, notes[i]...)
	}
	return all, nil
}

// atOnce runs f(0) ... f(n-1) in goroutines, at most limit at a time (at
// least one), and returns when all have.
func atOnce(n, limit int, f func(i int)) {
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// maxCompiles bounds the compilers one build runs at once: the GPU
// machine's prep compiles a dozen builds side by side (benchmarks/profile/
// machine.sh), each compiler holding its own copy of the instrumented
// source's parse.
const maxCompiles = 4

// hasTarget says whether a kernel of m has a target.
func hasTarget(m *manifest.Manifest) bool {
	for i := range m.Kernels {
		if m.Kernels[i].HasTargets() {
			return true
		}
	}
	return false
}

// compilePTXVariant compiles the instrumented source to PTX file ptx (in
// dir) with -D define, by nvcc when there is one, else by clang. ok is
// false when neither compiler is there.
func compilePTXVariant(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string, define, ptx string) (ok bool, err error) {
	src, out := filepath.Join(dir, m.Output), filepath.Join(dir, ptx)
	if nvcc != "" {
		args := append([]string{"-ptx", "-arch=" + arch, "-std=" + std, "-lineinfo", "--fmad=false", "-D" + define, "-I" + opt.RuntimeInclude}, user...)
		return true, run(ctx, dir, nvcc, append(args, "-o", out, src))
	}
	if clang := findClang(opt.Clang); clang != "" {
		args := append(clangArgs(opt.ClangInclude, std), "-ffp-contract=off", "-D"+define, "-I"+opt.RuntimeInclude)
		args = append(args, user...)
		return true, run(ctx, dir, clang, append(args, "-S", "-o", out, src))
	}
	return false, nil
}

// compileTrace compiles the tracing modules: the instrumented source again
// with -DLDC_TRACE, whose access hooks log the accesses of a racy element
// (ldcheck run reruns a racy kernel with it to name the two statements).
// A failure costs the explanations only, so it is a note, not an error.
func compileTrace(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string) []string {
	src := filepath.Join(dir, m.Output)
	base := strings.TrimSuffix(m.Output, ".cu") + ".trace"
	var notes []string
	if m.PTX != "" {
		ptx := base + ".ptx"
		if ok, err := compilePTXVariant(ctx, dir, m, opt, nvcc, arch, std, user, "LDC_TRACE", ptx); err != nil {
			notes = append(notes, fmt.Sprintf("no tracing device module (races on the GPU will not name their statements): %v", err))
		} else if ok {
			m.TracePTX = ptx
		}
	}
	// SkipCPU (ldcheck compile --device-only) keeps the CPU library, and
	// its tracing twin with it.
	if m.CPU != "" && !opt.SkipCPU {
		so := base + ".so"
		flags := append([]string{"-DLDC_CPU", "-DLDC_TRACE", "-I" + opt.RuntimeInclude, "-std=" + std}, user...)
		if opt.CPUInclude != "" {
			flags = append(flags, "-I"+opt.CPUInclude)
		}
		if err := cpu.Compile(ctx, src, filepath.Join(dir, so), cpu.CompileOptions{Flags: flags}); err != nil {
			notes = append(notes, fmt.Sprintf("no tracing CPU library (races on the CPU will not name their statements): %v", err))
		} else {
			m.TraceCPU = so
		}
	}
	if m.TracePTX != "" || m.TraceCPU != "" {
		notes = append(notes, "tracing modules (to name the statements of a race): "+strings.Join(nonEmpty(m.TracePTX, m.TraceCPU), ", "))
	}
	return notes
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// toolchain resolves the options: nvcc ("" when there is none), the
// architecture for nvcc, the C++ standard and the user's -I and -D flags.
func toolchain(opt BuildOptions) (nvcc, arch, std string, user []string) {
	std = opt.Std
	if std == "" {
		std = "c++17"
	}
	for _, i := range opt.Includes {
		user = append(user, "-I"+i)
	}
	for _, d := range opt.Defines {
		user = append(user, "-D"+d)
	}
	nvcc = opt.NVCC
	if nvcc == "" {
		nvcc, _ = exec.LookPath("nvcc")
	}
	arch = opt.Arch
	if arch == "" {
		if arch = detectArch(); arch == "" {
			arch = "sm_80"
		}
	}
	return nvcc, arch, std, user
}

// CompileNative compiles only the native source of a build (Compile does
// it too, after the instrumented one); see compileNative.
func CompileNative(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions) (*Built, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if m.NativeSource == "" {
		return nil, fmt.Errorf("%s: the manifest names no native source", dir)
	}
	nvcc, arch, std, user := toolchain(opt)
	return &Built{Notes: compileNative(ctx, dir, m, opt, nvcc, arch, std, user)}, nil
}

// compileNative compiles DIR/<native source>, the user's kernels as
// written, the way a user would: nvcc -O3 with its defaults (fused
// multiply-add included), or clang-15 with the instrumented build's target
// flags and its own floating-point defaults, and no ldcheck runtime; and
// the CPU library (the CPU header only). It records the modules in m. A
// failure does not fail the build (the checked runs do not need these
// modules): it is a note, and `ldcheck run --unchecked` then says the
// build has no native module.
func compileNative(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string) []string {
	var notes []string
	src := filepath.Join(dir, m.NativeSource)
	base := strings.TrimSuffix(m.NativeSource, ".cu")
	ptx := base + ".ptx"
	var err error
	if compiler, args := nativePTXCommand(opt, nvcc, arch, std, user); compiler != "" && !opt.SkipDevice {
		if err = run(ctx, dir, compiler, append(args, "-o", filepath.Join(dir, ptx), src)); err == nil {
			m.NativePTX = ptx
			how := "nvcc, " + arch
			if nvcc == "" {
				how = "clang, sm_80 PTX"
			}
			notes = append(notes, fmt.Sprintf("native device module (for --unchecked): %s (%s)", ptx, how))
		}
	}
	if err != nil {
		notes = append(notes, "no native device module (ldcheck run --unchecked cannot use the GPU): "+nativeFailure(err))
	}
	if m.NativePTX != "" && hasTestedTarget(m) {
		notes = append(notes, compileTested(ctx, dir, m, opt, nvcc, arch, std, user, ptx)...)
	}
	if !opt.SkipCPU {
		so := base + ".so"
		flags := append([]string{"-DLDC_CPU", "-std=" + std}, user...)
		if opt.CPUInclude != "" {
			flags = append(flags, "-I"+opt.CPUInclude)
		}
		err := cpu.Compile(ctx, src, filepath.Join(dir, so), cpu.CompileOptions{Flags: flags})
		switch {
		case err == nil:
			m.NativeCPU = so
			notes = append(notes, "native CPU library (for --unchecked): "+so)
		case strings.Contains(err.Error(), "install g++"):
		default:
			notes = append(notes, "no native CPU library (ldcheck run --unchecked cannot use the CPU backend): "+nativeFailure(err))
		}
	}
	return notes
}

// nativePTXCommand is the compiler and its flags (all but -o and the
// source) that make PTX of the native source as a user would: nvcc -O3
// with its defaults, or clang-15 with the instrumented build's target
// flags; "" when neither is there.
func nativePTXCommand(opt BuildOptions, nvcc, arch, std string, user []string) (string, []string) {
	if nvcc != "" {
		return nvcc, append([]string{"-ptx", "-O3", "-arch=" + arch, "-std=" + std, "-lineinfo"}, user...)
	}
	if clang := findClang(opt.Clang); clang != "" {
		return clang, append(append(clangArgs(opt.ClangInclude, std), user...), "-S")
	}
	return "", nil
}

// hasTestedTarget says whether a proof of m rests on stride tests made as
// the kernel runs (manifest Target.BlockRaceFreeTested).
func hasTestedTarget(m *manifest.Manifest) bool {
	for i := range m.Kernels {
		for _, t := range m.Kernels[i].Targets {
			if t.BlockRaceFreeTested {
				return true
			}
		}
	}
	return false
}

// compileTested compiles the native source again with its stride tests
// (-DLDC_NATIVE_TESTS, manifest TestedPTX), as the native module was
// compiled (native: its PTX). A launch whose proofs leave it nothing to
// check but those tests runs from it, at about the native kernel's speed.
// Without it such launches run from level 1's module (slower, same
// verdicts): a failure is a note.
func compileTested(ctx context.Context, dir string, m *manifest.Manifest, opt BuildOptions, nvcc, arch, std string, user []string, native string) []string {
	src := filepath.Join(dir, m.NativeSource)
	ptx := strings.TrimSuffix(native, ".ptx") + ".tested.ptx"
	compiler, args := nativePTXCommand(opt, nvcc, arch, std, append([]string{"-DLDC_NATIVE_TESTS"}, user...))
	if compiler == "" {
		return nil
	}
	if err := run(ctx, dir, compiler, append(args, "-o", filepath.Join(dir, ptx), src)); err != nil {
		return []string{"no tested native module (launches that only test strides run from level 1's module, slower): " + nativeFailure(err)}
	}
	m.TestedPTX = ptx
	return []string{"tested native device module (stride tests only): " + ptx}
}

// nativeFailure is a compiler's complaint about the native source, in a
// note: the compiler's own message, and whom to tell.
func nativeFailure(err error) string {
	msg := err.Error()
	var ce *CompileError
	if errors.As(err, &ce) {
		msg = ce.Compiler + " failed:\n" + ce.Output
	}
	return msg + "\n(please report it: ldcheck left out your host code, and the rest should compile as written)"
}

// findClang is the clang that makes PTX without a toolkit: explicit, else
// clang-15 or clang on PATH, else "".
func findClang(explicit string) string {
	if explicit != "" {
		return explicit
	}
	for _, c := range []string{"clang-15", "clang"} {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	return ""
}

// clangArgs are clang's flags for sm_80 PTX with ldcheck's CUDA prelude in
// place of a toolkit.
func clangArgs(clangInclude, std string) []string {
	return []string{"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_80",
		"-Xclang", "-target-feature", "-Xclang", "+ptx70", "-std=" + std, "-O3", "-Wno-unknown-cuda-version",
		"-include", filepath.Join(clangInclude, "ldcheck_prelude.h"), "-I" + clangInclude}
}

func run(ctx context.Context, dir, tool string, args []string) error {
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return &CompileError{Compiler: filepath.Base(tool), Output: strings.TrimSpace(out.String()) + "\n(" + err.Error() + ")", Dir: dir}
	}
	return nil
}

// detectArch asks nvidia-smi for the GPU's compute capability: "" when
// there is no GPU (or no nvidia-smi).
func detectArch() string {
	out, err := exec.Command("nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader").Output()
	if err == nil {
		line := strings.TrimSpace(strings.Split(string(out), "\n")[0])
		if v := strings.ReplaceAll(line, ".", ""); len(v) >= 2 && len(v) <= 3 {
			return "sm_" + v
		}
	}
	return ""
}

// WriteRuntimeInclude writes ldcheck_rt.h into a fresh dir (which must not
// shadow the CUDA toolkit's headers).
func WriteRuntimeInclude(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return WriteHeaders(dir)
}
