package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"ldcheck/gpuruntime"
	"ldcheck/passes"
	"ldcheck/passes/clang"
	"ldcheck/privatize"
	"ldcheck/privatize/manifest"
)

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "instrument a CUDA file and compile it for checking (-> FILE.ldcheck/)",
		ArgsUsage: "FILE.cu",
		Description: `build analyses FILE.cu, instruments every kernel it can (private copies of the
variables that may race, access redirection, region replay at each barrier)
and compiles the result:
  - the device module: PTX with nvcc when it is on PATH (or --nvcc), for --arch
    (default: the GPU present, else sm_80); without nvcc, sm_80 PTX with clang-15;
  - the CPU library (when a C++ compiler is present), for --backend cpu.
The build directory holds the instrumented source (readable, with #line
directives back to FILE.cu), manifest.json (what ldcheck run needs) and the
modules; also FILE.ldcheck.native.cu, the kernels as written (host code left
out), compiled as a user would (nvcc -O3, no --fmad=false) for
ldcheck run --unchecked. Kernels that cannot be instrumented are listed with the reason and
run unchecked.`,
		Flags: append(compilerFlags(),
			&cli.StringFlag{Name: "o", Usage: "write the build to `DIR` (default FILE.ldcheck next to FILE.cu)"},
			&cli.StringFlag{Name: "arch", Usage: "GPU architecture `sm_XX` for nvcc and ptxas (default: the GPU present, else sm_80 PTX and no cubins)"},
			&cli.StringFlag{Name: "nvcc", Usage: "`PATH` of nvcc (default: nvcc on PATH; without it, clang-15 makes PTX)"},
		),
		OnUsageError: usageError,
		Action:       runBuild,
	}
}

func runBuild(c *cli.Context) error {
	if handled, err := runIsolated(c); handled {
		return err
	}
	if c.NArg() != 1 {
		return inputErr("build: expected one CUDA source file, got %d arguments (usage: ldcheck build [flags] FILE.cu)", c.NArg())
	}
	file := c.Args().First()
	if arch := c.String("arch"); arch != "" && !strings.HasPrefix(arch, "sm_") {
		return inputErr("--arch %q: want sm_XX, e.g. sm_90", arch)
	}
	u, a, opt, err := analyzeForBuild(c, file)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	res, err := privatize.Instrument(u, a, abs)
	if err != nil {
		return &exitError{exitFailed, fmt.Errorf("instrument %s: %w", file, err)}
	}

	final, err := buildDirFor(c, file)
	if err != nil {
		return err
	}
	// The build is made in a temporary directory next to final and takes
	// its place only when complete: a failed build leaves the previous one
	// as it was, never a mix of new source and old modules.
	dir, err := makeBuildTemp(final)
	if err != nil {
		return err
	}
	keep := false // an internal compile error keeps dir, for the report
	defer func() {
		if !keep {
			os.RemoveAll(dir) // gone already when it took final's place
		}
	}()
	m := res.Manifest
	if err := writeBuildSources(dir, res); err != nil {
		return err
	}
	// The source's folder comes last: the instrumented source lives in the
	// build directory, so a quoted #include the analysis did not put in
	// place (one the compile sees and the analysis did not, under other
	// macros) must still find the files next to the source.
	m.Includes, m.Defines, m.Std = append(absPaths(opt.Includes), filepath.Dir(abs)), opt.Defines, opt.Std
	m.Runtime = gpuruntime.RuntimeVersion()
	built, err := compileBuild(c, dir, m)
	var ce *gpuruntime.CompileError
	if errors.As(err, &ce) {
		if nvcc := c.String("nvcc"); nvcc != "" && ce.Compiler == filepath.Base(nvcc) {
			return &exitError{exitFailed, fmt.Errorf("--nvcc %s failed (%s is left as it was):\n%s", nvcc, final, ce.Output)}
		}
		keep = true
	}
	if err != nil {
		return err
	}
	if err := replaceDir(dir, final); err != nil {
		return fmt.Errorf("build %s: %w", final, err)
	}
	printBuild(c.App.Writer, file, m, built, final)
	return nil
}

