package suite

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// genSource is a fake generator: it writes a.bin (4 little-endian int32s:
// 1 2 3 4 for small, 10 20 30 40 for real) and appends its -size to
// ../runs, so the test can count its runs.
const genSource = `package main

import (
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "", "")
	size := flag.String("size", "", "")
	flag.Parse()
	k := int32(1)
	switch *size {
	case "small":
	case "real":
		k = 10
	default:
		os.Stderr.WriteString("bad -size " + *size + "\n")
		os.Exit(2)
	}
	b := make([]byte, 16)
	for i := range 4 {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(k*int32(i+1)))
	}
	if err := os.WriteFile(filepath.Join(*out, "a.bin"), b, 0o644); err != nil {
		panic(err)
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(*out), "runs"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	f.WriteString(*size + "\n")
	f.Close()
}
`

// writeFiles writes name -> content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
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

const launchA = "--kernel k --grid 1 --block 32 --arg a=int[4]:file:@INPUTS@/a.bin --arg n=4\n"

// fakeBench makes a benchmarks folder with programs alpha (a generator),
// alpha_racy (gen-from alpha), plain (no inputs) and several broken ones.
func fakeBench(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"alpha/kernel.cu":          "__global__ void k(int *a, int n) {}\n",
		"alpha/expect":             "none\n",
		"alpha/launch":             launchA,
		"alpha/launch-small":       launchA,
		"alpha/launch-big":         launchA,
		"alpha/gen/main.go":        genSource,
		"alpha/gen/main_test.go":   "package main\n",
		"alpha_racy/kernel.cu":     "__global__ void k(int *a, int n) {}\n",
		"alpha_racy/expect":        "race  write-write global   inter-block\n(comment)\n",
		"alpha_racy/launch":        launchA,
		"alpha_racy/launch-small":  launchA,
		"alpha_racy/gen-from":      "alpha\n",
		"plain/kernel.cu":          "__global__ void k(int *a) {}\n",
		"plain/expect":             "race read-write any inter-warp",
		"plain/launch":             "--kernel k --arg a=int[4]:zero",
		"plain/launch-small":       "--kernel k --arg a=int[4]:iota",
		"plain/launchpad":          "not a launch file",
		"noinputs/kernel.cu":       "",
		"noinputs/expect":          "none",
		"noinputs/launch":          launchA,
		"noinputs/launch-small":    launchA,
		"badfrom/kernel.cu":        "",
		"badfrom/expect":           "none",
		"badfrom/launch":           launchA,
		"badfrom/launch-small":     launchA,
		"badfrom/gen-from":         "plain",
		"badexpect/kernel.cu":      "",
		"badexpect/expect":         "race write-write global",
		"badexpect/launch":         "--kernel k",
		"nosmall/kernel.cu":        "",
		"nosmall/expect":           "none",
		"nosmall/launch":           "--kernel k",
		"notaprogram/README":       "no kernel.cu here",
		"notaprogram/gen/main.go":  genSource,
		"cudasmoke/main.go":        "package main\n",
		"emptylaunch/kernel.cu":    "",
		"emptylaunch/expect":       "none",
		"emptylaunch/launch":       "\n",
		"emptylaunch/launch-small": "--kernel k",
	})
	return dir
}

func TestLoad(t *testing.T) {
	dir := fakeBench(t)
	progs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Program{}
	var names []string
	for _, p := range progs {
		byName[p.Name] = p
		names = append(names, p.Name)
	}
	want := []string{"alpha", "alpha_racy", "badexpect", "badfrom", "emptylaunch", "noinputs", "nosmall", "plain"}
	if !slices.Equal(names, want) {
		t.Fatalf("programs %v, want %v", names, want)
	}
	for _, n := range []string{"alpha", "alpha_racy", "plain"} {
		if err := byName[n].Err; err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if p := byName["alpha"]; p.GenOwner != "alpha" || p.Expect != "none" {
		t.Errorf("alpha: owner %q expect %q", p.GenOwner, p.Expect)
	}
	if p := byName["alpha_racy"]; p.GenOwner != "alpha" || p.Expect != "race write-write global inter-block" {
		t.Errorf("alpha_racy: owner %q expect %q", p.GenOwner, p.Expect)
	}
	if p := byName["plain"]; p.GenOwner != "" {
		t.Errorf("plain: owner %q", p.GenOwner)
	}
	var launches []string
	for _, l := range byName["alpha"].Launches {
		launches = append(launches, l.Name+":"+l.Size())
	}
	if want := []string{"alpha:real", "alpha/big:real", "alpha:small"}; !slices.Equal(launches, want) {
		t.Errorf("alpha's launches %v, want %v", launches, want)
	}
	if l, ok := byName["plain"].Small(); !ok || l.NeedsInputs() || strings.Join(l.Flags, " ") != "--kernel k --arg a=int[4]:iota" {
		t.Errorf("plain's small launch: %+v %v", l, ok)
	}
	for name, msg := range map[string]string{
		"noinputs":    "has no generator",
		"badfrom":     "gen-from names plain, which has no generator",
		"badexpect":   `want "none" or "race KIND SPACE SCOPE"`,
		"nosmall":     "no launch-small file",
		"emptylaunch": "is empty",
	} {
		if err := byName[name].Err; err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want one saying %q", name, err, msg)
		}
	}
}

