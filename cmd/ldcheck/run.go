package main

import (
	"crypto/sha256"
	"encoding/hex"
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
	"ldcheck/report"
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
Each level runs the kernel twice, so a checked run costs about four runs;
a region (or, for level 1, the kernel) whose code reads nothing it writes
runs once, since its second run would repeat the first. Where every region
of the launch runs once (and the intra-warp check is off, and the
atomic-plain check too unless the kernel has no barrier), level 2 runs
from a module without the replays' code ("one pass and a check at every
barrier"). On the GPU the
instrumented kernels are compiled with at most 128 registers a thread,
and 64 where that lets a second block of a launch onto each SM (blocks of
288 to 512 threads); the one-pass module takes 40 for blocks of 33 to 128
threads (three times the blocks an SM holds at 128) and 64 for blocks of
32; environment LDCHECK_MAX_REGISTERS=N
sets another cap for every module, 0 none.

Private copies of global memory are pages (about 128 bytes, whole elements)
copied when a unit first writes them, so their memory grows with what the
kernel writes, not with the array size times the blocks. (A level 2 of one
pass a region stores in place instead, to global and shared targets alike,
noting which warp stored to each byte; two warps on one byte make it run
again with copies. LDCHECK_COPY_STORES=1 keeps the copies.) --mem-limit caps
it (default: the free device memory, less a margin). When the blocks' copies
do not fit, level 1 checks in rounds: groups of blocks share a copy, and
each round splits the groups of the last (warp reshuffling, LDetector 4.5);
every pair of blocks is checked once all rounds ran. A race stops the rounds;
the report then gives equation (1)'s probability that a race between two
random blocks had been checked. JSON summary fields: rounds (run),
rounds_planned, groups (copies per round; the blocks without reshuffling),
copy_bytes (the most memory the copies and their tables took),
detection_probability, hot_pages (pages with more than 128 copies and an
eighth of all the copies, as a flag every block writes, checked by the whole
grid instead of one thread for each 16 bytes; counted once per check). --unchecked runs the kernel as written (the build's
native module, compiled without ldcheck), as the baseline for outputs and
times.

--deterministic runs the kernel once, reproducibly, instead of checking it
(LDetector 4.6): every warp runs on private copies; at every barrier the
warps' changes are merged in increasing warp order (where two warps changed
a byte, the highest warp's value is kept) and every warp goes on from the
merged bytes; blocks run side by side, each on its own copies of the
global pages it writes, seeing the inputs and its own writes only, and
their copies are merged in increasing block index when the kernel is done
(where two blocks changed a byte, the highest block's value is kept). What
it guarantees: the --out bytes are the same every run, on both backends,
for any --mem-limit that fits, even for a racy kernel; a race-free kernel writes the bytes of an --unchecked run (on a GPU,
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
    first, and plain stores to one land before or after the atomics as the
    hardware runs them (an atomic-plain race: check the kernel first);
  - races between the lanes of one warp, and memory ldcheck does not
    privatize (what the build lists as unhandled: inline asm, heap memory),
    go as the hardware schedules them;
  - a block that reads what another block writes in the same launch (a
    read-write race between blocks) reads the input, not the other
    block's value, whatever the order they ran in;
  - a kernel ldcheck could not instrument is refused (exit 2).
The private copies are each block's copies of the global pages it writes
and the warps' copies of the blocks running at once: when they do not fit
--mem-limit, exit 2 with the bytes needed (a deterministic run cannot be
split into rounds).

Arguments: --arg NAME=TYPE[COUNT]:INIT for pointer parameters (INIT: zero,
iota, rand[:SEED], const:V, file:PATH with raw little-endian data), and
--arg NAME=VALUE for scalars. A struct passed by value is given field by
field, with the layout the build recorded: --arg 'p={n=1024,scale=1.5}';
fields left out are zero, {...} sets a nested struct, [V,...] an array
field, and @BUF a pointer field to the address of pointer parameter BUF's
buffer on the backend that runs (--arg 'p={data=@in,n=1024}' --arg
in=float[1024]:rand), 0 a null one. A buffer of structs takes the same
fields for every element, --arg 'cells=Cell[256]:{mass=1.5,id=iota}', where
iota (the element's index) and rand[:SEED] vary per element; Cell[256]:zero,
:rand[:SEED] (number fields random, pointers null) and :file:PATH work too. Any by-value
parameter also takes its bytes, --arg NAME=hex:BYTES (little-endian, _ may
separate them) or NAME=file:PATH, exactly its size. Parameters that are or
hold function pointers are refused. A pointer without --arg gets grid x block
elements (at least 1 MiB) of seeded random data, an integer scalar gets the
total thread count; run says what it assumed.

Reports: each race reads like a compiler diagnostic (file:line:col: error:,
then note: lines), at the later of the two statements that conflict; the
element is named as the source does (partial[31], As[3][5], cells[5].mass)
and its values are given in its type. The statements come from a rerun of
the racy kernel with the build's tracing module, once per race, after the
checked run (--explain=false skips it; a race-free run never pays for it);
stores made by memcpy or memset are not traced. --format json adds
accesses[] (file, line, col, kind, block, thread, warp, value) and
typed_values; --format sarif writes SARIF 2.1.0 for code scanning.

` + blindSpots,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kernel", Usage: "kernel `NAME` to run (default: the only one)"},
			&cli.StringFlag{Name: "grid", Usage: "grid size `X[,Y[,Z]]` in blocks"},
			&cli.StringFlag{Name: "block", Usage: "block size `X[,Y[,Z]]` in threads"},
			&cli.StringFlag{Name: "shared", Usage: "dynamic shared memory `BYTES` (e.g. 4KiB)"},
			&cli.StringSliceFlag{Name: "arg", Usage: "kernel argument `NAME=TYPE[COUNT]:INIT`, NAME=VALUE or NAME={FIELD=VALUE,...} (repeatable)"},
			&cli.StringSliceFlag{Name: "out", Usage: "write buffer NAME after the run to PATH, raw little-endian: `NAME=PATH` (repeatable)"},
			&cli.StringFlag{Name: "backend", Value: "auto", Usage: "`BACKEND`: auto (cuda when a GPU is usable, else cpu), cpu or cuda"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "report `FORMAT`: text (compiler-style diagnostics), json, or sarif (SARIF 2.1.0 for code scanning: one result per race, rule ldcheck/write-write or ldcheck/read-write, the other access as a related location; locations relative to the current directory)"},
			&cli.BoolFlag{Name: "all", Usage: "report every racy region, not only the first, and every distinct pair of conflicting statements of each race (each once, in source order)"},
			&cli.BoolFlag{Name: "explain", Value: true, Usage: "name the two conflicting statements of each race (file:line:col, block, thread, values): the kernel runs once more, plain, with the build's tracing module, for each race (only when races were found); --explain=false skips it"},
			&cli.BoolFlag{Name: "ignore-same-value", Usage: "leave out write-write races where both units wrote the same value over a different one (reported otherwise, marked \"same value: both wrote V\"; some tools call them benign)"},
			&cli.BoolFlag{Name: "unchecked", Usage: "run the kernel as written, once, without checking (to compare outputs or time it)"},
			&cli.BoolFlag{Name: "deterministic", Usage: "run the kernel once, reproducibly, instead of checking it: the same --out bytes every run and on both backends, even for a racy kernel (see above for what is and is not guaranteed); write-write conflicts met are reported (exit 1)"},
			&cli.BoolFlag{Name: "allow-atomics", Usage: "with --deterministic: run a kernel whose atomics depend on the order threads run them (float atomicAdd, atomicExch, atomicCAS, a used return value) anyway, with a warning; its outputs may then differ between runs"},
			&cli.BoolFlag{Name: "allow-unchecked", Usage: "exit 0, not 4, when the kernel ran but could not be checked (not instrumented, or something it writes left unchecked); the report still says why"},
			&cli.BoolFlag{Name: "warmup", Usage: "run the kernel once, unchecked and untimed, and launch each check kernel once with nothing to do, before the timed run (for benchmarks: the driver loads a kernel at its first launch)"},
			&cli.BoolFlag{Name: "intra-warp", Usage: "check races between the lanes of one warp, in shared and global memory (two lanes touching a byte, one writing, with no __syncwarp, *_sync warp intrinsic or barrier between). Default: on for launches of at most 65536 threads, off (with a note) on larger ones, because it is slow: on the H100 it made matmul2048's warp level 14x slower (680 ms against 48 ms). --intra-warp turns it on for any launch, --intra-warp=false off. It costs 24 bytes per 4-byte word of shared target per block and 8 bytes per thread (in shared memory when they fit, else in global memory), a table of 32 bytes per entry for twice the global targets' words (at most 256 MiB), and a compare-and-swap per lane and word in each interval of pass 2 of level 2"},
			&cli.BoolFlag{Name: "every-shared-byte", Usage: "check every byte of the shared targets at every barrier, not only the bytes the build saw stored to (same verdict, slower; to compare the two)"},
			&cli.BoolFlag{Name: "v", Usage: "print the time of each phase (init, kernel passes, checks)"},
			&cli.StringFlag{Name: "mem-limit", Usage: "device memory the private copies may take (`SIZE`, e.g. 2GiB; default: what is free, less a margin); when level 1's copies do not fit, blocks are checked in rounds of groups sharing copies (warp reshuffling)"},
			&cli.DurationFlag{Name: "timeout", Value: 10 * time.Minute, Usage: "give up (exit 3) when the checked run takes longer than `DURATION` (a hung kernel); 0 waits forever"},
		},
		OnUsageError: usageError,
		Action:       runRun,
	}
}

// jsonReport is the --format json document (tests decode it).
type jsonReport = report.JSON

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
	req, err := newRunRequest(c)
	if err != nil {
		return err
	}
	l, argText := req.runtimeLaunch()
	// A launch the build proved race-free runs as written, from the
	// native module; without one, the checked module runs it once.
	_, req.proven = gpuruntime.Proven(l)
	req.proven = req.proven && !req.unchecked && !req.det
	errw := c.App.ErrWriter
	watched := watching(errw)
	b, bnotes, err := openBackend(req.dir, req.m, req.backend, req.moduleToLoad(c), int(req.spec.Block.Count()), watched)
	if err != nil && req.proven {
		req.proven = false
		b, bnotes, err = openBackend(req.dir, req.m, req.backend, req.moduleToLoad(c), int(req.spec.Block.Count()), watched)
	}
	req.notes = append(req.notes, bnotes...)
	if err != nil {
		return err
	}
	req.noteIntraWarp(c)
	// The tracing module runs after the checked one is closed (one
	// module at a time on the device); close it once either way.
	closed := false
	defer func() {
		if !closed {
			b.Close()
		}
	}()
	if err := checkTextures(b, req.values); err != nil {
		return err
	}

	opt, err := req.options(c)
	if err != nil {
		return err
	}
	opt.Progress = req.announce(errw, b)
	cpub, _ := b.(*gpuruntime.CPUBackend) // it can say how far a launch got
	if cpub != nil {
		cpub.Progress = opt.Progress
	}
	if t := watchTimeout(errw, req.k.Name, c.Duration("timeout"), cpub); t != nil {
		defer t.Stop()
	}
	res, err := runChecked(b, l, opt, req.unchecked, req.proven)
	if err != nil {
		return err
	}
	if cb, ok := b.(*gpuruntime.CUDABackend); ok {
		// (Before the tracing reruns close it.)
		if n := cb.JITNote(); n != "" {
			res.Notes = append(res.Notes, n)
		}
	}

	if len(res.Races) > 0 && !req.unchecked {
		if !c.Bool("explain") {
			for i := range res.Races {
				res.Races[i].Explanation = "not traced (--explain=false)"
			}
		} else {
			closed = true
			b.Close()
			req.explain(errw, b.Name(), l, res, c.Bool("all"))
		}
		if !req.det && gpuruntime.DropFenceOrdered(res, req.m.Sites) && len(res.Races) == 0 {
			// The outputs are those of a check that met conflicts (level 2
			// then runs one block at a time): the kernel runs once more,
			// as written, for them.
			if !closed {
				closed = true
				b.Close()
			}
			if err := req.plainOutputs(l, opt, res); err != nil {
				return err
			}
		}
	}
	return req.writeReport(c, b.Name(), res, argText)
}

// runRequest is what ldcheck run was asked for, checked against the build
// before a backend is opened: a wrong flag costs no device time.
type runRequest struct {
	dir, format, backend string
	spec                 launch.Spec
	m                    *manifest.Manifest
	k                    *manifest.Kernel
	values               []launch.Value
	// notes are said on stderr before the run and kept in the report.
	notes          []string
	unchecked, det bool
	// intraWarp: the run checks races between the lanes of a warp
	// (--intra-warp, or by default on small launches).
	intraWarp bool
	// proven: the launch needs no check (gpuruntime.ProvenRaceFree) and
	// runs from the native module.
	proven bool
}

// newRunRequest reads the command line and the build directory.
func newRunRequest(c *cli.Context) (*runRequest, error) {
	if c.NArg() > 1 && strings.HasPrefix(c.Args().Get(1), "-") {
		return nil, inputErr("run: flags must come before the build directory: ldcheck run %s %s", strings.Join(c.Args().Slice()[1:], " "), c.Args().First())
	}
	if c.NArg() != 1 {
		return nil, inputErr("run: expected one build directory, got %d arguments (usage: ldcheck run [flags] DIR; make DIR with ldcheck build FILE.cu)", c.NArg())
	}
	req := &runRequest{dir: c.Args().First(), format: c.String("format"), backend: c.String("backend")}
	if req.format != "text" && req.format != "json" && req.format != "sarif" {
		return nil, inputErr("--format: unknown format %q (want text, json or sarif)", req.format)
	}
	if req.backend != "auto" && req.backend != "cpu" && req.backend != "cuda" {
		return nil, inputErr("--backend: unknown backend %q (want auto, cpu or cuda)", req.backend)
	}
	spec, err := launch.ParseSpec(launch.Flags{
		Kernel: c.String("kernel"), Grid: c.String("grid"), Block: c.String("block"), Shared: c.String("shared"),
		Args: c.StringSlice("arg"), Outs: c.StringSlice("out"),
	})
	if err != nil {
		return nil, &exitError{exitInput, err}
	}
	req.spec = spec
	if err := req.bindKernel(); err != nil {
		return nil, err
	}
	if err := req.checkMode(c); err != nil {
		return nil, err
	}
	req.chooseIntraWarp(c)
	return req, nil
}

// intraWarpAutoThreads is the largest launch (in threads) whose runs
// check races between the lanes of a warp without --intra-warp: the
// check makes level 2 several times slower (18x on matmul2048's), which
// on a launch this small is milliseconds, and which on a large one would
// be most of the run.
const intraWarpAutoThreads = 1 << 16

// chooseIntraWarp decides whether the run checks intra-warp races: as
// --intra-warp says when it is given, else on launches of at most
// intraWarpAutoThreads threads, with a note on larger ones that have
// something to check.
func (req *runRequest) chooseIntraWarp(c *cli.Context) {
	if c.IsSet("intra-warp") {
		req.intraWarp = c.Bool("intra-warp")
		return
	}
	req.intraWarp = req.spec.Threads() <= intraWarpAutoThreads
	if req.intraWarp && req.backend != "cpu" && req.m.PTX != "" && req.m.IntraWarpPTX == "" && req.k.HasTargets() {
		// Its device module failed to build: the default must not cost
		// the run its GPU (--intra-warp asks for it, and says why not).
		req.intraWarp = false
		req.notes = append(req.notes, "races between the lanes of a warp were not checked: the build has no intra-warp device module (see ldcheck compile "+req.dir+")")
	}
}

// noteIntraWarp says, on a launch whose size turned the intra-warp check
// off, that it was off and how to turn it on.
func (req *runRequest) noteIntraWarp(c *cli.Context) {
	if c.IsSet("intra-warp") || req.intraWarp || req.unchecked || req.det || req.proven || !req.k.Instrumented || !req.k.HasTargets() {
		return
	}
	req.notes = append(req.notes, fmt.Sprintf("races between the lanes of a warp were not checked: by default only launches of at most %d threads check them (this one has %d), because the check slows level 2 several times; --intra-warp checks them", intraWarpAutoThreads, req.spec.Threads()))
}

// bindKernel reads the build's manifest, picks the kernel and gives its
// parameters the values of the --arg flags (or defaults, with notes).
func (req *runRequest) bindKernel() error {
	m, err := manifest.Read(req.dir)
	if err != nil {
		return &exitError{exitInput, err}
	}
	if m.Runtime != gpuruntime.RuntimeVersion() {
		return inputErr("%s was built by another version of ldcheck (runtime %s, this ldcheck has %s); run ldcheck build %s again", req.dir, m.Runtime, gpuruntime.RuntimeVersion(), m.Source)
	}
	k, err := launch.SelectKernel(m, req.spec.Kernel)
	if err != nil {
		return &exitError{exitInput, err}
	}
	values, notes, err := launch.Bind(k, req.spec)
	if err != nil {
		return &exitError{exitInput, err}
	}
	if src, err := os.ReadFile(m.Source); err == nil {
		if sum := sha256.Sum256(src); hex.EncodeToString(sum[:]) != m.SHA256 {
			notes = append(notes, fmt.Sprintf("%s changed since it was built; run ldcheck build again to check the new version", m.Source))
		}
	}
	req.m, req.k, req.values, req.notes = m, k, values, notes
	return nil
}

// checkMode refuses the kernels and flag combinations the asked-for mode
// (checked, --unchecked or --deterministic) cannot run.
func (req *runRequest) checkMode(c *cli.Context) error {
	k := req.k
	if strings.Contains(k.Reason, manifest.GridBarrier) {
		return inputErr("kernel %s is not supported: it uses a %s (%s), which ldcheck can neither check nor run (no cooperative launch)", k.Name, manifest.GridBarrier, k.Reason)
	}
	req.unchecked, req.det = c.Bool("unchecked"), c.Bool("deterministic")
	if req.det && req.unchecked {
		return inputErr("--deterministic and --unchecked exclude each other: --unchecked runs the kernel as written, as the hardware schedules it")
	}
	if c.Bool("allow-atomics") && !req.det {
		return inputErr("--allow-atomics goes with --deterministic (a checked run takes every atomic into account already)")
	}
	if req.det {
		if !k.Instrumented {
			return inputErr("kernel %s cannot run deterministically: it was not instrumented (%s)", k.Name, k.Reason)
		}
		if ops := orderDependentAtomics(req.m, k); len(ops) > 0 {
			if !c.Bool("allow-atomics") {
				return inputErr("kernel %s cannot run deterministically: its atomics depend on the order threads run them:\n  %s\n(--allow-atomics runs it anyway; those atomics' results may then differ between runs)", k.Name, strings.Join(ops, "\n  "))
			}
			req.notes = append(req.notes, fmt.Sprintf("--allow-atomics: %d atomic(s) of kernel %s depend on the order threads run them (the first: %s); outputs they reach may differ between runs", len(ops), k.Name, ops[0]))
		}
	}
	return nil
}

// moduleToLoad is the build's module the mode needs.
func (req *runRequest) moduleToLoad(c *cli.Context) module {
	switch {
	case req.unchecked || req.proven:
		return nativeModule
	case req.det:
		return detModule
	case req.intraWarp && req.k.HasTargets():
		return intraWarpModule
	}
	return checkedModule
}

// checkTextures refuses, before anything runs, a texture argument the
// CUDA backend cannot make (a texture of doubles, a float3 texel).
func checkTextures(b gpuruntime.Backend, values []launch.Value) error {
	if b.Name() != "cuda" {
		return nil
	}
	for _, v := range values {
		if v.Texture {
			if err := gpuruntime.CUDATextureFormat(v.Type, v.Param.Texel); err != nil {
				return inputErr("--arg %s: %v", v.String(), err)
			}
		}
	}
	return nil
}

// runtimeLaunch returns the launch to run and its arguments as the
// report gives them.
func (req *runRequest) runtimeLaunch() (gpuruntime.Launch, []string) {
	m, k, spec := req.m, req.k, req.spec
	l := gpuruntime.Launch{Source: m.KernelSource(k), Kernel: k, Sites: m.Sites, Grid: spec.Grid, Block: spec.Block, Shared: spec.Shared}
	var argText []string
	for _, v := range req.values {
		var ptrs []gpuruntime.Ptr
		for _, p := range v.Ptrs {
			ptrs = append(ptrs, gpuruntime.Ptr(p))
		}
		a := gpuruntime.Arg{Param: v.Param, Buffer: v.Buffer, Data: v.Data, Ptrs: ptrs}
		if v.Texture {
			a.Texture = v.Type
		}
		l.Args = append(l.Args, a)
		argText = append(argText, v.String())
	}
	return l, argText
}

// options returns the runtime's options from the flags.
func (req *runRequest) options(c *cli.Context) (gpuruntime.Options, error) {
	opt := gpuruntime.Options{All: c.Bool("all"), Unchecked: req.unchecked, Deterministic: req.det, WarmUp: c.Bool("warmup"), EveryShared: c.Bool("every-shared-byte"), IgnoreSameValue: c.Bool("ignore-same-value"), NoIntraWarp: !req.intraWarp}
	switch v := os.Getenv(copyStoresEnv); v {
	case "", "0":
	case "1":
		opt.CopyStores = true
	default:
		return opt, inputErr("%s=%q: want 1 (level 2 copies the pages its warps store to) or 0 (unset: stores in place where every region runs once)", copyStoresEnv, v)
	}
	if v := c.String("mem-limit"); v != "" {
		n, err := launch.ParseMemory(v)
		if err != nil {
			return opt, inputErr("--mem-limit: %v", err)
		}
		if n == 0 {
			return opt, inputErr("--mem-limit: 0 leaves no room for private copies; give a size such as 1GiB, or leave it out to use the free device memory")
		}
		opt.MemLimit = n
	}
	return opt, nil
}

// announce says the notes on errw and, for a person watching (a terminal,
// or the isolated parent's), what runs; it returns where the phases'
// progress goes (nil: nowhere).
func (req *runRequest) announce(errw io.Writer, b gpuruntime.Backend) io.Writer {
	for _, n := range req.notes {
		fmt.Fprintf(errw, "ldcheck: %s\n", n)
	}
	if w := watching(errw); w != nil {
		fmt.Fprintf(w, "checking kernel %s on %s, grid %s, block %s\n", req.k.Name, b.Name(), launch.Dim3(req.spec.Grid), launch.Dim3(req.spec.Block))
		return w
	}
	return nil
}

// watching is errw when a person watches it (a terminal, or the isolated
// parent's), where progress goes; nil otherwise.
func watching(errw io.Writer) io.Writer {
	if isTerminal(errw) || os.Getenv(progressEnv) != "" {
		return errw
	}
	return nil
}

// watchTimeout ends the process (exit 3) when the run takes longer than d
// (0: never; nil is returned). A kernel that hangs cannot be interrupted
// from the host: leaving the process is what releases the GPU (or the
// CPU's fibers).
func watchTimeout(errw io.Writer, kernel string, d time.Duration, cpub *gpuruntime.CPUBackend) *time.Timer {
	if d <= 0 {
		return nil
	}
	return time.AfterFunc(d, func() {
		why := ""
		if p, ok := cpuRunning(cpub); ok {
			if p.Slow(d) { // blocks still finishing: slow, not hung
				fmt.Fprintf(errw, "ldcheck: kernel %s: the cpu backend had finished %d of %d blocks of launch %d after %s; give --timeout more time or use a GPU (--backend cuda); no verdict\n", kernel, p.Done, p.Blocks, p.Launch, d)
				os.Exit(exitFailed)
			}
			why = fmt.Sprintf(" (cpu backend: no block or barrier of launch %d finished in the last %s", p.Launch, p.Idle.Round(time.Millisecond))
			if p.Waiting > 0 {
				why += fmt.Sprintf("; %d threads wait at a barrier", p.Waiting)
			}
			why += ")"
		}
		fmt.Fprintf(errw, "ldcheck: kernel %s did not finish within %s (--timeout): it hangs (a barrier not reached by every thread, a spin loop waiting on another block, ...) or needs longer%s; no verdict\n", kernel, d, why)
		os.Exit(exitFailed)
	})
}

// runChecked runs the launch, checked or (unchecked) from the native
// module, and gives its errors their exit status: the user's input (an
// access out of bounds, a --mem-limit too small) or a failure.
func runChecked(b gpuruntime.Backend, l gpuruntime.Launch, opt gpuruntime.Options, unchecked, proven bool) (*gpuruntime.Result, error) {
	run := gpuruntime.Check
	switch {
	case unchecked:
		run = gpuruntime.RunNative // the kernel as written, from the native module
	case proven:
		run = gpuruntime.RunProven // the same, reported as checked
	}
	res, err := run(b, l, opt)
	var oob *gpuruntime.OutOfBoundsError
	if errors.As(err, &oob) {
		return nil, &exitError{exitInput, fmt.Errorf("%w (on the %s backend; no verdict)", oob, b.Name())}
	}
	var mem *gpuruntime.MemoryError
	if errors.As(err, &mem) && mem.Limit {
		return nil, &exitError{exitInput, fmt.Errorf("kernel %s on the %s backend: %w (no verdict)", l.Kernel.Name, b.Name(), err)}
	}
	if err != nil {
		return nil, &exitError{exitFailed, fmt.Errorf("kernel %s on the %s backend: %w (no verdict)", l.Kernel.Name, b.Name(), err)}
	}
	return res, nil
}

// plainOutputs runs the launch as written, from the native module, and
// puts its outputs in res.
func (req *runRequest) plainOutputs(l gpuruntime.Launch, opt gpuruntime.Options, res *gpuruntime.Result) error {
	nb, _, err := openBackend(req.dir, req.m, req.backend, nativeModule, int(req.spec.Block.Count()), nil)
	if err != nil {
		return err
	}
	defer nb.Close()
	opt.Progress = nil
	plain, err := runChecked(nb, l, opt, true, false)
	if err != nil {
		return err
	}
	res.Outputs = plain.Outputs
	res.Notes = append(res.Notes, "the outputs are those of one more run of the kernel as written (the check's own ended with the conflicts it left out)")
	return nil
}

// explain names the statements of the races (explainRaces). The verdict
// stands if that fails; only the statements are missing, and the races
// say why.
func (req *runRequest) explain(errw io.Writer, backend string, l gpuruntime.Launch, res *gpuruntime.Result, all bool) {
	if err := explainRaces(req.dir, req.m, backend, l, res, all); err != nil {
		fmt.Fprintf(errw, "ldcheck: %v\n", err)
		for i := range res.Races {
			if len(res.Races[i].Accesses) == 0 && res.Races[i].Explanation == "" {
				res.Races[i].Explanation = err.Error()
			}
		}
	}
}

// writeReport writes the outputs and the report, and returns the exit
// status: 1 for races, 4 for a run that is no verdict (unless
// --allow-unchecked).
func (req *runRequest) writeReport(c *cli.Context, backend string, res *gpuruntime.Result, argText []string) error {
	m, k, spec := req.m, req.k, req.spec
	// Outputs first: a failure to write them must not follow a printed verdict.
	if len(spec.Outs) > 0 {
		if err := launch.WriteOutputs(spec.Outs, func(name string) []byte { return res.Outputs[name] }); err != nil {
			return &exitError{exitInput, err}
		}
	}
	notChecked := notCheckedReason(k, res)
	doc := &report.Doc{Kernel: k, KernelFile: m.KernelSource(k), Source: m.Source, Backend: backend, Result: res, Notes: req.notes,
		Launch: report.Launch{Grid: spec.Grid, Block: spec.Block, Shared: spec.Shared, Args: argText}, NotChecked: notChecked, Phases: c.Bool("v")}
	if wd, err := os.Getwd(); err == nil {
		doc.BaseDir = wd
	}
	var werr error
	switch req.format {
	case "json":
		werr = report.WriteJSON(c.App.Writer, doc)
	case "sarif":
		werr = report.WriteSARIF(c.App.Writer, doc)
	default:
		werr = report.WriteText(c.App.Writer, doc)
	}
	if werr != nil {
		return &exitError{exitFailed, fmt.Errorf("writing the report: %w", werr)}
	}
	if len(res.Races) > 0 {
		return &exitError{exitRace, nil}
	}
	if notChecked != "" {
		if c.Bool("allow-unchecked") {
			return nil
		}
		fmt.Fprintf(c.App.ErrWriter, "ldcheck: kernel %s ran, not checked (exit status 4; --allow-unchecked accepts it): %s\n", k.Name, notChecked)
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
	case len(res.UncheckedVars) > 0:
		return fmt.Sprintf("%s: proven race-free by the build for 1-D launches only (every access at the thread's own index), and this launch is not 1-D, so not checked; threads that differ only in y or z share those elements: index them with threadIdx.y/z too, or launch 1-D", strings.Join(res.UncheckedVars, ", "))
	}
	return ""
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

// registerCapEnv caps the registers of the instrumented kernels (a knob
// for experiments on occupancy; 0: the compiler's choice).
const registerCapEnv = "LDCHECK_MAX_REGISTERS"

// copyStoresEnv=1 makes a level 2 of one pass a region copy the pages its
// warps store to instead of storing in place (gpuruntime.Options.CopyStores):
// a knob for measuring the one against the other.
const copyStoresEnv = "LDCHECK_COPY_STORES"

// registerCap is the register limit of the instrumented kernels for blocks
// of threads threads: gpuruntime.RegisterCapFor unless registerCapEnv says
// otherwise; a malformed registerCapEnv is bad input, not a silent default.
func registerCap(threads int) (cap int, explicit bool, err error) {
	s := os.Getenv(registerCapEnv)
	if s == "" {
		return gpuruntime.RegisterCapFor(threads), false, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || v > 255 {
		return 0, true, fmt.Errorf("%s=%q: want the registers a thread may use, 16 to 255, or 0 for no cap (unset: %d, or %d for blocks of 288 to 512 threads, and in the one-pass module for blocks of up to 128)", registerCapEnv, s, gpuruntime.RegisterCap, gpuruntime.LargeBlockRegisterCap)
	}
	return v, true, nil
}

// module is which of a build's compiled modules a run loads.
type module int

const (
	checkedModule   module = iota // the instrumented kernels
	nativeModule                  // the kernels as written (--unchecked)
	detModule                     // the instrumented kernels with the deterministic merge (--deterministic; GPU only)
	intraWarpModule               // the instrumented kernels with the intra-warp check's hooks (--intra-warp; GPU only)
)

// openBackend picks the backend; auto prefers a usable GPU and says why
// it falls back to the CPU. mod says which of the build's modules to load;
// progress (nil: nowhere) hears of the modules the driver must compile.
func openBackend(dir string, m *manifest.Manifest, name string, mod module, threads int, progress io.Writer) (gpuruntime.Backend, []string, error) {
	native := mod == nativeModule
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
	switch mod {
	case detModule:
		// Never the checked module: it would run without the merge.
		ptx, what = m.DetPTX, "deterministic "
	case intraWarpModule:
		// Never the checked module: it would not look at the lanes.
		ptx, what = m.IntraWarpPTX, "intra-warp "
	}
	if name == "cuda" || name == "auto" {
		var err error
		if ptx == "" {
			err = fmt.Errorf("the build has no %sdevice module (no nvcc or clang-15 when it was built, or it failed: see ldcheck compile %s)", what, dir)
		} else {
			// The instrumented kernels are compiled with a cap on their
			// registers; the native module (the user's kernels as
			// written) is left alone.
			cap, explicit, capErr := registerCap(threads)
			if capErr != nil {
				return nil, notes, &exitError{exitInput, capErr}
			}
			if native {
				cap = 0
			} else if explicit && cap > 0 {
				notes = append(notes, fmt.Sprintf("%s=%d: instrumented kernels compiled with at most %d registers", registerCapEnv, cap, cap&^7))
			}
			var b *gpuruntime.CUDABackend
			b, err = gpuruntime.OpenCUDAProgress(filepath.Join(dir, ptx), symbols, cap, progress)
			if err == nil {
				if (mod == checkedModule || mod == intraWarpModule) && m.BlockPTX != "" {
					// Level 1 runs from its own module; without it, from
					// the checked one (slower, same verdicts).
					if lerr := b.LoadModule(gpuruntime.BlockModule, filepath.Join(dir, m.BlockPTX)); lerr != nil {
						notes = append(notes, fmt.Sprintf("level 1 runs from the checked module: %v", lerr))
					}
				}
				if (mod == checkedModule || mod == intraWarpModule) && m.TestedPTX != "" {
					// A launch whose only checks are its proofs' stride
					// tests runs from it; without it, from level 1's.
					if lerr := b.LoadModule(gpuruntime.TestedModule, filepath.Join(dir, m.TestedPTX)); lerr != nil {
						notes = append(notes, fmt.Sprintf("launches that only test strides run from level 1's module: %v", lerr))
					}
				}
				if mod == checkedModule && m.OnePassPTX != "" {
					// Level 2 in one pass a region runs from its own
					// module; without it, with both passes (slower).
					onceCap := cap
					if !explicit {
						onceCap = gpuruntime.OnePassRegisterCapFor(threads)
					}
					if lerr := b.LoadModuleCapped(gpuruntime.OnePassModule, filepath.Join(dir, m.OnePassPTX), onceCap); lerr != nil {
						notes = append(notes, fmt.Sprintf("level 2 replays every region: %v", lerr))
					}
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

// explainRaces reruns a racy launch with the build's tracing module on the
// backend the check ran on, to name each race's two statements.
func explainRaces(dir string, m *manifest.Manifest, backend string, l gpuruntime.Launch, res *gpuruntime.Result, all bool) error {
	var tb gpuruntime.Backend
	var err error
	switch {
	case backend == "cuda" && m.TracePTX != "":
		symbols := map[string]string{}
		for _, k := range m.Kernels {
			symbols[k.Name] = k.Symbol
		}
		tb, err = gpuruntime.OpenCUDA(filepath.Join(dir, m.TracePTX), symbols)
	case backend == "cpu" && m.TraceCPU != "":
		tb, err = gpuruntime.OpenCPU(filepath.Join(dir, m.TraceCPU))
	default:
		if len(m.Sites) == 0 {
			return fmt.Errorf("the statements of the races are not named: the kernels make no traced access (stores made by memcpy or memset are not traced)")
		}
		return fmt.Errorf("the statements of the races are not named: %s has no tracing module for the %s backend (built by an older ldcheck, or its compile failed: see ldcheck compile %s)", dir, backend, dir)
	}
	if err != nil {
		return fmt.Errorf("the statements of the races are not named: opening the tracing module: %w", err)
	}
	defer tb.Close()
	if err := gpuruntime.ExplainRaces(tb, l, res, m.Sites, gpuruntime.ExplainOptions{All: all}); err != nil {
		return fmt.Errorf("the statements of the races are not named: %w", err)
	}
	return nil
}

// cpuRunning is how far the CPU backend got with the launch it runs; false
// for another backend, or between launches.
func cpuRunning(b *gpuruntime.CPUBackend) (gpuruntime.LaunchProgress, bool) {
	if b == nil {
		return gpuruntime.LaunchProgress{}, false
	}
	return b.Running()
}
