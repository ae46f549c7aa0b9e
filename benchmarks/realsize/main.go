// Command realsize runs the real-size benchmark programs (issue 9) on a GPU
// machine and compares checked with native time. Each program is a folder
// of the benchmarks directory with kernel.cu, expect (the verdict:
// "none" or "race KIND SPACE SCOPE", SPACE may be "any") and one or more
// launch files (`ldcheck run` flags on one line): launch is the real-size
// launch, launch-NAME another one (e.g. scan8m/launch-1m), launch-small a
// small one for a quick check on the CPU backend (-small).
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
// For every launch, realsize runs
//
//	ldcheck run --backend cuda --format json --warmup --unchecked FLAGS BUILD   (native)
//	ldcheck run --backend cuda --format json --warmup FLAGS BUILD               (checked)
//
// each under -timeout, and prints a table last: program, expected verdict,
// the checked run's verdict (kind, space and scope of the first race, or
// none), its exit code, native and checked time (the sum of the JSON
// report's summary.phases), their ratio, both wall times, and whatever else
// the checked run's summary holds (copy_bytes, rounds, detection_probability
// when the runtime reports them). Every command and its raw output go to
// -log. It exits 1 when a verdict differs from the expectation.
//
//	realsize -ldcheck bin/ldcheck -log $OUT/realsize.log .dev/realsize benchmarks
//	realsize -small -backend cpu -arch '' -ldcheck /tmp/ldcheck /tmp/b benchmarks
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type race struct{ Kind, Space, Scope string }

type report struct {
	Verdict string
	Races   []race
	Summary map[string]json.RawMessage
}

type phase struct {
	Name    string
	Seconds float64
}

// result is one ldcheck run.
type result struct {
	rep    *report // nil when the output was not a JSON report
	code   int     // exit status; -1 when it did not exit (killed, not started)
	wall   time.Duration
	phases float64 // seconds, summed over summary.phases
	errMsg string  // last line of stderr, or why there is no report
}

// launchCase is one launch file of one program.
type launchCase struct {
	name   string // program, or program/NAME for launch-NAME
	build  string
	expect string
	flags  []string
}

