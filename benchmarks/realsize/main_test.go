package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ldcheck/benchmarks/realsize/suite"
)

// The test binary doubles as a fake ldcheck, compute-sanitizer and
// cudasmoke (REALSIZE_FAKE says which), so the runner is tested without a
// GPU, libclang or a C++ compiler.
func TestMain(m *testing.M) {
	switch os.Getenv("REALSIZE_FAKE") {
	case "ldcheck":
		os.Exit(fakeLdcheck(os.Args[1:]))
	case "sanitizer":
		os.Exit(fakeSanitizer(os.Args[1:]))
	case "cudasmoke":
		fmt.Println("memcpy DtoD 256 MiB          ok; 0.180 ms/copy; 2982.6 GB/s (read+write)")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeLdcheck plays ldcheck: compile succeeds; run reads the build
// folder's control files (native-ms: the kernel times of successive
// unchecked runs; verdict: "none" or "race KIND SPACE SCOPE"; differ: the
// arrays a checked run writes other bytes to than an unchecked one),
// checks that every file: argument exists, and writes each --out array.
func fakeLdcheck(args []string) int {
	if len(args) == 0 {
		return 2
	}
	if args[0] == "compile" {
		return 0
	}
	build := args[len(args)-1]
	unchecked := false
	for _, a := range args {
		if a == "--unchecked" {
			unchecked = true
		}
	}
	differ, _ := os.ReadFile(filepath.Join(build, "differ"))
	for i, a := range args {
		if a == "--out" && i+1 < len(args) {
			name, path, _ := strings.Cut(args[i+1], "=")
			data := "the bytes of " + name
			if !unchecked && slices.Contains(strings.Fields(string(differ)), name) {
				data = "other bytes"
			}
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "ldcheck: --out:", err)
				return 2
			}
		}
		if a == "--arg" && i+1 < len(args) {
			if _, path, ok := strings.Cut(args[i+1], ":file:"); ok {
				if _, err := os.Stat(path); err != nil {
					fmt.Fprintf(os.Stderr, "ldcheck: --arg %s: %v\n", args[i+1], err)
					return 2
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(build, "manifest.json")); err != nil {
		fmt.Fprintln(os.Stderr, "ldcheck:", err)
		return 2
	}
	type phase struct {
		Name    string  `json:"name"`
		Seconds float64 `json:"seconds"`
		Bytes   int64   `json:"bytes,omitempty"`
	}
	rep := map[string]any{"races": []any{}}
	code := 0
	if unchecked {
		times, _ := os.ReadFile(filepath.Join(build, "native-ms"))
		count := filepath.Join(build, "native-count")
		b, _ := os.ReadFile(count)
		n, _ := strconv.Atoi(string(b))
		os.WriteFile(count, []byte(strconv.Itoa(n+1)), 0o644)
		f := strings.Fields(string(times))
		ms, _ := strconv.ParseFloat(f[n%len(f)], 64)
		rep["verdict"] = "unchecked"
		rep["summary"] = map[string]any{"phases": []phase{{"kernel (native)", ms / 1000, 0}}, "copy_bytes": 0}
	} else {
		v, _ := os.ReadFile(filepath.Join(build, "verdict"))
		f := strings.Fields(string(v))
		rep["verdict"] = "none"
		if len(f) == 4 {
			rep["verdict"] = "race"
			rep["races"] = []map[string]string{{"kind": f[1], "space": f[2], "scope": f[3]}}
			code = 1
		}
		rep["summary"] = map[string]any{
			"phases": []phase{
				{"kernel pass 1 (block level)", 0.010, 0},
				{"write-write check (block level)", 0.001, 2_000_000_000},
				{"read-write check (block level)", 0.001, 1_000_000_000},
			},
			"copy_bytes": 3 << 20, "rounds": 1, "detection_probability": 1, "groups": 8,
		}
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	fmt.Println(string(b))
	return code
}

func fakeSanitizer(args []string) int {
	if strings.Join(args[:4], " ") != "--tool racecheck --target-processes all" || !strings.Contains(strings.Join(args, " "), " run --backend cuda --unchecked ") {
		fmt.Fprintln(os.Stderr, "fake sanitizer: unexpected arguments", args)
		return 2
	}
	fmt.Println("========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)")
	return 0
}

const genSource = `package main

import (
	"flag"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "", "")
	size := flag.String("size", "", "")
	flag.Parse()
	os.WriteFile(filepath.Join(*out, "a-"+*size+".bin"), make([]byte, 16), 0o644)
}
`

// script writes an executable shell script running this test binary as
// the fake named what.
func script(t *testing.T, dir, name, what string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	s := fmt.Sprintf("#!/bin/sh\nREALSIZE_FAKE=%s exec %q \"$@\"\n", what, exe)
	if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fakeSuite makes a benchmarks folder and its builds: fast (a generator,
// 12 ms checked against native runs of 1, 3, 2, 5, 2 ms: median 2 ms, 6x),
// fast_racy (gen-from fast, 12 ms against 4 ms: 3x) and wrong (expects
// none, gets a race).
func fakeSuite(t *testing.T) (bench, builds string) {
	dir := t.TempDir()
	bench, builds = filepath.Join(dir, "benchmarks"), filepath.Join(dir, "builds")
	launch := "--kernel k --grid 1 --block 32 --arg a=int[4]:file:@INPUTS@/a-%s.bin\n"
	write(t, bench, map[string]string{
		"fast/kernel.cu":          "",
		"fast/expect":             "none\n",
		"fast/launch":             fmt.Sprintf(launch, "real"),
		"fast/launch-small":       fmt.Sprintf(launch, "small"),
		"fast/gen/main.go":        genSource,
		"fast_racy/kernel.cu":     "",
		"fast_racy/expect":        "race write-write any inter-block\n",
		"fast_racy/launch":        fmt.Sprintf(launch, "real"),
		"fast_racy/launch-small":  fmt.Sprintf(launch, "small"),
		"fast_racy/launch-2":      fmt.Sprintf(launch, "real"),
		"fast_racy/gen-from":      "fast\n",
		"wrong/kernel.cu":         "",
		"wrong/expect":            "none\n",
		"wrong/launch":            "--kernel k --arg a=int[4]:zero\n",
		"wrong/launch-small":      "--kernel k --arg a=int[4]:zero\n",
		"notaprogram/launch":      "--kernel k\n",
		"notaprogram/gen/main.go": "package main\n",
	})
	write(t, builds, map[string]string{
		"fast/manifest.json":      "{}",
		"fast/native-ms":          "1 3 2 5 2",
		"fast/verdict":            "none",
		"fast_racy/manifest.json": "{}",
		"fast_racy/native-ms":     "4",
		"fast_racy/verdict":       "race write-write global inter-block",
		"wrong/manifest.json":     "{}",
		"wrong/native-ms":         "6",
		"wrong/verdict":           "race read-write shared inter-warp",
	})
	vadd, err := os.ReadFile("../cudasmoke/vadd.cu")
	if err != nil {
		t.Fatal(err)
	}
	write(t, bench, map[string]string{"cudasmoke/vadd.cu": string(vadd)})
	return bench, builds
}

func goCmd(t *testing.T) string {
	if g := suite.GoCommand(); g != "" {
		return g
	}
	g := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(g); err != nil {
		t.Skip("no go command to build the generators")
	}
	return g
}

func testConfig(t *testing.T, bench, builds string) (*config, *bytes.Buffer, *bytes.Buffer) {
	tools := t.TempDir()
	var out, errb, log bytes.Buffer
	c := &config{
		bin: script(t, tools, "ldcheck", "ldcheck"), backend: "cuda", arch: "sm_90",
		builds: builds, bench: bench, racecheck: true, runs: 5,
		timeout: time.Minute, rcTimeout: time.Minute,
		sanitizer: script(t, tools, "compute-sanitizer", "sanitizer"),
		copyGBps:  3000, copyMiB: 256,
		log: &log, stdout: &out, stderr: &errb, logPath: "LOG", goCmd: goCmd(t),
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", log.String())
		}
	})
	return c, &out, &errb
}

// field returns the whitespace-separated fields of the table line that
// starts with name.
func field(t *testing.T, out, name string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == name {
			return f
		}
	}
	t.Fatalf("no line for %s in\n%s", name, out)
	return nil
}

func TestRunRealSize(t *testing.T) {
	bench, builds := fakeSuite(t)
	c, out, errb := testConfig(t, bench, builds)
	if code := run(c); code != 1 {
		t.Errorf("exit %d, want 1 (wrong's verdict differs)\n%s%s", code, out, errb)
	}
	o := out.String()
	t.Logf("\n%s", o)
	// program expected(1 or 4 fields) verdict(...) match exit native checked slowdown GB/s %copy MiB racecheck(2) rcwall chkwall summary
	for name, want := range map[string]string{
		"fast":        "none none yes 0 2.000 12.000 6.0x 1500 50% 3.0 3 hazards",
		"fast_racy":   "race write-write any inter-block race write-write global inter-block yes 1 4.000 12.000 3.0x 1500 50% 3.0 3 hazards",
		"fast_racy/2": "race write-write any inter-block race write-write global inter-block yes 1 4.000 12.000 3.0x 1500 50% 3.0 3 hazards",
		"wrong":       "none race read-write shared inter-warp NO 1 6.000 12.000 2.0x 1500 50% 3.0 3 hazards",
	} {
		got := strings.Join(field(t, o, name)[1:], " ")
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to start with %q", name, got, want)
		}
		if !strings.Contains(got, "rounds=1 detection_probability=1 groups=8") || strings.Contains(got, "copy_bytes") {
			t.Errorf("%s: summary %q", name, got)
		}
	}
	for _, want := range []string{
		"race-free launches (expect none): geometric mean 3.5x, max 6.0x (fast), over 2",
		"racy launches (expect race): geometric mean 3.0x, max 3.0x (fast_racy), over 2",
		"all launches: geometric mean 3.2x, max 6.0x (fast), over 4",
		"4 launches, 1 verdicts differ from the expectation (backend cuda; log LOG)",
		"copy bandwidth (device to device, read plus write): 3000.0 GB/s, given (-copy-gbps)",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in the output", want)
		}
	}
	if strings.Contains(o, "small") {
		t.Errorf("a small launch ran without -small:\n%s", o)
	}
	// One generator run for the three launches that share it.
	if n := strings.Count(c.log.(*bytes.Buffer).String(), " -out "); n != 1 {
		t.Errorf("%d generator runs, want 1", n)
	}
	if !strings.Contains(c.log.(*bytes.Buffer).String(), "# fast: checked run, 3 phases, 12.000 ms in all") {
		t.Error("no phases of fast's checked run in the log")
	}
}

func TestRunSmallOnly(t *testing.T) {
	bench, builds := fakeSuite(t)
	c, out, errb := testConfig(t, bench, builds)
	c.small, c.only, c.runs, c.racecheck, c.copyGBps = true, "fast,fast_racy", 1, false, 0
	c.backend = "cpu"
	c.sanitizerPath, c.sanitizerWhy = "", ""
	if code := run(c); code != 0 {
		t.Errorf("exit %d, want 0\n%s%s", code, out, errb)
	}
	o := out.String()
	t.Logf("\n%s", o)
	if f := field(t, o, "fast"); f[5] != "1.000" || f[11] != "-" {
		t.Errorf("fast: %v (want the first native time, no racecheck)", f)
	}
	for _, want := range []string{"2 launches, 0 verdicts differ", "copy bandwidth: not measured (backend cpu)", "racecheck: off (-racecheck=false)"} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in the output", want)
		}
	}
	if strings.Contains(o, "wrong") {
		t.Error("-only ran wrong")
	}
}

