package passes_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/passes"
	"ldcheck/passes/clang"
	"ldcheck/privatize/manifest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func loadClang(t *testing.T) *clang.Lib {
	t.Helper()
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("the front-end tests need libclang 15 (run `make deps`): %v", err)
	}
	return lib
}

func analyze(t *testing.T, lib *clang.Lib, path string) *passes.Analysis {
	t.Helper()
	u, _, err := passes.Parse(lib, path, passes.Options{})
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return passes.Analyze(u)
}

// TestGolden compares the JSON analysis of every kernel file in testdata
// with testdata/golden/analyze/NAME.json. Run with -update to rewrite.
func TestGolden(t *testing.T) {
	lib := loadClang(t)
	files, _ := filepath.Glob("../testdata/acceptance/*.cu")
	more, _ := filepath.Glob("../testdata/kernels/*.cu")
	files = append(files, more...)
	if len(files) < 15 {
		t.Fatalf("found only %d test kernels", len(files))
	}
	for _, f := range files {
		if strings.HasSuffix(f, "bad_syntax.cu") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			a := analyze(t, lib, f)
			got, err := json.MarshalIndent(a, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("../testdata/golden/analyze", strings.TrimSuffix(filepath.Base(f), ".cu")+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./passes -update)", err)
			}
			if d := cmp.Diff(strings.TrimSpace(string(want)), strings.TrimSpace(string(got))); d != "" {
				t.Errorf("analysis of %s differs from %s (-want +got):\n%s", f, golden, d)
			}
		})
	}
}

type region struct{ from, to int }

