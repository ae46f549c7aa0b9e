package gpuruntime

import (
	"errors"
	"fmt"
	"strings"

	"ldcheck/gpuruntime/cpu"
	"ldcheck/privatize/manifest"
)

// FaultError is a kernel thread's access outside its memory, as the CPU
// backend reports it (guard pages around every buffer, and a check of each
// access against the other units' private copies). The GPU reports only
// that some access was illegal, with no address.
type FaultError struct {
	Block, Thread [3]uint32
	Addr          DevPtr
	Access        string // "read", "write", or "" when unknown
	// Base is the allocation whose mapping (guards included) holds Addr,
	// 0 when none does; Offset is Addr - Base.
	Base   DevPtr
	Offset int64
	Msg    string // the engine's message
}

func (e *FaultError) Error() string { return e.Msg }

// faultOf takes the CPU engine's record of an out-of-bounds access from
// a launch error, field by field.
func faultOf(err error) (*FaultError, bool) {
	var le *cpu.LaunchError
	if !errors.As(err, &le) || le.Fault == nil {
		return nil, false
	}
	f := le.Fault
	return &FaultError{Block: f.Block, Thread: f.Thread, Addr: DevPtr(f.Addr), Access: f.Access, Msg: err.Error()}, true
}

// OutOfBoundsError is a kernel access outside a buffer or a private copy,
// named: the user's input is too small for the launch, or the kernel's
// index is wrong. It is bad input, not a failure of the tool.
type OutOfBoundsError struct {
	Kernel   string
	Variable string // "" when the address is in no buffer ldcheck knows
	msg      string
}

func (e *OutOfBoundsError) Error() string { return e.msg }

// named is what checkRun knows of an allocation, to name a fault in it.
type named struct {
	name  string
	param *manifest.Param // nil for module-scope variables
	size  int64           // bytes
}

// outOfBounds turns a fault into a message naming the kernel and variable.
func (r *checkRun) outOfBounds(fe *FaultError) error {
	k := r.l.Kernel.Name
	access := fe.Access
	if access == "" {
		access = "access"
	}
	who := fmt.Sprintf("block (%d,%d,%d) thread (%d,%d,%d)", fe.Block[0], fe.Block[1], fe.Block[2], fe.Thread[0], fe.Thread[1], fe.Thread[2])
	n, ok := r.named[fe.Base]
	if fe.Base == 0 || !ok {
		return &OutOfBoundsError{Kernel: k, msg: fmt.Sprintf("kernel %s: out-of-bounds %s by %s at address %#x, outside every buffer ldcheck allocated (an invalid pointer, or an index far beyond a buffer's end)",
			k, access, who, uint64(fe.Addr))}
	}
	rel := fe.Offset
	where := "past the end of"
	if rel < 0 {
		where = "before the start of"
	}
	what := fmt.Sprintf("byte %d", rel)
	extent := fmt.Sprintf("%d bytes", n.size)
	fix := "fix the kernel's index"
	if p := n.param; p != nil && p.ElemSize > 0 {
		idx := rel / p.ElemSize
		if rel < 0 && rel%p.ElemSize != 0 {
			idx--
		}
		what = fmt.Sprintf("%s[%d] (byte %d)", n.name, idx, rel)
		count := n.size / p.ElemSize
		elem := unqualified(p.Elem)
		extent = fmt.Sprintf("%d elements (%s[%d], %d bytes)", count, elem, count, n.size)
		if rel >= 0 {
			fix = fmt.Sprintf("give a larger --arg %s=%s[COUNT] if the launch needs it, or fix the kernel's index", n.name, elem)
		}
	}
	return &OutOfBoundsError{Kernel: k, Variable: n.name, msg: fmt.Sprintf("kernel %s: out-of-bounds %s by %s: %s is %s %s, which has %s; %s",
		k, access, who, what, where, n.name, extent, fix)}
}

// explain names a launch error that is an out-of-bounds access.
func (r *checkRun) explain(err error) error {
	var fe *FaultError
	if errors.As(err, &fe) {
		return r.outOfBounds(fe)
	}
	return err
}

// unqualified is an element type as --arg spells it: "const float" is float.
func unqualified(t string) string {
	var keep []string
	for _, f := range strings.Fields(t) {
		if f != "const" && f != "volatile" && f != "__restrict__" {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}
