// Package suite reads the benchmark suite: the program folders of the
// benchmarks directory, their launches and expected verdicts, and the
// generators of their inputs. The realsize command (the benchmark runner)
// and the CI test benchmarks/suite_test.go (every program at its small size
// on the CPU backend) both use it. Standard library only, so the runner
// builds with CGO_ENABLED=0 for a GPU machine without Go.
//
// A program is a folder NAME of the benchmarks directory with
//
//	kernel.cu      the device code
//	expect         the verdict, first line: "none" or "race KIND SPACE SCOPE"
//	               (the grammar of testdata/e2e's first lines; "any" in a
//	               field matches anything)
//	launch         `ldcheck run` flags of the real-size launch, one line
//	launch-small   a small launch with the same verdict, for the CPU backend
//	launch-NAME    further launches (real size), shown as NAME/NAME
//	gen/main.go    optional: the generator of the program's inputs
//	gen-from       optional, instead of gen/: one line naming the folder
//	               whose generator this program shares
//
// A generator is a Go main package, run as `GEN -out DIR -size small|real`;
// it writes raw little-endian files into DIR, and launch lines name them as
// `file:@INPUTS@/NAME.bin` (@INPUTS@ is replaced by DIR). launch-small gets
// the files of -size small, every other launch those of -size real.
package suite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// InputsMarker is what launch lines write for the folder of generated inputs.
const InputsMarker = "@INPUTS@"

// Program is one program folder.
type Program struct {
	Name   string // folder name
	Dir    string // the folder
	Expect string // normalized first line of expect ("none" or "race KIND SPACE SCOPE")
	// GenOwner is the folder whose gen/ makes this program's inputs: Name
	// when it has gen/, the folder gen-from names, "" when there is none.
	GenOwner string
	Launches []Launch
	// Err says why the folder is not a well-formed program (no expect, a
	// bad expect line, no launch file, a gen-from naming no generator...);
	// Launches may then be incomplete.
	Err error
}

// Launch is one launch file of a program.
type Launch struct {
	Name    string   // the program's name, or PROGRAM/NAME for launch-NAME
	Program string   // the program's name
	File    string   // the launch file
	Small   bool     // launch-small
	Flags   []string // its flags, @INPUTS@ not yet replaced
}

// Size is the generator's -size for this launch: small or real.
func (l Launch) Size() string {
	if l.Small {
		return "small"
	}
	return "real"
}

// NeedsInputs says whether the launch names generated files.
func (l Launch) NeedsInputs() bool {
	for _, f := range l.Flags {
		if strings.Contains(f, InputsMarker) {
			return true
		}
	}
	return false
}

// WithInputs returns the flags with @INPUTS@ replaced by dir.
func (l Launch) WithInputs(dir string) []string {
	out := make([]string, len(l.Flags))
	for i, f := range l.Flags {
		out[i] = strings.ReplaceAll(f, InputsMarker, dir)
	}
	return out
}

// Load lists the program folders of dir (those with kernel.cu), sorted by
// name. Problems with one folder go in its Err; the error is for dir itself.
func Load(dir string) ([]Program, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var progs []Program
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() || !exists(filepath.Join(p, "kernel.cu")) {
			continue
		}
		progs = append(progs, loadProgram(dir, e.Name()))
	}
	sort.Slice(progs, func(i, j int) bool { return progs[i].Name < progs[j].Name })
	return progs, nil
}