// kernelNamed is the kernel of a called name.
func kernelNamed(t *testing.T, a *passes.Analysis, name string) *passes.Kernel {
	t.Helper()
	for _, k := range a.Kernels {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("kernel %s not found", name)
	return nil
}

// TestFacts states, kernel by kernel, what the analysis must find. Unlike
// the golden files these are written by hand, so an -update cannot bless a
// wrong answer.
func TestFacts(t *testing.T) {
	lib := loadClang(t)
	tests := []struct {
		file, kernel string
		barriers     int // block-level barriers
		regions      []region
		targets      map[string]passes.Space
		unchecked    []string // names, in any order
		diag         []string // substrings of diagnostics
	}{
		{file: "acceptance/hs_scan_ok.cu", kernel: "scan", barriers: 2,
			regions: []region{{-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}},
			targets: map[string]passes.Space{"buf": passes.Shared}, unchecked: []string{"data"}},
		{file: "acceptance/hs_scan_racy.cu", kernel: "scan", barriers: 2,
			targets: map[string]passes.Space{"s": passes.Shared}, unchecked: []string{"data"}},
		{file: "acceptance/matmul_racy.cu", kernel: "mm", barriers: 1,
			regions: []region{{-1, 0}, {-1, -1}, {0, 0}, {0, -1}},
			targets: map[string]passes.Space{"As": passes.Shared, "Bs": passes.Shared, "C": passes.Global}, unchecked: []string{"A", "B"}},
		{file: "acceptance/matmul_ok.cu", kernel: "mm", barriers: 2,
			regions: []region{{-1, 0}, {-1, -1}, {0, 1}, {1, 0}, {1, -1}},
			targets: map[string]passes.Space{"As": passes.Shared, "Bs": passes.Shared, "C": passes.Global}, unchecked: []string{"A", "B"}},
		{file: "acceptance/shift_ok.cu", kernel: "k", regions: []region{{-1, -1}},
			targets: map[string]passes.Space{}, unchecked: []string{"in", "out"}},
		{file: "acceptance/device_sum_ww.cu", kernel: "k",
			targets: map[string]passes.Space{"total": passes.Global}, unchecked: []string{"in"}},
		{file: "acceptance/overlap_ww_global.cu", kernel: "k",
			targets: map[string]passes.Space{"out": passes.Global}},
		{file: "acceptance/shared_max_ww.cu", kernel: "k", barriers: 1,
			targets: map[string]passes.Space{"best": passes.Shared, "out": passes.Global}, unchecked: []string{"in"}},
		{file: "acceptance/loop_break_ok.cu", kernel: "k", barriers: 1, regions: []region{{-1, 0}, {0, -1}},
			targets: map[string]passes.Space{"s": passes.Shared}, unchecked: []string{"in", "out"}},
		{file: "acceptance/transpose_racy.cu", kernel: "tr", regions: []region{{-1, -1}},
			targets: map[string]passes.Space{"tile": passes.Shared, "out": passes.Global}, unchecked: []string{"in"}},
		{file: "kernels/control_flow.cu", kernel: "flow", barriers: 5,
			regions: []region{{-1, 0}, {-1, -1}, {0, 1}, {0, 3}, {1, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 3}, {3, 3}, {3, 4}, {3, -1}, {4, -1}},
			targets: map[string]passes.Space{"s": passes.Shared}, unchecked: []string{"data"}},
		{file: "kernels/dynamic_device.cu", kernel: "dyn", barriers: 2,
			targets:   map[string]passes.Space{"buf": passes.Shared, "table": passes.Global, "out": passes.Global},
			unchecked: []string{"counter", "coeff"}},
		{file: "kernels/template_struct.cu", kernel: "tsum", barriers: 2,
			targets: map[string]passes.Space{"acc": passes.Shared, "cube": passes.Shared, "out": passes.Global}, unchecked: []string{"in"}},
		{file: "kernels/private_index.cu", kernel: "scale", targets: map[string]passes.Space{}, unchecked: []string{"v"}},
		{file: "kernels/private_index.cu", kernel: "shifted", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "reassigned", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "gridstride", targets: map[string]passes.Space{}, unchecked: []string{"v"}},
		{file: "kernels/private_index.cu", kernel: "gridstride_while", targets: map[string]passes.Space{}, unchecked: []string{"v"}},
		{file: "kernels/private_index.cu", kernel: "blockstep", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "gridstride_shifted", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "gridstride_doubled", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "pairs", targets: map[string]passes.Space{}, unchecked: []string{"v"}},
		{file: "kernels/private_index.cu", kernel: "pairs_overlap", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "pairs_widths", targets: map[string]passes.Space{"v": passes.Global}},
		{file: "kernels/private_index.cu", kernel: "blockstride_shared", barriers: 1, targets: map[string]passes.Space{}, unchecked: []string{"s", "in", "out"}},
		{file: "kernels/atomic_count.cu", kernel: "count", barriers: 2,
			targets: map[string]passes.Space{"seen": passes.Shared}, unchecked: []string{"counter", "slots", "out"}},
		{file: "kernels/host_code.cu", kernel: "fill", targets: map[string]passes.Space{"a": passes.Global, "tmp": passes.Shared}},
		{file: "kernels/unsupported.cu", kernel: "weird", barriers: 2,
			targets: map[string]passes.Space{"s": passes.Shared, "out": passes.Global}, unchecked: []string{"hits"},
			diag: []string{"unsupported.cu:14:3: warning: weird calls device function stage", "16:3: warning: inline PTX", "17:29: warning: device-side malloc", "20:19: warning: goto", "21:3: warning: grid-wide barrier"}},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.kernel, func(t *testing.T) {
			a := analyze(t, lib, "../testdata/"+tc.file)
			k := kernelNamed(t, a, tc.kernel)
			blocks := 0
			for _, b := range k.Barriers {
				if !b.Warp {
					blocks++
				}
			}
			if blocks != tc.barriers {
				t.Errorf("block barriers = %d, want %d", blocks, tc.barriers)
			}
			if tc.regions != nil {
				var got []region
				for _, r := range k.Regions {
					got = append(got, region{r.From, r.To})
				}
				if d := cmp.Diff(tc.regions, got, cmp.AllowUnexported(region{})); d != "" {
					t.Errorf("regions (-want +got):\n%s", d)
				}
			}
			gotT := map[string]passes.Space{}
			for _, tg := range k.Targets {
				gotT[tg.Name] = tg.Space
			}
			if d := cmp.Diff(tc.targets, gotT); d != "" {
				t.Errorf("targets (-want +got):\n%s", d)
			}
			var gotU []string
			for _, u := range k.Unchecked {
				gotU = append(gotU, u.Name)
			}
			if d := cmp.Diff(tc.unchecked, gotU, cmpSet); d != "" {
				t.Errorf("unchecked (-want +got):\n%s", d)
			}
			var diags []string
			for _, d := range a.Diagnostics {
				diags = append(diags, filepath.Base(d.File)+":"+strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Col)+": "+d.Severity+": "+d.Message)
			}
			for _, want := range tc.diag {
				found := false
				for _, d := range diags {
					found = found || strings.Contains(d, want)
				}
				if !found {
					t.Errorf("no diagnostic containing %q in:\n%s", want, strings.Join(diags, "\n"))
				}
			}
			if tc.diag == nil && len(diags) > 0 {
				t.Errorf("unexpected diagnostics:\n%s", strings.Join(diags, "\n"))
			}
		})
	}
}

var cmpSet = cmp.Transformer("set", func(s []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
})

