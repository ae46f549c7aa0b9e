package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ldcheck/gpuruntime"
	"ldcheck/gpuruntime/launch"
	"ldcheck/privatize/manifest"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a built kernel with race checking (exit 1 when races are found)",
		ArgsUsage: "DIR",
		Description: `run launches a kernel of a build directory (made by ldcheck build) and checks it:
  level 1 (unit = block, the whole kernel is one region): each block writes its
    own copy of the global targets; blocks that change the same byte race
    (write-write); a block whose results change once it sees the other blocks'
    writes races (read-write);
  level 2 (unit = warp, regions between barriers): the same, between the warps
    of each block, for shared memory, the global memory the warps write and
    each thread's own values, checked at every barrier.
Each level runs the kernel twice, so a checked run costs about four runs.

Private copies of global memory are pages (about 128 bytes, whole elements)
copied when a unit first writes them, so their memory grows with what the
kernel writes, not with the array size times the blocks. --mem-limit caps
it (default: the free device memory, less a margin). When the blocks' copies
do not fit, level 1 checks in rounds: groups of blocks share a copy, and
each round splits the groups of the last (warp reshuffling, LDetector 4.5);
every pair of blocks is checked once all rounds ran. A race stops the rounds;
the report then gives equation (1)'s probability that a race between two
random blocks had been checked. JSON summary fields: rounds (run),
rounds_planned, groups (copies per round; the blocks without reshuffling),
copy_bytes (the most memory the copies and their tables took),
detection_probability. --unchecked runs the kernel as written (the build's
native module, compiled without ldcheck), as the baseline for outputs and
times.

--deterministic runs the kernel once, reproducibly, instead of checking it
(LDetector 4.6): every warp runs on private copies; at every barrier the
warps' changes are merged in increasing warp order (where two warps changed
a byte, the highest warp's value is kept) and every warp goes on from the
merged bytes; blocks run one after the other in increasing block index,
each seeing what the blocks before it wrote. What it guarantees: the --out
bytes are the same every run, on both backends, for any --mem-limit that
fits, even for a racy kernel: those of the warps and blocks run in that
order; a race-free kernel writes the bytes of an --unchecked run (on a GPU,
up to the last bit of floats where the native module fuses multiply-adds,
as nvcc does by default; ldcheck's modules do not). Conflicts the merges
meet (two warps, or two blocks, changing one byte) are reported
as write-write races, with the unit whose value was kept: exit 1 if any, 0
if none, the outputs written either way. What it does not guarantee:
  - read-write races are not looked for (there is no second run to compare
    with): exit 0 means no write-write conflict, not race-free;
  - math functions (sinf, expf, __fdividef, ...) may round differently on
    the GPU and on the CPU backend: bytes computed with them can differ
    between backends in the last bit (not between runs on one backend);
  - atomics run as the hardware schedules them: integer add, sub, and, or,
    xor, min, max, inc and dec whose returned value is unused end the same
    in any order; float atomicAdd, atomicExch, atomicCAS and any atomic
    whose returned value is used do not, so such a kernel is refused (exit
    2, naming file:line and the atomic) unless --allow-atomics; plain reads
    of a variable that other threads update atomically see whatever ran
    first;
  - races between the lanes of one warp, and memory ldcheck does not
    privatize (what the build lists as unhandled: inline asm, heap memory),
    go as the hardware schedules them;
  - a kernel ldcheck could not instrument is refused (exit 2);
  - blocks run one at a time, so a long grid takes about as long as its
    blocks run back to back; this relies on the GPU starting blocks in
    increasing index (it does; --timeout ends a run that waits for ever).
The private copies are one block's pages and, per page the blocks write,
a record of the block that wrote each byte last (4 bytes a byte): when they
do not fit --mem-limit, exit 2 with the bytes needed (a deterministic run
cannot be split into rounds).

Arguments: --arg NAME=TYPE[COUNT]:INIT for pointer parameters (INIT: zero,
iota, rand[:SEED], const:V, file:PATH with raw little-endian data), and
--arg NAME=VALUE for scalars; a by-value parameter of any type (a struct)
takes its bytes, --arg NAME=hex:BYTES (little-endian, _ may separate them)
or NAME=file:PATH, exactly its size. A pointer without --arg gets grid x block
elements (at least 1 MiB) of seeded random data, an integer scalar gets the
total thread count; run says what it assumed.

` + blindSpots,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kernel", Usage: "kernel `NAME` to run (default: the only one)"},
			&cli.StringFlag{Name: "grid", Usage: "grid size `X[,Y[,Z]]` in blocks"},
			&cli.StringFlag{Name: "block", Usage: "block size `X[,Y[,Z]]` in threads"},
			&cli.StringFlag{Name: "shared", Usage: "dynamic shared memory `BYTES` (e.g. 4KiB)"},
			&cli.StringSliceFlag{Name: "arg", Usage: "kernel argument `NAME=TYPE[COUNT]:INIT` or NAME=VALUE (repeatable)"},
			&cli.StringSliceFlag{Name: "out", Usage: "write buffer NAME after the run to PATH, raw little-endian: `NAME=PATH` (repeatable)"},
			&cli.StringFlag{Name: "backend", Value: "auto", Usage: "`BACKEND`: auto (cuda when a GPU is usable, else cpu), cpu or cuda"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "report `FORMAT`: text or json"},
			&cli.BoolFlag{Name: "all", Usage: "report every racy region, not only the first"},
			&cli.BoolFlag{Name: "ignore-same-value", Usage: "leave out write-write races where both units wrote the same value over a different one (reported otherwise, marked \"same value: both wrote V\"; some tools call them benign)"},
			&cli.BoolFlag{Name: "unchecked", Usage: "run the kernel as written, once, without checking (to compare outputs or time it)"},
			&cli.BoolFlag{Name: "deterministic", Usage: "run the kernel once, reproducibly, instead of checking it: the same --out bytes every run and on both backends, even for a racy kernel (see above for what is and is not guaranteed); write-write conflicts met are reported (exit 1)"},
			&cli.BoolFlag{Name: "allow-atomics", Usage: "with --deterministic: run a kernel whose atomics depend on the order threads run them (float atomicAdd, atomicExch, atomicCAS, a used return value) anyway, with a warning; its outputs may then differ between runs"},
			&cli.BoolFlag{Name: "allow-unchecked", Usage: "exit 0, not 4, when the kernel ran but could not be checked (not instrumented, or something it writes left unchecked); the report still says why"},
			&cli.BoolFlag{Name: "warmup", Usage: "run the kernel once, unchecked and untimed, before the timed run (for benchmarks)"},
			&cli.BoolFlag{Name: "every-shared-byte", Usage: "check every byte of the shared targets at every barrier, not only the bytes the build saw stored to (same verdict, slower; to compare the two)"},
			&cli.BoolFlag{Name: "v", Usage: "print the time of each phase (init, kernel passes, checks)"},
			&cli.StringFlag{Name: "mem-limit", Usage: "device memory the private copies may take (`SIZE`, e.g. 2GiB; default: what is free, less a margin); when level 1's copies do not fit, blocks are checked in rounds of groups sharing copies (warp reshuffling)"},
			&cli.DurationFlag{Name: "timeout", Value: 10 * time.Minute, Usage: "give up (exit 3) when the checked run takes longer than `DURATION` (a hung kernel); 0 waits forever"},
		},
		OnUsageError: usageError,
		Action:       runRun,
	}
}

