package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// good is a manifest as `ldcheck build` writes it for a reduction.
func good() *Manifest {
	return &Manifest{
		Version: Version, Source: "/src/reduce.cu", SHA256: "ab", Output: "reduce.ldcheck.cu", Runtime: "r1",
		PTX: "reduce.ldcheck.ptx", CPU: "reduce.ldcheck.so",
		Kernels: []Kernel{{
			Name: "sum", Symbol: "_Z3sumPKfPfi", Entry: "ldc_entry_sum", Line: 4, Instrumented: true,
			Params: []Param{
				{Name: "in", Type: "const float *", Size: 8, Pointer: true, Elem: "const float", ElemSize: 4, Const: true},
				{Name: "out", Type: "float *", Size: 8, Pointer: true, Elem: "float", ElemSize: 4},
				{Name: "n", Type: "int", Size: 4},
			},
			Barriers: []Barrier{{ID: 0, Line: 9, Call: "__syncthreads"}},
			Regions:  []Region{{ID: 0, From: NoBarrier, To: 0, BeginLine: 4, EndLine: 9}, {ID: 1, From: 0, To: NoBarrier, BeginLine: 9, EndLine: 15}},
			Targets: []Target{
				{Index: 0, Name: "partial", Space: SpaceShared, Kind: KindShared, Param: NoParam, Type: "float[256]", Elem: "float", ElemSize: 4, Bytes: 1024, Line: 5},
				{Index: 1, Name: "out", Space: SpaceGlobal, Kind: KindParam, Param: 1, Type: "float *", Elem: "float", ElemSize: 4},
			},
			Unchecked: []Unchecked{{Name: "in", Reason: "read-only"}, {Name: "o2", Reason: "each thread its own element", Requires: Requires1DLaunch}},
			Atomics:   2,
			AtomicOps: []AtomicOp{{Call: "atomicAdd", Line: 12, Class: AtomicCommutative}, {Call: "atomicCAS", File: "/src/lock.cuh", Line: 3, Class: AtomicCompareSwap}},
		}},
	}
}

