package privatize_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/gpuruntime"
	"ldcheck/passes"
	"ldcheck/passes/clang"
	"ldcheck/privatize"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden/instrument")

func instrument(t *testing.T, lib *clang.Lib, file string) *privatize.Result {
	t.Helper()
	u, _, err := passes.Parse(lib, file, passes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The relative path keeps the #line directives (and the golden files)
	// independent of where the repository is.
	res, err := privatize.Instrument(u, passes.Analyze(u), file)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestGolden shows the instrumented source of representative kernels.
// Run with -update to rewrite; read the diff before committing it.
func TestGolden(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	for _, f := range []string{
		"../testdata/acceptance/hs_scan_ok.cu",
		"../testdata/acceptance/matmul_racy.cu",
		"../testdata/acceptance/device_sum_ww.cu",
		"../testdata/kernels/control_flow.cu",
		"../testdata/kernels/dynamic_device.cu",
		"../testdata/kernels/atomic_count.cu",
		"../testdata/kernels/host_code.cu",
		"../testdata/kernels/unsupported.cu",
		"../testdata/kernels/pred_barriers.cu",
		"../testdata/kernels/padded_locals.cu",
	} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			got := instrument(t, lib, f).Source
			golden := filepath.Join("../testdata/golden/instrument", filepath.Base(f))
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./privatize -update)", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("instrumented %s differs from %s (-want +got):\n%s", f, golden, d)
			}
			// The user's lines keep their numbers: line N of the source is
			// line N after the #line directive.
			src, _ := os.ReadFile(f)
			body := got[strings.Index(got, "#line 1 ")+1:]
			body = body[strings.IndexByte(body, '\n')+1:]
			if n, m := strings.Count(string(src), "\n"), strings.Count(body[:strings.Index(body, "#line 1 ")], "\n"); n != m {
				t.Errorf("instrumented body has %d lines, the source %d", m, n)
			}
		})
	}
}

// TestCompiles: the instrumented source of every test kernel compiles to
// PTX with clang-15 (sm_80) and as C++ for the CPU backend.
func TestCompiles(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	files, _ := filepath.Glob("../testdata/acceptance/*.cu")
	more, _ := filepath.Glob("../testdata/kernels/*.cu")
	files = append(files, more...)
	inc := t.TempDir()
	clangInc, rt, cpuInc := filepath.Join(inc, "clang"), filepath.Join(inc, "rt"), filepath.Join(inc, "cpu")
	for _, d := range []string{clangInc, cpuInc} {
		os.MkdirAll(d, 0o755)
	}
	if err := passes.WriteIncludes(clangInc); err != nil {
		t.Fatal(err)
	}
	passes.WriteInclude(cpuInc, "cooperative_groups.h")
	if err := gpuruntime.WriteRuntimeInclude(rt); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "bad_syntax.cu") {
			continue
		}
		res := instrument(t, lib, f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			m := res.Manifest
			if err := os.WriteFile(filepath.Join(dir, m.Output), []byte(res.Source), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := gpuruntime.Compile(context.Background(), dir, m, gpuruntime.BuildOptions{ClangInclude: clangInc, RuntimeInclude: rt, CPUInclude: cpuInc, NVCC: "", Clang: "clang-15"}); err != nil {
				t.Fatal(err)
			}
			if m.PTX == "" || m.CPU == "" {
				t.Fatalf("modules missing: ptx %q cpu %q", m.PTX, m.CPU)
			}
			ptx, _ := os.ReadFile(filepath.Join(dir, m.PTX))
			for _, k := range m.Kernels {
				if k.Symbol != "" && !strings.Contains(string(ptx), ".entry "+k.Symbol) {
					t.Errorf("PTX has no entry %s for kernel %s", k.Symbol, k.Name)
				}
			}
		})
	}
}

// TestSharedStoresTracked: stores to shared targets are flagged (so the
// checks visit only what was written) exactly when the compiler sees them
// all; a target that decays to a pointer or binds to a reference turns the
// flags off for its kernel, with the line that did it.
func TestSharedStoresTracked(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	res := instrument(t, lib, "../testdata/kernels/shared_stores.cu")
	want := map[string]string{ // kernel -> "" (tracked) or what the reason names
		"tracked":   "",
		"alias":     "line 25: tile is used as a pointer",
		"call":      "line 33: tile is used as a pointer",
		"reference": "line 41: tile is used where ldcheck cannot see whether it is written",
	}
	for _, k := range res.Manifest.Kernels {
		w, ok := want[k.Name]
		if !ok {
			t.Errorf("unexpected kernel %s", k.Name)
			continue
		}
		if !k.Instrumented {
			t.Errorf("%s not instrumented: %s", k.Name, k.Reason)
		}
		if k.SharedTracked != (w == "") || k.SharedUntracked != w {
			t.Errorf("%s: tracked %v (%q), want tracked %v (%q)", k.Name, k.SharedTracked, k.SharedUntracked, w == "", w)
		}
	}
	for _, s := range []string{
		"(*LDC_SW(ldc_p_tile, ldc_f_tile, sizeof(*ldc_p_tile), &((*ldc_p_tile)[t / 32][t % 32]))) = ",
		"(*LDC_SW(ldc_p_cells, ldc_f_cells, sizeof(*ldc_p_cells), &((*ldc_p_cells)[t % 32].mass))) = 2.0f",
		"(*LDC_SW(ldc_p_count, ldc_f_count, sizeof(*ldc_p_count), &((*ldc_p_count)))) = 0",
		"(*LDC_SW(ldc_p_tile, ldc_f_tile, sizeof(*ldc_p_tile), &((*ldc_p_tile)[0][t % 32]))) += 1.0f",
		"(*LDC_SW(ldc_p_count, ldc_f_count, sizeof(*ldc_p_count), &((*ldc_p_count))))++",
		"unsigned *ldc_f_tile = ldc_shared_flags(0);",
	} {
		if !strings.Contains(untraced(res.Source), s) {
			t.Errorf("instrumented source lacks %q", s)
		}
	}
	// A tile passed to a device function as a pointer to const: no store
	// through it to miss, unless the callee casts the const away.
	res = instrument(t, lib, "../testdata/kernels/const_args.cu")
	want = map[string]string{
		"readonly_tile":  "",
		"read_and_write": "",
		"cast_away":      "line 41: tile is used as a pointer",
		"non_const":      "line 50: tile is used as a pointer",
	}
	for _, k := range res.Manifest.Kernels {
		if w := want[k.Name]; k.SharedTracked != (w == "") || k.SharedUntracked != w {
			t.Errorf("%s: tracked %v (%q), want tracked %v (%q)", k.Name, k.SharedTracked, k.SharedUntracked, w == "", w)
		}
	}
}

