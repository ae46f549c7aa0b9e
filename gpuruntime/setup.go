package gpuruntime

import (
	"fmt"

	"ldcheck/privatize/manifest"
)

// Setup: everything a checked run needs on the device before the first
// launch: the arguments' buffers, the targets' page layout, the room for
// the warps' copies of shared memory, the buffers the checks write their
// records and logs to, and a module whose context this runtime can write.

// setup allocates the arguments, the target table and the record buffers.
func (r *checkRun) setup() error {
	k := r.l.Kernel
	if len(r.l.Args) != len(k.Params) {
		return fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(r.l.Args))
	}
	if err := r.setupArgs(); err != nil {
		return err
	}
	if err := r.setupTargets(); err != nil {
		return err
	}
	if err := r.layoutPages(); err != nil {
		return err
	}
	r.onePass = r.onePassLevel2()
	if err := r.setupSharedCopies(); err != nil {
		return err
	}
	if err := r.setupLogs(); err != nil {
		return err
	}
	if err := r.apSetup(); err != nil {
		return err
	}
	if k.Instrumented && !r.opt.Unchecked {
		if err := r.setBudget(); err != nil {
			return err
		}
	}
	return r.checkModuleContext()
}

// setupArgs allocates and fills the buffer arguments and makes the launch
// arguments (buffer addresses and scalars).
func (r *checkRun) setupArgs() error {
	for _, a := range r.l.Args {
		var p DevPtr
		if a.Buffer {
			var err error
			if p, err = r.alloc(int64(len(a.Data))); err != nil {
				return err
			}
		}
		r.bufs = append(r.bufs, p)
	}
	// Pointer fields get the buffers' addresses; the restores after each
	// run write the same bytes.
	args, err := withAddresses(r.l.Args, r.bufs)
	if err != nil {
		return err
	}
	r.l.Args = args
	for i, a := range r.l.Args {
		if !a.Buffer {
			r.args = append(r.args, a.Data)
			continue
		}
		p := r.bufs[i]
		param := a.Param
		r.named[p] = named{name: a.Param.Name, param: &param, size: int64(len(a.Data))}
		v, err := fillBuffer(r.b, p, a)
		if err != nil {
			return err
		}
		r.args = append(r.args, v)
	}
	return nil
}

// fillBuffer writes a buffer argument's bytes at p and returns the
// kernel's argument for it: p, or the texture object that reads it. The
// checked and the native runs both set their buffers up here.
func fillBuffer(b Backend, p DevPtr, a Arg) ([]byte, error) {
	if err := b.Write(p, a.Data); err != nil {
		return nil, err
	}
	if a.Texture == "" {
		return u64(uint64(p)), nil
	}
	t, err := b.Texture(p, int64(len(a.Data)), a.Texture, a.Param.Texel)
	if err != nil {
		return nil, fmt.Errorf("--arg %s: %w", a.Param.Name, err)
	}
	return u64(t), nil
}

// setupTargets lists the global targets to privatize, with their initial
// contents: the restores between launches write them back.
func (r *checkRun) setupTargets() error {
	k := r.l.Kernel
	for _, t := range k.Targets {
		if t.Space != manifest.SpaceGlobal {
			continue
		}
		al := &alloc{target: t}
		switch t.Kind {
		case manifest.KindParam:
			al.base, al.size = r.bufs[t.Param], int64(len(r.l.Args[t.Param].Data))
		case manifest.KindDevice:
			p, n, err := r.b.Symbol(t.Name)
			if err != nil {
				return fmt.Errorf("module variable %s: %w", t.Name, err)
			}
			al.base, al.size = p, n
		}
		if al.size == 0 {
			continue
		}
		al.initial = make([]byte, al.size)
		if err := r.b.Read(al.initial, al.base); err != nil {
			return err
		}
		r.allocs = append(r.allocs, al)
	}
	if len(r.allocs) > 16 {
		return fmt.Errorf("kernel %s has %d global targets; ldcheck handles 16", k.Name, len(r.allocs))
	}
	return nil
}

// setupSharedCopies sizes the shared-target table and places the warps'
// copies of shared memory (and the intra-warp check's records).
func (r *checkRun) setupSharedCopies() error {
	k := r.l.Kernel
	if err := r.sharedTable(&r.shared); err != nil {
		return err
	}
	r.shared.SharedDirect = r.uncopiedShared()
	r.shared.SharedOwn = r.ownShared(r.shared.SharedDirect)
	r.shared.SharedInDyn, r.shared.DynOffset, r.shared.SharedScratch, r.sharedLaunch = 0, 0, 0, 0
	var perBlock uint64
	for i := 0; i < int(r.shared.NShared); i++ {
		r.shared.SharedOff[i] = perBlock
		switch {
		case r.shared.SharedOwn>>i&1 != 0:
			perBlock += SharedOwnBytes(r.shared.SharedBytes[i])
		case r.shared.SharedDirect>>i&1 == 0:
			perBlock += SharedCopyBytes(r.shared.SharedBytes[i], r.l.warps())
		}
	}
	// The copies go in shared memory, after the kernel's own dynamic
	// shared memory, when they fit; else in global memory.
	limit, err := r.b.SharedLimit(r.l.Kernel.Name)
	if err != nil {
		return err
	}
	dynOffset := (r.l.Shared + 15) / 16 * 16
	if perBlock > 0 && dynOffset+int64(perBlock) <= limit {
		r.shared.SharedInDyn, r.shared.DynOffset = 1, uint64(dynOffset)
		r.sharedLaunch = dynOffset + int64(perBlock)
	} else if perBlock > 0 && k.Instrumented && !r.opt.Unchecked {
		need := int64(perBlock) * int64(r.l.blocks())
		scratch, err := r.alloc(need)
		if err != nil {
			return &MemoryError{Need: need, What: "the warps' copies of shared memory"}
		}
		r.shared.SharedScratch = uint64(scratch)
	}
	r.shared.SharedPerBlock = perBlock
	return r.iwSetup(limit)
}