func TestValidateGood(t *testing.T) {
	if err := good().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(m *Manifest)
		want   string
	}{
		{"param index past the list", func(m *Manifest) { m.Kernels[0].Targets[1].Param = 99 }, "kernel sum: target out: parameter index 99 is outside the parameter list (3 parameters)"},
		{"no parameters", func(m *Manifest) { m.Kernels[0].Params = nil }, "kernel sum: target out: parameter index 1 is outside the parameter list (0 parameters)"},
		{"negative param index", func(m *Manifest) { m.Kernels[0].Targets[1].Param = -1 }, "parameter index -1 is outside the parameter list"},
		{"param not a pointer", func(m *Manifest) { m.Kernels[0].Targets[1].Param = 2 }, "target out: parameter 2 (n) is not a pointer"},
		{"shared with a param index", func(m *Manifest) { m.Kernels[0].Targets[0].Param = 0 }, `target partial: parameter index 0 for kind "shared" (want -1)`},
		{"no regions", func(m *Manifest) { m.Kernels[0].Regions = []Region{} }, "kernel sum: instrumented, but it has no regions"},
		{"region to a missing barrier", func(m *Manifest) { m.Kernels[0].Regions[0].To = 7 }, "region 0: to barrier 7, which is not in the kernel's barriers"},
		{"region from a missing barrier", func(m *Manifest) { m.Kernels[0].Regions[1].From = -2 }, "region 1: from barrier -2, which is not in the kernel's barriers"},
		{"region line 0", func(m *Manifest) { m.Kernels[0].Regions[1].EndLine = 0 }, "region 1: lines 9-0 are not source lines"},
		{"barrier twice", func(m *Manifest) { m.Kernels[0].Barriers = append(m.Kernels[0].Barriers, Barrier{ID: 0, Line: 12}) }, "barrier id 0 is listed twice"},
		{"negative barrier", func(m *Manifest) { m.Kernels[0].Barriers[0].ID = -1; m.Kernels[0].Regions = nil }, "barrier id -1 is negative"},
		{"negative bytes", func(m *Manifest) { m.Kernels[0].Targets[0].Bytes = -1 }, "target partial: bytes -1 is negative"},
		{"negative elem size", func(m *Manifest) { m.Kernels[0].Targets[1].ElemSize = -4 }, "target out: elem_size -4 is negative"},
		{"negative param elem size", func(m *Manifest) { m.Kernels[0].Params[1].ElemSize = -4 }, "parameter out: elem_size -4 bytes is negative"},
		{"zero param size", func(m *Manifest) { m.Kernels[0].Params[2].Size = 0 }, "parameter n: size 0 bytes, want at least 1"},
		{"unknown kind", func(m *Manifest) { m.Kernels[0].Targets[1].Kind = "heap" }, `target out: kind "heap", want "shared", "device" or "param"`},
		{"unknown space", func(m *Manifest) { m.Kernels[0].Targets[1].Space = "local" }, `target out: space "local", want "shared" or "global"`},
		{"param in shared space", func(m *Manifest) { m.Kernels[0].Targets[1].Space = SpaceShared }, `target out: a parameter's memory is in space "global", not "shared"`},
		{"table slot", func(m *Manifest) { m.Kernels[0].Targets[1].Index = 5 }, "target out: index 5, but it is entry 1 of the target table"},
		{"shared after global", func(m *Manifest) {
			ts := m.Kernels[0].Targets
			ts[0], ts[1] = ts[1], ts[0]
			ts[0].Index, ts[1].Index = 0, 1
		}, "target partial: a shared target after a global one"},
		{"unknown requirement", func(m *Manifest) { m.Kernels[0].Unchecked[1].Requires = "2-D launch" }, `unchecked o2: requires "2-D launch", want "1-D launch" or nothing`},
		{"unknown atomic class", func(m *Manifest) { m.Kernels[0].AtomicOps[0].Class = "racy" }, `kernel sum: atomic atomicAdd at line 12: class "racy", want one of "commutative"`},
		{"atomic without a line", func(m *Manifest) { m.Kernels[0].AtomicOps[1].Line = 0 }, "atomic atomicCAS: line 0 is not a source line"},
		{"atomic in a relative file", func(m *Manifest) { m.Kernels[0].AtomicOps[1].File = "lock.cuh" }, `atomic atomicCAS: file "lock.cuh" is not an absolute path`},
		{"atomic without a call", func(m *Manifest) { m.Kernels[0].AtomicOps[0].Call = "" }, `required field "atomic operation: call" is missing or empty`},
		{"more atomics listed than counted", func(m *Manifest) { m.Kernels[0].Atomics = 1 }, "2 atomic operations listed, more than the 1 atomic calls counted"},
		{"dims do not make the bytes", func(m *Manifest) { m.Kernels[0].Targets[0].Dims = []int64{16, 8} }, "target partial: dimensions [16 8] of 4-byte elements make 512 bytes, but the target has 1024"},
		{"zero dimension", func(m *Manifest) { m.Kernels[0].Targets[0].Dims = []int64{0, 256} }, "target partial: dimension 0, want at least 1"},
		{"field outside the element", func(m *Manifest) {
			m.Kernels[0].Targets[1].Fields = []Field{{Name: "x", Offset: 2, Size: 4, Type: "float"}}
		}, "target out: field x (bytes 2..5) lies outside the 4-byte element"},
		{"parameter field outside the parameter", func(m *Manifest) {
			m.Kernels[0].Params[0].Fields = []Field{{Name: "n", Offset: 6, Size: 4, Type: "int"}}
		}, "parameter in: field n (bytes 6..9) lies outside the 8-byte element"},
		{"element field outside the element", func(m *Manifest) {
			m.Kernels[0].Params[0].ElemFields = []Field{{Name: "m", Offset: 2, Size: 4, Type: "float"}}
		}, "parameter in's element: field m (bytes 2..5) lies outside the 4-byte element"},
		{"field without a name", func(m *Manifest) { m.Kernels[0].Targets[1].Fields = []Field{{Offset: 0, Size: 4}} }, "target out: a field has no name"},
		{"field of no size", func(m *Manifest) { m.Kernels[0].Targets[1].Fields = []Field{{Name: "y", Offset: 0}} }, "target out: field y at offset 0, size 0"},
		{"site out of order", func(m *Manifest) { m.Sites = []Site{{ID: 3, File: "/src/reduce.cu", Line: 1, Col: 1, Kind: SiteRead}} }, "site 0: id 3, but it is entry 0"},
		{"site without a place", func(m *Manifest) { m.Sites = []Site{{ID: 0, File: "reduce.cu", Line: 0, Col: 1, Kind: "store"}} }, `site 0: file "reduce.cu" is not an absolute path; site 0: 0:1 is not a place in the source; site 0: kind "store"`},
		{"trace module outside the build", func(m *Manifest) { m.TraceCPU = "/tmp/x.so" }, `trace_cpu "/tmp/x.so" is not a file inside the build directory`},
		{"blocks apart on shared", func(m *Manifest) { m.Kernels[0].Targets[0].BlocksApart = true }, "target partial: blocks_apart on a shared target (global targets only)"},
		{"blocks apart tests alone", func(m *Manifest) {
			m.Kernels[0].Targets[1].BlocksApartWhen = []LaunchTest{{Left: []LaunchTerm{{Coeff: 1}}, Right: []LaunchTerm{{Coeff: 1, Factors: []string{"gridDim.y"}}}}}
		}, "target out: blocks_apart_when without blocks_apart"},
		{"blocks apart test factor", func(m *Manifest) {
			m.Kernels[0].Targets[1].BlocksApart = true
			m.Kernels[0].Targets[1].BlocksApartWhen = []LaunchTest{{Left: []LaunchTerm{{Coeff: 1, Factors: []string{"param:9"}}}, Right: []LaunchTerm{{Coeff: 1}}}}
		}, `target out: launch test param:9 >= 1: factor "param:9"`},
		{"no kernels", func(m *Manifest) { m.Kernels = nil }, "no kernels"},
		{"kernel twice", func(m *Manifest) { m.Kernels = append(m.Kernels, m.Kernels[0]) }, "kernel sum is listed twice"},
		{"no symbol", func(m *Manifest) { m.Kernels[0].Symbol = "" }, `kernel sum: required field "symbol" is missing or empty`},
		{"no name", func(m *Manifest) { m.Kernels[0].Name = "" }, `kernel 0: required field "name" is missing or empty`},
		{"no runtime", func(m *Manifest) { m.Runtime = "" }, `required field "runtime" is missing or empty`},
		{"no reason", func(m *Manifest) { m.Kernels[0].Instrumented = false }, "kernel sum: not instrumented, and no reason says why"},
		{"module outside the build", func(m *Manifest) { m.PTX = "../../elsewhere.ptx" }, `ptx "../../elsewhere.ptx" is not a file inside the build directory`},
		{"many problems", func(m *Manifest) {
			for i := range m.Kernels[0].Targets {
				m.Kernels[0].Targets[i].Bytes, m.Kernels[0].Targets[i].ElemSize = -1, -1
			}
		}, "target partial: bytes -1 is negative; kernel sum: target partial: elem_size -1 is negative; kernel sum: target out: bytes -1 is negative; and 1 more problems"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := good()
			tc.change(m)
			err := m.Validate()
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// An uninstrumented kernel needs no regions.
func TestValidateUninstrumented(t *testing.T) {
	m := good()
	k := &m.Kernels[0]
	k.Instrumented, k.Reason, k.Regions, k.Barriers, k.Targets = false, "a barrier in a device function", []Region{}, []Barrier{}, []Target{}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	write := func(t *testing.T, text string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	b, err := json.Marshal(good())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(write(t, string(b))); err != nil {
		t.Fatalf("good manifest: %v", err)
	}
	bad := good()
	bad.Kernels[0].Targets[1].Param = 99
	b, _ = json.Marshal(bad)
	for _, tc := range []struct{ name, text, want string }{
		{"empty object", "{}", `not an ldcheck manifest: it has no "version" field; rebuild with ` + "`ldcheck build FILE.cu`"},
		{"not json", "{", "corrupt manifest"},
		{"other version", `{"version": 1}`, "made by another ldcheck version (manifest version 1, this ldcheck reads 2)"},
		{"inconsistent", string(b), "invalid manifest: kernel sum: target out: parameter index 99 is outside the parameter list (3 parameters); rebuild with `ldcheck build /src/reduce.cu`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(write(t, tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// Write refuses what Read would refuse: a build's inconsistency is
// ldcheck's bug, found when the manifest is made.
func TestWriteValidates(t *testing.T) {
	m := good()
	m.Kernels[0].Targets[0].Bytes = -1
	err := m.Write(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("Write: %v, want an internal error", err)
	}
}
