// Command gpucheck runs on a GPU machine (nvcc and a driver, no Go, no
// libclang): for every build directory made by `ldcheck build`, it
// recompiles the device module with nvcc (`ldcheck compile`), runs the
// kernel with --backend cuda and --backend cpu using the launch line of its
// source file, checks the verdict against the file's `// expect:` line, and
// compares the two backends' reports (same races, units and byte ranges).
// It prints a table last and exits 1 if anything disagrees. With -rows
// FILE it keeps each kernel's row there as it ends and, run again, takes
// the kernels already there from it: compiling every test kernel's modules
// takes longer than one call on the GPU machine may run.
//
//	gpucheck -ldcheck bin/ldcheck -log $OUT/gpucheck.log [-rows FILE] BUILDS_DIR SOURCE_DIR...
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
	"strings"
	"sync"
	"time"
)

type race struct {
	Kind, Space, Scope, Variable string
	Region                       struct{ From, To int }
	Offset, Length               int64
	Units                        []int
	Count                        int
	// Accesses are the two statements the traced rerun named (issue 14).
	Accesses []struct {
		File string
		Line int
	}
}

// statements is the pairs of lines the races of a report name ("12 14"),
// sorted; empty when none was named.
func statements(rs []race) string {
	var out []string
	for _, r := range rs {
		if len(r.Accesses) == 2 {
			out = append(out, fmt.Sprintf("%s:%d %s:%d", filepath.Base(r.Accesses[0].File), r.Accesses[0].Line, filepath.Base(r.Accesses[1].File), r.Accesses[1].Line))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

type report struct {
	Verdict string
	Races   []race
	Summary struct {
		Phases []struct {
			Name    string
			Seconds float64
		}
	}
}

// row is one kernel's line of the table (kept by -rows as JSON).
type row struct{ Name, Expect, Cuda, CPU, Same, Stmts string }

func main() {
	bin := flag.String("ldcheck", "bin/ldcheck", "the ldcheck binary")
	logPath := flag.String("log", "", "write every command and its output here")
	arch := flag.String("arch", "sm_90", "nvcc architecture")
	jobs := flag.Int("j", 8, "kernels checked at once")
	runFlags := flag.String("run-flags", "", "more flags for both backends' ldcheck run, space-separated (--intra-warp=false: level 2 in one pass where the build proved it)")
	compile := flag.Bool("compile", true, "recompile each build's device modules with nvcc first (ldcheck compile --device-only); false: they were compiled already, e.g. in the background while a GPU machine did other work (the compile is most of a kernel's time)")
	rowsPath := flag.String("rows", "", "keep each finished kernel's row in this file (JSON lines) and take the kernels already there from it: a call cut by its time limit, run again, goes on where it stopped")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: gpucheck [-ldcheck BIN] [-log FILE] [-run-flags FLAGS] [-compile=false] BUILDS_DIR SOURCE_DIR...")
		os.Exit(2)
	}
	var log io.Writer = io.Discard
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer f.Close()
		log = f
	}
	dirs, _ := filepath.Glob(filepath.Join(flag.Arg(0), "*"))
	sort.Strings(dirs)
	rows := make([]*row, len(dirs))
	var mu sync.Mutex
	logf := func(format string, args ...any) {
		mu.Lock()
		fmt.Fprintf(log, format, args...)
		mu.Unlock()
	}
	check := func(i int, d string) {
		name := filepath.Base(d)
		src := ""
		for _, sd := range flag.Args()[1:] {
			if p := filepath.Join(sd, name+".cu"); exists(p) {
				src = p
			}
		}
		if src == "" {
			return
		}
		expect, launch := header(src)
		explain := explainHeader(src)
		if launch == nil {
			return
		}
		r := &row{Name: name, Expect: expect}
		rows[i] = r
		if e, ok := intraWarpOff(expect, *runFlags); ok {
			r.Expect, expect = e, "none"
		}
		if !*compile && !hasPTX(d) {
			r.Cuda, r.CPU, r.Same = "not compiled (no PTX)", "-", "no !"
			return
		}
		if *compile {
			if out, err := runCmd(logf, compileLimit, *bin, "compile", "--device-only", "--arch", *arch, d); err != nil {
				r.Cuda, r.CPU, r.Same = "compile failed", "-", "no !"
				logf("%s\n", out)
				return
			}
		}
		reps := map[string]*report{}
		for _, be := range []string{"cuda", "cpu"} {
			args := append([]string{"run", "--backend", be, "--format", "json"}, strings.Fields(*runFlags)...)
			args = append(args, launch...)
			args = append(args, d)
			out, err := runCmd(logf, runLimit, *bin, args...)
			var rep report
			verdict := ""
			if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil {
				verdict = "error"
				if err != nil {
					verdict = err.Error()
				}
			} else {
				reps[be] = &rep
				verdict = rep.Verdict
				if len(rep.Races) > 0 {
					verdict = fmt.Sprintf("race %s %s %s", rep.Races[0].Kind, rep.Races[0].Space, rep.Races[0].Scope)
				}
			}
			if be == "cuda" {
				r.Cuda = verdict
			} else {
				r.CPU = verdict
			}
		}
		switch {
		case reps["cuda"] == nil || reps["cpu"] == nil:
			r.Same = "no"
		case sameRaces(reps["cuda"].Races, reps["cpu"].Races, true):
			r.Same = "yes"
		case sameRaces(reps["cuda"].Races, reps["cpu"].Races, false):
			// Same races, other racy bytes: the backends computed different
			// values. The CPU backend runs warps in lockstep and neither
			// contracts a*b+c, so this points at something else (math
			// library functions such as expf differ in the last bit).
			r.Same = "same races, other byte counts"
			logf("%s: cuda races %+v\ncpu races %+v\n", name, reps["cuda"].Races, reps["cpu"].Races)
		default:
			r.Same = "differs"
			logf("%s: cuda races %+v\ncpu races %+v\n", name, reps["cuda"].Races, reps["cpu"].Races)
		}
		// The statements named: the same on both backends, and those of
		// the source's "// explain:" header among them.
		if reps["cuda"] != nil && reps["cpu"] != nil && len(reps["cuda"].Races)+len(reps["cpu"].Races) > 0 {
			sc, sp := statements(reps["cuda"].Races), statements(reps["cpu"].Races)
			switch {
			case sc != sp:
				r.Stmts = "differ"
				logf("%s: statements cuda [%s] cpu [%s]\n", name, sc, sp)
			case explain == "":
				r.Stmts = "same, no header"
			case strings.HasPrefix(explain, "none"):
				r.Stmts = "same (" + map[bool]string{true: "none, as the header says", false: "named, header says none"}[sc == ""] + ")"
			case strings.Contains(", "+sc+",", " "+explain+","), strings.Contains(sc, explain):
				r.Stmts = "same, = header"
			default:
				r.Stmts = "same, not the header's"
				logf("%s: statements [%s], header %q\n", name, sc, explain)
			}
		}
		// "unchecked": the kernel runs but ldcheck cannot check it; both
		// backends must say so, with no race.
		want := expect == "none" || expect == "unchecked"
		got := reps["cuda"] != nil && len(reps["cuda"].Races) == 0
		unchecked := reps["cuda"] != nil && reps["cuda"].Verdict == "unchecked" && reps["cpu"] != nil && reps["cpu"].Verdict == "unchecked"
		if !strings.HasPrefix(r.Same, "yes") && !strings.HasPrefix(r.Same, "same races") || want != got || (!want && !matches(expect, reps["cuda"].Races)) || (expect == "unchecked") != unchecked {
			r.Same += " !"
		}
	}
	earlier, err := readRows(*rowsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var keep io.Writer = io.Discard
	if *rowsPath != "" {
		f, err := os.OpenFile(*rowsPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer f.Close()
		keep = f
	}
	sem := make(chan bool, *jobs)
	var wg sync.WaitGroup
	done := 0
	for i, d := range dirs {
		if r, ok := earlier[filepath.Base(d)]; ok {
			rows[i] = r
			done++
			continue
		}
		wg.Add(1)
		sem <- true
		go func() {
			defer wg.Done()
			check(i, d)
			// Each kernel's row as it ends, on stderr: a call cut by its
			// time limit (each kernel's nvcc compile takes most of it)
			// still shows what was compared.
			mu.Lock()
			done++
			if r := rows[i]; r != nil {
				fmt.Fprintf(os.Stderr, "gpucheck %d/%d: %s: expect %s; cuda %s; cpu %s; same %s\n", done, len(dirs), r.Name, r.Expect, r.Cuda, r.CPU, r.Same)
				if line, err := json.Marshal(r); err == nil {
					fmt.Fprintf(keep, "%s\n", line)
				}
			}
			mu.Unlock()
			<-sem
		}()
	}
	wg.Wait()
	bad, n := 0, 0
	for _, r := range rows {
		if r == nil {
			continue
		}
		n++
		if strings.HasSuffix(r.Same, "!") {
			bad++
		}
	}
	fmt.Printf("%-24s %-34s %-34s %-34s %s\n", "kernel", "expected", "cuda", "cpu", "same")
	for _, r := range rows {
		if r != nil {
			fmt.Printf("%-24s %-34s %-34s %-34s %s\n", r.Name, r.Expect, r.Cuda, r.CPU, r.Same)
		}
	}
	fmt.Printf("%d kernels, %d disagreements\n", n, bad)
	// The statements of racy kernels (issue 14): reported apart, since
	// naming them is an explanation on top of the verdict.
	tally := map[string]int{}
	for _, r := range rows {
		if r != nil && r.Stmts != "" {
			tally[r.Stmts]++
			if r.Stmts == "differ" || r.Stmts == "same, not the header's" {
				fmt.Printf("statements %s: %s\n", r.Stmts, r.Name)
			}
		}
	}
	var keys []string
	for k := range tally {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("statements %-40s %d kernels\n", k+":", tally[k])
	}
	if bad > 0 {
		os.Exit(1)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// hasPTX says whether build dir d holds a device module: with
// -compile=false one compiled elsewhere, or the cuda run fails (exit
// status 3) for a reason that is not the kernel's.
func hasPTX(d string) bool {
	m, _ := filepath.Glob(filepath.Join(d, "*.ptx"))
	return len(m) > 0
}

// intraWarpOff is the expectation of a kernel run with runFlags: where
// they turn off the intra-warp check (--intra-warp=false) and the
// kernel's race is between the lanes of a warp, no check that runs can
// see it, and the verdict to expect is none. shown says so in the table.
func intraWarpOff(expect, runFlags string) (shown string, ok bool) {
	off := false
	for _, f := range strings.Fields(runFlags) { // (the last one given counts, as for ldcheck)
		switch f {
		case "--intra-warp=false", "-intra-warp=false":
			off = true
		case "--intra-warp", "-intra-warp", "--intra-warp=true", "-intra-warp=true":
			off = false
		}
	}
	if !off || !strings.HasSuffix(expect, " intra-warp") {
		return "", false
	}
	return "none (" + expect + ": intra-warp off)", true
}

// readRows reads the rows an earlier call kept (-rows), by kernel name: a
// missing file has none.
func readRows(path string) (map[string]*row, error) {
	rows := map[string]*row{}
	if path == "" {
		return rows, nil
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return rows, nil
	}
	if err != nil {
		return nil, err
	}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		r := &row{}
		if err := json.Unmarshal([]byte(line), r); err != nil || r.Name == "" {
			return nil, fmt.Errorf("%s:%d: not a row gpucheck kept (%v); remove the file to start again", path, i+1, err)
		}
		rows[r.Name] = r
	}
	return rows, nil
}

// explainHeader is the "// explain:" line of a source as "FILE:LINE FILE:LINE"
// (a bare LINE is in the source itself), or "none ..." as written.
func explainHeader(src string) string {
	b, _ := os.ReadFile(src)
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "// explain: ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 || f[0] == "none" || len(f) < 2 {
			return strings.TrimSpace(rest)
		}
		for i := 0; i < 2; i++ {
			if !strings.Contains(f[i], ":") {
				f[i] = filepath.Base(src) + ":" + f[i]
			}
		}
		return f[0] + " " + f[1]
	}
	return ""
}

func header(src string) (expect string, launch []string) {
	b, _ := os.ReadFile(src)
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "// expect: "); ok && expect == "" {
			expect = strings.TrimSpace(rest)
		}
		if rest, ok := strings.CutPrefix(line, "// launch: "); ok && launch == nil {
			launch = strings.Fields(rest)
		}
	}
	return expect, launch
}

