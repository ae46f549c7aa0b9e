// Command realsize is the benchmark runner of the suite: every program
// folder of the benchmarks directory (package ldcheck/benchmarks/realsize/suite
// describes them: kernel.cu, expect, launch, launch-small, launch-NAME, and
// gen/ or gen-from for programs with generated inputs) is run at real size
// on a GPU machine, checked and native, and compared with the expected
// verdict and with compute-sanitizer racecheck.
//
// The build directories are made beforehand where libclang is, one per
// program, named after it:
//
//	for d in benchmarks/*/; do n=$(basename $d); [ -f $d/kernel.cu ] &&
//	  ldcheck build -o .dev/realsize/$n $d/kernel.cu; done
//
// A program without BUILDS_DIR/NAME uses BENCHMARKS_DIR/NAME/kernel.ldcheck
// if there is one (what `ldcheck build benchmarks/NAME/kernel.cu` makes).
//
// Inputs: a program with a generator gets its files made first, once per
// generator and size (-size small for launch-small, real for the others),
// into -inputs DIR/OWNER-SIZE (default: a temporary folder), and @INPUTS@ in
// its launch lines becomes that folder. Generators are prebuilt binaries
// named after the folder that holds their source (-gen DIR; build them with
// CGO_ENABLED=0 where Go is, as the GPU machine has none); without -gen,
// realsize builds them itself with the go command on PATH.
//
// For every launch, realsize runs
//
//	ldcheck run --backend cuda --format json --warmup --unchecked FLAGS BUILD   (native, -n times)
//	ldcheck run --backend cuda --format json --warmup FLAGS BUILD               (checked, once)
//	compute-sanitizer --tool racecheck --target-processes all ldcheck run --backend cuda --unchecked FLAGS BUILD
//
// each under its time limit, after `ldcheck compile --device-only --arch
// sm_90` (an empty -arch keeps the build's PTX). Native time is the median over
// the -n runs of the sum of the JSON summary's phases (the kernel, timed by
// CUDA events); checked time is the sum of every phase of the checked run.
// The check kernels' bandwidth (the phases that report bytes: bytes moved
// over their seconds) is compared with a device-to-device copy measured in
// the same call by benchmarks/cudasmoke (-copy-gbps gives the figure
// instead). The table comes last: verdicts, times, slowdown, bandwidth,
// the most memory the private copies took (summary.copy_bytes), racecheck's
// hazards and wall time, and the rest of the checked run's summary; then the
// geometric mean and maximum of the slowdowns over the race-free launches,
// the racy ones, and all. Every command and its raw output go to -log, with
// each checked run's phases. For a race-free program (-outputs, the
// default) the last native run and the checked run also write the
// launch's arrays (suite.Program.Outputs), which must hold the same bytes:
// a wrong merge of private copies leaves the verdict right and the outputs
// wrong. It exits 1 when a verdict differs from expect, or such outputs.
//
//	realsize -ldcheck bin/ldcheck -gen .dev/gen -log $OUT/realsize.log .dev/realsize benchmarks
//	realsize -small -backend cpu -arch '' -racecheck=false -ldcheck /tmp/ldcheck /tmp/b benchmarks
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"ldcheck/benchmarks/realsize/suite"
)

type report struct {
	Verdict string
	Races   []suite.Race
	Summary map[string]json.RawMessage
}

type phase struct {
	Name    string
	Seconds float64
	Bytes   int64
}

// result is one ldcheck run.
type result struct {
	rep    *report // nil when the output was not a JSON report
	code   int     // exit status; -1 when it did not exit (killed, not started)
	wall   time.Duration
	phases []phase
	total  float64 // seconds, summed over summary.phases
	errMsg string  // why it failed: last line of stderr, killed, no report
}

func (r result) ok() bool { return r.rep != nil && (r.code == 0 || r.code == 1) }

