package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/gpuruntime"
	"ldcheck/privatize/manifest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func intp(v int) *int { return &v }

// kernel is a manifest kernel like the build makes for testdata/reduce.cu.
func kernel() *manifest.Kernel {
	return &manifest.Kernel{Name: "block_sum", Line: 5, Instrumented: true,
		Regions: []manifest.Region{{ID: 0, From: -1, To: 0, BeginLine: 5, EndLine: 9}, {ID: 1, From: 0, To: -1, BeginLine: 9, EndLine: 15}},
		Targets: []manifest.Target{{Index: 0, Name: "partial", Space: manifest.SpaceShared, Kind: manifest.KindShared, Param: manifest.NoParam, Type: "float[64]", Elem: "float", ElemSize: 4, Bytes: 256, Line: 6}},
	}
}

// docs are the runs the golden files show: one per kind of report.
func docs() map[string]*Doc {
	base := func(res *gpuruntime.Result) *Doc {
		return &Doc{Kernel: kernel(), KernelFile: "/src/reduce.cu", Source: "/src/reduce.cu", Backend: "cpu", Result: res, BaseDir: "/src",
			Launch: Launch{Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{256, 1, 1}, Args: []string{"in=float[1024]:rand", "out=float[4]:zero"}}}
	}
	region := gpuruntime.RaceRegion{File: "/src/reduce.cu", BeginLine: 9, EndLine: 15, From: 0, To: -1}
	rw := gpuruntime.Race{Kind: "read-write", Space: "shared", Scope: manifest.ScopeInterWarp, Variable: "partial", Region: region,
		Offset: 124, Length: 132, Elements: [2]int64{31, 63}, Units: []int{0, 1}, Block: 0, Count: 40,
		Values:  gpuruntime.RaceValues{Original: 0x78, First: 0xfa},
		Element: "partial[31]", LastElement: "partial[63]", Type: "float", Typed: &gpuruntime.TypedValues{Original: "3.25", First: "-1.5"},
		Accesses: []gpuruntime.Access{
			{File: "/src/reduce.cu", Line: 11, Col: 5, Kind: "write", Block: 0, Thread: 40, Warp: 1, Value: "3.25"},
			{File: "/src/reduce.cu", Line: 12, Col: 21, Kind: "read", Block: 0, Thread: 9, Warp: 0, Value: "-1.5"},
		}}
	rwAll := rw
	rwAll.MorePairs = [][2]gpuruntime.Access{{
		{File: "/src/reduce.cu", Line: 11, Col: 5, Kind: "write", Block: 0, Thread: 40, Warp: 1},
		{File: "/src/reduce.cu", Line: 13, Col: 9, Kind: "read-write", Block: 0, Thread: 3, Warp: 0},
	}}
	ww := gpuruntime.Race{Kind: "write-write", Space: "global", Scope: manifest.ScopeInterBlock, Variable: "out",
		Region: gpuruntime.RaceRegion{File: "/src/reduce.cu", BeginLine: 5, EndLine: 15, From: -1, To: -1},
		Offset: 0, Length: 4, Elements: [2]int64{0, 0}, Units: []int{0, 2}, Count: 3,
		Values: gpuruntime.RaceValues{Original: 0, First: 1, Second: intp(1)}, SameValue: true,
		Element: "out[0]", LastElement: "out[0]", Type: "float", Explanation: "--explain=false"}
	local := gpuruntime.Race{Kind: "read-write", Space: "local", Scope: manifest.ScopeInterWarp, Variable: "(thread-local values)", Region: region,
		Units: []int{1}, Block: 2, Thread: 40, Count: 7}
	ap := gpuruntime.Race{Kind: "atomic-plain", Space: "global", Scope: manifest.ScopeInterBlock, Variable: "out",
		Region: gpuruntime.RaceRegion{File: "/src/reduce.cu", BeginLine: 5, EndLine: 15, From: -1, To: -1},
		Offset: 0, Length: 1, Elements: [2]int64{0, 0}, Units: []int{1, 0}, Block: -1, Count: 1,
		Element: "out[0]", LastElement: "out[0]", Type: "float",
		Accesses: []gpuruntime.Access{
			{File: "/src/reduce.cu", Line: 13, Col: 9, Kind: "read", Block: 1, Thread: 0, Warp: 0, Element: "out[0]"},
			{File: "/src/reduce.cu", Line: 14, Col: 5, Kind: "atomic", Block: 0, Thread: 0, Warp: 0, Element: "out[0]"},
		}}
	warp := 0
	iw := gpuruntime.Race{Kind: "read-write", Space: "shared", Scope: manifest.ScopeIntraWarp, Variable: "partial", Region: region,
		Offset: 64, Length: 61, Elements: [2]int64{16, 31}, Units: []int{0, 16}, Block: 1, Warp: &warp, Count: 16,
		Element: "partial[16]", LastElement: "partial[31]", Type: "float",
		Accesses: []gpuruntime.Access{
			{File: "/src/reduce.cu", Line: 12, Col: 5, Kind: "read-write", Block: 1, Thread: 16, Warp: 0, Element: "partial[16]"},
			{File: "/src/reduce.cu", Line: 12, Col: 18, Kind: "read", Block: 1, Thread: 0, Warp: 0, Element: "partial[16]"},
		}}
	done := func(races ...gpuruntime.Race) *gpuruntime.Result {
		return &gpuruntime.Result{Races: races, Levels: []string{"block", "warp"}, BytesCompared: 4096, Rounds: 1, RoundsPlanned: 1, Groups: 4, DetectionProbability: 1,
			Phases: []gpuruntime.Phase{{Name: "level 1 pass 1", Seconds: 0.0015}}, CopyBytes: 8192}
	}
	notInstrumented := base(&gpuruntime.Result{Unchecked: "inline assembly", Levels: []string{}})
	notInstrumented.NotChecked = "not instrumented: inline assembly"
	return map[string]*Doc{
		"none":         base(done()),
		"rw":           base(done(rw)),
		"ww_same":      base(done(ww)),
		"atomic_plain": base(done(ap)),
		"intra_warp":   base(done(iw)),
		"local":        base(done(local)),
		"all":          base(done(rwAll, ww, local)),
		"unchecked":    notInstrumented,
	}
}

// TestGolden compares each format's report of each doc with its golden
// file. Run with -update to rewrite them; read the diff before committing.
func TestGolden(t *testing.T) {
	writers := map[string]func(*bytes.Buffer, *Doc) error{
		"txt":   func(b *bytes.Buffer, d *Doc) error { return WriteText(b, d) },
		"json":  func(b *bytes.Buffer, d *Doc) error { return WriteJSON(b, d) },
		"sarif": func(b *bytes.Buffer, d *Doc) error { return WriteSARIF(b, d) },
	}
	for name, d := range docs() {
		for ext, write := range writers {
			t.Run(name+"."+ext, func(t *testing.T) {
				var b bytes.Buffer
				if err := write(&b, d); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", name+"."+ext)
				if *update {
					if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./report -update)", err)
				}
				if diff := cmp.Diff(string(want), b.String()); diff != "" {
					t.Errorf("%s differs from the golden file (-want +got; go test ./report -update rewrites it):\n%s", path, diff)
				}
			})
		}
	}
}
