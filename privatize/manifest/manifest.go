// Package manifest is the contract between `ldcheck build` and `ldcheck run`:
// what was instrumented, where the compiled modules are, and everything the
// runtime must know to launch and check each kernel. privatize writes it,
// gpuruntime reads it; neither reads the other's code.
package manifest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Version changes whenever the instrumented code's hooks or this file's
// meaning change; a build directory of another version must be rebuilt.
// Version 2: the native (uninstrumented) source and modules.
const Version = 2

// RuntimeHeader is the device-side runtime header the instrumented source
// includes (privatize writes the #include, gpuruntime supplies the file).
const RuntimeHeader = "ldcheck_rt.h"

// FileName is the manifest's name inside a build directory.
const FileName = "manifest.json"

// Manifest describes one build directory.
type Manifest struct {
	Version int    `json:"version"`
	Source  string `json:"source"`       // the user's file, absolute
	SHA256  string `json:"sha256"`       // of the source, to notice edits
	Output  string `json:"instrumented"` // instrumented source, relative to the build dir
	// Runtime identifies the device-side runtime compiled into the modules;
	// a build made with another one must be rebuilt.
	Runtime string `json:"runtime"`
	// Compiled modules, relative to the build dir; empty when not built.
	PTX   string `json:"ptx,omitempty"`
	Cubin string `json:"cubin,omitempty"`
	Arch  string `json:"arch,omitempty"`
	CPU   string `json:"cpu,omitempty"` // shared library for the CPU backend
	// The user's kernels as written (host code left out, CPU entry points
	// added, nothing instrumented), compiled as a user would, for
	// `ldcheck run --unchecked`; relative to the build dir, empty when not
	// built. The native PTX is for Arch.
	NativeSource string `json:"native_source,omitempty"`
	NativePTX    string `json:"native_ptx,omitempty"`
	NativeCPU    string `json:"native_cpu,omitempty"`
	// The user's compiler flags, so that `ldcheck compile` can redo the
	// compilation (e.g. with nvcc on the GPU machine) without the source's
	// analysis.
	Includes []string `json:"includes,omitempty"`
	Defines  []string `json:"defines,omitempty"`
	Std      string   `json:"std,omitempty"`
	Kernels  []Kernel `json:"kernels"`
	// Sites are the traced accesses of the instrumented source, by ID
	// (the LDC_TR wrappers' SITE): where each access expression is and
	// whether it reads or writes. The tracing modules (compiled with
	// -DLDC_TRACE), relative to the build dir, log them to explain a race;
	// empty when not built.
	Sites    []Site `json:"sites,omitempty"`
	TracePTX string `json:"trace_ptx,omitempty"`
	TraceCPU string `json:"trace_cpu,omitempty"`
	// DetPTX is the device module for `ldcheck run --deterministic`
	// (compiled with -DLDC_DET; relative to the build dir, empty when not
	// built). The CPU library serves both kinds of run.
	DetPTX string `json:"det_ptx,omitempty"`
	// IntraWarpPTX is the device module for `ldcheck run --intra-warp`
	// (compiled with -DLDC_IW: the checked module plus the intra-warp
	// check's access hooks; empty when not built or when no kernel has a
	// shared target, which leaves that check nothing to look at).
	IntraWarpPTX string `json:"iw_ptx,omitempty"`
	// BlockPTX is the device module level 1 launches run from: the
	// instrumented source compiled with -DLDC_BLOCK_ONLY, without level
	// 2's code, which held the checked module's registers at the cap.
	// Empty: level 1 runs from PTX.
	BlockPTX string `json:"block_ptx,omitempty"`
	// OnePassPTX is the device module level 2 launches run from where
	// every region of the launch ends after one pass: the instrumented
	// source compiled with -DLDC_ONE_PASS, without the replays' saves,
	// restores and jumps. Empty: no kernel's regions can all end after
	// one pass, or not built.
	OnePassPTX string `json:"one_pass_ptx,omitempty"`
	// TestedPTX is the device module of launches whose only checks are
	// the stride tests their proofs rest on (Target.BlockRaceFreeTested):
	// the native source compiled with -DLDC_NATIVE_TESTS. Empty: those
	// launches run from BlockPTX (or the checked module).
	TestedPTX string `json:"tested_ptx,omitempty"`
}

