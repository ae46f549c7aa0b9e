package gpuruntime

import (
	"strings"
	"testing"

	"ldcheck/privatize/manifest"
)

// TestIntParam reads integer arguments as the launch tests need them:
// little-endian, signed or not by the parameter's type.
func TestIntParam(t *testing.T) {
	l := Launch{Args: []Arg{
		{Param: manifest.Param{Name: "n", Type: "int", Size: 4}, Data: []byte{0xfe, 0xff, 0xff, 0xff}},
		{Param: manifest.Param{Name: "m", Type: "unsigned int", Size: 4}, Data: []byte{0xfe, 0xff, 0xff, 0xff}},
		{Param: manifest.Param{Name: "k", Type: "long long", Size: 8}, Data: []byte{0, 1, 0, 0, 0, 0, 0, 0}},
		{Param: manifest.Param{Name: "p", Type: "float *", Size: 8, Pointer: true}, Buffer: true, Data: []byte{1, 2, 3, 4}},
	}}
	for _, tc := range []struct {
		i    int
		want int64
		ok   bool
	}{{0, -2, true}, {1, 0xfffffffe, true}, {2, 256, true}, {3, 0, false}, {9, 0, false}} {
		got, ok := l.intParam(tc.i)
		if got != tc.want || ok != tc.ok {
			t.Errorf("intParam(%d) = %d, %v; want %d, %v", tc.i, got, ok, tc.want, tc.ok)
		}
	}
}

// TestBlockRaceFree weighs a target's proof against launches: its block
// shape and its launch tests must hold.
func TestBlockRaceFree(t *testing.T) {
	rows := manifest.Target{Name: "out", BlockRaceFreeIf: "block-2d", BlockRaceFreeWhen: []manifest.LaunchTest{{
		Left: []manifest.LaunchTerm{{Coeff: 1, Factors: []string{"param:0"}}}, Abs: true, Right: []manifest.LaunchTerm{{Coeff: 1, Factors: []string{"blockDim.x"}}}}}}
	n := func(v byte) []Arg {
		return []Arg{{Param: manifest.Param{Name: "n", Type: "int", Size: 4}, Data: []byte{v, 0, 0, 0}}}
	}
	for _, tc := range []struct {
		block [3]uint32
		args  []Arg
		want  bool
	}{
		{[3]uint32{32, 2, 1}, n(32), true},
		{[3]uint32{32, 2, 1}, n(16), false}, // rows overlap
		{[3]uint32{8, 2, 2}, n(32), false},  // not 2-D
	} {
		l := Launch{Block: tc.block, Args: tc.args}
		if got := l.blockRaceFree(rows); got != tc.want {
			t.Errorf("block %v, n %d: %v, want %v", tc.block, tc.args[0].Data[0], got, tc.want)
		}
	}
}

// TestEveryRegionMayRunOnce: level 2 may run one pass a region only where
// every region's one-pass proof holds for the launch's block shape; a
// proof that rests on strides tested as the kernel runs counts (the run
// is void if one is 0), unlike for everyRegionOnce.
func TestEveryRegionMayRunOnce(t *testing.T) {
	k := &manifest.Kernel{Regions: []manifest.Region{
		{ID: 0, From: -1, To: 0, OnePass: true},
		{ID: 1, From: 0, To: -1, OnePassIf: "block-1d", Conditional: true},
	}}
	for _, tc := range []struct {
		block       [3]uint32
		regions     []manifest.Region
		may, always bool
	}{
		{[3]uint32{256, 1, 1}, k.Regions, true, false},
		{[3]uint32{16, 16, 1}, k.Regions, false, false}, // 2-D: region 1's proof does not hold
		{[3]uint32{256, 1, 1}, []manifest.Region{k.Regions[0], {ID: 1, From: 0, To: -1, OnePassIf: "block-1d"}}, true, true},
		{[3]uint32{256, 1, 1}, []manifest.Region{k.Regions[0], {ID: 1, From: 0, To: -1}}, false, false},
		{[3]uint32{256, 1, 1}, nil, false, false},
	} {
		kk := *k
		kk.Regions = tc.regions
		l := Launch{Kernel: &kk, Block: tc.block}
		if got := l.everyRegionMayRunOnce(); got != tc.may {
			t.Errorf("block %v, %d regions: everyRegionMayRunOnce %v, want %v", tc.block, len(tc.regions), got, tc.may)
		}
		if got := l.everyRegionOnce(); got != tc.always {
			t.Errorf("block %v, %d regions: everyRegionOnce %v, want %v", tc.block, len(tc.regions), got, tc.always)
		}
		if got := kk.MayRunOnePass(); got != (len(tc.regions) > 0 && (tc.regions[1].OnePass || tc.regions[1].OnePassIf != "")) {
			t.Errorf("%d regions: MayRunOnePass %v", len(tc.regions), got)
		}
	}
}