func main() {
	bin := flag.String("ldcheck", "bin/ldcheck", "the ldcheck binary")
	logPath := flag.String("log", "realsize.log", "write every command and its raw output here")
	backend := flag.String("backend", "cuda", "ldcheck run --backend")
	small := flag.Bool("small", false, "use each program's launch-small instead of its real-size launches (a quick check, e.g. with -backend cpu -arch '')")
	timeout := flag.Duration("timeout", 10*time.Minute, "limit of each ldcheck run (also passed as its --timeout)")
	arch := flag.String("arch", "sm_90", "recompile each build's device module with nvcc for this architecture first (ldcheck compile --device-only) when the backend is cuda; empty: keep the build's PTX")
	only := flag.String("only", "", "comma-separated programs to run (default: all)")
	native := flag.Bool("native", true, "also run each launch unchecked (--unchecked) for the native time")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: realsize [flags] BUILDS_DIR [BENCHMARKS_DIR]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		flag.Usage()
		os.Exit(2)
	}
	builds, benchDir := flag.Arg(0), "benchmarks"
	if flag.NArg() == 2 {
		benchDir = flag.Arg(1)
	}
	logf, err := os.Create(*logPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer logf.Close()

	cases, err := findCases(benchDir, builds, *small, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realsize:", err)
		os.Exit(2)
	}
	if len(cases) == 0 {
		fmt.Fprintf(os.Stderr, "realsize: no programs (folders with kernel.cu, expect and launch files) in %s\n", benchDir)
		os.Exit(2)
	}

	compiled := map[string]string{} // build dir -> "" or why compile failed
	type row struct {
		c               launchCase
		native, checked result
		note            string
	}
	var rows []row
	for _, c := range cases {
		r := row{c: c}
		if _, err := os.Stat(filepath.Join(c.build, "manifest.json")); err != nil {
			r.note = "no build: " + err.Error()
			r.native.code, r.checked.code = -1, -1
			rows = append(rows, r)
			fmt.Fprintf(os.Stderr, "%s: %s\n", c.name, r.note)
			continue
		}
		if *arch != "" && *backend == "cuda" {
			msg, done := compiled[c.build]
			if !done {
				res := runLdcheck(logf, 5*time.Minute, *bin, "compile", "--device-only", "--arch", *arch, c.build)
				if res.code != 0 {
					msg = "compile failed: " + res.errMsg
				}
				compiled[c.build] = msg
			}
			if msg != "" {
				r.note = msg
				r.native.code, r.checked.code = -1, -1
				rows = append(rows, r)
				fmt.Fprintf(os.Stderr, "%s: %s\n", c.name, msg)
				continue
			}
		}
		base := []string{"run", "--backend", *backend, "--format", "json", "--warmup"}
		if *timeout > 0 {
			base = append(base, "--timeout", timeout.String())
		}
		if *native {
			args := append(append(append([]string{}, base...), "--unchecked"), c.flags...)
			r.native = runLdcheck(logf, *timeout, *bin, append(args, c.build)...)
		} else {
			r.native.code = -1
		}
		args := append(append([]string{}, base...), c.flags...)
		r.checked = runLdcheck(logf, *timeout, *bin, append(args, c.build)...)
		fmt.Fprintf(os.Stderr, "%s: %s (exit %d, %.1f s wall)\n", c.name, verdictOf(r.checked), r.checked.code, r.checked.wall.Seconds())
		rows = append(rows, r)
	}

	fmt.Printf("%-22s %-36s %-36s %-5s %4s %11s %11s %9s %9s %9s  %s\n",
		"program", "expected", "verdict", "match", "exit", "native ms", "checked ms", "ratio", "nat wall", "chk wall", "summary")
	bad := 0
	var notes []string
	for _, r := range rows {
		v := verdictOf(r.checked)
		ok := r.checked.rep != nil && matches(r.c.expect, r.checked.rep)
		match := "yes"
		if !ok {
			match, bad = "NO", bad+1
		}
		nat, chk, ratio := "-", "-", "-"
		if r.native.rep != nil {
			nat = fmt.Sprintf("%.3f", r.native.phases*1000)
		}
		if r.checked.rep != nil {
			chk = fmt.Sprintf("%.3f", r.checked.phases*1000)
		}
		if r.native.rep != nil && r.checked.rep != nil && r.native.phases > 0 {
			ratio = fmt.Sprintf("%.1fx", r.checked.phases/r.native.phases)
		}
		fmt.Printf("%-22s %-36s %-36s %-5s %4s %11s %11s %9s %9s %9s  %s\n",
			r.c.name, r.c.expect, v, match, code(r.checked.code), nat, chk, ratio,
			wall(r.native), wall(r.checked), extras(r.checked.rep))
		if r.note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", r.c.name, r.note))
		}
		if r.native.errMsg != "" && r.native.code != 0 {
			notes = append(notes, fmt.Sprintf("%s (native, exit %s): %s", r.c.name, code(r.native.code), r.native.errMsg))
		}
		if r.checked.errMsg != "" && r.checked.code != 0 && r.checked.code != 1 {
			notes = append(notes, fmt.Sprintf("%s (checked, exit %s): %s", r.c.name, code(r.checked.code), r.checked.errMsg))
		}
	}
	for _, n := range notes {
		fmt.Println("  " + n)
	}
	fmt.Printf("%d launches, %d verdicts differ from the expectation (backend %s; log %s)\n", len(rows), bad, *backend, *logPath)
	if bad > 0 {
		os.Exit(1)
	}
}