// analyzeForBuild parses and analyses file, refusing a file with no
// kernel or with errors. The parser's warnings and the analysis's
// diagnostics go to stderr as compiler messages.
func analyzeForBuild(c *cli.Context, file string) (*passes.Unit, *passes.Analysis, passes.Options, error) {
	lib, err := clang.Load("")
	if err != nil {
		return nil, nil, passes.Options{}, err
	}
	opt := parseOptions(c)
	u, warnings, err := passes.Parse(lib, file, opt)
	for _, w := range warnings {
		fmt.Fprintf(c.App.ErrWriter, "%s:%d:%d: %s: %s\n", w.File, w.Line, w.Col, w.Severity, w.Message)
	}
	if err != nil {
		return nil, nil, opt, err
	}
	a := passes.Analyze(u)
	if len(a.Kernels) == 0 {
		return nil, nil, opt, &passes.InputError{File: file, Msg: "no __global__ kernel defined in this file; nothing to check"}
	}
	if errs := a.Errors(); len(errs) > 0 {
		return nil, nil, opt, &passes.InputError{File: file, Msg: "cannot be checked", Diagnostics: errs}
	}
	for _, d := range a.Diagnostics {
		fmt.Fprintf(c.App.ErrWriter, "%s:%d:%d: %s: %s\n", d.File, d.Line, d.Col, d.Severity, d.Message)
	}
	return u, a, opt, nil
}

// buildDirFor returns the build directory of file: -o, else FILE.ldcheck
// next to FILE.cu.
func buildDirFor(c *cli.Context, file string) (string, error) {
	dir := c.String("o")
	if dir == "" {
		dir = strings.TrimSuffix(file, filepath.Ext(file)) + ".ldcheck"
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return "", inputErr("-o %s: exists and is not a directory", dir)
	}
	return dir, nil
}

// makeBuildTemp makes the temporary directory a build of final is made
// in, next to final (so that renaming it into place cannot cross file
// systems).
func makeBuildTemp(final string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", fmt.Errorf("build %s: %w", final, err)
	}
	dir, err := os.MkdirTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp-")
	if err != nil {
		return "", fmt.Errorf("build %s: %w", final, err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // MkdirTemp's 0700 is for secrets
		os.RemoveAll(dir)
		return "", fmt.Errorf("build %s: %w", final, err)
	}
	return dir, nil
}

// writeBuildSources writes what the compiles read into build directory
// dir: the headers (clang's CUDA wrappers, the runtime's, the CPU
// backend's stubs), the instrumented source and the native one, whose
// name it records in the manifest.
func writeBuildSources(dir string, res *privatize.Result) error {
	clangInc, rtInc, cpuInc := filepath.Join(dir, "include", "clang"), filepath.Join(dir, "include", "rt"), filepath.Join(dir, "include", "cpu")
	for _, d := range []string{clangInc, rtInc, cpuInc} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("build %s: %w", dir, err)
		}
	}
	if err := passes.WriteIncludes(clangInc); err != nil {
		return fmt.Errorf("build %s: %w", dir, err)
	}
	// The CPU backend has no CUDA toolkit either: it gets the
	// cooperative_groups.h stub; nvcc must keep the real one.
	if err := passes.WriteInclude(cpuInc, "cooperative_groups.h"); err != nil {
		return fmt.Errorf("build %s: %w", dir, err)
	}
	if err := gpuruntime.WriteRuntimeInclude(rtInc); err != nil {
		return fmt.Errorf("build %s: %w", dir, err)
	}
	m := res.Manifest
	if err := os.WriteFile(filepath.Join(dir, m.Output), []byte(res.Source), 0o644); err != nil {
		return fmt.Errorf("build %s: %w", dir, err)
	}
	m.NativeSource = privatize.NativeName(m.Output)
	if err := os.WriteFile(filepath.Join(dir, m.NativeSource), []byte(res.Native), 0o644); err != nil {
		return fmt.Errorf("build %s: %w", dir, err)
	}
	return nil
}

// absPaths returns the paths made absolute: the compiles run elsewhere
// (ldcheck compile, from any directory).
func absPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		ap, _ := filepath.Abs(p)
		out = append(out, ap)
	}
	return out
}

