package passes

import "ldcheck/privatize/manifest"

// Analysis is everything the front end learned about one source file. It is
// plain data: JSON-encodable, and all privatize needs besides the source text.
type Analysis struct {
	File        string       `json:"file"`
	Kernels     []*Kernel    `json:"kernels"`
	Globals     []*Variable  `json:"globals,omitempty"` // module-scope __device__ / __constant__ variables
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}

// Pos is a place in the analysed file: byte offsets [Offset, End) and the
// 1-based line and column of Offset.
type Pos struct {
	Line   int `json:"line"`
	Col    int `json:"col"`
	Offset int `json:"offset"`
	End    int `json:"end"`
}

// Kernel is one __global__ function as written (a template counts once).
type Kernel struct {
	Name    string `json:"name"`
	Mangled string `json:"mangled,omitempty"`
	// File names the file the kernel is defined in when it is not the
	// main file (an included .cu file or header); positions are in it.
	File     string  `json:"file,omitempty"`
	Template bool    `json:"template,omitempty"`
	Pos      Pos     `json:"pos"`
	Body     Pos     `json:"body"`
	Params   []Param `json:"params"`
	// Shared lists the __shared__ variables declared in the kernel body.
	Shared    []*Variable `json:"shared,omitempty"`
	Barriers  []Barrier   `json:"barriers"`
	Regions   []Region    `json:"regions"`
	Targets   []Target    `json:"targets"`
	Unchecked []Unchecked `json:"unchecked"`
	Atomics   []Atomic    `json:"atomics,omitempty"`
	// Calls names the device functions the kernel calls, directly or not.
	Calls []string `json:"calls,omitempty"`
	// Unhandled says what the kernel writes that ldcheck leaves unchecked
	// because it cannot handle it (inline asm, heap memory allocated in the
	// kernel, child grids), one line each: a run is then not a clean
	// verdict. Variables proven race-free and atomics are not listed.
	Unhandled []string `json:"unhandled,omitempty"`
	// BlockOnePass: no global variable the kernel reads is written by it,
	// so level 1 (blocks) needs no second launch.
	BlockOnePass bool `json:"block_one_pass,omitempty"`
	// Conditions are the tests the regions' index proofs need at run
	// time (Region.Conditional).
	Conditions []Condition `json:"conditions,omitempty"`
	// UniformEnds: every block barrier and every return of the body runs
	// under block-uniform control (uniformends.go), so the threads of a
	// block end each region at one place: all at one barrier, or all at
	// the exit. No warp then reaches a region end's reduction from two
	// places, and the runtime may use the hardware's (barrier.red).
	UniformEnds bool `json:"uniform_ends,omitempty"`

	body *Node // the syntax tree of the body, for later passes
	// startsAt: for each variable reference of the body that the regions
	// pass reached, the regions it may run in (by their starts: barrier
	// IDs, Entry).
	startsAt map[*Node]starts
	// endsAt: for each such reference, the barrier IDs (and Exit) it can
	// reach without crossing a barrier: the ends of the regions it runs in.
	endsAt map[*Node]starts
	// reach: which references run after which within a region.
	reach *Reach
}

// RegionStarts returns the starts (barrier IDs, or Entry) of the regions
// that reference n of the kernel body may run in; ok is false when the
// regions pass did not reach it (unreachable code, or not a variable
// reference of the body).
func (k *Kernel) RegionStarts(n *Node) (s map[int]bool, ok bool) {
	s, ok = k.startsAt[n]
	return s, ok
}

// RegionEnds returns the ends (barrier IDs, or Exit) of the regions that
// reference n of the kernel body may run in; ok is false when the regions
// pass did not reach it.
func (k *Kernel) RegionEnds(n *Node) (s map[int]bool, ok bool) {
	s, ok = k.endsAt[n]
	return s, ok
}

// BodyTree returns the kernel body's syntax tree.
func (k *Kernel) BodyTree() *Node { return k.body }

// Param is a kernel parameter.
type Param struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Size    int64  `json:"size"` // bytes the parameter occupies in the launch
	Pointer bool   `json:"pointer"`
	// For pointers: the pointee type, its size (0 when unknown, e.g. void)
	// and whether it is const (a const pointee is never written).
	Elem      string `json:"elem,omitempty"`
	ElemSize  int64  `json:"elem_size,omitempty"`
	ElemConst bool   `json:"elem_const,omitempty"`
	// ElemFields is the pointee's layout when it is a struct; Fields the
	// parameter's own when it is a struct passed by value.
	ElemFields []manifest.Field `json:"elem_fields,omitempty"`
	Fields     []manifest.Field `json:"fields,omitempty"`
	// Texel is what the kernel's fetches of a texture object parameter
	// return (tex1Dfetch<float4>(tex, i): float4), when they all agree.
	Texel string `json:"texel,omitempty"`
}

// Space is a memory space.
type Space string

const (
	Shared   Space = Space(manifest.SpaceShared)
	Global   Space = Space(manifest.SpaceGlobal)
	Constant Space = "constant"
)

// Variable is a __shared__, __device__ or __constant__ variable.
type Variable struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Space Space  `json:"space"`
	// Bytes is the static size; -1 for extern __shared__ (sized at launch).
	Bytes    int64   `json:"bytes"`
	Elem     string  `json:"elem"`      // innermost element type
	ElemSize int64   `json:"elem_size"` // its size in bytes
	Dims     []int64 `json:"dims,omitempty"`
	// Fields is the element's layout when it is a struct.
	Fields []manifest.Field `json:"fields,omitempty"`
	Extern bool             `json:"extern,omitempty"`
	Pos    Pos              `json:"pos"`
	// Decl is the extent of the whole declaration statement, for rewriting.
	Decl Pos `json:"decl"`
}