// untraced removes the trace wrappers (*LDC_TR(&(E), SITE, W)) and
// (*LDC_TRS(&(E), SITE, W, I)) from src,
// leaving E: the other hooks' text is what a test looks for.
func untraced(src string) string {
	return untracedAs(untracedAs(src, "(*LDC_TR(&("), "(*LDC_TRS(&(")
}

// untracedAs removes the wrappers that start with open.
func untracedAs(src, open string) string {
	for {
		i := strings.Index(src, open)
		if i < 0 {
			return src
		}
		depth, j := 2, i+len(open) // inside "(*LDC_TR(" and "&("
		for ; j < len(src) && depth > 0; j++ {
			switch src[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 1 { // E's closing parenthesis
				break
			}
		}
		// src[j] closes "&(": skip ", SITE, W))".
		end := strings.Index(src[j:], "))")
		if end < 0 {
			return src
		}
		src = src[:i] + src[i+len(open):j] + src[j+end+2:]
	}
}

// TestPredicateBarrierPlaces: predicate barriers that cannot be moved to a
// statement of their own (right of &&, in a for increment) leave their
// kernel uninstrumented with a reason that names the line; the others are
// instrumented.
func TestPredicateBarrierPlaces(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	res := instrument(t, lib, "../testdata/kernels/pred_barriers.cu")
	want := map[string]string{
		"forms":        "",
		"guarded":      "line 37: __syncthreads_or right of &&",
		"in_increment": "line 42: __syncthreads_count in a for loop's init or increment",
	}
	for _, k := range res.Manifest.Kernels {
		w, ok := want[k.Name]
		if !ok {
			continue
		}
		if w == "" && (!k.Instrumented || k.Reason != "") {
			t.Errorf("kernel %s: not instrumented: %s", k.Name, k.Reason)
		}
		if w != "" && (k.Instrumented || !strings.Contains(k.Reason, w)) {
			t.Errorf("kernel %s: instrumented %v, reason %q, want one with %q", k.Name, k.Instrumented, k.Reason, w)
		}
	}
}

// TestQuietSharedAtomics: the atomics and plain accesses of a shared
// variable are noted for the atomic-plain check (a site number; -2: not
// noted) exactly when the two kinds may run in the same region.
func TestQuietSharedAtomics(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	res := instrument(t, lib, "../testdata/kernels/quiet_atomics.cu")
	noted := map[string]bool{"split": false, "same": true, "looped": true, "escapes": true}
	src := res.Source
	for name, want := range noted {
		i := strings.Index(src, "__global__ void "+name+"(")
		if i < 0 {
			t.Fatalf("kernel %s not in the instrumented source", name)
		}
		body := src[i:]
		if j := strings.Index(body[1:], "__global__ void "); j >= 0 {
			body = body[:j+1]
		}
		k := strings.Index(body, "LDC_AOP(atomicAdd, ")
		if k < 0 {
			t.Fatalf("%s: no LDC_AOP", name)
		}
		quiet := strings.HasPrefix(body[k:], "LDC_AOP(atomicAdd, -2,")
		if quiet == want {
			t.Errorf("%s: atomic noted %v, want %v: %s", name, !quiet, want, body[k:k+60])
		}
		if !want && strings.Contains(body, "LDC_AP_PLAIN(") {
			t.Errorf("%s: a plain access is noted though no atomic is", name)
		}
	}
}

// TestParamHooks: an access through a device function's pointer parameter
// loses its global hook (keeping its trace wrapper) when every call gives
// the parameter memory outside the privatized allocations, passed on from
// function to function; a call that gives it a global target, or an
// assignment to it, keeps the hook.
func TestParamHooks(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	src := instrument(t, lib, "../testdata/kernels/param_hooks.cu").Source
	for _, s := range []string{
		"s += (*LDC_TR(&(p[i]), 0, 0));",                // sum: only ever a shared tile, through hop
		"(*LDC_W(&((*LDC_TR(&(p[i]), 1, 1))))) = v;",    // put: out in global_too
		"return (*LDC_R(&((*LDC_TR(&(p[0]), 2, 0)))));", // moved: p reassigned
	} {
		if !strings.Contains(src, s) {
			t.Errorf("instrumented source lacks %q", s)
		}
	}
}