func loadProgram(benchDir, name string) Program {
	dir := filepath.Join(benchDir, name)
	p := Program{Name: name, Dir: dir}
	var errs []error
	if b, err := os.ReadFile(filepath.Join(dir, "expect")); err != nil {
		errs = append(errs, fmt.Errorf("no expect file: %w", err))
	} else {
		p.Expect = strings.Join(strings.Fields(firstLine(string(b))), " ")
		if err := checkExpect(p.Expect); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(dir, "expect"), err))
		}
	}

	hasGen := HasGenerator(dir)
	b, err := os.ReadFile(filepath.Join(dir, "gen-from"))
	genFrom := err == nil
	if genFrom {
		from := firstLine(string(b))
		switch {
		case hasGen:
			errs = append(errs, fmt.Errorf("both gen/ and gen-from (%q): keep one", from))
		case from == "" || strings.ContainsAny(from, `/\ `) || from == "." || from == "..":
			errs = append(errs, fmt.Errorf("gen-from: %q is not the name of a program folder", from))
		case !HasGenerator(filepath.Join(benchDir, from)):
			errs = append(errs, fmt.Errorf("gen-from names %s, which has no generator (%s)", from, filepath.Join(benchDir, from, "gen", "main.go")))
		default:
			p.GenOwner = from
		}
	} else if hasGen {
		p.GenOwner = name
	}

	files, _ := filepath.Glob(filepath.Join(dir, "launch*"))
	sort.Strings(files)
	for _, f := range files {
		suffix := strings.TrimPrefix(filepath.Base(f), "launch")
		if suffix != "" && (!strings.HasPrefix(suffix, "-") || len(suffix) == 1) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		flags := strings.Fields(firstLine(string(b)))
		if len(flags) == 0 {
			errs = append(errs, fmt.Errorf("%s is empty", f))
			continue
		}
		l := Launch{Name: name, Program: name, File: f, Flags: flags, Small: suffix == "-small"}
		if suffix != "" && !l.Small {
			l.Name += "/" + suffix[1:]
		}
		if l.NeedsInputs() && !hasGen && !genFrom {
			errs = append(errs, fmt.Errorf("%s names %s files but the program has no generator (gen/main.go or gen-from)", f, InputsMarker))
		}
		p.Launches = append(p.Launches, l)
	}
	for _, f := range []string{"launch", "launch-small"} {
		if !exists(filepath.Join(dir, f)) {
			errs = append(errs, fmt.Errorf("no %s file", f))
		}
	}
	p.Err = errors.Join(errs...)
	return p
}

// HasGenerator says whether dir has gen/ with Go source.
func HasGenerator(dir string) bool {
	files, _ := goFiles(filepath.Join(dir, "gen"))
	return len(files) > 0
}

// goFiles lists the non-test .go files of dir.
func goFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	return files, nil
}

// Small returns the program's launch-small, if any.
func (p Program) Small() (Launch, bool) {
	for _, l := range p.Launches {
		if l.Small {
			return l, true
		}
	}
	return Launch{}, false
}

// Outputs are the arrays a launch gives the kernel (--arg
// NAME=TYPE[COUNT]:INIT) whose bytes, after a checked run of a race-free
// program, must be those of a run of the kernel as written: all of them
// but those the program's order-dependent file names (a line "NAME: why"
// each: arrays whose bytes depend on the order in which the kernel's
// atomics run, which the checks change, as ld_bfs's parent, which the
// winning atomicCAS decides).
func (p Program) Outputs(flags []string) ([]string, error) {
	skip := map[string]bool{}
	path := filepath.Join(p.Dir, "order-dependent")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			name, why, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(why) == "" {
				return nil, fmt.Errorf("%s:%d: want NAME: why, got %q", path, i+1, line)
			}
			skip[strings.TrimSpace(name)] = true
		}
	}
	var out []string
	for i := 0; i+1 < len(flags); i++ {
		if flags[i] == "--arg" && strings.Contains(flags[i+1], "[") {
			if name, _, _ := strings.Cut(flags[i+1], "="); !skip[name] {
				out = append(out, name)
			}
		}
	}
	return out, nil
}

// OutFlags are ldcheck run's --out flags that write each of names to
// dir/PREFIX-NAME.
func OutFlags(dir, prefix string, names []string) []string {
	var f []string
	for _, n := range names {
		f = append(f, "--out", n+"="+filepath.Join(dir, prefix+"-"+n))
	}
	return f
}

// SameOutputs compares the arrays two runs wrote with OutFlags (prefixes
// a and b): "" when every one holds the same bytes, else which differ and
// where ("parent at byte 364").
func SameOutputs(dir, a, b string, names []string) (string, error) {
	var diffs []string
	for _, n := range names {
		x, err := os.ReadFile(filepath.Join(dir, a+"-"+n))
		if err != nil {
			return "", err
		}
		y, err := os.ReadFile(filepath.Join(dir, b+"-"+n))
		if err != nil {
			return "", err
		}
		if !bytes.Equal(x, y) {
			at := 0
			for at < len(x) && at < len(y) && x[at] == y[at] {
				at++
			}
			diffs = append(diffs, fmt.Sprintf("%s at byte %d", n, at))
		}
	}
	return strings.Join(diffs, ", "), nil
}