// printBuild says, per kernel, whether it was instrumented (with its
// regions and targets) or why not, then the compiles' notes and where the
// build is.
func printBuild(w io.Writer, file string, m *manifest.Manifest, built *gpuruntime.Built, dir string) {
	for _, k := range m.Kernels {
		file := file
		if k.File != "" {
			file = k.File
		}
		if k.Instrumented {
			targets, private := 0, 0
			for _, t := range k.Targets {
				if t.Private {
					private++
				} else {
					targets++
				}
			}
			extra := ""
			if private > 0 {
				extra = ", " + plural(private, "privately written array") + " (copied so that replay never applies a write twice)"
			}
			fmt.Fprintf(w, "%s:%d: kernel %s: instrumented: %s, %s%s\n", filepath.Base(file), k.Line, k.Name, plural(len(k.Regions), "region"), plural(targets, "target"), extra)
		} else {
			fmt.Fprintf(w, "%s:%d: kernel %s: not instrumented, it will run unchecked: %s\n", filepath.Base(file), k.Line, k.Name, k.Reason)
		}
	}
	for _, n := range built.Notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintf(w, "build: %s\n", dir)
}

// replaceDir puts the complete build tmp in dir's place, removing the
// build that was there.
func replaceDir(tmp, dir string) error {
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		o, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".old-")
		if err != nil {
			return err
		}
		old = filepath.Join(o, "build")
		if err := os.Rename(dir, old); err != nil {
			os.Remove(o)
			return err
		}
		defer os.RemoveAll(o)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir) // put the previous build back
		}
		return err
	}
	return nil
}

// compileBuild compiles the instrumented source of a build directory and
// records the modules in its manifest.
func compileBuild(c *cli.Context, dir string, m *manifest.Manifest) (*gpuruntime.Built, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	deviceOnly := c.Bool("device-only")
	m.PTX, m.Arch, m.NativePTX, m.TracePTX, m.DetPTX, m.IntraWarpPTX, m.BlockPTX, m.OnePassPTX, m.TestedPTX = "", "", "", "", "", "", "", "", ""
	if !deviceOnly {
		m.CPU, m.NativeCPU, m.TraceCPU = "", "", ""
	}
	built, err := gpuruntime.Compile(c.Context, dir, m, gpuruntime.BuildOptions{
		Arch: c.String("arch"), NVCC: c.String("nvcc"), Includes: m.Includes, Defines: m.Defines, Std: m.Std,
		ClangInclude: filepath.Join(abs, "include", "clang"), RuntimeInclude: filepath.Join(abs, "include", "rt"), CPUInclude: filepath.Join(abs, "include", "cpu"),
		SkipCPU: deviceOnly,
	})
	if err != nil {
		return nil, &exitError{exitFailed, err}
	}
	if err := m.Write(dir); err != nil {
		return nil, fmt.Errorf("build %s: %w", dir, err)
	}
	return built, nil
}

func compileCommand() *cli.Command {
	return &cli.Command{
		Name:      "compile",
		Usage:     "compile a build directory again (e.g. with nvcc on the GPU machine; needs no libclang)",
		ArgsUsage: "DIR",
		Description: `compile recompiles the instrumented source that ldcheck build left in DIR: the
device module (nvcc when on PATH or --nvcc, else clang-15) and the CPU library,
and the same for the native source (the kernels as written, for --unchecked).
With nvcc, ptxas also compiles the modules a run loads first for the GPU
(--arch, else the GPU present), at both register caps runs pick (128, and
64 for blocks of 288 to 512 threads), so that runs skip the driver's JIT.
Use it to build on a machine with libclang and finish on a GPU machine that has
nvcc but no libclang.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "arch", Usage: "GPU architecture `sm_XX` for nvcc and ptxas (default: the GPU present, else sm_80 PTX and no cubins)"},
			&cli.StringFlag{Name: "nvcc", Usage: "`PATH` of nvcc (default: nvcc on PATH)"},
			&cli.BoolFlag{Name: "device-only", Usage: "recompile the device module only; keep the CPU library"},
		},
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return inputErr("compile: expected one build directory, got %d arguments", c.NArg())
			}
			dir := c.Args().First()
			m, err := manifest.Read(dir)
			if err != nil {
				return &exitError{exitInput, err}
			}
			built, err := compileBuild(c, dir, m)
			if err != nil {
				return err
			}
			for _, n := range built.Notes {
				fmt.Fprintf(c.App.Writer, "  %s\n", n)
			}
			return nil
		},
	}
}