// Site is one traced access expression of the user's source.
type Site struct {
	ID   int    `json:"id"`
	File string `json:"file"` // absolute
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Kind string `json:"kind"` // SiteRead, SiteWrite, SiteReadWrite or SiteAtomic
	// Var is the variable accessed, for the accesses of variables that
	// atomics update (they name atomic-plain races).
	Var string `json:"var,omitempty"`
	// Elem and ElemSize are the scalar type such an access reads or
	// writes, when the build knew its size (reports name var[3], not
	// var[byte 12]).
	Elem     string `json:"elem,omitempty"`
	ElemSize int64  `json:"elem_size,omitempty"`
	// FenceAfter, FenceBefore and TicketGuarded place the access in the
	// "last block" idiom (passes.FenceOrder): a __threadfence() follows it,
	// precedes it, or it runs only under a condition on the result of an
	// atomic made after a fence. A race between blocks whose write is
	// FenceAfter and whose read is TicketGuarded, or between a
	// TicketGuarded plain access and a FenceBefore atomic, is ordered by
	// the fence and the ticket, and is not reported.
	FenceAfter    bool `json:"fence_after,omitempty"`
	FenceBefore   bool `json:"fence_before,omitempty"`
	TicketGuarded bool `json:"ticket_guarded,omitempty"`
}

// Site kinds.
const (
	SiteRead      = "read"
	SiteWrite     = "write"
	SiteReadWrite = "read-write" // x += v, x++: reads and stores
	SiteAtomic    = "atomic"     // an atomic operation (atomicAdd, ...)
)

// Kernel is one __global__ function.
type Kernel struct {
	Name   string `json:"name"`
	Symbol string `json:"symbol"`    // the CUDA module's function name
	Entry  string `json:"cpu_entry"` // the CPU library's entry point
	// File is the file the kernel is defined in, absolute, when it is not
	// Source (a .cu file or header that Source includes); Line and the
	// regions' lines are in it.
	File   string  `json:"file,omitempty"`
	Line   int     `json:"line"`
	Params []Param `json:"params"`
	// Instrumented is false when the kernel could not be instrumented;
	// Reason says why (it then runs unchecked).
	Instrumented bool        `json:"instrumented"`
	Reason       string      `json:"reason,omitempty"`
	Barriers     []Barrier   `json:"barriers"`
	Regions      []Region    `json:"regions"`
	Targets      []Target    `json:"targets"`
	Unchecked    []Unchecked `json:"unchecked"`
	// Unhandled says, one line each, what the kernel writes that is left
	// unchecked because ldcheck cannot handle it (inline asm, heap memory,
	// child grids): a run of it is not a clean verdict (exit status 4).
	Unhandled []string `json:"unhandled,omitempty"`
	// Atomic lists the variables updated by atomics: not privatized, and
	// the runtime must not restore them between runs (the atomics ran once).
	Atomic []string `json:"atomic,omitempty"`
	// Atomics counts the atomic calls in the kernel and the device
	// functions it calls: when there are none, no log of their results is
	// needed for replay.
	Atomics int `json:"atomics,omitempty"`
	// AtomicOps lists those atomic calls (not user functions named
	// atomicXxx), each with its place and how its outcome depends on the
	// order threads run it: `ldcheck run --deterministic` refuses a kernel
	// with one whose class is not order-independent.
	AtomicOps []AtomicOp `json:"atomic_ops,omitempty"`
	// NoPlainNotes says that no plain access of a variable atomics update
	// is noted for the atomic-plain check anywhere in the module (every
	// such access is volatile, a compare-and-swap loop's read, or there is
	// none): the check could only note the atomics, and never report, so
	// the runtime leaves it out (ld_bfs's 25M atomicCAS each made two
	// table entries for nothing). False in builds made before it was.
	NoPlainNotes bool `json:"no_plain_notes,omitempty"`
	// Requires1D lists variables left unprivatized because every access is
	// indexed by the global thread id, which is private only in 1-D launches.
	Requires1D []string `json:"requires_1d,omitempty"`
	// SharedTracked says that every store to a shared target flags the
	// 16 bytes it touches (LDC_SW, LDC_SA), so the checks at a barrier
	// visit only what the warps wrote. False when some use of a shared
	// target could store where the compiler cannot see it;
	// SharedUntracked then says where.
	SharedTracked   bool   `json:"shared_tracked,omitempty"`
	SharedUntracked string `json:"shared_untracked,omitempty"`
	// BlockOnePass: no global variable the kernel reads is written by it,
	// so level 1 (unit = block) runs one launch, not two.
	BlockOnePass bool `json:"block_one_pass,omitempty"`
}