// Barrier is a call that synchronises the block (or the warp).
type Barrier struct {
	ID   int    `json:"id"`
	Call string `json:"call"` // __syncthreads, __syncthreads_count, __syncwarp, ...
	Pos  Pos    `json:"pos"`
	// Context is where it sits: "top", "loop", "conditional" (block-uniform
	// control flow is assumed), or "device-function" (reached through a call).
	Context string `json:"context"`
	// Warp is true for __syncwarp: it orders a warp only and does not end
	// an AP region.
	Warp bool `json:"warp,omitempty"`
	// Via names the device function the barrier is in, when not the kernel.
	Via string `json:"via,omitempty"`
}

// Region is an asynchronous-parallel region: code that runs between two
// consecutive block barriers. From and To are barrier IDs, -1 meaning
// kernel entry (From) or kernel exit (To).
type Region struct {
	ID        int  `json:"id"`
	From      int  `json:"from"`
	To        int  `json:"to"`
	BeginLine int  `json:"begin_line"`
	EndLine   int  `json:"end_line"`
	Wraps     bool `json:"wraps,omitempty"` // crosses a loop's back edge
	// OnePass: no variable the code after From reads (up to the next
	// barrier) is written there, so the region's second pass would repeat
	// its first and is skipped. The same for every region with this From.
	OnePass bool `json:"one_pass,omitempty"`
	// OnePassIf: the region needs no second pass in launches of that
	// shape (FlatBlock, LineBlock): an index proof says so (disjoint.go).
	OnePassIf string `json:"one_pass_if,omitempty"`
	// Conditional: the proof also needs some coefficients nonzero where
	// the accesses run (Kernel.Conditions); a thread whose access found
	// one 0 makes the region keep its second pass.
	Conditional bool `json:"conditional,omitempty"`
}

// Condition is a test an index proof needs where an access runs: Expr
// (a C expression of the kernel's variables) is not 0 at the element
// accessed at [Offset, End) of the kernel's file.
//
// A region's one-pass proof keeps the region's second pass where the test
// fails (LDC_COND); a target's race-free proof (Target set) only flags the
// launch (LDC_TEST), whose checks then do not rely on the proof.
type Condition struct {
	Line   int    `json:"line"`
	Offset int    `json:"offset"`
	End    int    `json:"end"`
	Expr   string `json:"expr"`
	Target bool   `json:"target,omitempty"`
}

// Target is a variable that may race and will be privatized.
type Target struct {
	Name   string        `json:"name"`
	Space  Space         `json:"space"`
	Type   string        `json:"type"`
	Bytes  int64         `json:"bytes,omitempty"` // static size, when known
	Kind   manifest.Kind `json:"kind"`
	Reason string        `json:"reason"`
	Writes []Pos         `json:"writes,omitempty"`
	// BlockRaceFree: no two threads of a block touch one element of the
	// variable where either writes it, in any region (onepass.go): races
	// inside a block are ruled out, races between blocks are not.
	// BlockRaceFreeIf: the same in launches whose block has that shape
	// (FlatBlock, LineBlock).
	BlockRaceFree   bool   `json:"block_race_free,omitempty"`
	BlockRaceFreeIf string `json:"block_race_free_if,omitempty"`
	// BlockRaceFreeWhen: tests of the launch the proof also needs
	// (launchproof.go), with either of the two above.
	BlockRaceFreeWhen []manifest.LaunchTest `json:"block_race_free_when,omitempty"`
	// BlockRaceFreeTested: the proof also needs strides nonzero where the
	// accesses run (Kernel.Conditions with Target set): the instrumented
	// kernel tests them and flags a launch where one failed.
	BlockRaceFreeTested bool `json:"block_race_free_tested,omitempty"`
	// GridRaceFree (global targets): no two threads of the launch, in any
	// blocks, touch one element of the variable where either writes it,
	// when the tests GridRaceFreeWhen hold (launchproof.go).
	GridRaceFree     bool                  `json:"grid_race_free,omitempty"`
	GridRaceFreeWhen []manifest.LaunchTest `json:"grid_race_free_when,omitempty"`
	// BlocksApart (global targets, where GridRaceFree is not proven): no
	// two threads of different blocks touch one element of the variable,
	// when the tests BlocksApartWhen hold (cur[q] with q = blockIdx.x * B
	// + i: every thread of a block, no other block).
	BlocksApart     bool                  `json:"blocks_apart,omitempty"`
	BlocksApartWhen []manifest.LaunchTest `json:"blocks_apart_when,omitempty"`
}

// Unchecked is a variable ldcheck will not check, and why.
type Unchecked struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
	Line   int    `json:"line,omitempty"`
	// Requires names a launch property the reason depends on ("1-D
	// launch"); the runtime must check it.
	Requires manifest.Requirement `json:"requires,omitempty"`
	// Atomic: atomics update it (in the kernel or in a device function
	// it is passed to); its updates must take effect once.
	Atomic bool `json:"atomic,omitempty"`
}

// Atomic is an atomic operation and the variable it touches.
type Atomic struct {
	Call     string `json:"call"`
	Variable string `json:"variable"` // "" when the address could not be traced
	Pos      Pos    `json:"pos"`
	// File is the file the call is in when it is not the main file.
	File string `json:"file,omitempty"`
	// Class says how its outcome depends on the order threads run it;
	// empty for a call of the user's own function named atomicXxx (the
	// atomics in its body are listed on their own).
	Class manifest.AtomicClass `json:"class,omitempty"`
}

// Diagnostic is a message about the source, compiler-style.
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // error, warning, note
	Message  string `json:"message"`
}