func TestRunErrors(t *testing.T) {
	bench, builds := fakeSuite(t)
	c, out, errb := testConfig(t, bench, builds)
	// No generator binary in -gen: that program's launches fail, the
	// others run.
	c.gen, c.only, c.racecheck = t.TempDir(), "fast,wrong", false
	os.RemoveAll(filepath.Join(builds, "wrong"))
	if code := run(c); code != 1 {
		t.Errorf("exit %d, want 1\n%s%s", code, out, errb)
	}
	o := out.String()
	for _, want := range []string{"fast: inputs: no generator binary", "wrong: no build", "2 launches, 2 verdicts differ"} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in\n%s", want, o)
		}
	}
	c.only = "nothing"
	if code := run(c); code != 2 {
		t.Errorf("-only nothing: exit %d, want 2", code)
	}
}

func TestMeasureCopy(t *testing.T) {
	bench, builds := fakeSuite(t)
	c, _, _ := testConfig(t, bench, builds)
	c.cudasmoke = script(t, t.TempDir(), "cudasmoke", "cudasmoke")
	gbps, note := measureCopy(c, t.TempDir())
	if strings.Contains(note, "neither nvcc nor clang-15") {
		t.Skip(note)
	}
	if gbps != 2982.6 || note != "measured (cudasmoke -copy-mib 256)" {
		t.Errorf("got %v, %q", gbps, note)
	}
	c.cudasmoke = filepath.Join(t.TempDir(), "none")
	if gbps, note := measureCopy(c, t.TempDir()); gbps != 0 || !strings.Contains(note, "-copy-gbps") {
		t.Errorf("no cudasmoke: %v, %q", gbps, note)
	}
}