// AtomicOp is one atomic call of a kernel or of a device function it calls.
type AtomicOp struct {
	Call string `json:"call"` // as written: atomicAdd, atomicCAS_block, ...
	// File is the file the call is in, absolute, when it is not the
	// manifest's Source.
	File  string      `json:"file,omitempty"`
	Line  int         `json:"line"`
	Class AtomicClass `json:"class"`
}

// Param is a kernel parameter as laid out in the launch.
type Param struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Size     int64  `json:"size"`
	Pointer  bool   `json:"pointer"`
	Elem     string `json:"elem,omitempty"`
	ElemSize int64  `json:"elem_size,omitempty"`
	Const    bool   `json:"const,omitempty"` // pointee is const
	// Fields is the layout of a by-value struct parameter, ElemFields that
	// of a pointer parameter's struct element type (nested fields
	// flattened with dots, as in Target.Fields), so that --arg can set
	// them field by field; empty for other types or when clang could not
	// lay the struct out.
	Fields     []Field `json:"fields,omitempty"`
	ElemFields []Field `json:"elem_fields,omitempty"`
	// Texel is what the kernel's fetches of a texture object parameter
	// return (float4 for tex1Dfetch<float4>), when they all agree: the
	// CUDA backend gives the texture that many channels.
	Texel string `json:"texel,omitempty"`
}

// Barrier is a block barrier the hooks report by ID.
type Barrier struct {
	ID   int    `json:"id"`
	Line int    `json:"line"`
	Call string `json:"call"`
}

// Region is an AP region: From and To are barrier IDs, -1 for kernel entry
// (From) and exit (To).
type Region struct {
	ID        int  `json:"id"`
	From      int  `json:"from"`
	To        int  `json:"to"`
	BeginLine int  `json:"begin_line"`
	EndLine   int  `json:"end_line"`
	Wraps     bool `json:"wraps,omitempty"`
	// OnePass: the region's code writes nothing it reads, so its second
	// pass would repeat the first; the instrumented code skips it.
	OnePass bool `json:"one_pass,omitempty"`
	// OnePassIf: the same, in launches whose block has that shape
	// ("block-2d": blockDim.z == 1; "block-1d": blockDim.y == 1 too),
	// by an index proof that names threadIdx's x (and y) only.
	OnePassIf string `json:"one_pass_if,omitempty"`
	// Conditional: the proof also needs strides nonzero where the accesses
	// run; the instrumented code tests them there (LDC_COND), and a
	// thread that found one 0 keeps the region's second pass.
	Conditional bool `json:"conditional,omitempty"`
}

// Target is a privatized variable. Index is its slot in the device-side
// target table (the order the hooks use).
type Target struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Space    Space  `json:"space"`
	Kind     Kind   `json:"kind"`
	Param    int    `json:"param"` // parameter index for KindParam, else NoParam
	Type     string `json:"type"`
	Elem     string `json:"elem,omitempty"`
	ElemSize int64  `json:"elem_size,omitempty"`
	Bytes    int64  `json:"bytes"`             // static size; 0 when sized at run time
	Dynamic  bool   `json:"dynamic,omitempty"` // extern __shared__
	Line     int    `json:"line"`
	// Dims are the declared array dimensions (float a[16][32]: 16, 32),
	// so reports can name a[3][5] instead of a[101]; empty when the
	// declaration gives none (pointers, 1-D arrays may list theirs).
	Dims []int64 `json:"dims,omitempty"`
	// Fields is the layout of a struct element type, so reports can name
	// cells[5].mass; empty for other types.
	Fields []Field `json:"fields,omitempty"`
	// Private marks a variable no two threads can race on (each writes its
	// own element) that is still privatized: region replay must not apply
	// its writes twice, and the checks give blocks' footprints.
	Private bool `json:"private,omitempty"`
	// BlockRaceFree: the build proved that no two threads of a block
	// touch one element of the variable where either writes it, in any
	// region. Races inside a block are then ruled out for it: a shared
	// target runs uncopied at level 2 where every region runs once, and a
	// launch whose targets all have it skips level 2. BlockRaceFreeIf: the
	// same, in launches whose block has that shape ("block-2d":
	// blockDim.z == 1, "block-1d": blockDim.y == blockDim.z == 1).
	BlockRaceFree   bool   `json:"block_race_free,omitempty"`
	BlockRaceFreeIf string `json:"block_race_free_if,omitempty"`
	// BlockRaceFreeWhen: tests of the launch the proof also needs (all
	// must hold), with either of the two above.
	BlockRaceFreeWhen []LaunchTest `json:"block_race_free_when,omitempty"`
	// BlockRaceFreeTested: the proof also rests on tests the instrumented
	// kernel makes where the accesses run (a stride not 0); a launch in
	// which one failed says so (the context's failed_test), and its
	// checks must not rely on the proof. A run of the native module
	// cannot rely on it at all.
	BlockRaceFreeTested bool `json:"block_race_free_tested,omitempty"`
	// GridRaceFree (global targets): the build proved that no two threads
	// of the launch, whatever their blocks, touch one element of the
	// variable where either writes it, when every test in
	// GridRaceFreeWhen holds. A launch whose global targets all have it
	// and whose shared targets are block race-free needs no check.
	GridRaceFree     bool         `json:"grid_race_free,omitempty"`
	GridRaceFreeWhen []LaunchTest `json:"grid_race_free_when,omitempty"`
	// BlocksApart (global targets): the build proved that no two threads
	// of different blocks touch one element of the variable (threads of
	// one block may), when every test in BlocksApartWhen holds. Races
	// between blocks are then ruled out for it: a launch whose global
	// targets all have it (or GridRaceFree) skips the block level.
	BlocksApart     bool         `json:"blocks_apart,omitempty"`
	BlocksApartWhen []LaunchTest `json:"blocks_apart_when,omitempty"`
}