// checkBandwidth is the check kernels' bytes over their seconds (GB/s), 0
// when no phase reports bytes.
func (r result) checkBandwidth() float64 {
	var b int64
	var s float64
	for _, p := range r.phases {
		if p.Bytes > 0 && p.Seconds > 0 {
			b += p.Bytes
			s += p.Seconds
		}
	}
	if s == 0 {
		return 0
	}
	return float64(b) / s / 1e9
}

// copyBytes is summary.copy_bytes, -1 when absent.
func (r result) copyBytes() int64 {
	if r.rep == nil {
		return -1
	}
	raw, ok := r.rep.Summary["copy_bytes"]
	if !ok {
		return -1
	}
	var n int64
	if json.Unmarshal(raw, &n) != nil {
		return -1
	}
	return n
}

// racecheck is compute-sanitizer's outcome on one launch.
type racecheck struct {
	ran     bool
	hazards int // -1: no summary line
	wall    time.Duration
	note    string // timed out, error, skipped
}

func (r racecheck) String() string {
	switch {
	case !r.ran:
		return "-"
	case r.hazards >= 0:
		return fmt.Sprintf("%d hazards", r.hazards)
	}
	return r.note
}

// row is one launch of one program.
type row struct {
	name, expect string
	native       float64 // median seconds of the successful native runs; 0 when none
	nativeWall   time.Duration
	checked      result
	rc           racecheck
	notes        []string
	copyGBps     float64 // the copy bandwidth of the call that ran it (-results); 0: this call's
	// outputs: for a race-free launch (-outputs), "same" when every array
	// (suite.Program.Outputs) held the bytes of the last native run after
	// the checked run, else which differ and where; "" when not compared.
	outputs string
}

func (r *row) verdict() string {
	if r.checked.rep == nil {
		return "error"
	}
	return suite.Verdict(r.checked.rep.Verdict, r.checked.rep.Races)
}

func (r *row) match() bool {
	return r.checked.ok() && suite.Matches(r.expect, r.checked.rep.Verdict, r.checked.rep.Races)
}

func (r *row) slowdown() float64 {
	if r.native > 0 && r.checked.ok() && r.checked.total > 0 {
		return r.checked.total / r.native
	}
	return 0
}

type config struct {
	bin, backend, arch, only    string
	builds, bench               string
	small, racecheck, outputs   bool
	runs                        int
	timeout, rcTimeout          time.Duration
	sanitizer, cudasmoke        string
	copyGBps                    float64
	copyMiB                     int
	gen, inputs                 string
	results                     string
	log                         io.Writer
	stdout, stderr              io.Writer
	logPath                     string
	goCmd                       string // "" when there is none
	sanitizerPath, sanitizerWhy string
}

