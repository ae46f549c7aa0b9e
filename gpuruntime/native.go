package gpuruntime

import (
	"errors"
	"fmt"
	"slices"

	"ldcheck/privatize/manifest"
)

// RunNative runs the launch once on b, which must hold the build's native
// module (the user's kernels as written, manifest.NativePTX or NativeCPU):
// no checking, no private copies, no ldcheck runtime in the kernel. It is
// `ldcheck run --unchecked`, the baseline for outputs and timings. With
// opt.WarmUp the kernel runs once untimed first and the inputs are put
// back. The Result has Unchecked "--unchecked", the buffers in Outputs and
// one phase, "kernel (native)". Device memory it allocates is freed before
// it returns.
func RunNative(b Backend, l Launch, opt Options) (*Result, error) {
	k := l.Kernel
	if len(l.Args) != len(k.Params) {
		return nil, fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(l.Args))
	}
	res := &Result{Races: []Race{}, Outputs: map[string][]byte{}, Unchecked: "--unchecked"}
	n := &nativeRun{b: b, l: l}
	defer func() {
		for _, p := range n.bufs {
			if p != 0 {
				b.Free(p)
			}
		}
	}()
	for _, a := range l.Args {
		var p DevPtr
		if a.Buffer {
			var err error
			if p, err = b.Alloc(max(int64(len(a.Data)), 1)); err != nil {
				return nil, err
			}
		}
		n.bufs = append(n.bufs, p)
	}
	args, err := withAddresses(l.Args, n.bufs)
	if err != nil {
		return nil, err
	}
	l.Args = args
	n.l.Args = args
	for i, a := range l.Args {
		if !a.Buffer {
			n.args = append(n.args, a.Data)
			continue
		}
		v, err := fillBuffer(b, n.bufs[i], a)
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, v)
	}
	if opt.WarmUp {
		// Module-scope variables the kernel may change are put back too.
		saved := n.saveGlobals()
		if err := n.launch(); err != nil {
			return nil, err
		}
		if err := n.restore(saved); err != nil {
			return nil, err
		}
	}
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "  kernel (native)...\n")
	}
	done := b.Timer()
	if err := n.launch(); err != nil {
		return nil, err
	}
	secs, err := done()
	if err != nil {
		return nil, err
	}
	res.Phases = append(res.Phases, Phase{Name: "kernel (native)", Seconds: secs})
	for i, a := range l.Args {
		if !a.Buffer {
			continue
		}
		out := make([]byte, len(a.Data))
		if err := b.Read(out, n.bufs[i]); err != nil {
			return nil, err
		}
		res.Outputs[a.Param.Name] = out
	}
	return res, nil
}

// nativeRun is one native launch's device state.
type nativeRun struct {
	b    Backend
	l    Launch
	bufs []DevPtr // per argument, 0 for scalars
	args [][]byte
}

func (n *nativeRun) launch() error {
	err := n.b.Launch(n.l.Kernel.Name, n.l.Grid, n.l.Block, n.l.Shared, n.args)
	var fe *FaultError
	if errors.As(err, &fe) {
		return n.outOfBounds(fe)
	}
	return err
}

// savedGlobal is a module-scope variable's contents before a warm-up run.
type savedGlobal struct {
	at   DevPtr
	data []byte
}

// saveGlobals reads the module-scope variables the manifest names for the
// kernel (its __device__ targets, variables updated by atomics, unchecked
// ones); names that are not module variables are skipped.
func (n *nativeRun) saveGlobals() []savedGlobal {
	k := n.l.Kernel
	var names []string
	for _, t := range k.Targets {
		if t.Kind == manifest.KindDevice {
			names = append(names, t.Name)
		}
	}
	names = append(names, k.Atomic...)
	for _, u := range k.Unchecked {
		names = append(names, u.Name)
	}
	var saved []savedGlobal
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] || slices.ContainsFunc(k.Params, func(p manifest.Param) bool { return p.Name == name }) {
			continue
		}
		seen[name] = true
		p, size, err := n.b.Symbol(name)
		if err != nil || size <= 0 {
			continue
		}
		data := make([]byte, size)
		if n.b.Read(data, p) == nil {
			saved = append(saved, savedGlobal{p, data})
		}
	}
	return saved
}

// restore puts the buffers and the saved module variables back to their
// initial contents.
func (n *nativeRun) restore(saved []savedGlobal) error {
	for i, a := range n.l.Args {
		if a.Buffer {
			if err := n.b.Write(n.bufs[i], a.Data); err != nil {
				return err
			}
		}
	}
	for _, s := range saved {
		if err := n.b.Write(s.at, s.data); err != nil {
			return err
		}
	}
	return nil
}

// outOfBounds names a fault in an argument buffer (the CPU backend's
// guard zones), as a checked run does outside private copies.
func (n *nativeRun) outOfBounds(fe *FaultError) error {
	k := n.l.Kernel.Name
	access := fe.Access
	if access == "" {
		access = "access"
	}
	who := fmt.Sprintf("block (%d,%d,%d) thread (%d,%d,%d)", fe.Block[0], fe.Block[1], fe.Block[2], fe.Thread[0], fe.Thread[1], fe.Thread[2])
	idx := -1
	if fe.Base != 0 {
		idx = slices.Index(n.bufs, fe.Base)
	}
	if idx < 0 {
		return &OutOfBoundsError{Kernel: k, msg: fmt.Sprintf("kernel %s: out-of-bounds %s by %s at address %#x, outside every buffer ldcheck allocated (an invalid pointer, or an index far beyond a buffer's end)",
			k, access, who, uint64(fe.Addr))}
	}
	p := n.l.Args[idx].Param
	size, rel := int64(len(n.l.Args[idx].Data)), fe.Offset
	where := "past the end of"
	if rel < 0 {
		where = "before the start of"
	}
	what, extent, fix := fmt.Sprintf("byte %d", rel), fmt.Sprintf("%d bytes", size), "fix the kernel's index"
	if p.ElemSize > 0 {
		i := rel / p.ElemSize
		if rel < 0 && rel%p.ElemSize != 0 {
			i--
		}
		what = fmt.Sprintf("%s[%d] (byte %d)", p.Name, i, rel)
		count := size / p.ElemSize
		elem := unqualified(p.Elem)
		extent = fmt.Sprintf("%d elements (%s[%d], %d bytes)", count, elem, count, size)
		if rel >= 0 {
			fix = fmt.Sprintf("give a larger --arg %s=%s[COUNT] if the launch needs it, or fix the kernel's index", p.Name, elem)
		}
	}
	return &OutOfBoundsError{Kernel: k, Variable: p.Name, msg: fmt.Sprintf("kernel %s: out-of-bounds %s by %s: %s is %s %s, which has %s; %s",
		k, access, who, what, where, p.Name, extent, fix)}
}