// jsonReport is the --format json document.
type jsonReport struct {
	Kernel  string     `json:"kernel"`
	Source  string     `json:"source"`
	Launch  jsonLaunch `json:"launch"`
	Backend string     `json:"backend"`
	Verdict string     `json:"verdict"` // race, none, unchecked
	// NotChecked says why the run is not a verdict on the whole kernel
	// (exit status 4 unless --allow-unchecked): it was not instrumented,
	// or something it writes was left unchecked.
	NotChecked string            `json:"not_checked,omitempty"`
	Races      []gpuruntime.Race `json:"races"`
	Summary    jsonSummary       `json:"summary"`
	Notes      []string          `json:"notes,omitempty"`
}

type jsonLaunch struct {
	Grid   [3]uint32 `json:"grid"`
	Block  [3]uint32 `json:"block"`
	Shared int64     `json:"shared"`
	Args   []string  `json:"args"`
}

type jsonSummary struct {
	Levels        []string           `json:"levels"`
	Regions       int                `json:"regions"`
	BytesCompared int64              `json:"bytes_compared"`
	Phases        []gpuruntime.Phase `json:"phases"`
	Unchecked     string             `json:"unchecked,omitempty"`
	// Level 1's rounds (1 without reshuffling) of the rounds planned, the
	// private copies each round's blocks shared (the blocks, without
	// reshuffling), the most memory the page copies took, and equation
	// (1)'s probability that a race between two blocks was checked.
	Deterministic        bool    `json:"deterministic,omitempty"`
	Rounds               int     `json:"rounds,omitempty"`
	RoundsPlanned        int     `json:"rounds_planned,omitempty"`
	Groups               int     `json:"groups,omitempty"`
	CopyBytes            int64   `json:"copy_bytes"`
	DetectionProbability float64 `json:"detection_probability,omitempty"`
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runRun(c *cli.Context) error {
	if handled, err := runIsolated(c); handled {
		return err
	}
	if c.NArg() > 1 && strings.HasPrefix(c.Args().Get(1), "-") {
		return inputErr("run: flags must come before the build directory: ldcheck run %s %s", strings.Join(c.Args().Slice()[1:], " "), c.Args().First())
	}
	if c.NArg() != 1 {
		return inputErr("run: expected one build directory, got %d arguments (usage: ldcheck run [flags] DIR; make DIR with ldcheck build FILE.cu)", c.NArg())
	}
	dir := c.Args().First()
	format := c.String("format")
	if format != "text" && format != "json" {
		return inputErr("--format: unknown format %q (want text or json)", format)
	}
	backendName := c.String("backend")
	if backendName != "auto" && backendName != "cpu" && backendName != "cuda" {
		return inputErr("--backend: unknown backend %q (want auto, cpu or cuda)", backendName)
	}
	spec, err := launch.ParseSpec(launch.Flags{
		Kernel: c.String("kernel"), Grid: c.String("grid"), Block: c.String("block"), Shared: c.String("shared"),
		Args: c.StringSlice("arg"), Outs: c.StringSlice("out"),
	})
	if err != nil {
		return &exitError{exitInput, err}
	}
	m, err := manifest.Read(dir)
	if err != nil {
		return &exitError{exitInput, err}
	}
	if m.Runtime != gpuruntime.RuntimeVersion() {
		return inputErr("%s was built by another version of ldcheck (runtime %s, this ldcheck has %s); run ldcheck build %s again", dir, m.Runtime, gpuruntime.RuntimeVersion(), m.Source)
	}
	k, err := launch.SelectKernel(m, spec.Kernel)
	if err != nil {
		return &exitError{exitInput, err}
	}
	values, notes, err := launch.Bind(k, spec)
	if err != nil {
		return &exitError{exitInput, err}
	}
	if src, err := os.ReadFile(m.Source); err == nil {
		if sum := sha256.Sum256(src); hex.EncodeToString(sum[:]) != m.SHA256 {
			notes = append(notes, fmt.Sprintf("%s changed since it was built; run ldcheck build again to check the new version", m.Source))
		}
	}

	if strings.Contains(k.Reason, manifest.GridBarrier) {
		return inputErr("kernel %s is not supported: it uses a %s (%s), which ldcheck can neither check nor run (no cooperative launch)", k.Name, manifest.GridBarrier, k.Reason)
	}
	unchecked, det := c.Bool("unchecked"), c.Bool("deterministic")
	if det && unchecked {
		return inputErr("--deterministic and --unchecked exclude each other: --unchecked runs the kernel as written, as the hardware schedules it")
	}
	if c.Bool("allow-atomics") && !det {
		return inputErr("--allow-atomics goes with --deterministic (a checked run takes every atomic into account already)")
	}
	if det {
		if !k.Instrumented {
			return inputErr("kernel %s cannot run deterministically: it was not instrumented (%s)", k.Name, k.Reason)
		}
		if ops := orderDependentAtomics(m, k); len(ops) > 0 {
			if !c.Bool("allow-atomics") {
				return inputErr("kernel %s cannot run deterministically: its atomics depend on the order threads run them:\n  %s\n(--allow-atomics runs it anyway; those atomics' results may then differ between runs)", k.Name, strings.Join(ops, "\n  "))
			}
			notes = append(notes, fmt.Sprintf("--allow-atomics: %d atomic(s) of kernel %s depend on the order threads run them (the first: %s); outputs they reach may differ between runs", len(ops), k.Name, ops[0]))
		}
	}
	b, bnotes, err := openBackend(dir, m, backendName, unchecked)
	notes = append(notes, bnotes...)
	if err != nil {
		return err
	}
	defer b.Close()

	l := gpuruntime.Launch{Source: m.KernelSource(k), Kernel: k, Grid: spec.Grid, Block: spec.Block, Shared: spec.Shared}
	var argText []string
	for _, v := range values {
		l.Args = append(l.Args, gpuruntime.Arg{Param: v.Param, Buffer: v.Buffer, Data: v.Data})
		argText = append(argText, v.String())
	}
	opt := gpuruntime.Options{All: c.Bool("all"), Unchecked: unchecked, Deterministic: det, WarmUp: c.Bool("warmup"), EveryShared: c.Bool("every-shared-byte"), IgnoreSameValue: c.Bool("ignore-same-value")}
	if v := c.String("mem-limit"); v != "" {
		n, err := launch.ParseMemory(v)
		if err != nil {
			return inputErr("--mem-limit: %v", err)
		}
		if n == 0 {
			return inputErr("--mem-limit: 0 leaves no room for private copies; give a size such as 1GiB, or leave it out to use the free device memory")
		}
		opt.MemLimit = n
	}
	errw := c.App.ErrWriter
	for _, n := range notes {
		fmt.Fprintf(errw, "ldcheck: %s\n", n)
	}
	if isTerminal(errw) || os.Getenv(progressEnv) != "" {
		opt.Progress = errw
		fmt.Fprintf(errw, "checking kernel %s on %s, grid %s, block %s\n", k.Name, b.Name(), launch.Dim3(spec.Grid), launch.Dim3(spec.Block))
	}
	cpub, _ := b.(*gpuruntime.CPUBackend) // it can say how far a launch got
	if cpub != nil {
		cpub.Progress = opt.Progress
	}
	if d := c.Duration("timeout"); d > 0 {
		// A kernel that hangs cannot be interrupted from the host: leaving
		// the process is what releases the GPU (or the CPU's fibers).
		t := time.AfterFunc(d, func() {
			why := ""
			if p, ok := cpuRunning(cpub); ok {
				if p.Slow(d) { // blocks still finishing: slow, not hung
					fmt.Fprintf(errw, "ldcheck: kernel %s: the cpu backend had finished %d of %d blocks of launch %d after %s; give --timeout more time or use a GPU (--backend cuda); no verdict\n", k.Name, p.Done, p.Blocks, p.Launch, d)
					os.Exit(exitFailed)
				}
				why = fmt.Sprintf(" (cpu backend: no block or barrier of launch %d finished in the last %s", p.Launch, p.Idle.Round(time.Millisecond))
				if p.Waiting > 0 {
					why += fmt.Sprintf("; %d threads wait at a barrier", p.Waiting)
				}
				why += ")"
			}
			fmt.Fprintf(errw, "ldcheck: kernel %s did not finish within %s (--timeout): it hangs (a barrier not reached by every thread, a spin loop waiting on another block, ...) or needs longer%s; no verdict\n", k.Name, d, why)
			os.Exit(exitFailed)
		})
		defer t.Stop()
	}
	run := gpuruntime.Check
	if unchecked {
		run = gpuruntime.RunNative // the kernel as written, from the native module
	}
	res, err := run(b, l, opt)
	var oob *gpuruntime.OutOfBoundsError
	if errors.As(err, &oob) {
		return &exitError{exitInput, fmt.Errorf("%w (on the %s backend; no verdict)", oob, b.Name())}
	}
	var mem *gpuruntime.MemoryError
	if errors.As(err, &mem) && mem.Limit {
		return &exitError{exitInput, fmt.Errorf("kernel %s on the %s backend: %w (no verdict)", k.Name, b.Name(), err)}
	}
	if err != nil {
		return &exitError{exitFailed, fmt.Errorf("kernel %s on the %s backend: %w (no verdict)", k.Name, b.Name(), err)}
	}

	// Outputs first: a failure to write them must not follow a printed verdict.
	if len(spec.Outs) > 0 {
		if err := launch.WriteOutputs(spec.Outs, func(name string) []byte { return res.Outputs[name] }); err != nil {
			return &exitError{exitInput, err}
		}
	}
	notChecked := notCheckedReason(k, res)
	w := c.App.Writer
	if format == "json" {
		rep := jsonReport{Kernel: k.Name, Source: m.Source, Backend: b.Name(), Races: res.Races, Notes: notes,
			Launch: jsonLaunch{Grid: spec.Grid, Block: spec.Block, Shared: spec.Shared, Args: argText},
			Summary: jsonSummary{Levels: res.Levels, Deterministic: res.Deterministic, Regions: len(k.Regions), BytesCompared: res.BytesCompared, Phases: res.Phases, Unchecked: res.Unchecked,
				Rounds: res.Rounds, RoundsPlanned: res.RoundsPlanned, Groups: res.Groups, CopyBytes: res.CopyBytes, DetectionProbability: res.DetectionProbability}}
		rep.Notes = append(rep.Notes, res.Notes...)
		rep.NotChecked = notChecked
		switch {
		case res.Unchecked != "" || notChecked != "" && len(res.Races) == 0:
			rep.Verdict = "unchecked"
		case len(res.Races) > 0:
			rep.Verdict = "race"
		default:
			rep.Verdict = "none"
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printVerdict(w, m, k, res, b.Name())
		if c.Bool("v") {
			for _, p := range res.Phases {
				bw := ""
				if p.Bytes > 0 && p.Seconds > 0 {
					bw = fmt.Sprintf("  %7.1f GB/s", float64(p.Bytes)/p.Seconds/1e9)
				}
				fmt.Fprintf(w, "  %-66s %10.3f ms%s\n", p.Name, p.Seconds*1000, bw)
			}
		}
	}
	if len(res.Races) > 0 {
		return &exitError{exitRace, nil}
	}
	if notChecked != "" {
		if c.Bool("allow-unchecked") {
			return nil
		}
		fmt.Fprintf(errw, "ldcheck: kernel %s ran, not checked (exit status 4; --allow-unchecked accepts it): %s\n", k.Name, notChecked)
		return &exitError{exitUnchecked, nil}
	}
	return nil
}

// notCheckedReason says, in one line, why a run that found no race is no
// verdict on the kernel: it was not instrumented, or something it writes
// was left unchecked because ldcheck cannot handle it. Variables proven
// race-free and atomically updated ones do not count; neither does a run
// the user asked to be unchecked (--unchecked).
func notCheckedReason(k *manifest.Kernel, res *gpuruntime.Result) string {
	switch {
	case res.Unchecked == "--unchecked":
		return ""
	case res.Unchecked != "":
		return "not instrumented: " + res.Unchecked
	case len(k.Unhandled) > 0:
		return "left unchecked: " + strings.Join(k.Unhandled, "; ")
	}
	return ""
}

func printVerdict(w io.Writer, m *manifest.Manifest, k *manifest.Kernel, res *gpuruntime.Result, backend string) {
	base := filepath.Base(m.KernelSource(k))
	switch {
	case res.Unchecked == "--unchecked":
		fmt.Fprintf(w, "%s:%d: kernel %s ran as written, without checking (--unchecked)\n", base, k.Line, k.Name)
	case res.Unchecked != "":
		fmt.Fprintf(w, "%s:%d: kernel %s ran unchecked (not instrumented: %s)\n", base, k.Line, k.Name, res.Unchecked)
	case res.Deterministic && len(res.Races) == 0:
		fmt.Fprintf(w, "%s:%d: kernel %s ran deterministically: no write-write conflict between warps or blocks (%s backend; blocks in increasing order, warps merged in increasing order at every barrier)\n", base, k.Line, k.Name, backend)
		fmt.Fprintf(w, "  read-write races are not looked for in a deterministic run; run without --deterministic to check the kernel\n")
	case res.Deterministic:
		gpuruntime.WriteText(w, m.KernelSource(k), k, res)
		fmt.Fprintf(w, "%s: kernel %s: %d write-write conflict(s) while merging; the outputs are those of the warps and blocks run one after the other in increasing order, the same every run\n", base, k.Name, len(res.Races))
	case len(res.Races) == 0:
		fmt.Fprintf(w, "%s:%d: kernel %s: no race found (%s backend; levels %s; %d bytes compared)\n", base, k.Line, k.Name, backend, strings.Join(res.Levels, " and "), res.BytesCompared)
		if res.RoundsPlanned > 1 {
			fmt.Fprintf(w, "  level 1 ran %d rounds of %d groups sharing private copies (memory-capped); every pair of blocks was checked\n", res.Rounds, res.Groups)
		}
		for _, u := range k.Unchecked {
			if strings.Contains(u.Reason, "atomic") {
				fmt.Fprintf(w, "  unchecked %s: %s\n", u.Name, u.Reason)
			}
		}
	default:
		gpuruntime.WriteText(w, m.KernelSource(k), k, res)
		fmt.Fprintf(w, "%s: kernel %s: %d race(s) found; the kernel's outputs are undefined\n", base, k.Name, len(res.Races))
		if res.RoundsPlanned > 1 {
			fmt.Fprintf(w, "  found in round %d of %d of level 1 (groups of blocks sharing %d private copies); the blocks named took the copies of the racing pages\n", res.Rounds, res.RoundsPlanned, res.Groups)
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if res.CopyBytes > 0 && res.Unchecked == "" {
		fmt.Fprintf(w, "  private copies took at most %s\n", gpuruntime.FormatBytes(res.CopyBytes))
	}
}

// orderDependentAtomics lists, as "file:line: call (why)", the atomics of
// k whose outcome depends on the order threads run them: a deterministic
// run cannot make those reproducible.
func orderDependentAtomics(m *manifest.Manifest, k *manifest.Kernel) []string {
	var out []string
	for _, a := range k.AtomicOps {
		if a.Class.OrderIndependent() {
			continue
		}
		file := m.Source // the main file, unless the atomic names its own
		if a.File != "" {
			file = a.File
		}
		out = append(out, fmt.Sprintf("%s:%d: %s (%s: %s)", filepath.Base(file), a.Line, a.Call, a.Class, a.Class.Why()))
	}
	return out
}

// registerCapEnv caps the registers of the instrumented kernels (an
// experiment knob for occupancy; unset: the compiler's choice).
const registerCapEnv = "LDCHECK_MAX_REGISTERS"

// openBackend picks the backend; auto prefers a usable GPU and says why
// it falls back to the CPU. native opens the build's native modules (the
// kernels as written, for --unchecked) instead of the instrumented ones.
func openBackend(dir string, m *manifest.Manifest, name string, native bool) (gpuruntime.Backend, []string, error) {
	var notes []string
	symbols := map[string]string{}
	for _, k := range m.Kernels {
		symbols[k.Name] = k.Symbol // the same in the native module: same signatures
	}
	ptx, lib, what := m.PTX, m.CPU, ""
	if native {
		ptx, lib, what = m.NativePTX, m.NativeCPU, "native "
		if m.NativeSource == "" {
			return nil, notes, &exitError{exitFailed, fmt.Errorf("%s has no native module (the kernels as written, which --unchecked runs): it was made by an older ldcheck; run ldcheck build %s again", dir, m.Source)}
		}
	}
	if name == "cuda" || name == "auto" {
		var err error
		if ptx == "" {
			err = fmt.Errorf("the build has no %sdevice module (no nvcc or clang-15 when it was built, or it failed: see ldcheck compile %s)", what, dir)
		} else {
			var b *gpuruntime.CUDABackend
			b, err = gpuruntime.OpenCUDA(filepath.Join(dir, ptx), symbols)
			if err == nil {
				// Experiments on occupancy: a cap on the instrumented
				// kernels' registers (the native module is left alone).
				if v, perr := strconv.Atoi(os.Getenv(registerCapEnv)); perr == nil && v > 0 && !native {
					b.SetRegisterCap(v)
					notes = append(notes, fmt.Sprintf("%s=%d: instrumented kernels compiled with at most %d registers", registerCapEnv, v, v&^7))
				}
				return b, notes, nil
			}
		}
		if name == "cuda" {
			return nil, notes, &exitError{exitFailed, fmt.Errorf("--backend cuda: %w", err)}
		}
		notes = append(notes, fmt.Sprintf("no usable GPU (%v): using the CPU backend", err))
	}
	if lib == "" {
		if native {
			return nil, notes, &exitError{exitFailed, fmt.Errorf("%s has no native CPU library, so --unchecked cannot run the kernel as written on the CPU backend (no C++ compiler when it was built, or compiling %s failed); run ldcheck compile %s to see why", dir, m.NativeSource, dir)}
		}
		return nil, notes, &exitError{exitFailed, fmt.Errorf("%s has no CPU library (no C++ compiler when it was built); install g++ and run ldcheck build again", dir)}
	}
	b, err := gpuruntime.OpenCPU(filepath.Join(dir, lib))
	if err != nil {
		return nil, notes, &exitError{exitFailed, err}
	}
	return b, notes, nil
}

// cpuRunning is how far the CPU backend got with the launch it runs; false
// for another backend, or between launches.
func cpuRunning(b *gpuruntime.CPUBackend) (gpuruntime.LaunchProgress, bool) {
	if b == nil {
		return gpuruntime.LaunchProgress{}, false
	}
	return b.Running()
}