// checkExpect checks the grammar of an expect line.
func checkExpect(e string) error {
	f := strings.Fields(e)
	if len(f) == 1 && f[0] == "none" {
		return nil
	}
	if len(f) != 4 || f[0] != "race" {
		return fmt.Errorf("%q: want \"none\" or \"race KIND SPACE SCOPE\"", e)
	}
	valid := []map[string]bool{
		{"write-write": true, "read-write": true, "any": true},
		{"shared": true, "global": true, "local": true, "any": true},
		{"inter-warp": true, "inter-block": true, "any": true},
	}
	for i, v := range valid {
		if !v[f[i+1]] {
			return fmt.Errorf("%q: unknown %s %q", e, []string{"kind", "space", "scope"}[i], f[i+1])
		}
	}
	return nil
}

// Race is the part of a reported race a verdict names.
type Race struct{ Kind, Space, Scope string }

// Verdict is the verdict of a JSON report: "race KIND SPACE SCOPE" of its
// first race, or its verdict field ("none") when it has none.
func Verdict(verdict string, races []Race) string {
	if len(races) > 0 {
		r := races[0]
		return "race " + r.Kind + " " + r.Space + " " + r.Scope
	}
	return verdict
}

// Matches says whether a report (its verdict field and races) has the
// verdict expect states: "none", or "race KIND SPACE SCOPE" matched by any
// of its races, "any" matching every value of its field.
func Matches(expect, verdict string, races []Race) bool {
	f := strings.Fields(expect)
	if len(f) == 1 && f[0] == "none" {
		return verdict == "none" && len(races) == 0
	}
	if len(f) != 4 || f[0] != "race" {
		return false
	}
	eq := func(want, got string) bool { return want == "any" || want == got }
	for _, r := range races {
		if eq(f[1], r.Kind) && eq(f[2], r.Space) && eq(f[3], r.Scope) {
			return true
		}
	}
	return false
}

// Generators makes the inputs of the programs that have a generator, once
// per generator and size. Safe for concurrent use.
type Generators struct {
	Bench string // the benchmarks directory
	// Prebuilt is a folder of generator binaries named after the folder
	// that holds the generator's source (the -gen flag of realsize); when
	// set, nothing is built.
	Prebuilt string
	// Go is the go command that builds generators (CGO_ENABLED=0) into
	// BuildDir when Prebuilt is empty.
	Go, BuildDir string
	// Inputs is where the inputs go: Inputs/OWNER-SIZE.
	Inputs string
	// Reuse keeps inputs a previous run made (Inputs/OWNER-SIZE/.done)
	// instead of running the generator again.
	Reuse   bool
	Timeout time.Duration // for each build and each generator run; 0: none
	Log     io.Writer     // commands and their output; nil: discarded

	mu   sync.Mutex
	made map[string]*made
}

type made struct {
	once sync.Once
	dir  string
	err  error
}

// InputsFor returns the folder of generated inputs for a program's launch,
// generating them on first use; "" when the program has no generator.
func (g *Generators) InputsFor(p Program, l Launch) (string, error) {
	if p.GenOwner == "" {
		if l.NeedsInputs() {
			return "", fmt.Errorf("%s names %s files but %s has no generator", l.File, InputsMarker, p.Name)
		}
		return "", nil
	}
	return g.Make(p.GenOwner, l.Size())
}

// Make runs owner's generator with -size size (once per Generators) and
// returns the absolute folder it wrote.
func (g *Generators) Make(owner, size string) (string, error) {
	key := owner + "-" + size
	g.mu.Lock()
	if g.made == nil {
		g.made = map[string]*made{}
	}
	m := g.made[key]
	if m == nil {
		m = &made{}
		g.made[key] = m
	}
	g.mu.Unlock()
	m.once.Do(func() { m.dir, m.err = g.make(owner, size, key) })
	return m.dir, m.err
}