func TestMedianGeomean(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median %v", m)
	}
	if g := geomean([]float64{2, 8}); g < 3.999 || g > 4.001 {
		t.Errorf("geomean %v", g)
	}
}

func TestOnlyOneLaunch(t *testing.T) {
	bench, builds := fakeSuite(t)
	c, out, errb := testConfig(t, bench, builds)
	c.only, c.racecheck = "fast_racy/2", false
	if code := run(c); code != 0 {
		t.Errorf("exit %d, want 0\n%s%s", code, out, errb)
	}
	o := out.String()
	field(t, o, "fast_racy/2")
	if !strings.Contains(o, "1 launches, 0 verdicts differ") {
		t.Errorf("-only fast_racy/2 ran other launches:\n%s", o)
	}
}

// TestResultsFile splits a run over two calls with -results: the second
// runs only what the first did not, and its table covers both, with the
// first call's rows as they were measured (their %copy against the first
// call's copy bandwidth).
func TestResultsFile(t *testing.T) {
	bench, builds := fakeSuite(t)
	results := filepath.Join(t.TempDir(), "rows.jsonl")
	c, out, errb := testConfig(t, bench, builds)
	c.only, c.results, c.copyGBps = "fast", results, 1500
	if code := run(c); code != 0 {
		t.Fatalf("first call: exit %d\n%s%s", code, out, errb)
	}
	if got := strings.Join(field(t, out.String(), "fast")[1:9], " "); got != "none none yes 0 2.000 12.000 6.0x 1500" {
		t.Errorf("first call: fast: %q", got)
	}

	c, out, errb = testConfig(t, bench, builds)
	c.results = results
	if code := run(c); code != 1 {
		t.Errorf("second call: exit %d, want 1 (wrong's verdict differs)\n%s%s", code, out, errb)
	}
	o, log := out.String(), c.log.(*bytes.Buffer).String()
	if strings.Contains(log, "fast/native-ms") || strings.Contains(log, "# fast: checked run") {
		t.Errorf("the second call ran fast again:\n%s", log)
	}
	if !strings.Contains(log, "# wrong: checked run") {
		t.Errorf("the second call did not run wrong:\n%s", log)
	}
	// fast kept the first call's figures: 100% of its 1500 GB/s, where
	// this call's 3000 GB/s makes the others 50%.
	if got := strings.Join(field(t, o, "fast")[1:13], " "); got != "none none yes 0 2.000 12.000 6.0x 1500 100% 3.0 3 hazards" {
		t.Errorf("second call: fast: %q", got)
	}
	if got := field(t, o, "wrong")[12]; got != "50%" {
		t.Errorf("second call: wrong's %%copy %q, want 50%%", got)
	}
	for _, want := range []string{
		"all launches: geometric mean 3.2x, max 6.0x (fast), over 4",
		"4 launches, 1 of them measured earlier, from " + results + ", 1 verdicts differ",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in\n%s", want, o)
		}
	}
	if !strings.Contains(errb.String(), "fast: measured earlier") {
		t.Errorf("stderr does not say fast was measured earlier:\n%s", errb)
	}
	raw, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n != 4 {
		t.Errorf("%d rows in %s, want 4", n, results)
	}

	// A line realsize did not write: no run, and the file and line named.
	if err := os.WriteFile(results, append(raw, "{not json\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	c, out, errb = testConfig(t, bench, builds)
	c.results = results
	if code := run(c); code != 2 {
		t.Errorf("bad line: exit %d, want 2", code)
	}
	if want := results + ":5: not a row realsize wrote"; !strings.Contains(errb.String(), want) {
		t.Errorf("bad line: stderr %q, want it to name %q", errb, want)
	}
	if out.Len() != 0 {
		t.Errorf("bad line: a table was printed:\n%s", out)
	}
}

// TestResultsUnwritable: a -results file that cannot be written stops the
// run before any launch, not after the first one's minutes.
func TestResultsUnwritable(t *testing.T) {
	bench, builds := fakeSuite(t)
	c, out, errb := testConfig(t, bench, builds)
	c.results = filepath.Join(t.TempDir(), "no-such-dir", "rows.jsonl")
	if code := run(c); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "realsize: -results:") || !strings.Contains(errb.String(), "no-such-dir") {
		t.Errorf("stderr %q does not name the file", errb)
	}
	if strings.Contains(c.log.(*bytes.Buffer).String(), "checked run") || out.Len() != 0 {
		t.Errorf("a launch ran:\n%s", out)
	}
}