func TestWithInputs(t *testing.T) {
	l := Launch{Flags: []string{"--kernel", "k", "--arg", "a=int[4]:file:@INPUTS@/a.bin", "--arg", "b=float[2]:file:@INPUTS@/b.bin"}}
	got := strings.Join(l.WithInputs("/x y"), " ")
	if want := "--kernel k --arg a=int[4]:file:/x y/a.bin --arg b=float[2]:file:/x y/b.bin"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !l.NeedsInputs() || l.Flags[3] != "a=int[4]:file:@INPUTS@/a.bin" {
		t.Errorf("WithInputs changed the launch: %v", l.Flags)
	}
}

func TestMatches(t *testing.T) {
	ww := Race{"write-write", "global", "inter-block"}
	rw := Race{"read-write", "shared", "inter-warp"}
	for _, c := range []struct {
		expect, verdict string
		races           []Race
		want            bool
	}{
		{"none", "none", nil, true},
		{"none", "race", []Race{ww}, false},
		{"none", "unchecked", nil, false},
		{"race write-write global inter-block", "race", []Race{ww}, true},
		{"race write-write global inter-block", "race", []Race{rw, ww}, true},
		{"race write-write shared inter-block", "race", []Race{ww}, false},
		{"race write-write any inter-block", "race", []Race{ww}, true},
		{"race any any any", "race", []Race{rw}, true},
		{"race any any any", "none", nil, false},
		{"race read-write any inter-block", "race", []Race{rw}, false},
		{"race write-write global", "race", []Race{ww}, false},
	} {
		if got := Matches(c.expect, c.verdict, c.races); got != c.want {
			t.Errorf("Matches(%q, %q, %v) = %v, want %v", c.expect, c.verdict, c.races, got, c.want)
		}
	}
	if v := Verdict("race", []Race{rw, ww}); v != "race read-write shared inter-warp" {
		t.Errorf("Verdict: %q", v)
	}
	if v := Verdict("none", nil); v != "none" {
		t.Errorf("Verdict: %q", v)
	}
}

func goCommand(t *testing.T) string {
	if g := GoCommand(); g != "" {
		return g
	}
	g := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(g); err != nil {
		t.Skip("no go command to build generators")
	}
	return g
}

func runs(t *testing.T, inputs string) []string {
	b, _ := os.ReadFile(filepath.Join(inputs, "runs"))
	return strings.Fields(string(b))
}

func checkA(t *testing.T, dir string, k byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "a.bin"))
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{k, 0, 0, 0, 2 * k, 0, 0, 0, 3 * k, 0, 0, 0, 4 * k, 0, 0, 0}
	if !slices.Equal(b, want) {
		t.Errorf("%s/a.bin = %v, want %v", dir, b, want)
	}
}

