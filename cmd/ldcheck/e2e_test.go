package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ldcheck/gpuruntime"
	"ldcheck/privatize/manifest"
)

// expectation is a kernel file's header: "// expect: none",
// "// expect: race KIND SPACE SCOPE" or "// expect: error (exit N, ...)"
// (the build fails with status N), and "// launch: FLAGS".
type expectation struct {
	race               bool
	unchecked          bool // "// expect: unchecked": runs, exit 4, verdict unchecked
	kind, space, scope string
	launch             []string
	buildExit          int // an error expectation: the build's exit status
	// explain: "// explain: [FILE:]LINE [FILE:]LINE", the two statements
	// of a race (the earlier first) that a reader of the source would
	// name; some race of the report must name them. "// explain: none
	// (why)" says that no pair can be named.
	explain     []string
	explainNone bool
}

// readExpectation fails the test for a file whose header it cannot read:
// a kernel skipped for a typo in its header would pass unnoticed.
func readExpectation(t *testing.T, file string) expectation {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var e expectation
	found := false
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "// expect: "); ok {
			f := strings.Fields(rest)
			switch {
			case len(f) >= 1 && f[0] == "none":
				found = true
			case len(f) >= 1 && f[0] == "unchecked":
				found, e.unchecked = true, true
			case len(f) == 4 && f[0] == "race":
				found, e.race, e.kind, e.space, e.scope = true, true, f[1], f[2], f[3]
			case len(f) >= 3 && f[0] == "error" && f[1] == "(exit":
				n, err := strconv.Atoi(strings.TrimSuffix(f[2], ","))
				if err != nil {
					t.Fatalf("%s: cannot read the exit status in %q", file, line)
				}
				found, e.buildExit = true, n
			default:
				t.Fatalf("%s: cannot read %q (want none, race KIND SPACE SCOPE, or error (exit N, ...))", file, line)
			}
		}
		if rest, ok := strings.CutPrefix(line, "// launch: "); ok {
			e.launch = strings.Fields(rest)
		}
		if rest, ok := strings.CutPrefix(line, "// explain: "); ok {
			f := strings.Fields(rest)
			switch {
			case len(f) >= 1 && f[0] == "none":
				e.explainNone = true
			case len(f) == 2:
				e.explain = f
			default:
				t.Fatalf("%s: cannot read %q (want [FILE:]LINE [FILE:]LINE, or none (why))", file, line)
			}
		}
	}
	if !found {
		t.Fatalf("%s has no // expect: line", file)
	}
	if e.buildExit == 0 && e.launch == nil {
		t.Fatalf("%s has no // launch: line", file)
	}
	if e.race && e.explain == nil && !e.explainNone {
		t.Fatalf("%s has no // explain: line (the two statements of the race, or none (why))", file)
	}
	return e
}