func (g *Generators) make(owner, size, key string) (string, error) {
	dir, err := filepath.Abs(filepath.Join(g.Inputs, key))
	if err != nil {
		return "", err
	}
	done := filepath.Join(dir, ".done")
	if g.Reuse && exists(done) {
		g.logf("# %s: inputs of an earlier run kept (%s)\n\n", key, dir)
		return dir, nil
	}
	bin, err := g.binary(owner)
	if err != nil {
		return "", err
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	r := Exec(g.Timeout, g.Log, nil, "", bin, "-out", dir, "-size", size)
	if r.Code != 0 {
		return "", fmt.Errorf("generator %s -size %s: %s", owner, size, r.Why())
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		return "", err
	}
	return dir, nil
}

// binary returns owner's generator binary, building it when allowed.
func (g *Generators) binary(owner string) (string, error) {
	if g.Prebuilt != "" {
		bin := filepath.Join(g.Prebuilt, owner)
		if !exists(bin) {
			return "", fmt.Errorf("no generator binary %s (build it where Go is: CGO_ENABLED=0 go build -o %s ./benchmarks/%s/gen)", bin, bin, owner)
		}
		return filepath.Abs(bin)
	}
	if g.Go == "" {
		return "", fmt.Errorf("program %s needs its generator built, and there is no go command: pass -gen DIR with prebuilt generators (CGO_ENABLED=0 go build -o DIR/%s ./benchmarks/%s/gen)", owner, owner, owner)
	}
	out, err := filepath.Abs(filepath.Join(g.BuildDir, owner))
	if err != nil {
		return "", err
	}
	if err := BuildGenerator(g.Go, filepath.Join(g.Bench, owner, "gen"), out, g.Timeout, g.Log); err != nil {
		return "", err
	}
	return out, nil
}

// BuildGenerator builds the generator whose source is in src (a main
// package: its non-test .go files, inside or outside a module) into out,
// with CGO_ENABLED=0.
func BuildGenerator(goCmd, src, out string, timeout time.Duration, log io.Writer) error {
	files, err := goFiles(src)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no Go files in %s", src)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	// Named files build as a main package in and outside a module.
	args := append([]string{"build", "-o", out}, files...)
	r := Exec(timeout, log, []string{"CGO_ENABLED=0"}, src, goCmd, args...)
	if r.Code != 0 {
		return fmt.Errorf("building the generator %s: %s", src, r.Why())
	}
	return nil
}

func (g *Generators) logf(format string, args ...any) {
	if g.Log != nil {
		logMu.Lock()
		fmt.Fprintf(g.Log, format, args...)
		logMu.Unlock()
	}
}

// GoCommand returns the go command on PATH, or "".
func GoCommand() string {
	p, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	return p
}

// Result is one command's outcome.
type Result struct {
	Stdout, Stderr []byte
	Code           int // exit status; -1 when it did not exit (killed, not started)
	Wall           time.Duration
	Killed         bool // ran past its limit
	Err            error
}

// Why says in one line why a command failed: killed, its last line of
// stderr, or the error.
func (r Result) Why() string {
	switch {
	case r.Killed:
		return fmt.Sprintf("killed after %s (time limit)", r.Wall.Round(time.Second))
	case len(bytes.TrimSpace(r.Stderr)) > 0:
		lines := strings.Split(strings.TrimSpace(string(r.Stderr)), "\n")
		return fmt.Sprintf("exit %d: %s", r.Code, lines[len(lines)-1])
	case r.Err != nil:
		return r.Err.Error()
	}
	return fmt.Sprintf("exit %d", r.Code)
}

// logMu serializes what concurrent Execs write to a shared log.
var logMu sync.Mutex

// Exec runs a command under a time limit (0: none) in its own process
// group, killed whole when the limit passes (ldcheck run and
// compute-sanitizer work in child processes), and logs the command line and
// its output to log (nil: not logged). env entries are added to the
// environment; dir "" is the current directory.
func Exec(limit time.Duration, log io.Writer, env []string, dir, name string, args ...string) Result {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.Bytes(), Stderr: errb.Bytes(), Code: -1, Wall: time.Since(start), Err: err}
	if cmd.ProcessState != nil {
		r.Code = cmd.ProcessState.ExitCode()
	}
	r.Killed = ctx.Err() == context.DeadlineExceeded
	if log != nil {
		logMu.Lock()
		where := ""
		if dir != "" {
			where = " (in " + dir + ")"
		}
		prefix := ""
		if len(env) > 0 {
			prefix = strings.Join(env, " ") + " "
		}
		fmt.Fprintf(log, "$ %s%s %s%s\n%s%s(exit %d, err %v, %s)\n\n", prefix, name, strings.Join(args, " "), where, out.String(), errb.String(), r.Code, err, r.Wall)
		logMu.Unlock()
	}
	return r
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