// LaunchTest is a condition on a launch that a proof rests on, checked by
// the host before it relies on the proof: Left >= Right (|Left| >= Right
// when Abs). blockDim.x <= 32 is Left 32, Right blockDim.x; a row length
// n at least the block's width is Left n, Abs, Right blockDim.x.
type LaunchTest struct {
	Left  []LaunchTerm `json:"left"`
	Abs   bool         `json:"abs,omitempty"`
	Right []LaunchTerm `json:"right"`
}

// LaunchTerm is Coeff times the product of Factors, each "blockDim.x",
// "blockDim.y", "blockDim.z", "gridDim.x" (.y, .z: grid tests only),
// "ceil(blockDim.x/C)" for a constant C >= 2 (the warps of 32 threads a
// block's row spans, rounded up: the index of a warp is below it) or
// "param:N" (the value of the kernel's integer parameter N, counted
// from 0).
type LaunchTerm struct {
	Coeff   int64    `json:"coeff"`
	Factors []string `json:"factors,omitempty"`
}

// String writes t as C: "|n| >= blockDim.x".
func (t LaunchTest) String() string {
	left := termsString(t.Left)
	if t.Abs {
		left = "|" + left + "|"
	}
	return left + " >= " + termsString(t.Right)
}

func termsString(ts []LaunchTerm) string {
	if len(ts) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, t := range ts {
		c := t.Coeff
		switch {
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		parts := append([]string{}, t.Factors...)
		if c != 1 || len(parts) == 0 {
			parts = append([]string{strconv.FormatInt(c, 10)}, parts...)
		}
		b.WriteString(strings.Join(parts, "*"))
	}
	return b.String()
}

// EvalTerms computes the terms' sum, given the launch's grid and block sizes and its
// parameters' values (param(N) for "param:N"); ok is false for a factor
// it cannot evaluate.
func EvalTerms(ts []LaunchTerm, grid *[3]uint32, block [3]uint32, param func(int) (int64, bool)) (int64, bool) {
	var sum int64
	for _, t := range ts {
		v := t.Coeff
		for _, f := range t.Factors {
			var x int64
			switch {
			case f == "blockDim.x":
				x = int64(block[0])
			case f == "blockDim.y":
				x = int64(block[1])
			case f == "blockDim.z":
				x = int64(block[2])
			case f == "gridDim.x" || f == "gridDim.y" || f == "gridDim.z":
				if grid == nil {
					return 0, false
				}
				x = int64(grid[f[len(f)-1]-'x'])
			case strings.HasPrefix(f, "ceil("):
				d, c, ok := CeilFactor(f)
				if !ok {
					return 0, false
				}
				x = (int64(block[d]) + c - 1) / c
			case strings.HasPrefix(f, "param:"):
				n, err := strconv.Atoi(strings.TrimPrefix(f, "param:"))
				if err != nil {
					return 0, false
				}
				pv, ok := param(n)
				if !ok {
					return 0, false
				}
				x = pv
			default:
				return 0, false
			}
			v *= x
		}
		sum += v
	}
	return sum, true
}

// CeilFactor reads a factor "ceil(blockDim.D/C)": the dimension (0 for
// x) and C, or ok false.
func CeilFactor(f string) (dim int, c int64, ok bool) {
	in, found := strings.CutPrefix(f, "ceil(blockDim.")
	if !found || !strings.HasSuffix(in, ")") || len(in) < 4 || in[1] != '/' || in[0] < 'x' || in[0] > 'z' {
		return 0, 0, false
	}
	c, err := strconv.ParseInt(in[2:len(in)-1], 10, 64)
	if err != nil || c < 2 || strconv.FormatInt(c, 10) != in[2:len(in)-1] {
		return 0, 0, false
	}
	return int(in[0] - 'x'), c, true
}

// Holds evaluates t for a launch (see EvalTerms); a test it cannot
// evaluate does not hold.
func (t LaunchTest) Holds(block [3]uint32, param func(int) (int64, bool)) bool {
	return t.HoldsIn(nil, block, param)
}

// HoldsIn is Holds for tests that may name gridDim (grid nil: they fail).
func (t LaunchTest) HoldsIn(grid *[3]uint32, block [3]uint32, param func(int) (int64, bool)) bool {
	l, ok1 := EvalTerms(t.Left, grid, block, param)
	r, ok2 := EvalTerms(t.Right, grid, block, param)
	if !ok1 || !ok2 {
		return false
	}
	if t.Abs && l < 0 {
		l = -l
	}
	return l >= r
}

// Field is one field of a struct element, nested fields flattened with
// dots ("pos.x"), at its byte offset in the element.
type Field struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	Type   string `json:"type"` // canonical type, e.g. "float" or "int[3]"
}