func main() {
	var c config
	flag.StringVar(&c.bin, "ldcheck", "bin/ldcheck", "the ldcheck binary")
	flag.StringVar(&c.logPath, "log", "realsize.log", "write every command and its raw output here")
	flag.StringVar(&c.backend, "backend", "cuda", "ldcheck run --backend")
	flag.BoolVar(&c.small, "small", false, "run each program's launch-small instead of its real-size launches (a quick check of the verdicts, e.g. with -backend cpu -arch '')")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Minute, "limit of each ldcheck run and each generator run (also passed as ldcheck's --timeout)")
	flag.StringVar(&c.arch, "arch", "sm_90", "recompile each build's device module with nvcc for this architecture first (ldcheck compile --device-only) when the backend is cuda; empty: keep the build's PTX")
	flag.StringVar(&c.only, "only", "", "comma-separated programs (NAME, or NAME/LAUNCH for one launch-LAUNCH) to run (default: all)")
	flag.IntVar(&c.runs, "n", 5, "native (--unchecked) runs per launch; the table shows their median; 0: none")
	native := flag.Bool("native", true, "run each launch unchecked for the native time (false is -n 0)")
	flag.StringVar(&c.gen, "gen", "", "folder of prebuilt generator binaries, named after the program folder holding gen/ (CGO_ENABLED=0 go build -o DIR/NAME ./benchmarks/NAME/gen); default: build them with the go command on PATH")
	flag.StringVar(&c.inputs, "inputs", "", "folder for generated inputs, kept afterwards, and inputs a previous run left there (DIR/NAME-SIZE/.done) are used again; default: a temporary folder, removed at the end")
	flag.BoolVar(&c.outputs, "outputs", true, "for race-free programs, compare the arrays after the checked run with those of the last native run (each written to a temporary folder): a wrong merge of private copies changes them while the verdict stays right")
	flag.BoolVar(&c.racecheck, "racecheck", true, "also run compute-sanitizer --tool racecheck on each launch (backend cuda, when compute-sanitizer is there)")
	flag.DurationVar(&c.rcTimeout, "racecheck-timeout", 90*time.Second, "limit of each compute-sanitizer run")
	flag.StringVar(&c.sanitizer, "sanitizer", "compute-sanitizer", "compute-sanitizer binary")
	flag.StringVar(&c.results, "results", "", "keep each finished launch in this file (JSON lines) and take the launches already there from it instead of running them: a run split over several calls, or cut short, goes on where it stopped, and each call's table covers every launch measured so far (delete a line to measure that launch again)")
	flag.Float64Var(&c.copyGBps, "copy-gbps", 0, "device-to-device copy bandwidth (GB/s, read plus write) to compare the check kernels with; 0: measure it with cudasmoke (backend cuda)")
	flag.StringVar(&c.cudasmoke, "cudasmoke", "", "the cudasmoke binary for the copy bandwidth (default: cudasmoke beside -ldcheck, else built with go when there is go)")
	flag.IntVar(&c.copyMiB, "copy-mib", 256, "size of cudasmoke's device-to-device copy, MiB")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: realsize [flags] BUILDS_DIR [BENCHMARKS_DIR]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 || c.runs < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if !*native {
		c.runs = 0
	}
	c.builds, c.bench = flag.Arg(0), "benchmarks"
	if flag.NArg() == 2 {
		c.bench = flag.Arg(1)
	}
	c.stdout, c.stderr = os.Stdout, os.Stderr
	c.goCmd = suite.GoCommand()
	logf, err := os.Create(c.logPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realsize:", err)
		os.Exit(2)
	}
	c.log = logf
	code := run(&c)
	logf.Close()
	os.Exit(code)
}