// TestInterBlockProven: level 1 is skipped only where every global target
// is free of races over the whole launch, by thread-private subscripts (1-D
// launches) or by grid proofs whose launch tests this launch passes; the
// warp level counts a global target proven over the grid as proven in
// each block.
func TestInterBlockProven(t *testing.T) {
	below := func(n int64) []manifest.LaunchTest { // n >= blockDim.x
		return []manifest.LaunchTest{{Left: []manifest.LaunchTerm{{Coeff: n}}, Right: []manifest.LaunchTerm{{Coeff: 1, Factors: []string{"blockDim.x"}}}}}
	}
	shared := manifest.Target{Name: "s", Space: manifest.SpaceShared, BlockRaceFree: true}
	for _, tc := range []struct {
		name     string
		targets  []manifest.Target
		block    [3]uint32
		inter    bool
		noWarp   bool
		wantNote string
	}{
		{"grid proof holds", []manifest.Target{{Name: "out", Space: manifest.SpaceGlobal, GridRaceFree: true, GridRaceFreeWhen: below(512)}, shared}, [3]uint32{512, 1, 1}, true, true, "out"},
		{"grid test fails", []manifest.Target{{Name: "out", Space: manifest.SpaceGlobal, GridRaceFree: true, GridRaceFreeWhen: below(512)}, shared}, [3]uint32{1024, 1, 1}, false, false, ""},
		{"private, 1-D", []manifest.Target{{Name: "y", Space: manifest.SpaceGlobal, Private: true}}, [3]uint32{256, 1, 1}, true, true, "y"},
		{"private, 2-D", []manifest.Target{{Name: "y", Space: manifest.SpaceGlobal, Private: true}}, [3]uint32{16, 16, 1}, false, false, ""},
		{"one global unproven", []manifest.Target{{Name: "out", Space: manifest.SpaceGlobal, GridRaceFree: true}, {Name: "sums", Space: manifest.SpaceGlobal}}, [3]uint32{256, 1, 1}, false, false, ""},
		{"shared only", []manifest.Target{shared}, [3]uint32{256, 1, 1}, false, true, ""},
		// Apart between blocks: no block level, but the warp level checks.
		{"blocks apart", []manifest.Target{{Name: "cur", Space: manifest.SpaceGlobal, BlocksApart: true, BlocksApartWhen: below(128)}, shared}, [3]uint32{128, 1, 1}, true, false, "cur"},
		{"blocks apart, test fails", []manifest.Target{{Name: "cur", Space: manifest.SpaceGlobal, BlocksApart: true, BlocksApartWhen: below(128)}, shared}, [3]uint32{256, 1, 1}, false, false, ""},
	} {
		l := Launch{Kernel: &manifest.Kernel{Name: "k", Instrumented: true, Targets: tc.targets}, Block: tc.block, Grid: [3]uint32{4, 1, 1}}
		why, inter := interBlockProven(l)
		if inter != tc.inter || (inter && !strings.Contains(why, tc.wantNote)) {
			t.Errorf("%s: interBlockProven %v (%q), want %v naming %q", tc.name, inter, why, tc.inter, tc.wantNote)
		}
		if _, noWarp := warpLevelProven(l, false); noWarp != tc.noWarp {
			t.Errorf("%s: warpLevelProven %v, want %v", tc.name, noWarp, tc.noWarp)
		}
	}
}

// TestVoidedNotes names the launch tests that stand between a launch and
// a skipped level, and only where they alone do.
func TestVoidedNotes(t *testing.T) {
	whole := []manifest.LaunchTest{{Left: []manifest.LaunchTerm{{Coeff: 1, Factors: []string{"blockDim.x"}}}, Right: []manifest.LaunchTerm{{Coeff: 32, Factors: []string{"ceil(blockDim.x/32)"}}}}}
	rows := manifest.Target{Name: "y", Space: manifest.SpaceGlobal, GridRaceFree: true, GridRaceFreeWhen: whole, BlockRaceFreeIf: "block-1d", BlockRaceFreeWhen: whole}
	for _, tc := range []struct {
		name        string
		targets     []manifest.Target
		block       [3]uint32
		inter, warp string // "" where no note
	}{
		{"whole warps", []manifest.Target{rows}, [3]uint32{64, 1, 1}, "", ""},
		{"48 threads", []manifest.Target{rows}, [3]uint32{48, 1, 1}, "of y where blockDim.x >= 32*ceil(blockDim.x/32)", "of y where blockDim.x >= 32*ceil(blockDim.x/32)"},
		// Another target without a proof: the tests are not the reason.
		{"unproven beside", []manifest.Target{rows, {Name: "z", Space: manifest.SpaceGlobal}}, [3]uint32{48, 1, 1}, "", ""},
		// A 2-D block: the block proof's shape fails, not a test.
		{"2-D block", []manifest.Target{rows}, [3]uint32{48, 2, 1}, "of y where", ""},
	} {
		l := Launch{Kernel: &manifest.Kernel{Name: "k", Instrumented: true, Targets: tc.targets}, Block: tc.block, Grid: [3]uint32{4, 1, 1}}
		for _, c := range []struct {
			level string
			want  string
			f     func() (string, bool)
		}{
			{"between blocks", tc.inter, func() (string, bool) { return interBlockVoided(l) }},
			{"inside blocks", tc.warp, func() (string, bool) { return warpLevelVoided(l, false) }},
		} {
			why, ok := c.f()
			if ok != (c.want != "") || (ok && !strings.Contains(why, c.want)) {
				t.Errorf("%s, %s: %v %q, want a note naming %q", tc.name, c.level, ok, why, c.want)
			}
		}
	}
}