// A hung kernel must cost one row of the table, not the whole run. A
// compile of five modules with nvcc, a dozen at once, can take minutes
// where a kernel has many barriers (each a copy of the checks).
const (
	runLimit     = 90 * time.Second
	compileLimit = 5 * time.Minute
)

func runCmd(logf func(string, ...any), limit time.Duration, bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	logf("$ %s %s\n%s%s(%v)\n", bin, strings.Join(args, " "), out.String(), errb.String(), err)
	return out.String(), err
}

// sameRaces compares the two backends' races: kinds, spaces, scopes,
// variables, regions, units and byte ranges.
func sameRaces(a, b []race, bytes bool) bool {
	key := func(rs []race) []string {
		var out []string
		for _, r := range rs {
			k := fmt.Sprintf("%s %s %s %s %d>%d", r.Kind, r.Space, r.Scope, r.Variable, r.Region.From, r.Region.To)
			if bytes {
				k += fmt.Sprintf(" @%d+%d units%v n%d", r.Offset, r.Length, r.Units, r.Count)
			}
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	ka, kb := key(a), key(b)
	return strings.Join(ka, "\n") == strings.Join(kb, "\n")
}

func matches(expect string, races []race) bool {
	f := strings.Fields(expect)
	if len(f) != 4 {
		return false
	}
	for _, r := range races {
		if r.Kind == f[1] && (f[2] == "any" || r.Space == f[2]) && r.Scope == f[3] {
			return true
		}
	}
	return false
}