// run runs the suite and returns the exit status.
func run(c *config) int {
	progs, err := suite.Load(c.bench)
	if err != nil {
		fmt.Fprintln(c.stderr, "realsize:", err)
		return 2
	}
	want := map[string]bool{}
	for _, n := range strings.Split(c.only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	tmp, err := os.MkdirTemp("", "realsize-")
	if err != nil {
		fmt.Fprintln(c.stderr, "realsize:", err)
		return 2
	}
	defer os.RemoveAll(tmp)
	gens := &suite.Generators{Bench: c.bench, Prebuilt: c.gen, BuildDir: filepath.Join(tmp, "gen"),
		Inputs: c.inputs, Reuse: c.inputs != "", Timeout: c.timeout, Log: c.log}
	if c.gen == "" {
		gens.Go = c.goCmd
	}
	if c.inputs == "" {
		gens.Inputs = filepath.Join(tmp, "inputs")
	}
	c.sanitizerPath, c.sanitizerWhy = findSanitizer(c)
	saved := map[string]*row{}
	if c.results != "" {
		if saved, err = loadRows(c.results); err != nil {
			fmt.Fprintln(c.stderr, "realsize: -results:", err)
			return 2
		}
		// Before the first launch, not after it: a file that cannot be
		// written would lose that launch's minutes.
		if f, err := os.OpenFile(c.results, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			fmt.Fprintln(c.stderr, "realsize: -results:", err)
			return 2
		} else {
			f.Close()
		}
	}

	// The reference for the check kernels, measured first, in this call.
	copyGBps, copyNote := c.copyGBps, "given (-copy-gbps)"
	if copyGBps == 0 {
		if c.backend == "cuda" {
			copyGBps, copyNote = measureCopy(c, tmp)
			fmt.Fprintf(c.stderr, "copy bandwidth: %.1f GB/s (%s)\n", copyGBps, copyNote)
		} else {
			copyNote = "not measured (backend " + c.backend + ")"
		}
	}

	var rows []*row
	found, reused := 0, 0
	compiled := map[string]string{} // build dir -> "" or why compile failed
	for _, p := range progs {
		if len(want) > 0 && !want[p.Name] && !wantsLaunch(want, p) {
			continue
		}
		found++
		if p.Err != nil {
			r := &row{name: p.Name, expect: p.Expect}
			r.checked.code = -1
			r.notes = append(r.notes, "not a well-formed program: "+strings.ReplaceAll(p.Err.Error(), "\n", "; "))
			fmt.Fprintf(c.stderr, "%s: %s\n", p.Name, r.notes[0])
			rows = append(rows, r)
			continue
		}
		for _, l := range p.Launches {
			if l.Small != c.small || (len(want) > 0 && !want[p.Name] && !want[l.Name]) {
				continue
			}
			if r, ok := saved[l.Name]; ok {
				fmt.Fprintf(c.stderr, "%s: measured earlier (%s)\n", l.Name, c.results)
				rows = append(rows, r)
				reused++
				continue
			}
			r := runLaunch(c, p, l, gens, compiled)
			if c.results != "" {
				r.copyGBps = copyGBps
				if err := appendRow(c.results, r); err != nil {
					fmt.Fprintln(c.stderr, "realsize: -results:", err)
					return 2
				}
			}
			rows = append(rows, r)
		}
	}
	if found == 0 {
		fmt.Fprintf(c.stderr, "realsize: no programs (folders with kernel.cu) in %s%s\n", c.bench, map[bool]string{true: " matching -only " + c.only}[c.only != ""])
		return 2
	}
	return printTable(c, rows, reused, copyGBps, copyNote)
}

func wantsLaunch(want map[string]bool, p suite.Program) bool {
	for _, l := range p.Launches {
		if want[l.Name] {
			return true
		}
	}
	return false
}

// runLaunch runs one launch: inputs, compile, native runs, checked run,
// racecheck.
func runLaunch(c *config, p suite.Program, l suite.Launch, gens *suite.Generators, compiled map[string]string) *row {
	r := &row{name: l.Name, expect: p.Expect}
	r.checked.code = -1
	fail := func(msg string) *row {
		r.notes = append(r.notes, msg)
		fmt.Fprintf(c.stderr, "%s: %s\n", r.name, msg)
		return r
	}
	build := filepath.Join(c.builds, p.Name)
	if !exists(filepath.Join(build, "manifest.json")) {
		if def := filepath.Join(p.Dir, "kernel.ldcheck"); exists(filepath.Join(def, "manifest.json")) {
			build = def // ldcheck build's default output, next to the source
		} else {
			return fail("no build: no " + filepath.Join(build, "manifest.json"))
		}
	}
	inputs, err := gens.InputsFor(p, l)
	if err != nil {
		return fail("inputs: " + err.Error())
	}
	flags := l.Flags
	if inputs != "" {
		flags = l.WithInputs(inputs)
	}
	if c.arch != "" && c.backend == "cuda" {
		msg, done := compiled[build]
		if !done {
			res := runLdcheck(c, 5*time.Minute, "compile", "--device-only", "--arch", c.arch, build)
			if res.code != 0 {
				msg = "compile failed: " + res.errMsg
			}
			compiled[build] = msg
		}
		if msg != "" {
			return fail(msg)
		}
	}
	base := []string{"run", "--backend", c.backend, "--format", "json", "--warmup"}
	if c.timeout > 0 {
		base = append(base, "--timeout", c.timeout.String())
	}
	// The arrays of a race-free launch, written by the last native run and
	// the checked one.
	var outputs []string
	outDir := ""
	if c.outputs && p.Expect == "none" && c.runs > 0 {
		names, err := p.Outputs(flags)
		if err != nil {
			return fail(err.Error())
		}
		if outDir, err = os.MkdirTemp("", "realsize-outputs-"); err != nil {
			return fail(err.Error())
		}
		defer os.RemoveAll(outDir)
		outputs = names
	}
	var secs []float64
	var walls []time.Duration
	nativeOut := false
	for i := 0; i < c.runs; i++ {
		args := append(append(append([]string{}, base...), "--unchecked"), flags...)
		if i == c.runs-1 && outDir != "" {
			args = append(args, suite.OutFlags(outDir, "native", outputs)...)
		}
		res := runLdcheck(c, c.timeout, append(args, build)...)
		nativeOut = res.code == 0 && res.rep != nil
		if res.code == 0 && res.rep != nil {
			secs = append(secs, res.total)
			walls = append(walls, res.wall)
		} else {
			r.notes = append(r.notes, fmt.Sprintf("native run %d: %s", i+1, res.errMsg))
		}
	}
	if len(secs) > 0 {
		r.native = median(secs)
		sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
		r.nativeWall = walls[len(walls)/2]
		sort.Float64s(secs)
		fmt.Fprintf(c.log, "# %s: native %d runs, ms: %s; median %.3f\n\n", r.name, len(secs), msList(secs), r.native*1000)
	}
	args := append(append([]string{}, base...), flags...)
	if outDir != "" {
		args = append(args, suite.OutFlags(outDir, "checked", outputs)...)
	}
	r.checked = runLdcheck(c, c.timeout, append(args, build)...)
	logPhases(c.log, r.name, r.checked)
	if !r.checked.ok() {
		r.notes = append(r.notes, "checked run: "+r.checked.errMsg)
	}
	if outDir != "" && nativeOut && r.checked.ok() {
		diff, err := suite.SameOutputs(outDir, "checked", "native", outputs)
		switch {
		case err != nil:
			r.notes = append(r.notes, "outputs not compared: "+err.Error())
		case diff != "":
			r.outputs = diff
			r.notes = append(r.notes, "after the checked run, outputs differ from the kernel's as written: "+diff)
		default:
			r.outputs = "same"
		}
	}
	if c.racecheck && c.backend == "cuda" && c.sanitizerPath != "" {
		r.rc = runRacecheck(c, flags, build)
	}
	fmt.Fprintf(c.stderr, "%s: %s (exit %d, %.1f s wall); native %.3f ms; checked %.3f ms; racecheck %s; outputs %s\n",
		r.name, r.verdict(), r.checked.code, r.checked.wall.Seconds(), r.native*1000, r.checked.total*1000, r.rc, cmp.Or(r.outputs, "not compared"))
	return r
}

// runLdcheck runs one ldcheck command, logs it, and reads its JSON report
// when there is one. ldcheck's --timeout should end it first; the limit
// here (30 s later) is for an ldcheck that cannot.
func runLdcheck(c *config, limit time.Duration, args ...string) result {
	if limit > 0 {
		limit += 30 * time.Second
	}
	x := suite.Exec(limit, c.log, nil, "", c.bin, args...)
	res := result{code: x.Code, wall: x.Wall}
	if x.Code != 0 {
		res.errMsg = x.Why()
	}
	if args[0] != "run" {
		return res
	}
	var rep report
	if err := json.Unmarshal(x.Stdout, &rep); err != nil || rep.Verdict == "" {
		if res.errMsg == "" {
			res.errMsg = "no JSON report"
		}
		return res
	}
	res.rep = &rep
	if raw, ok := rep.Summary["phases"]; ok {
		json.Unmarshal(raw, &res.phases)
	}
	for _, p := range res.phases {
		res.total += p.Seconds
	}
	return res
}

// logPhases writes a checked run's phases to the log, one a line.
func logPhases(w io.Writer, name string, r result) {
	if r.rep == nil {
		return
	}
	fmt.Fprintf(w, "# %s: checked run, %d phases, %.3f ms in all\n", name, len(r.phases), r.total*1000)
	for _, p := range r.phases {
		bw := ""
		if p.Bytes > 0 && p.Seconds > 0 {
			bw = fmt.Sprintf("  %d bytes, %.1f GB/s", p.Bytes, float64(p.Bytes)/p.Seconds/1e9)
		}
		fmt.Fprintf(w, "#   %12.3f ms  %s%s\n", p.Seconds*1000, p.Name, bw)
	}
	fmt.Fprintln(w)
}

var hazardsRE = regexp.MustCompile(`RACECHECK SUMMARY: (\d+) hazard`)

// findSanitizer resolves compute-sanitizer: "" and why when racecheck is
// off or there is none.
func findSanitizer(c *config) (string, string) {
	switch {
	case !c.racecheck:
		return "", "off (-racecheck=false)"
	case c.backend != "cuda":
		return "", "skipped (backend " + c.backend + ")"
	}
	if p, err := exec.LookPath(c.sanitizer); err == nil {
		return p, ""
	}
	if c.sanitizer == "compute-sanitizer" {
		for _, p := range []string{"/usr/local/cuda/bin/compute-sanitizer", "/usr/local/cuda/compute-sanitizer/compute-sanitizer"} {
			if exists(p) {
				return p, ""
			}
		}
	}
	return "", "skipped (no " + c.sanitizer + ")"
}

// runRacecheck runs compute-sanitizer racecheck on the launch, unchecked
// (ldcheck run does its work in a child process: --target-processes all).
func runRacecheck(c *config, flags []string, build string) racecheck {
	args := []string{"--tool", "racecheck", "--target-processes", "all", c.bin, "run", "--backend", "cuda", "--unchecked"}
	if c.rcTimeout > 0 {
		args = append(args, "--timeout", c.rcTimeout.String())
	}
	args = append(append(args, flags...), build)
	x := suite.Exec(c.rcTimeout, c.log, nil, "", c.sanitizerPath, args...)
	rc := racecheck{ran: true, hazards: -1, wall: x.Wall}
	out := string(x.Stdout) + string(x.Stderr)
	if m := hazardsRE.FindStringSubmatch(out); m != nil && !x.Killed {
		rc.hazards, _ = strconv.Atoi(m[1])
		return rc
	}
	switch {
	case x.Killed || strings.Contains(out, "did not finish within"):
		rc.note = fmt.Sprintf("timed out (>%s)", c.rcTimeout)
	default:
		rc.note = "error (exit " + strconv.Itoa(x.Code) + ")"
	}
	return rc
}

var copyRE = regexp.MustCompile(`memcpy DtoD \d+ MiB\s+ok; [0-9.]+ ms/copy; ([0-9.]+) GB/s`)

// measureCopy runs cudasmoke's device-to-device copy and returns its
// bandwidth (GB/s, read plus write), or 0 and why not.
func measureCopy(c *config, tmp string) (float64, string) {
	smoke := c.cudasmoke
	if smoke == "" {
		smoke = filepath.Join(filepath.Dir(c.bin), "cudasmoke")
	}
	if !exists(smoke) {
		if c.cudasmoke != "" || c.goCmd == "" {
			return 0, "not measured: no " + smoke + " (CGO_ENABLED=0 go build -o " + smoke + " ./benchmarks/cudasmoke, or give -copy-gbps)"
		}
		smoke = filepath.Join(tmp, "cudasmoke")
		x := suite.Exec(5*time.Minute, c.log, []string{"CGO_ENABLED=0"}, c.bench, c.goCmd, "build", "-o", smoke, "./cudasmoke")
		if x.Code != 0 {
			return 0, "not measured: building cudasmoke: " + x.Why()
		}
	}
	src := filepath.Join(c.bench, "cudasmoke", "vadd.cu")
	ptx := filepath.Join(tmp, "vadd.ptx")
	arch := c.arch
	if arch == "" {
		arch = "sm_80"
	}
	var x suite.Result
	if nvcc, err := exec.LookPath("nvcc"); err == nil {
		x = suite.Exec(5*time.Minute, c.log, nil, "", nvcc, "-ptx", "-arch="+arch, "-o", ptx, src)
	} else if clang, err := exec.LookPath("clang-15"); err == nil {
		x = suite.Exec(5*time.Minute, c.log, nil, "", clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib", "-O2", "-S", "-o", ptx, src)
	} else {
		return 0, "not measured: neither nvcc nor clang-15 to compile " + src + " (give -copy-gbps)"
	}
	if x.Code != 0 {
		return 0, "not measured: compiling " + src + ": " + x.Why()
	}
	x = suite.Exec(5*time.Minute, c.log, nil, "", smoke, "-copy-mib", strconv.Itoa(c.copyMiB), ptx)
	if x.Code != 0 {
		return 0, "not measured: cudasmoke: " + x.Why()
	}
	m := copyRE.FindSubmatch(x.Stdout)
	if m == nil {
		return 0, "not measured: no copy line in cudasmoke's output"
	}
	gbps, _ := strconv.ParseFloat(string(m[1]), 64)
	return gbps, fmt.Sprintf("measured (cudasmoke -copy-mib %d)", c.copyMiB)
}

// printTable prints the table (reused of its rows taken from -results),
// the notes, the slowdown summary, and returns the exit status.
func printTable(c *config, rows []*row, reused int, copyGBps float64, copyNote string) int {
	w := c.stdout
	fmt.Fprintf(w, "%-22s %-36s %-36s %-5s %4s %11s %11s %9s %8s %6s %10s %-13s %8s %9s  %s\n",
		"program", "expected", "verdict", "match", "exit", "native ms", "checked ms", "slowdown",
		"chk GB/s", "%copy", "extra MiB", "racecheck", "rc wall", "chk wall", "summary")
	bad := 0
	var notes []string
	for _, r := range rows {
		match := "yes"
		if !r.match() {
			match, bad = "NO", bad+1
		}
		nat, chk, slow, gbps, pct, extra, rcWall, chkWall := "-", "-", "-", "-", "-", "-", "-", "-"
		if r.native > 0 {
			nat = fmt.Sprintf("%.3f", r.native*1000)
		}
		if r.checked.rep != nil {
			chk = fmt.Sprintf("%.3f", r.checked.total*1000)
		}
		if s := r.slowdown(); s > 0 {
			slow = fmt.Sprintf("%.1fx", s)
		}
		if bw := r.checked.checkBandwidth(); bw > 0 {
			gbps = fmt.Sprintf("%.0f", bw)
			if bw < 10 {
				gbps = fmt.Sprintf("%.2f", bw) // the cpu backend
			}
			if ref := cmp.Or(r.copyGBps, copyGBps); ref > 0 {
				pct = fmt.Sprintf("%.0f%%", 100*bw/ref)
			}
		}
		if n := r.checked.copyBytes(); n >= 0 {
			extra = fmt.Sprintf("%.1f", float64(n)/(1<<20))
		}
		if r.rc.ran {
			rcWall = fmt.Sprintf("%.1fs", r.rc.wall.Seconds())
		}
		if r.checked.code >= 0 {
			chkWall = fmt.Sprintf("%.2fs", r.checked.wall.Seconds())
		}
		code := "-"
		if r.checked.code >= 0 {
			code = strconv.Itoa(r.checked.code)
		}
		fmt.Fprintf(w, "%-22s %-36s %-36s %-5s %4s %11s %11s %9s %8s %6s %10s %-13s %8s %9s  %s\n",
			r.name, r.expect, r.verdict(), match, code, nat, chk, slow, gbps, pct, extra,
			r.rc.String(), rcWall, chkWall, extras(r.checked.rep))
		for _, n := range r.notes {
			notes = append(notes, r.name+": "+n)
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
	if copyGBps > 0 {
		fmt.Fprintf(w, "copy bandwidth (device to device, read plus write): %.1f GB/s, %s; %%copy is the check kernels' GB/s against it%s\n", copyGBps, copyNote,
			map[bool]string{true: " (launches measured earlier: against their own call's)"}[reused > 0])
	} else {
		fmt.Fprintf(w, "copy bandwidth: %s\n", copyNote)
	}
	if c.sanitizerWhy != "" {
		fmt.Fprintf(w, "racecheck: %s\n", c.sanitizerWhy)
	}
	var free, racy, all []float64
	var maxFree, maxRacy, maxAll string
	for _, r := range rows {
		s := r.slowdown()
		if s == 0 {
			continue
		}
		all, maxAll = appendMax(all, s, maxAll, r.name)
		if r.expect == "none" {
			free, maxFree = appendMax(free, s, maxFree, r.name)
		} else {
			racy, maxRacy = appendMax(racy, s, maxRacy, r.name)
		}
	}
	native := fmt.Sprintf("median of %d native runs", c.runs)
	fmt.Fprintf(w, "slowdown (checked ms / %s):\n", native)
	fmt.Fprintln(w, "  "+slowdownLine("race-free launches (expect none)", free, maxFree))
	fmt.Fprintln(w, "  "+slowdownLine("racy launches (expect race)", racy, maxRacy))
	fmt.Fprintln(w, "  "+slowdownLine("all launches", all, maxAll))
	from := ""
	if reused > 0 {
		from = fmt.Sprintf(", %d of them measured earlier, from %s", reused, c.results)
	}
	same, differ := 0, 0
	for _, r := range rows {
		switch r.outputs {
		case "":
		case "same":
			same++
		default:
			differ++
		}
	}
	fmt.Fprintf(w, "outputs after the checked run against the kernel's as written (race-free launches): %d the same, %d differ\n", same, differ)
	fmt.Fprintf(w, "%d launches%s, %d verdicts differ from the expectation (backend %s; log %s)\n", len(rows), from, bad, c.backend, c.logPath)
	if bad > 0 || differ > 0 {
		return 1
	}
	return 0
}

// appendMax appends s to xs and keeps the name of the largest.
func appendMax(xs []float64, s float64, maxName, name string) ([]float64, string) {
	if len(xs) == 0 || s > slices.Max(xs) {
		maxName = name
	}
	return append(xs, s), maxName
}

func slowdownLine(what string, xs []float64, maxName string) string {
	if len(xs) == 0 {
		return what + ": none measured"
	}
	return fmt.Sprintf("%s: geometric mean %.1fx, max %.1fx (%s), over %d", what, geomean(xs), slices.Max(xs), maxName, len(xs))
}

func geomean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func msList(secs []float64) string {
	var parts []string
	for _, s := range secs {
		parts = append(parts, fmt.Sprintf("%.3f", s*1000))
	}
	return strings.Join(parts, " ")
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// extras lists the summary fields beyond phases, levels and copy_bytes
// (a column of its own): first those the memory-capped runtime reports,
// then any others, sorted.
func extras(rep *report) string {
	if rep == nil {
		return ""
	}
	known := []string{"rounds", "detection_probability"}
	skip := map[string]bool{"phases": true, "levels": true, "copy_bytes": true}
	var keys []string
	for _, k := range known {
		if _, ok := rep.Summary[k]; ok {
			keys = append(keys, k)
			skip[k] = true
		}
	}
	var rest []string
	for k := range rep.Summary {
		if !skip[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	keys = append(keys, rest...)
	var parts []string
	for _, k := range keys {
		v := compact(rep.Summary[k])
		if v == "" || v == "null" || v == `""` {
			continue
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

// compact prints a JSON value on one line: strings unquoted when they have
// no spaces, everything else as compact JSON.
func compact(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil && !strings.ContainsAny(s, " \t\n") {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