// setupLogs allocates what the kernel and the checks write for the host:
// the race records and their counts, the log of the atomics' results,
// its overflow count, the bytes level 2 compared and the line of a
// failed test a proof rests on.
func (r *checkRun) setupLogs() error {
	k := r.l.Kernel
	var err error
	if r.records, err = r.alloc(maxRecords * RecordSize); err != nil {
		return err
	}
	if r.nrec, err = r.alloc(nrecBytes); err != nil {
		return err
	}
	rows := int64(r.l.blocks()) * int64(r.l.threads())
	// A deterministic run runs once: nothing replays the atomics' results.
	if (k.Atomics > 0 || len(k.Atomic) > 0) && k.Instrumented && !r.opt.Unchecked && !r.opt.Deterministic {
		// The spill table: room for one result past its row per thread
		// (a table at most about half full), all of it for the few
		// threads that run many atomics.
		r.atomicSpillBits = 10
		for int64(1)<<r.atomicSpillBits < 2*rows {
			r.atomicSpillBits++
		}
		logBytes := rows * r.atomicSlots * 8
		spillBytes := int64(16) << r.atomicSpillBits
		if r.alog, err = r.alloc(logBytes + spillBytes); err != nil {
			return &MemoryError{Need: logBytes + spillBytes, What: fmt.Sprintf("the log of the kernel's atomics (%d per thread)", r.atomicSlots)}
		}
		if err := r.b.Memset(r.alog+DevPtr(logBytes), 0, spillBytes); err != nil {
			return err
		}
	}
	if r.aover, err = r.alloc(8); err != nil {
		return err
	}
	if r.compared, err = r.alloc(8); err != nil {
		return err
	}
	if r.failedTest, err = r.alloc(8); err != nil {
		return err
	}
	if err := r.b.Memset(r.failedTest, 0, 8); err != nil {
		return err
	}
	return r.b.Memset(r.aover, 0, 8)
}

// checkModuleContext finds the module's context (ldc_g) and makes sure it
// is laid out as Ctx. The context is written as Ctx's bytes: a module
// whose struct ldc_ctx has another size would read every field after the
// first difference wrongly, so refuse it at load rather than give a wrong
// verdict.
func (r *checkRun) checkModuleContext() error {
	var n int64
	var err error
	if r.ctxAddr, n, err = r.b.Symbol("ldc_g"); err != nil {
		return err
	}
	if n != CtxSize {
		return fmt.Errorf("the module's checking context (ldc_g) is %d bytes and this ldcheck writes %d: build and runtime disagree; rebuild with ldcheck build (if that does not help, it is an ldcheck bug: please report it)", n, CtxSize)
	}
	// Same size is not same layout: compare every field's offset.
	lay, n, err := r.b.Symbol("ldc_ctx_layout")
	if err != nil {
		return fmt.Errorf("the module has no context layout table (ldc_ctx_layout): it was built by another ldcheck version; rebuild with ldcheck build")
	}
	raw := make([]byte, n)
	if err := r.b.Read(raw, lay); err != nil {
		return fmt.Errorf("reading the module's context layout: %w", err)
	}
	if err := checkCtxLayout(raw); err != nil {
		return fmt.Errorf("the module's checking context (ldc_g) is laid out differently from this ldcheck's: %v; rebuild with ldcheck build (if that does not help, it is an ldcheck bug: please report it)", err)
	}
	return nil
}

// sharedTable fills the sizes of the shared targets (dynamic ones are
// sized by the launch).
func (r *checkRun) sharedTable(c *Ctx) error {
	c.NShared, c.SharedTracked = 0, 0
	if r.l.Kernel.SharedTracked && !r.opt.EveryShared {
		c.SharedTracked = 1
	}
	for _, t := range r.l.Kernel.Targets {
		if t.Space != manifest.SpaceShared {
			continue
		}
		if c.NShared >= MaxShared {
			return fmt.Errorf("kernel %s has more than %d shared targets", r.l.Kernel.Name, MaxShared)
		}
		bytes := uint64(t.Bytes)
		if t.Dynamic {
			bytes = uint64(r.l.Shared)
		}
		c.SharedBytes[c.NShared] = bytes
		c.NShared++
	}
	return nil
}

// flagsHead is the room before a target's writer masks (LDC_FLAGS_HEAD):
// its dirty word.
const flagsHead = 16

// SharedCopyBytes is the room a block needs for its warps' copies of a
// shared target of the given size: the copies one after the other, then a
// 16-byte head (the target's dirty word) and a 4-byte writer mask per 16
// bytes (used when the stores are tracked), each
// part 16-byte aligned (ldc_shared_copy).
func SharedCopyBytes(bytes uint64, warps int) uint64 {
	align := func(n uint64) uint64 { return (n + 15) / 16 * 16 }
	return align(uint64(warps)*bytes) + flagsHead + align(4*((bytes+15)/16))
}

// SharedOwnBytes is the room a block needs for a shared target stored in
// place (ownShared): a 16-byte head (the original's address), then an
// owner word per 4 bytes of the target, 16-byte aligned.
func SharedOwnBytes(bytes uint64) uint64 {
	return ownHead + (bytes+15)/16*16
}

// ownHead is the room before a target's owner words (LDC_OWN_HEAD).
const ownHead = 16