func TestGenerators(t *testing.T) {
	bench := fakeBench(t)
	goCmd := goCommand(t)
	progs, err := Load(bench)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Program{}
	for _, p := range progs {
		byName[p.Name] = p
	}
	alpha, racy, plain := byName["alpha"], byName["alpha_racy"], byName["plain"]
	tmp := t.TempDir()
	g := &Generators{Bench: bench, Go: goCmd, BuildDir: filepath.Join(tmp, "bin"), Inputs: filepath.Join(tmp, "in"), Timeout: 5 * time.Minute}

	small, _ := alpha.Small()
	d1, err := g.InputsFor(alpha, small)
	if err != nil {
		t.Fatal(err)
	}
	checkA(t, d1, 1)
	rsmall, _ := racy.Small()
	d2, err := g.InputsFor(racy, rsmall)
	if err != nil {
		t.Fatal(err)
	}
	if d1 != d2 || filepath.Base(d1) != "alpha-small" || !filepath.IsAbs(d1) {
		t.Errorf("alpha's and alpha_racy's small inputs in %s and %s, want one folder alpha-small", d1, d2)
	}
	d3, err := g.InputsFor(racy, racy.Launches[0])
	if err != nil {
		t.Fatal(err)
	}
	checkA(t, d3, 10)
	if got := runs(t, g.Inputs); !slices.Equal(got, []string{"small", "real"}) {
		t.Errorf("generator runs %v, want small, real", got)
	}
	if d, err := g.InputsFor(plain, plain.Launches[0]); d != "" || err != nil {
		t.Errorf("plain's inputs: %q, %v", d, err)
	}
	if _, err := g.InputsFor(byName["noinputs"], byName["noinputs"].Launches[0]); err == nil || !strings.Contains(err.Error(), "no generator") {
		t.Errorf("noinputs: %v", err)
	}

	// Prebuilt binaries (-gen): nothing is built, and inputs a previous
	// run made are reused when asked.
	pre := filepath.Join(tmp, "pre")
	if err := BuildGenerator(goCmd, filepath.Join(bench, "alpha", "gen"), filepath.Join(pre, "alpha"), time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	g2 := &Generators{Bench: bench, Prebuilt: pre, Go: goCmd, Inputs: g.Inputs, Reuse: true}
	if d, err := g2.InputsFor(racy, rsmall); err != nil || d != d1 {
		t.Errorf("reuse: %q, %v", d, err)
	}
	if got := runs(t, g.Inputs); len(got) != 2 {
		t.Errorf("generator ran again for inputs that were there: %v", got)
	}
	g3 := &Generators{Bench: bench, Prebuilt: pre, Inputs: filepath.Join(tmp, "in3")}
	d, err := g3.InputsFor(alpha, small)
	if err != nil {
		t.Fatal(err)
	}
	checkA(t, d, 1)

	// No binary, and no go to build one.
	g4 := &Generators{Bench: bench, Prebuilt: filepath.Join(tmp, "nothing"), Inputs: filepath.Join(tmp, "in4")}
	if _, err := g4.InputsFor(alpha, small); err == nil || !strings.Contains(err.Error(), "go build -o") {
		t.Errorf("missing prebuilt generator: %v", err)
	}
	g5 := &Generators{Bench: bench, Inputs: filepath.Join(tmp, "in5")}
	if _, err := g5.InputsFor(alpha, small); err == nil || !strings.Contains(err.Error(), "-gen DIR") {
		t.Errorf("no go and no -gen: %v", err)
	}
}

func TestGeneratorFails(t *testing.T) {
	goCmd := goCommand(t)
	bench := t.TempDir()
	writeFiles(t, bench, map[string]string{
		"p/gen/main.go": "package main\n\nimport \"os\"\n\nfunc main() { os.Stderr.WriteString(\"disk full\\n\"); os.Exit(1) }\n",
		"q/gen/main.go": "package main\n\nfunc main() { undefined() }\n",
	})
	g := &Generators{Bench: bench, Go: goCmd, BuildDir: filepath.Join(bench, "bin"), Inputs: filepath.Join(bench, "in")}
	if _, err := g.Make("p", "small"); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("failing generator: %v", err)
	}
	if _, err := os.Stat(filepath.Join(bench, "in", "p-small", ".done")); err == nil {
		t.Error("a failed generator's inputs are marked done")
	}
	if _, err := g.Make("q", "small"); err == nil || !strings.Contains(err.Error(), "building the generator") {
		t.Errorf("generator that does not build: %v", err)
	}
}

func TestExecTimeout(t *testing.T) {
	// A shell whose child outlives it: the whole process group goes.
	r := Exec(200*time.Millisecond, nil, nil, "", "sh", "-c", "sleep 30 & sleep 30")
	if !r.Killed || r.Code != -1 || r.Wall > 20*time.Second || !strings.Contains(r.Why(), "killed") {
		t.Errorf("got %+v (%s)", r, r.Why())
	}
	r = Exec(0, nil, []string{"X_SUITE=7"}, os.TempDir(), "sh", "-c", "echo $X_SUITE; pwd; echo oops >&2; exit 3")
	if r.Code != 3 || r.Killed || !strings.HasPrefix(string(r.Stdout), "7\n") || r.Why() != "exit 3: oops" {
		t.Errorf("got %+v (%s)", r, r.Why())
	}
}

func TestOutputs(t *testing.T) {
	dir := t.TempDir()
	p := Program{Name: "p", Dir: dir}
	flags := []string{"--kernel", "k", "--arg", "a=int[4]:zero", "--arg", "n=4", "--arg", "b=float[8]:rand:2", "--grid", "1"}
	got, err := p.Outputs(flags)
	if err != nil || strings.Join(got, " ") != "a b" {
		t.Errorf("Outputs = %q, %v; want the arrays a b", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "order-dependent"), []byte("b: the winning atomicCAS decides it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err = p.Outputs(flags); err != nil || strings.Join(got, " ") != "a" {
		t.Errorf("Outputs with b order-dependent = %q, %v; want a", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "order-dependent"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = p.Outputs(flags); err == nil || !strings.Contains(err.Error(), "order-dependent:1: want NAME: why") {
		t.Errorf("a line without a reason: error %v", err)
	}
	out := t.TempDir()
	for f, data := range map[string]string{"x-a": "1234", "y-a": "1234", "x-b": "abcd", "y-b": "abXd"} {
		if err := os.WriteFile(filepath.Join(out, f), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if diff, err := SameOutputs(out, "x", "y", []string{"a", "b"}); err != nil || diff != "b at byte 2" {
		t.Errorf("SameOutputs = %q, %v; want b at byte 2", diff, err)
	}
	if f := OutFlags("/o", "x", []string{"a"}); strings.Join(f, " ") != "--out a=/o/x-a" {
		t.Errorf("OutFlags = %q", f)
	}
}