// TestBadInput: every kind of bad input is an *InputError naming the file,
// never a panic.
func TestBadInput(t *testing.T) {
	lib := loadClang(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.cu"), "nope.cu: no such file"},
		{"directory", dir, "is a directory"},
		{"empty", write("empty.cu", []byte("  \n")), "empty.cu: file is empty"},
		{"binary", write("bin.cu", []byte("__global__ void k() {}\n\xff\xfe\x00")), "bin.cu: line 2: not valid UTF-8"},
		{"syntax", "../testdata/acceptance/bad_syntax.cu", "bad_syntax.cu:3:24: error: expected ';'"},
		{"missing include", write("inc.cu", []byte("#include \"nothere.h\"\n__global__ void k() {}\n")), "inc.cu:1:10: error: 'nothere.h' file not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := passes.Parse(lib, tc.path, passes.Options{})
			var ie *passes.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("got %v (%T), want an *InputError", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

// TestOptions: -D and -I reach the parser.
func TestOptions(t *testing.T) {
	lib := loadClang(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "n.h"), []byte("#define N 64\n"), 0o644)
	src := filepath.Join(dir, "k.cu")
	os.WriteFile(src, []byte("#include \"sub/n.h\"\n__global__ void k(float *a) { __shared__ float s[N * SCALE]; s[threadIdx.x] = a[0]; __syncthreads(); a[threadIdx.x] = s[0]; }\n"), 0o644)
	sub := filepath.Join(dir, "inc", "sub")
	os.MkdirAll(sub, 0o755)
	os.Rename(filepath.Join(dir, "n.h"), filepath.Join(sub, "n.h"))
	if _, _, err := passes.Parse(lib, src, passes.Options{}); err == nil {
		t.Fatal("parse without -I and -D succeeded; want an error")
	}
	u, _, err := passes.Parse(lib, src, passes.Options{Includes: []string{filepath.Join(dir, "inc")}, Defines: []string{"SCALE=2"}})
	if err != nil {
		t.Fatal(err)
	}
	a := passes.Analyze(u)
	if got := a.Kernels[0].Shared[0].Bytes; got != 512 {
		t.Errorf("s is %d bytes, want 512 (N*SCALE floats)", got)
	}
}

// TestAtomicClasses: every atomic call is classified by how its outcome
// depends on the order threads run it (what --deterministic refuses), and
// a user's function named atomicXxx is not an atomic itself.
func TestAtomicClasses(t *testing.T) {
	lib := loadClang(t)
	src := filepath.Join(t.TempDir(), "k.cu")
	os.WriteFile(src, []byte(`__device__ int atomicPeek(int *p) { return atomicAdd(p, 0); }
__global__ void k(int *c, unsigned *u, float *f, double *d, unsigned long long *l, int *out) {
  atomicAdd(c, 1);
  atomicSub(c, 1);
  atomicMax(c, threadIdx.x);
  atomicOr(u, 1u);
  atomicInc(u, 100u);
  atomicAdd(l, 1ull);
  if (threadIdx.x == 0) atomicXor(c + 1, 3);
  atomicAdd(f, 1.0f);
  atomicAdd(d, 1.0);
  atomicExch(c + 2, 5);
  atomicCAS(c + 3, 0, 1);
  int old = atomicAdd(c + 4, 1);
  out[threadIdx.x] = old + atomicPeek(c + 5);
}
`), 0o644)
	u, _, err := passes.Parse(lib, src, passes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, at := range passes.Analyze(u).Kernels[0].Atomics {
		got = append(got, fmt.Sprintf("%d %s %s", at.Pos.Line, at.Call, at.Class))
	}
	want := []string{
		"1 atomicAdd value used",
		"3 atomicAdd commutative", "4 atomicSub commutative", "5 atomicMax commutative", "6 atomicOr commutative",
		"7 atomicInc commutative", "8 atomicAdd commutative", "9 atomicXor commutative",
		"10 atomicAdd float", "11 atomicAdd float", "12 atomicExch exchange", "13 atomicCAS compare-and-swap",
		"14 atomicAdd value used", "15 atomicPeek ",
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("atomic classes (-want +got):\n%s", diff)
	}
}

// TestStructLayouts: struct parameters, by value and pointed to, get
// their fields' layout from clang whatever names them (a typedef, an
// alias, a struct declared in an included header), nested structs and
// small arrays of structs flattened. Written by hand, unlike the golden
// files.
func TestStructLayouts(t *testing.T) {
	lib := loadClang(t)
	a := analyze(t, lib, "../testdata/kernels/struct_params.cu")
	if len(a.Kernels) != 1 || len(a.Kernels[0].Params) != 3 {
		t.Fatalf("want one kernel of 3 parameters, got %+v", a.Kernels)
	}
	ps := a.Kernels[0].Params
	type f struct {
		name      string
		off, size int64
		typ       string
	}
	flat := func(fs []manifest.Field) []f {
		var out []f
		for _, x := range fs {
			out = append(out, f{x.Name, x.Offset, x.Size, x.Type})
		}
		return out
	}
	want := []f{{"data", 0, 8, "const float *"}, {"n", 8, 4, "int"}, {"inner.scale", 12, 4, "float"}, {"inner.bias", 16, 2, "short"},
		{"v", 20, 12, "int[3]"}, {"pairs[0].a", 32, 4, "int"}, {"pairs[0].b", 36, 4, "float"}, {"pairs[1].a", 40, 4, "int"}, {"pairs[1].b", 44, 4, "float"},
		{"cb", 48, 8, "void (*)(int)"}, {"tag", 56, 4, "int"}, {"weight", 56, 4, "float"}}
	if d := cmp.Diff(want, flat(ps[0].Fields), cmp.AllowUnexported(f{})); d != "" || ps[0].Size != 64 || ps[0].Pointer || ps[0].ElemFields != nil {
		t.Errorf("by-value params_t p (size %d, pointer %v, elem fields %v) (-want +got):\n%s", ps[0].Size, ps[0].Pointer, ps[0].ElemFields, d)
	}
	want = []f{{"mass", 0, 4, "float"}, {"next", 8, 8, "Cell *"}}
	if d := cmp.Diff(want, flat(ps[1].ElemFields), cmp.AllowUnexported(f{})); d != "" || ps[1].ElemSize != 16 || ps[1].Fields != nil {
		t.Errorf("cell *cells (elem size %d, fields %v) (-want +got):\n%s", ps[1].ElemSize, ps[1].Fields, d)
	}
	if ps[2].Fields != nil || ps[2].ElemFields != nil {
		t.Errorf("float *out has fields: %+v", ps[2])
	}

	// A struct declared in an included header.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "cell.h"), []byte("typedef struct { float mass; struct { int lo, hi; } span; } cell_t;\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "k.cu"), []byte("#include \"cell.h\"\n__global__ void k(cell_t c, cell_t *cs) { cs[threadIdx.x] = c; }\n"), 0o644)
	a = analyze(t, lib, filepath.Join(dir, "k.cu"))
	if len(a.Kernels) != 1 || len(a.Kernels[0].Params) != 2 {
		t.Fatalf("want one kernel of 2 parameters, got %+v", a.Kernels)
	}
	ps = a.Kernels[0].Params
	want = []f{{"mass", 0, 4, "float"}, {"span.lo", 4, 4, "int"}, {"span.hi", 8, 4, "int"}}
	if d := cmp.Diff(want, flat(ps[0].Fields), cmp.AllowUnexported(f{})); d != "" {
		t.Errorf("cell_t c, declared in a header (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, flat(ps[1].ElemFields), cmp.AllowUnexported(f{})); d != "" {
		t.Errorf("cell_t *cs, declared in a header (-want +got):\n%s", d)
	}
}

// TestOnePass states by hand which regions of testdata/kernels/one_pass.cu
// run once and whether level 1 needs its second launch: a wrong "once"
// misses read-write races, so the golden file alone is not enough.
func TestOnePass(t *testing.T) {
	lib := loadClang(t)
	a := analyze(t, lib, "../testdata/kernels/one_pass.cu")
	tests := []struct {
		kernel   string
		once     []region // regions that run once
		twice    []region // regions that keep their second pass
		blockOne bool
	}{
		{"tiles", []region{{-1, 0}, {0, -1}}, nil, true},
		{"inplace", []region{{-1, 0}, {0, 1}, {2, 1}, {2, -1}}, []region{{1, 2}}, false},
		// Per start alone, barrier 2 reaches both the read and the write.
		{"levels", []region{{2, 1}, {2, 0}, {0, 1}, {1, 2}, {-1, 0}}, nil, false},
		{"aliased", nil, []region{{-1, 0}, {0, -1}}, true},
		{"referenced", nil, []region{{-1, 0}}, true},
		{"device_var", nil, []region{{-1, 0}, {0, -1}}, false},
		{"jumps", nil, []region{{-1, 0}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			k := kernelNamed(t, a, tc.kernel)
			got := map[region]bool{}
			for _, r := range k.Regions {
				got[region{r.From, r.To}] = r.OnePass
			}
			for _, want := range []struct {
				rs   []region
				once bool
			}{{tc.once, true}, {tc.twice, false}} {
				for _, r := range want.rs {
					if once, ok := got[r]; !ok {
						t.Errorf("no region %v; regions %v", r, got)
					} else if once != want.once {
						t.Errorf("region %v: one pass %v, want %v", r, once, want.once)
					}
				}
			}
			if k.BlockOnePass != tc.blockOne {
				t.Errorf("BlockOnePass = %v, want %v", k.BlockOnePass, tc.blockOne)
			}
		})
	}
}

// TestIndexProofs states by hand which regions of
// testdata/kernels/index_proofs.cu an index proof lets run once, and under
// which launch shape (Region.OnePassIf; "always" for Region.OnePass),
// and which keep their second pass ("twice").
func TestIndexProofs(t *testing.T) {
	lib := loadClang(t)
	a := analyze(t, lib, "../testdata/kernels/index_proofs.cu")
	tests := []struct {
		kernel string
		want   map[region]string
	}{
		{"halving", map[region]string{{0, 1}: passes.LineBlock, {1, 1}: passes.LineBlock}},
		{"halving_unsynced", map[region]string{{0, 1}: "twice"}},
		{"halving_overlap", map[region]string{{0, 1}: "twice", {1, 1}: "twice"}},
		{"halving_loaded", map[region]string{{0, 1}: "twice"}},
		{"rows", map[region]string{{0, 1}: passes.FlatBlock, {1, 1}: passes.FlatBlock}},
		{"padded", map[region]string{{0, 1}: passes.LineBlock, {1, 1}: passes.LineBlock}},
		// step must not be 0: tested where the accesses run.
		{"strided", map[region]string{{0, 0}: passes.LineBlock + " if step != 0"}},
		{"pairs", map[region]string{{0, 1}: passes.LineBlock}},
		{"padded_macro", map[region]string{{0, 0}: passes.LineBlock + " if step != 0"}},
		{"skewed_macro", map[region]string{{0, 0}: "twice"}},
		{"divergent", map[region]string{{0, 1}: "twice"}},
		{"columns", map[region]string{{-1, 0}: passes.LineBlock, {0, 1}: passes.LineBlock, {1, 1}: passes.LineBlock}},
		{"rows_loaded", map[region]string{{-1, 0}: "twice"}},
		{"rounds", map[region]string{{0, 1}: passes.LineBlock, {1, 1}: passes.LineBlock}},
		{"rounds_unsynced", map[region]string{{0, 1}: "twice"}},
		{"batched", map[region]string{{-1, 0}: "always", {0, 0}: "always", {0, -1}: "always"}},
		{"batched_ahead", map[region]string{{0, 0}: "twice"}},
		{"batched_unsynced", map[region]string{{0, -1}: "twice"}},
		{"slid", map[region]string{{0, 0}: "twice"}},
		{"late", map[region]string{{0, -1}: "twice"}},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			k := kernelNamed(t, a, tc.kernel)
			got := map[region]string{}
			for _, r := range k.Regions {
				switch {
				case r.OnePass:
					got[region{r.From, r.To}] = "always"
				case r.OnePassIf != "" && r.Conditional:
					got[region{r.From, r.To}] = r.OnePassIf + " if step != 0"
				case r.OnePassIf != "":
					got[region{r.From, r.To}] = r.OnePassIf
				default:
					got[region{r.From, r.To}] = "twice"
				}
			}
			for _, c := range k.Conditions {
				if c.Expr != "(long long)2 * (long long)(step)" {
					t.Errorf("condition %+v, want 2 * step", c)
				}
			}
			if tc.kernel == "slid" || tc.kernel == "late" {
				// The race is inside the block: s must stay checked.
				for _, tg := range k.Targets {
					if tg.Name == "s" && (tg.BlockRaceFree || tg.BlockRaceFreeIf != "") {
						t.Errorf("s proven race-free in the block (%q)", tg.BlockRaceFreeIf)
					}
				}
			}
			if (tc.kernel == "strided" || tc.kernel == "padded_macro") && len(k.Conditions) != 2 {
				t.Errorf("conditions %+v, want one at each access of s", k.Conditions)
			}
			for r, want := range tc.want {
				if g, ok := got[r]; !ok {
					t.Errorf("no region %v; regions %v", r, got)
				} else if g != want {
					t.Errorf("region %v: %q, want %q", r, g, want)
				}
			}
		})
	}
}

// TestRaceFreeTargets states, kernel by kernel, which variables the build
// proves no two threads of a block race on (Target.BlockRaceFree /
// BlockRaceFreeIf), and for which launch shapes. Written by hand: every
// "unproven" below is a kernel where a proof would be wrong (a race
// inside the block), or one the proofs do not reach. "tested": the proof
// also needs strides nonzero, tested where the accesses run.
// TestGridRaceFree pins the global targets the build proves free of
// races between any two threads of the launch (Target.GridRaceFree) and
// the launch tests the proofs rest on; "unproven" marks a race between
// blocks, or one the proofs do not reach.
func TestGridRaceFree(t *testing.T) {
	lib := loadClang(t)
	a := analyze(t, lib, "../testdata/kernels/race_free.cu")
	tests := []struct{ kernel, target, want string }{
		// Below the rows when 16 >= blockDim.x (and the rows one-to-one).
		{"bias_row", "w", "when 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & 16 >= blockDim.x & 64 >= -16 + blockDim.x + 16*blockDim.y & 17 - blockDim.x >= 1"},
		{"bias_overlap", "w", "unproven"},
		// Every block writes the bias row: one block only.
		{"bias_every_block", "w", "when 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & 16 >= blockDim.x & 64 >= -16 + blockDim.x + 16*blockDim.y & 17 - blockDim.x >= 1 & 1 >= gridDim.x"},
		{"first_block", "out", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z"},
		// Block 0 writes v[i], block 1 v[i + 1]: one block, or n <= 1.
		{"stepper", "v", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & 1 >= gridDim.x & 1 >= param:1"},
		// out[off + t + 256] is out[off + t] moved past the block's
		// threads (256 >= blockDim.x) and within the segment of 512; with
		// segments of 256 it is the next segment's.
		{"seg_pairs", "out", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & 512*param:2 >= 1 & 512 >= blockDim.x & 512*param:2 >= -512 + blockDim.x + 512*param:2 & 256 >= blockDim.x & 512 >= 256 + blockDim.x & 512*param:2 >= -256 + blockDim.x + 512*param:2"},
		{"seg_pairs_overlap", "out", "unproven"},
		// t < 16 bounds the thread's digit, not blockDim.x.
		{"guarded_cols", "out", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z"},
		{"guarded_cols_wide", "out", "unproven"},
		// The store's x and y are those assigned after the barrier; j's
		// values 0, 8, 16, 24 are a digit of the index between ty and
		// blockIdx.x (32 rows a block: 8*n, 24 rows from j, the rest).
		{"tile_rows", "out", "when 1 >= blockDim.z & 1 >= gridDim.z & 32*param:2 >= 1 & 8*param:2 >= 1 & param:2 >= 1 & 32 >= blockDim.x & param:2 >= -32 + blockDim.x + 32*gridDim.y & 8*param:2 >= -32 + blockDim.x + blockDim.y*param:2 + 32*gridDim.y - param:2 & 32*param:2 >= -32 + blockDim.x + blockDim.y*param:2 + 32*gridDim.y + 23*param:2"},
		// j < 64: 56 rows from j, past the block's 32 (no launch passes).
		{"tile_rows4", "out", "when 1 >= blockDim.z & 1 >= gridDim.z & 32*param:2 >= 1 & 8*param:2 >= 1 & param:2 >= 1 & 32 >= blockDim.x & param:2 >= -32 + blockDim.x + 32*gridDim.y & 8*param:2 >= -32 + blockDim.x + blockDim.y*param:2 + 32*gridDim.y - param:2 & 32*param:2 >= -32 + blockDim.x + blockDim.y*param:2 + 32*gridDim.y + 55*param:2"},
		{"redefined", "out", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z"},
		{"redefined_maybe", "out", "unproven"},
		// y[gid / 32] by lane 0: a row per warp where blocks are whole
		// warps (a block of 48 threads puts lane 0 of block 1 at block
		// 0's thread 32's row).
		{"warp_rows", "y", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & blockDim.x >= 32*ceil(blockDim.x/32)"},
		{"warp_rows_bits", "y", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & blockDim.x >= 32*ceil(blockDim.x/32)"},
		{"warp_rows_two_lanes", "y", "unproven"},
		// A grid-stride loop's count is the highest digit: no range
		// needed. Stepping by blockDim.x, the blocks' chunks overlap
		// unless there is one block.
		{"grid_chunks", "out", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z"},
		{"grid_chunks_overlap", "out", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z & blockDim.x >= blockDim.x*gridDim.x"},
		// i = t, t + blockDim.x, ... below 64: one digit of 64 values.
		{"block_stats", "stats", "when 1 >= blockDim.y & 1 >= blockDim.z & 1 >= gridDim.y & 1 >= gridDim.z"},
		{"block_stats_overlap", "stats", "unproven"},
	}
	checkTargets(t, a, tests, func(tg passes.Target) string { return provenWhen(tg.GridRaceFree, tg.GridRaceFreeWhen) })
}

// provenWhen writes a proof and the launch tests it rests on: "unproven",
// "always", or "when TEST & TEST...".
func provenWhen(proven bool, tests []manifest.LaunchTest) string {
	if !proven {
		return "unproven"
	}
	got := "always"
	for i, lt := range tests {
		sep := " & "
		if i == 0 {
			sep, got = "when ", ""
		}
		got += sep + lt.String()
	}
	return got
}

// TestBlocksApart: global targets no two blocks share, where threads of
// one block may (every thread reads cur[q], one writes it).
func TestBlocksApart(t *testing.T) {
	lib := loadClang(t)
	idx := analyze(t, lib, "../testdata/kernels/index_proofs.cu")
	free := analyze(t, lib, "../testdata/kernels/race_free.cu")
	describe := func(tg passes.Target) string { return provenWhen(tg.BlocksApart, tg.BlocksApartWhen) }
	// q = blockIdx.x * 8 + i over i < 8: the block's own eight elements.
	checkTargets(t, idx, []struct{ kernel, target, want string }{
		{"batched", "cur", "when 1 >= gridDim.y & 1 >= gridDim.z"},
	}, describe)
	checkTargets(t, free, []struct{ kernel, target, want string }{
		// Only block 0 writes out; only block 0 and 1 write v, at v[i]
		// and v[i + 1] over the same i: one block, or n <= 1.
		{"first_block", "out", "when 1 >= gridDim.y & 1 >= gridDim.z"},
		{"stepper", "v", "when 1 >= gridDim.y & 1 >= gridDim.z & 1 >= gridDim.x & 1 >= param:1"},
		// Proven for every thread where blockDim.y and .z are 1; apart
		// between blocks without those tests.
		{"seg_pairs", "out", "when 1 >= gridDim.y & 1 >= gridDim.z & 512*param:2 >= 1 & 512 >= blockDim.x & 512*param:2 >= -512 + blockDim.x + 512*param:2 & 256 >= blockDim.x & 512 >= 256 + blockDim.x & 512*param:2 >= -256 + blockDim.x + 512*param:2"},
		{"seg_pairs_overlap", "out", "unproven"},
		{"redefined_maybe", "out", "unproven"},
		// Lanes 0 and 1 of a warp meet at its row, in one block.
		{"warp_rows_two_lanes", "y", "when 1 >= gridDim.y & 1 >= gridDim.z & blockDim.x >= 32*ceil(blockDim.x/32)"},
	}, describe)
}

func TestRaceFreeTargets(t *testing.T) {
	lib := loadClang(t)
	a := analyze(t, lib, "../testdata/kernels/race_free.cu")
	tests := []struct{ kernel, target, want string }{
		{"reduce", "s", passes.LineBlock},
		{"reduce", "out", passes.LineBlock}, // out[blockIdx.x], thread 0 alone
		{"tiles", "ta", passes.FlatBlock},
		{"tiles", "c", passes.FlatBlock + " when |16| >= blockDim.x"}, // c[ty * 16 + tx]: a row per ty
		{"halo", "s", passes.LineBlock},
		{"halo", "out", passes.LineBlock},
		{"halo2d", "s", passes.FlatBlock},
		{"one_writer", "total", passes.LineBlock},
		{"two_writers", "s", "unproven"},
		{"other_writer", "total", "unproven"},
		{"shifted", "s", passes.LineBlock + " when 2 - blockDim.x >= 1"}, // one-thread blocks only
		{"smeared", "s", "unproven"},
		{"replayed", "s", "unproven"},
		{"aliased", "s", "unproven"},
		{"global_shift", "g", passes.LineBlock + " when 2 - blockDim.x >= 1"},
		{"global_own", "g", passes.LineBlock},
		{"rows", "out", passes.FlatBlock + " when |param:1| >= blockDim.x"},
		{"halo32", "s", passes.LineBlock + " when 33 - blockDim.x >= 1"},
		{"blelloch", "s", passes.LineBlock + " when 257 - blockDim.x >= 1 tested"}, // s[t + 256] beside s[511]
		{"blelloch", "total", passes.LineBlock},
		{"blelloch_break", "s", "unproven"},
		{"labeled", "acc", passes.LineBlock},
		// (lab[b] may change under the threads' reads, but each thread
		// keeps to its own column of eight: t < 8.)
		{"relabeled", "acc", passes.LineBlock},
		{"bias_row", "w", passes.FlatBlock + " when |16| >= blockDim.x & 17 - blockDim.x >= 1"},
		{"bias_overlap", "w", "unproven"},
		// ty + j over j = 0, 8, 16, 24: one row per (ty, j) in blocks of
		// at most 8 rows of threads (4 when j steps by 4).
		{"tile_rows", "tile", passes.FlatBlock + " when 8 >= blockDim.y"},
		{"tile_rows4", "tile", passes.FlatBlock + " when 4 >= blockDim.y"},
		{"tile_two_classes", "tile", "unproven"},
		{"stepper", "v", passes.LineBlock}, // thread 0 alone writes, in each block
		// i = t + k * step over a block-stride loop: one element per
		// thread and step where the step passes the block's threads.
		{"block_stride", "s", passes.LineBlock},
		{"block_stride16", "s", passes.LineBlock + " when 16 >= blockDim.x"},
		{"block_stride_doubled", "s", passes.LineBlock + " when 1 >= blockDim.x"},
		// Lane 0 of each warp: the warp's row and the lane cover the
		// thread (t = 32 * w + lane).
		{"warp_rows", "y", passes.LineBlock + " when blockDim.x >= 32*ceil(blockDim.x/32)"},
		{"warp_rows_two_lanes", "y", "unproven"},
		// acc[i / 64][i % 64] is acc's element i: folded with acc[w][s].
		{"warp_acc", "acc", passes.LineBlock},
		{"warp_acc_shared_row", "acc", "unproven"},
		{"warp_acc_halves", "acc", "unproven"},
		// cols[row * 128 + t], row from memory: column t is thread t's
		// in blocks of at most 128; with t / 2 two threads share it.
		{"data_columns", "cols", passes.LineBlock + " when 128 >= blockDim.x"},
		{"data_columns_paired", "cols", "unproven"},
	}
	checkTargets(t, a, tests, func(tg passes.Target) string {
		got := "unproven"
		switch {
		case tg.BlockRaceFree:
			got = "always"
		case tg.BlockRaceFreeIf != "":
			got = tg.BlockRaceFreeIf
		}
		for i, lt := range tg.BlockRaceFreeWhen {
			sep := " & "
			if i == 0 {
				sep = " when "
			}
			got += sep + lt.String()
		}
		if tg.BlockRaceFreeTested {
			got += " tested"
		}
		return got
	})
}

// checkTargets compares, for each case, describe's account of the named
// kernel's target with the case's want.
func checkTargets(t *testing.T, a *passes.Analysis, tests []struct{ kernel, target, want string }, describe func(passes.Target) string) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.kernel+"/"+tc.target, func(t *testing.T) {
			k := kernelNamed(t, a, tc.kernel)
			for _, tg := range k.Targets {
				if tg.Name == tc.target {
					if got := describe(tg); got != tc.want {
						t.Errorf("%s: %q, want %q", tc.target, got, tc.want)
					}
					return
				}
			}
			t.Fatalf("no target %s", tc.target)
		})
	}
}

// TestConstArguments: an array passed to a device function as a pointer
// to const is read by the call, not written: regions that only read it
// that way run one pass, and an index proof of its stores still holds.
// A callee that casts the const away, or a pointer to non-const, may
// write it: every region with the call keeps both passes.
func TestConstArguments(t *testing.T) {
	a := analyze(t, loadClang(t), "../testdata/kernels/const_args.cu")
	tests := []struct {
		kernel   string
		onePass  []bool // by region, in k.Regions' order
		raceFree string // tile's BlockRaceFreeIf
	}{
		{"readonly_tile", []bool{true, true}, passes.LineBlock},
		{"cast_away", []bool{false, false}, ""},
		{"non_const", []bool{false, false}, ""},
		{"read_and_write", []bool{true, false, true}, ""},
	}
	for _, tc := range tests {
		k := kernelNamed(t, a, tc.kernel)
		var got []bool
		for _, r := range k.Regions {
			got = append(got, r.OnePass)
		}
		if !slices.Equal(got, tc.onePass) {
			t.Errorf("%s: one pass by region %v, want %v", tc.kernel, got, tc.onePass)
		}
		for _, tg := range k.Targets {
			if tg.Name == "tile" && tg.BlockRaceFreeIf != tc.raceFree {
				t.Errorf("%s: tile race-free if %q, want %q", tc.kernel, tg.BlockRaceFreeIf, tc.raceFree)
			}
		}
	}
}

// TestUniformEnds states by hand which kernels of
// testdata/kernels/uniform_ends.cu end every region at one place in all
// the threads of a block: a wrong yes lets a split warp take the
// hardware's reduction, which on the H100 gives its two parts two results.
func TestUniformEnds(t *testing.T) {
	lib := loadClang(t)
	a := analyze(t, lib, "../testdata/kernels/uniform_ends.cu")
	for kernel, want := range map[string]bool{
		"walk":           true,
		"uniform_return": true,
		"bounds_return":  false,
		"lane_return":    false,
		"data_loop":      false,
		"thread_break":   false,
		"jumps":          false,
		// Safe (the threads that stay end the region at the same exit,
		// later), but the pass does not tell a return with a barrier after
		// it from one without: conservative, and a kernel without barriers
		// has one region end a thread.
		"no_barrier": false,
	} {
		if got := kernelNamed(t, a, kernel).UniformEnds; got != want {
			t.Errorf("%s: UniformEnds = %v, want %v", kernel, got, want)
		}
	}
}