// findCases lists every program folder of dir (kernel.cu, expect and a
// launch file) and its launches, sorted by name.
func findCases(dir, builds string, small bool, only string) ([]launchCase, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	var cases []launchCase
	for _, e := range entries {
		if !e.IsDir() || (len(want) > 0 && !want[e.Name()]) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(p, "kernel.cu")); err != nil {
			continue
		}
		exp, err := os.ReadFile(filepath.Join(p, "expect"))
		if err != nil {
			continue
		}
		expect := strings.Join(strings.Fields(firstLine(string(exp))), " ")
		files, _ := filepath.Glob(filepath.Join(p, "launch*"))
		sort.Strings(files)
		for _, f := range files {
			suffix := strings.TrimPrefix(filepath.Base(f), "launch")
			if suffix != "" && !strings.HasPrefix(suffix, "-") {
				continue
			}
			if small != (suffix == "-small") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			flags := strings.Fields(firstLine(string(b)))
			if len(flags) == 0 {
				return nil, fmt.Errorf("%s is empty", f)
			}
			name := e.Name()
			if suffix != "" && suffix != "-small" {
				name += "/" + suffix[1:]
			}
			build := filepath.Join(builds, e.Name())
			if _, err := os.Stat(filepath.Join(build, "manifest.json")); err != nil {
				// ldcheck build's default output, next to the source.
				if def := filepath.Join(p, "kernel.ldcheck"); exists(filepath.Join(def, "manifest.json")) {
					build = def
				}
			}
			cases = append(cases, launchCase{name: name, build: build, expect: expect, flags: flags})
		}
	}
	return cases, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

// runLdcheck runs one ldcheck command under a time limit, logs it, and
// reads its JSON report when there is one. ldcheck's --timeout should end
// it first; this limit (30 s later) is for an ldcheck that cannot, and it
// kills the whole process group (ldcheck run on the CPU backend works in a
// child process).
func runLdcheck(logw io.Writer, limit time.Duration, bin string, args ...string) result {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, limit+30*time.Second)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	res := result{wall: time.Since(start), code: -1}
	if cmd.ProcessState != nil {
		res.code = cmd.ProcessState.ExitCode()
	}
	fmt.Fprintf(logw, "$ %s %s\n%s%s(exit %d, err %v, %s)\n\n", bin, strings.Join(args, " "), out.String(), errb.String(), res.code, err, res.wall)
	if ctx.Err() == context.DeadlineExceeded {
		res.errMsg = fmt.Sprintf("killed after %s", res.wall.Round(time.Second))
	} else if s := strings.TrimSpace(errb.String()); s != "" {
		lines := strings.Split(s, "\n")
		res.errMsg = lines[len(lines)-1]
	} else if err != nil && res.code == -1 {
		res.errMsg = err.Error()
	}
	if args[0] != "run" {
		return res
	}
	var rep report
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil || rep.Verdict == "" {
		if res.errMsg == "" {
			res.errMsg = "no JSON report"
		}
		return res
	}
	res.rep = &rep
	var phases []phase
	if raw, ok := rep.Summary["phases"]; ok {
		json.Unmarshal(raw, &phases)
	}
	for _, p := range phases {
		res.phases += p.Seconds
	}
	return res
}

func verdictOf(r result) string {
	switch {
	case r.rep == nil:
		return "error"
	case len(r.rep.Races) > 0:
		x := r.rep.Races[0]
		return "race " + x.Kind + " " + x.Space + " " + x.Scope
	}
	return r.rep.Verdict
}

// matches says whether a report has the verdict expect states: "none", or
// "race KIND SPACE SCOPE" with SPACE "any" for every space (the grammar of
// testdata/e2e's first lines).
func matches(expect string, rep *report) bool {
	f := strings.Fields(expect)
	if len(f) == 1 && f[0] == "none" {
		return rep.Verdict == "none" && len(rep.Races) == 0
	}
	if len(f) != 4 || f[0] != "race" {
		return false
	}
	for _, r := range rep.Races {
		if r.Kind == f[1] && (f[2] == "any" || r.Space == f[2]) && r.Scope == f[3] {
			return true
		}
	}
	return false
}

func code(c int) string {
	if c < 0 {
		return "-"
	}
	return strconv.Itoa(c)
}

func wall(r result) string {
	if r.code < 0 && r.wall == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fs", r.wall.Seconds())
}

// extras lists the summary fields beyond phases and levels: first those the
// memory-capped runtime reports when it has them, then any others, sorted.
func extras(rep *report) string {
	if rep == nil {
		return ""
	}
	known := []string{"copy_bytes", "rounds", "detection_probability"}
	skip := map[string]bool{"phases": true, "levels": true}
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