// TestEndToEnd builds and runs every kernel of testdata/acceptance and
// testdata/e2e on the CPU backend and checks the verdict each file's
// header states. For race-free kernels it also checks output fidelity:
// every buffer after the checked run equals an unchecked run's, byte for byte.
// Each kernel also runs with --deterministic (checkDeterministic).
func TestEndToEnd(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/acceptance/*.cu")
	more, _ := filepath.Glob("../../testdata/e2e/*.cu")
	if len(files) == 0 || len(more) == 0 {
		t.Fatalf("no kernels found (%d acceptance, %d e2e): run from cmd/ldcheck", len(files), len(more))
	}
	files = append(files, more...)
	for _, f := range files {
		e := readExpectation(t, f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "build")
			var out, errb bytes.Buffer
			if e.buildExit != 0 {
				if code := run([]string{"ldcheck", "build", "-o", dir, f}, &out, &errb); code != e.buildExit || !strings.Contains(errb.String(), filepath.Base(f)) {
					t.Fatalf("build exit %d, want %d with a message naming the file:\n%s%s", code, e.buildExit, out.String(), errb.String())
				}
				return
			}
			if code := run([]string{"ldcheck", "build", "-o", dir, f}, &out, &errb); code != 0 {
				t.Fatalf("build exit %d:\n%s%s", code, out.String(), errb.String())
			}
			m, err := manifest.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			args := append([]string{"ldcheck", "run", "--backend", "cpu", "--format", "json"}, e.launch...)
			var outs []string
			for _, k := range m.Kernels {
				for _, p := range k.Params {
					if p.Pointer && (k.Name == kernelFlag(e.launch) || len(m.Kernels) == 1) {
						outs = append(outs, p.Name)
					}
				}
			}
			checkDeterministic(t, dir, e, m, e.launch, outs)
			checked := append(args, outFlags(t, outs, "checked")...)
			out.Reset()
			errb.Reset()
			code := run(append(checked, dir), &out, &errb)
			var rep jsonReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("exit %d, output is not a JSON report: %v\n%s%s", code, err, out.String(), errb.String())
			}
			if e.unchecked {
				if code != exitUnchecked || rep.Verdict != "unchecked" || rep.NotChecked == "" || !strings.Contains(errb.String(), "ran, not checked") {
					t.Fatalf("kernel that cannot be checked: exit %d (want 4), verdict %q, not_checked %q\n%s", code, rep.Verdict, rep.NotChecked, errb.String())
				}
				out.Reset()
				if code := run(append(append(args, "--allow-unchecked"), dir), &out, &errb); code != 0 {
					t.Fatalf("--allow-unchecked: exit %d, want 0\n%s", code, errb.String())
				}
				return
			}
			if !e.race {
				if code != 0 || len(rep.Races) > 0 {
					t.Fatalf("race-free kernel: exit %d, races %+v\n%s", code, rep.Races, errb.String())
				}
				plain := append(args, outFlags(t, outs, "plain")...)
				plain = append(plain, "--unchecked", dir)
				if code := run(plain, &out, &errb); code != 0 {
					t.Fatalf("unchecked run: exit %d\n%s", code, errb.String())
				}
				for _, o := range outs {
					a, _ := os.ReadFile(filepath.Join(outDir(t), "checked-"+o))
					b, _ := os.ReadFile(filepath.Join(outDir(t), "plain-"+o))
					if len(a) == 0 || !bytes.Equal(a, b) {
						t.Errorf("buffer %s after the checked run differs from an unchecked run (%d vs %d bytes)", o, len(a), len(b))
					}
				}
				return
			}
			if code != 1 {
				t.Fatalf("racy kernel: exit %d, want 1\n%s", code, errb.String())
			}
			checkExplained(t, f, e, rep)
			lanes := false
			for _, r := range rep.Races {
				lanes = lanes || r.Scope == "intra-warp"
			}
			for _, r := range rep.Races {
				// Where lanes raced, a warp's results may change between
				// its passes through its own lanes' order alone: that is
				// not a race between warps, and the report would name one.
				if lanes && r.Scope == "inter-warp" && r.Kind == "read-write" && len(r.Units) < 2 {
					t.Errorf("read-write race between warps on %s names one warp %v: the effect of a race between its lanes", r.Variable, r.Units)
				}
				// A race is between two units (issue 13): an explained
				// inter-warp or inter-block report names at least two.
				if len(r.Accesses) == 2 && r.Kind != "atomic-plain" && (r.Scope == "inter-warp" || r.Scope == "inter-block") && len(r.Units) < 2 {
					t.Errorf("%s race on %s names one unit %v; its accesses are by %+v", r.Kind, r.Variable, r.Units, r.Accesses)
				}
			}
			for _, r := range rep.Races {
				if r.Region.File == "" || r.Region.BeginLine == 0 {
					t.Errorf("race without its region's file and lines: %+v", r)
				}
				if r.Kind == e.kind && (e.space == "any" || r.Space == e.space) && string(r.Scope) == e.scope {
					return
				}
			}
			t.Errorf("no race %s %s %s among %+v", e.kind, e.space, e.scope, rep.Races)
		})
	}
}

func kernelFlag(launch []string) string {
	for i, a := range launch {
		if a == "--kernel" && i+1 < len(launch) {
			return launch[i+1]
		}
	}
	return ""
}

// outDir is a per-test directory for --out files.
func outDir(t *testing.T) string {
	d := filepath.Join(os.TempDir(), "ldcheck-e2e-"+strings.ReplaceAll(t.Name(), "/", "_"))
	os.MkdirAll(d, 0o755)
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func outFlags(t *testing.T, names []string, prefix string) []string {
	var flags []string
	for _, n := range names {
		flags = append(flags, "--out", n+"="+filepath.Join(outDir(t), prefix+"-"+n))
	}
	return flags
}

// checkExplained checks the "// explain:" header: some race of the report
// names the two statements (by line, and file when given) in source order.
func checkExplained(t *testing.T, file string, e expectation, rep jsonReport) {
	t.Helper()
	place := func(a gpuruntime.Access) string { return fmt.Sprintf("%s:%d", filepath.Base(a.File), a.Line) }
	matches := func(a gpuruntime.Access, want string) bool {
		if strings.Contains(want, ":") {
			return place(a) == want
		}
		return want == strconv.Itoa(a.Line) && filepath.Base(a.File) == filepath.Base(file)
	}
	var got []string
	for _, r := range rep.Races {
		if len(r.Accesses) != 2 {
			continue
		}
		got = append(got, place(r.Accesses[0])+" "+place(r.Accesses[1]))
		if e.explain != nil && matches(r.Accesses[0], e.explain[0]) && matches(r.Accesses[1], e.explain[1]) {
			return
		}
	}
	if e.explainNone {
		if len(got) > 0 {
			t.Errorf("the header says no statements can be named, but the report names %v", got)
		}
		return
	}
	t.Errorf("no race names the statements %v; the report names %v", e.explain, got)
}