// Unchecked is a variable that is not checked, and why.
type Unchecked struct {
	Name     string      `json:"name"`
	Reason   string      `json:"reason"`
	Requires Requirement `json:"requires,omitempty"`
}

// HasTargets says whether k has a target, shared or global: what the
// intra-warp check looks at.
func (k *Kernel) HasTargets() bool { return len(k.Targets) > 0 }

// MayRunOnePass reports whether every region of k may end after its first
// pass at level 2 in some launch: each is proven one-pass, for every
// launch or for a block shape, perhaps under strides tested as it runs
// (Conditional).
func (k *Kernel) MayRunOnePass() bool {
	for _, rg := range k.Regions {
		if !rg.OnePass && rg.OnePassIf == "" {
			return false
		}
	}
	return len(k.Regions) > 0
}

// KernelSource is the file kernel k is defined in.
func (m *Manifest) KernelSource(k *Kernel) string {
	if k.File != "" {
		return k.File
	}
	return m.Source
}

// Write stores m as DIR/manifest.json. A manifest that Validate rejects is
// not written: the build made it, so that is ldcheck's bug.
func (m *Manifest) Write(dir string) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("internal error: the manifest for %s is inconsistent: %w", m.Source, err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, FileName), append(b, '\n'), 0o644)
}

// Read loads DIR/manifest.json, checks its version and validates it.
func Read(dir string) (*Manifest, error) {
	path := filepath.Join(dir, FileName)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: not an ldcheck build directory (run `ldcheck build FILE.cu` first): %w", dir, err)
	}
	return Parse(path, b)
}

// Parse decodes and validates the manifest text b read from path (which
// names it in errors).
func Parse(path string, b []byte) (*Manifest, error) {
	const rebuild = "rebuild with `ldcheck build FILE.cu`"
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("%s: corrupt manifest (%s): %v", path, rebuild, err)
	}
	if _, ok := fields["version"]; !ok {
		return nil, fmt.Errorf("%s: not an ldcheck manifest: it has no \"version\" field; %s", path, rebuild)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: corrupt manifest (%s): %v", path, rebuild, err)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("%s: made by another ldcheck version (manifest version %d, this ldcheck reads %d); %s", path, m.Version, Version, rebuild)
	}
	if err := m.Validate(); err != nil {
		if m.Source != "" {
			return nil, fmt.Errorf("%s: invalid manifest: %w; rebuild with `ldcheck build %s`", path, err, m.Source)
		}
		return nil, fmt.Errorf("%s: invalid manifest: %w; %s", path, err, rebuild)
	}
	return &m, nil
}

// Kernel returns the kernel called name.
func (m *Manifest) Kernel(name string) (*Kernel, bool) {
	for i := range m.Kernels {
		if m.Kernels[i].Name == name {
			return &m.Kernels[i], true
		}
	}
	return nil, false
}
