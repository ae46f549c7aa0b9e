package manifest

// The words of the contract between the build and the run. They appear in
// manifest.json, in the instrumented source's comments and in the reports;
// the packages on either side use these constants, never the strings.

// Kind says where a target variable is declared.
type Kind string

const (
	KindShared Kind = "shared" // a __shared__ variable of the kernel
	KindDevice Kind = "device" // a module-scope __device__ variable
	KindParam  Kind = "param"  // memory a pointer parameter points to
)

// Space is the memory space a target lives in.
type Space string

const (
	SpaceShared Space = "shared"
	SpaceGlobal Space = "global"
)

// Scope says which units a race is between.
type Scope string

const (
	ScopeInterWarp  Scope = "inter-warp"
	ScopeInterBlock Scope = "inter-block"
)

// Requirement is a launch property an unchecked variable's reason
// depends on; the runtime must check it before trusting the reason.
type Requirement string

const (
	// Requires1DLaunch: every access is indexed by the global thread id,
	// a different element for each thread only in 1-D launches.
	Requires1DLaunch Requirement = "1-D launch"
)

// NoParam is Target.Param for a target that is not a parameter's memory.
const NoParam = -1

// NoBarrier is Region.From for kernel entry and Region.To for kernel exit.
const NoBarrier = -1

func (k Kind) valid() bool        { return k == KindShared || k == KindDevice || k == KindParam }
func (s Space) valid() bool       { return s == SpaceShared || s == SpaceGlobal }
func (r Requirement) valid() bool { return r == "" || r == Requires1DLaunch }

// GridBarrier names a grid-wide barrier (grid_group::sync) in a kernel's
// Reason for not being instrumented: such a kernel cannot even run
// unchecked (a grid barrier needs a cooperative launch ldcheck does not
// make), so ldcheck run refuses it as not supported.
const GridBarrier = "grid-wide barrier"