// TestRunOutputs: with -outputs, a race-free launch's arrays after the
// checked run are compared with the last native run's: the same for good,
// a for lossy (which fails the run), and ordered's b not compared (its
// order-dependent file names it).
func TestRunOutputs(t *testing.T) {
	dir := t.TempDir()
	bench, builds := filepath.Join(dir, "benchmarks"), filepath.Join(dir, "builds")
	launch := "--kernel k --grid 1 --block 32 --arg a=int[4]:zero --arg b=float[4]:rand --arg n=4\n"
	files := map[string]string{}
	for _, p := range []string{"good", "lossy", "ordered", "racy"} {
		files[p+"/kernel.cu"], files[p+"/launch"], files[p+"/launch-small"] = "", launch, launch
		files[p+"/expect"] = "none\n"
		write(t, builds, map[string]string{p + "/manifest.json": "{}", p + "/native-ms": "1", p + "/verdict": "none"})
	}
	files["racy/expect"] = "race write-write any any\n"
	files["ordered/order-dependent"] = "b: the atomics' order decides it\n"
	write(t, bench, files)
	write(t, builds, map[string]string{"lossy/differ": "a", "ordered/differ": "b", "racy/differ": "a b", "racy/verdict": "race write-write global inter-block"})
	c, out, errb := testConfig(t, bench, builds)
	c.outputs, c.racecheck, c.runs = true, false, 2
	if code := run(c); code != 1 {
		t.Errorf("exit %d, want 1 (lossy's outputs differ)\n%s%s", code, out, errb)
	}
	o := out.String()
	for _, want := range []string{
		"lossy: after the checked run, outputs differ from the kernel's as written: a at byte 0",
		"outputs after the checked run against the kernel's as written (race-free launches): 2 the same, 1 differ",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in\n%s", want, o)
		}
	}
	for _, p := range []string{"good", "ordered"} {
		if !strings.Contains(errb.String(), p+": none (exit 0") || !strings.Contains(errb.String(), "outputs same") {
			t.Errorf("%s: outputs not the same:\n%s", p, errb)
		}
	}
	if !strings.Contains(errb.String(), "racy: race") || strings.Contains(o, "racy: after") {
		t.Errorf("racy (expects a race) compared:\n%s\n%s", o, errb)
	}
}
