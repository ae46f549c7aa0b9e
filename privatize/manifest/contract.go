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
	// ScopeIntraWarp: two lanes (threads) of one warp, with no warp
	// synchronisation between their accesses.
	ScopeIntraWarp Scope = "intra-warp"
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

// AtomicClass says how an atomic operation's outcome depends on the order
// in which threads run it. `ldcheck run --deterministic` runs the units in
// a fixed order but lets atomics run as the hardware schedules them: only
// AtomicCommutative ones leave the same bytes whatever that order is.
type AtomicClass string

const (
	// AtomicCommutative: an integer add, sub, and, or, xor, min, max, inc
	// or dec whose returned old value is not used. Memory ends the same in
	// any order (inc and dec: when every thread passes the same limit).
	AtomicCommutative AtomicClass = "commutative"
	// AtomicFloat: a floating-point add; its rounding depends on the order.
	AtomicFloat AtomicClass = "float"
	// AtomicExchange: atomicExch; the last thread to run it wins.
	AtomicExchange AtomicClass = "exchange"
	// AtomicCompareSwap: atomicCAS; which thread's swap succeeds depends
	// on the order.
	AtomicCompareSwap AtomicClass = "compare-and-swap"
	// AtomicValueUsed: an otherwise commutative atomic whose returned old
	// value is used: each thread sees what the threads before it did.
	AtomicValueUsed AtomicClass = "value used"
	// AtomicUnknown: an atomic ldcheck does not recognise (a builtin, a
	// type it cannot see); assumed to depend on the order.
	AtomicUnknown AtomicClass = "unknown"
)

func (c AtomicClass) valid() bool {
	switch c {
	case AtomicCommutative, AtomicFloat, AtomicExchange, AtomicCompareSwap, AtomicValueUsed, AtomicUnknown:
		return true
	}
	return false
}

// OrderIndependent says whether memory ends the same whatever order the
// threads run the atomic in.
func (c AtomicClass) OrderIndependent() bool { return c == AtomicCommutative }

// Why says, for messages, what makes an atomic of class c depend on the
// order ("" for commutative ones).
func (c AtomicClass) Why() string {
	switch c {
	case AtomicFloat:
		return "floating-point rounding depends on the order of the additions"
	case AtomicExchange:
		return "the last thread to exchange wins"
	case AtomicCompareSwap:
		return "which thread's swap succeeds depends on the order"
	case AtomicValueUsed:
		return "its returned old value is used, and that value depends on which threads ran it first"
	case AtomicUnknown:
		return "ldcheck does not know this atomic, so assumes its outcome depends on the order"
	}
	return ""
}
