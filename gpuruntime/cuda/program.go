package cuda

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"time"
	"unsafe"
)

// A Program is a PTX image loaded into the current context as a module,
// together with register-limited variants of that module, loaded when a
// launch needs one. It is what a caller that launches kernels at block
// sizes it does not know in advance should use instead of a bare Module.
//
// # Why variants
//
// A block may use at most AttrMaxRegistersPerBlock registers (65536 on
// every GPU since Kepler), so a kernel that ptxas compiled for R registers
// per thread launches at most 65536/R threads per block: an instrumented
// kernel of 130 registers fails blocks of 512 threads with
// CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. A module is compiled once, when it is
// loaded; the only way to fewer registers is to load the PTX again with the
// JIT option CU_JIT_MAX_REGISTERS (ptxas then spills to local memory: slower,
// but it runs). So when a launch of T threads needs more than the function
// of the first module (the home module) allows (FuncAttrMaxThreadsPerBlock,
// which counts registers and __launch_bounds__), Launch loads the image
// again with the largest register limit that lets T threads fit
// (MaxRegistersFor), keeps that variant for every later launch that needs
// the same limit, and launches from it. Launches that fit run from the home
// module, compiled without a limit, as fast as the kernel allows.
// (CU_JIT_THREADS_PER_BLOCK would ask ptxas for the same thing in terms of
// threads; the register limit is what it amounts to, and as a number it
// names the variant exactly.)
//
// # Module-scope variables
//
// Every module has its own copy of each module-scope variable (__device__
// and __constant__ variables: .global and .const in the PTX), at its own
// address. The home module's copy is the variable: Global returns the home
// module's address, and host reads and writes, and kernels launched from
// the home module, use it. A launch from a variant does, in this order:
// wait for the context's work; copy every module-scope variable from the
// home module into the variant; launch; wait for the kernel; copy every
// .global variable back. Both copies relocate pointers: an 8-byte aligned
// word of a variable whose value is an address inside a module-scope
// variable of the source module is rewritten to the same place in the
// destination module's copy. So a variable that holds the address of
// another (a __device__ int *p = &x, or a runtime context whose table lists
// a __device__ variable's address as Global returned it) points, in the
// variant, at the variant's own copy, as the kernel's own &x does: the
// kernel sees one address per variable, and afterwards the home module
// holds what it wrote, at home addresses.
//
// This is correct when launches from variants are synchronous (Launch
// waits for them) and nothing else runs in the context meanwhile. It cannot
// see pointers to module variables kept outside module variables (in
// buffers of MemAlloc): such a pointer keeps the address of the module it
// came from. An 8-byte word that is not a pointer but equals an address
// inside a module variable would be rewritten too; device addresses are 47
// or more bits wide, so data does not hit one by chance. The variables are
// found in the PTX text (LoadProgram); a cubin or fatbin image has no text
// to read, and then only the variables asked for with Global are copied.
//
// A Program is not safe for concurrent use; its caller keeps the context
// current (see the package comment).
type Program struct {
	d     *Driver
	image []byte
	// vars are the module-scope variables: from the PTX, then any other
	// name Global was asked for. consts marks the .const ones.
	vars    []string
	consts  map[string]bool
	home    *variant
	limited map[int]*variant // by register limit

	maxThreads   int // per block, the device's
	regsPerBlock int
	smCount      int
	prebuilt     bool // the home module came from SASS, not the JIT
	jits         []JIT

	// alts are other images of the same kernels (other builds of the
	// source), by name, that launches run from while useAlt names one:
	// their modules are variants too, with the variables copied in and
	// back around each launch (see LoadAlternate).
	alts   map[string]*Program
	useAlt string
	// own are the variables the caller keeps in every module itself (it
	// writes the alternate's copy, at AlternateGlobal, as it writes ours):
	// a launch from the alternate's home module copies none of them. When
	// every variable is one, that launch needs no copies, so no waiting.
	own map[string]bool
}

// variant is one loaded module of the program: the home module (limit 0)
// or one compiled with at most limit registers per thread.
type variant struct {
	limit int
	mod   Module
	funcs map[string]*progFunc
	// lacks: kernels the module has not, and the driver's answer, kept
	// because launchesFrom asks for each launch (level 1's module lacks
	// its check kernels).
	lacks   map[string]error
	globals map[string]progGlobal
	// in and out relocate pointers home -> here and here -> home; built on
	// the first launch from the variant.
	in, out []reloc
}

type progFunc struct {
	f          Function
	maxThreads int // FuncAttrMaxThreadsPerBlock
	regs       int // FuncAttrNumRegs
	dynShared  int // MaxDynamicSharedSizeBytes as set, 0 when left at the default
}

type progGlobal struct {
	p  DevicePtr
	n  int64
	ok bool // false: the module has no such variable
}

// reloc maps the bytes [from, from+n) of one module's variable to the same
// variable of another module, at to.
type reloc struct {
	from, to DevicePtr
	n        int64
}

// LoadProgram loads image (PTX, or a cubin or fatbin) into the current
// context as the program's home module, compiled with the driver's default
// options, and reads dev's limits for the variants.
func LoadProgram(d *Driver, dev Device, image []byte) (*Program, error) {
	return LoadProgramLimited(d, dev, image, 0)
}

// LoadProgramLimited is LoadProgram with the home module compiled with at
// most maxRegisters registers per thread (CU_JIT_MAX_REGISTERS; 0: no
// limit). Variants for larger blocks have lower limits still.
func LoadProgramLimited(d *Driver, dev Device, image []byte, maxRegisters int) (*Program, error) {
	return LoadProgramSASS(d, dev, image, nil, maxRegisters)
}

// LoadProgramSASS is LoadProgramLimited with the home module loaded from
// sass, a cubin that ptxas made of image for this GPU with the same
// register limit, when the driver takes it: the JIT, which takes seconds
// to tens of seconds for an instrumented module, is then skipped. When it
// does not (nil, another GPU's, or newer than the driver), the home module
// is compiled from image as LoadProgramLimited does. Variants are always
// compiled from image.
func LoadProgramSASS(d *Driver, dev Device, image, sass []byte, maxRegisters int) (*Program, error) {
	p := &Program{d: d, image: append([]byte(nil), image...), consts: map[string]bool{}, limited: map[int]*variant{}}
	var err error
	if p.maxThreads, err = d.DeviceGetAttribute(AttrMaxThreadsPerBlock, dev); err != nil {
		return nil, err
	}
	if p.regsPerBlock, err = d.DeviceGetAttribute(AttrMaxRegistersPerBlock, dev); err != nil {
		return nil, err
	}
	if p.smCount, err = d.DeviceGetAttribute(AttrMultiprocessorCount, dev); err != nil {
		return nil, err
	}
	var mod Module
	if len(sass) > 0 {
		if mod, err = d.ModuleLoadData(sass); err != nil {
			mod = 0 // not for this GPU or driver: compile the PTX
		} else {
			p.prebuilt = true
		}
	}
	if mod == 0 {
		var opts *JITOptions
		if maxRegisters > 0 {
			opts = &JITOptions{MaxRegisters: maxRegisters &^ 7}
		}
		start := time.Now()
		if mod, _, err = d.ModuleLoadDataEx(image, opts); err != nil {
			return nil, err
		}
		p.jits = append(p.jits, JIT{Limit: maxRegisters &^ 7, Took: time.Since(start)})
	}
	p.home = newVariant(maxRegisters&^7, mod)
	for _, v := range ptxVariables(image) {
		p.vars = append(p.vars, v.name)
		p.consts[v.name] = v.constant
	}
	return p, nil
}

func newVariant(limit int, mod Module) *variant {
	return &variant{limit: limit, mod: mod, funcs: map[string]*progFunc{}, lacks: map[string]error{}, globals: map[string]progGlobal{}}
}

// Prebuilt reports whether the home module was loaded from SASS rather
// than compiled from PTX.
func (p *Program) Prebuilt() bool { return p.prebuilt }

// JIT is one compile of a program's PTX by the driver: what a run pays
// where no SASS was loaded (seconds to tens of seconds for an instrumented
// module), said to the user so that a slow first run has its reason.
type JIT struct {
	Alternate string // "" for the program's own image, else the alternate's key
	Limit     int    // the register limit it was compiled with (0: none)
	Took      time.Duration
}

// JITs lists the driver's compiles of the program's PTX so far, its own
// (home module, then variants for other register limits), then each
// alternate's in key order.
func (p *Program) JITs() []JIT {
	out := append([]JIT(nil), p.jits...)
	keys := make([]string, 0, len(p.alts))
	for k := range p.alts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, j := range p.alts[k].JITs() {
			j.Alternate = k
			out = append(out, j)
		}
	}
	return out
}

// HomeLimit is the home module's register limit (0: none).
func (p *Program) HomeLimit() int { return p.home.limit }

// Module is the home module.
func (p *Program) Module() Module { return p.home.mod }

// Variables lists the module-scope variables that launches from variants
// copy: those of the PTX, then the others Global was asked for.
func (p *Program) Variables() []string { return append([]string(nil), p.vars...) }

// Global is ModuleGetGlobal of the home module: the address and size of the
// module-scope variable that host code reads and writes, whichever module
// a kernel is launched from.
func (p *Program) Global(name string) (DevicePtr, int64, error) {
	ptr, n, err := p.d.ModuleGetGlobal(p.home.mod, name)
	if err != nil {
		return 0, 0, err
	}
	if _, listed := p.consts[name]; !listed {
		p.vars = append(p.vars, name)
		p.consts[name] = false
		for _, v := range p.limited {
			v.in, v.out = nil, nil // rebuilt with the new variable
		}
	}
	return ptr, n, nil
}

// Function is the kernel of that name in the home module.
func (p *Program) Function(name string) (Function, error) {
	f, err := p.home.function(p.d, name)
	if err != nil {
		return 0, err
	}
	return f.f, nil
}

// MaxRegistersFor is the register limit that lets a block of threads
// threads run: the register file is split among an SM's four schedulers,
// which take a block's warps in turn, so the busiest quarter holds
// ceil(warps/4) warps of 32 threads; rounded down to a multiple of 8 (the
// allocation unit), at most 255 (the most a thread can have). choose lowers
// it further when the driver still says no (another architecture's rules).
func MaxRegistersFor(threads, registersPerBlock int) int {
	if threads < 1 {
		threads = 1
	}
	warps := (threads + 31) / 32
	perQuarter := (warps + 3) / 4 * 32
	r := registersPerBlock / 4 / perQuarter &^ 7
	return min(r, 255)
}

// RegisterLimit is the CU_JIT_MAX_REGISTERS of the module a launch of the
// kernel with blocks of threads threads runs from: 0 for the home module.
// It loads the variant when it is not loaded yet.
func (p *Program) RegisterLimit(name string, threads int) (int, error) {
	v, _, err := p.choose(name, threads)
	if err != nil {
		return 0, err
	}
	return v.limit, nil
}

// choose returns the module, and the kernel in it, that runs blocks of
// threads threads: the home module when its function allows that many,
// else the variant limited to MaxRegistersFor(threads) registers.
func (p *Program) choose(name string, threads int) (*variant, *progFunc, error) {
	f, err := p.home.function(p.d, name)
	if err != nil {
		return nil, nil, err
	}
	if threads <= f.maxThreads {
		return p.home, f, nil
	}
	if threads > p.maxThreads {
		return nil, nil, fmt.Errorf("kernel %s: a block of %d threads is more than the GPU allows (%d)", name, threads, p.maxThreads)
	}
	limit := MaxRegistersFor(threads, p.regsPerBlock)
	if limit >= f.regs {
		// Registers are not what stops it (__launch_bounds__ is).
		return nil, nil, fmt.Errorf("kernel %s cannot run blocks of %d threads: it allows at most %d threads per block (it uses %d registers per thread; __launch_bounds__ may set the limit)",
			name, threads, f.maxThreads, f.regs)
	}
	for first := limit; ; limit -= 8 {
		v, err := p.variant(limit)
		if err != nil {
			return nil, nil, fmt.Errorf("kernel %s, blocks of %d threads: it uses %d registers per thread, more than the %d a block of %d threads may have each; loading the module again with at most %d registers: %w",
				name, threads, f.regs, first, threads, limit, err)
		}
		vf, err := v.function(p.d, name)
		if err != nil {
			return nil, nil, err
		}
		if threads <= vf.maxThreads {
			return v, vf, nil
		}
		if limit <= 16 {
			return nil, nil, fmt.Errorf("kernel %s cannot run blocks of %d threads on this GPU: it uses %d registers per thread, and compiled with at most %d it still uses %d and allows at most %d threads per block",
				name, threads, f.regs, limit, vf.regs, vf.maxThreads)
		}
	}
}

// variant returns the module compiled with at most limit registers per
// thread, loading it the first time.
func (p *Program) variant(limit int) (*variant, error) {
	if v, ok := p.limited[limit]; ok {
		return v, nil
	}
	start := time.Now()
	mod, _, err := p.d.ModuleLoadDataEx(p.image, &JITOptions{MaxRegisters: limit})
	if err != nil {
		return nil, err
	}
	p.jits = append(p.jits, JIT{Limit: limit, Took: time.Since(start)})
	v := newVariant(limit, mod)
	p.limited[limit] = v
	return v, nil
}

func (v *variant) function(d *Driver, name string) (*progFunc, error) {
	if f, ok := v.funcs[name]; ok {
		return f, nil
	}
	if err, ok := v.lacks[name]; ok {
		return nil, err
	}
	fn, err := d.ModuleGetFunction(v.mod, name)
	if err != nil {
		if HasCode(err, CodeNotFound) {
			v.lacks[name] = err
		}
		return nil, err
	}
	f := &progFunc{f: fn}
	if f.maxThreads, err = d.FuncGetAttribute(FuncAttrMaxThreadsPerBlock, fn); err != nil {
		return nil, err
	}
	if f.regs, err = d.FuncGetAttribute(FuncAttrNumRegs, fn); err != nil {
		return nil, err
	}
	v.funcs[name] = f
	return f, nil
}

func (v *variant) global(d *Driver, name string) progGlobal {
	if g, ok := v.globals[name]; ok {
		return g
	}
	var g progGlobal
	if ptr, n, err := d.ModuleGetGlobal(v.mod, name); err == nil && n > 0 {
		g = progGlobal{ptr, n, true}
	}
	v.globals[name] = g
	return g
}

// allowShared raises the kernel's dynamic shared memory limit when a launch
// asks for more than the default 48 KiB.
func (p *Program) allowShared(f *progFunc, shared int) error {
	if shared <= 48<<10 || shared <= f.dynShared {
		return nil
	}
	if err := p.d.FuncSetAttribute(f.f, FuncAttrMaxDynamicSharedSizeBytes, shared); err != nil {
		return err
	}
	f.dynShared = shared
	return nil
}

// LoadAlternate loads image as alternate key: another build of the
// program's kernels with the same module-scope variables, compiled with
// the home module's register limit. While UseAlternate(key), launches of
// kernels it has run from it (or from its register-limited variants):
// like a variant's, they are synchronous, with every module-scope
// variable copied in from the home module before and back after,
// pointers relocated.
//
// own names the variables the caller writes in every module itself (and
// that kernels do not write): see AlternateGlobal.
func (p *Program) LoadAlternate(dev Device, key string, image []byte, own ...string) error {
	return p.LoadAlternateLimited(dev, key, image, p.home.limit, own...)
}

// LoadAlternateLimited is LoadAlternate with the alternate compiled with
// at most maxRegisters registers per thread (0: no limit) instead of the
// home module's limit.
func (p *Program) LoadAlternateLimited(dev Device, key string, image []byte, maxRegisters int, own ...string) error {
	return p.LoadAlternateSASS(dev, key, image, nil, maxRegisters, own...)
}

// LoadAlternateSASS is LoadAlternateLimited with the alternate's home
// module from sass when the driver takes it (see LoadProgramSASS).
func (p *Program) LoadAlternateSASS(dev Device, key string, image, sass []byte, maxRegisters int, own ...string) error {
	if p.own == nil {
		p.own = map[string]bool{}
	}
	for _, n := range own {
		p.own[n] = true
	}
	alt, err := LoadProgramSASS(p.d, dev, image, sass, maxRegisters)
	if err != nil {
		return err
	}
	if p.alts == nil {
		p.alts = map[string]*Program{}
	}
	if old := p.alts[key]; old != nil {
		old.Close()
	}
	p.alts[key] = alt
	return nil
}

// UseAlternate says which alternate image launches run from ("" none;
// one not loaded, or without the kernel, is none too).
func (p *Program) UseAlternate(key string) { p.useAlt = key }

// HasAlternate reports whether alternate key is loaded.
func (p *Program) HasAlternate(key string) bool { return p.alts[key] != nil }

// AlternateGlobal is the address of a variable in alternate key's home
// module (ok false when there is no such alternate or variable).
func (p *Program) AlternateGlobal(key, name string) (DevicePtr, int64, bool) {
	alt := p.alts[key]
	if alt == nil {
		return 0, 0, false
	}
	g := alt.home.global(p.d, name)
	return g.p, g.n, g.ok
}

// ownOnly reports whether every module-scope variable that module v also
// has is one the caller keeps in each module itself: then a launch from v
// needs no copies. (An alternate built from other source, the tested
// native module, lacks the runtime's own variables.)
func (p *Program) ownOnly(v *variant) bool {
	for _, n := range p.vars {
		// ($str...: the compiler's string literals, which kernels
		// cannot write.)
		if !p.own[n] && !strings.HasPrefix(n, "$") && v.global(p.d, n).ok {
			return false
		}
	}
	return true
}

// launchesFrom is the program kernel name launches from: the alternate in
// use when it has the kernel, else p.
func (p *Program) launchesFrom(name string) *Program {
	if alt := p.alts[p.useAlt]; alt != nil {
		if _, err := alt.home.function(p.d, name); err == nil {
			return alt
		}
	}
	return p
}

// Launch is LaunchKernel of the named kernel, from the module that can run
// its blocks (see Program): asynchronous from the home module, synchronous,
// with the variables copied in and back, from a variant.
func (p *Program) Launch(name string, grid, block [3]int, shared int, s Stream, args []unsafe.Pointer) error {
	threads := block[0] * block[1] * block[2]
	var v *variant
	var f *progFunc
	var err error
	from := p.launchesFrom(name)
	if v, f, err = from.choose(name, threads); err != nil {
		return err
	}
	if err := from.allowShared(f, shared); err != nil {
		return err
	}
	launch := func() error {
		err := p.d.LaunchKernel(f.f, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, s, args)
		if HasCode(err, CodeLaunchOutOfResources) {
			limit := "no register limit"
			if v.limit > 0 {
				limit = fmt.Sprintf("compiled with at most %d registers", v.limit)
			}
			return fmt.Errorf("kernel %s, blocks of %d threads, %d registers per thread (%s), %d bytes of dynamic shared memory: %w",
				name, threads, f.regs, limit, shared, err)
		}
		return err
	}
	if v == p.home || (from != p && v == from.home && p.ownOnly(v)) {
		return launch()
	}
	if err := p.d.CtxSynchronize(); err != nil {
		return err
	}
	if err := p.copyVariables(p.home, v); err != nil {
		return fmt.Errorf("kernel %s: copying module variables to the module limited to %d registers: %w", name, v.limit, err)
	}
	if err := launch(); err != nil {
		return err
	}
	if err := p.d.StreamSynchronize(s); err != nil {
		return err
	}
	if err := p.copyVariables(v, p.home); err != nil {
		return fmt.Errorf("kernel %s: copying module variables back from the module limited to %d registers: %w", name, v.limit, err)
	}
	return nil
}

// Resident is how many blocks of threads threads, each with shared bytes of
// dynamic shared memory, of the kernel can be resident on the device at
// once: OccupancyMaxActiveBlocksPerMultiprocessor of the function a launch
// runs (a variant's, when it needs one) times the multiprocessors.
func (p *Program) Resident(name string, threads int, shared int64) (int, error) {
	from := p.launchesFrom(name)
	_, f, err := from.choose(name, threads)
	if err != nil {
		return 0, err
	}
	if err := from.allowShared(f, int(shared)); err != nil {
		return 0, err
	}
	n, err := p.d.OccupancyMaxActiveBlocksPerMultiprocessor(f.f, threads, shared)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("kernel %s: a block of %d threads with %d bytes of dynamic shared memory cannot run on this GPU (%d registers per thread)", name, threads, shared, f.regs)
	}
	return n * p.smCount, nil
}

// copyVariables copies the module-scope variables from one module to the
// other, relocating pointers between them (see Program); .const variables
// only into a variant (kernels cannot write them).
func (p *Program) copyVariables(from, to *variant) error {
	v := to
	if to == p.home {
		v = from
	}
	if v.in == nil {
		v.in, v.out = p.relocations(v)
	}
	table := v.in
	if to == p.home {
		table = v.out
	}
	for _, name := range p.vars {
		if to == p.home && p.consts[name] {
			continue
		}
		src, dst := from.global(p.d, name), to.global(p.d, name)
		if !src.ok || !dst.ok || src.n != dst.n {
			continue
		}
		buf := make([]byte, src.n)
		if err := p.d.MemcpyDtoH(unsafe.Pointer(&buf[0]), src.p, src.n); err != nil {
			return err
		}
		relocate(buf, table)
		if err := p.d.MemcpyHtoD(dst.p, unsafe.Pointer(&buf[0]), dst.n); err != nil {
			return err
		}
	}
	return nil
}

// relocations pairs every variable's home and variant copies, sorted by
// source address, for both directions.
func (p *Program) relocations(v *variant) (in, out []reloc) {
	for _, name := range p.vars {
		h, g := p.home.global(p.d, name), v.global(p.d, name)
		if !h.ok || !g.ok || h.n != g.n {
			continue
		}
		in = append(in, reloc{h.p, g.p, h.n})
		out = append(out, reloc{g.p, h.p, h.n})
	}
	byFrom := func(r []reloc) { sort.Slice(r, func(i, j int) bool { return r[i].from < r[j].from }) }
	byFrom(in)
	byFrom(out)
	return in, out
}

// relocate rewrites each 8-byte aligned word of buf that points into one of
// table's source ranges to the same offset of its destination.
func relocate(buf []byte, table []reloc) {
	if len(table) == 0 {
		return
	}
	for off := 0; off+8 <= len(buf); off += 8 {
		w := DevicePtr(binary.LittleEndian.Uint64(buf[off:]))
		i := sort.Search(len(table), func(i int) bool { return table[i].from > w }) - 1
		if i >= 0 && w < table[i].from+DevicePtr(table[i].n) {
			binary.LittleEndian.PutUint64(buf[off:], uint64(table[i].to+(w-table[i].from)))
		}
	}
}

// Close unloads the variants and the home module (and the alternate's).
func (p *Program) Close() error {
	var first error
	for key, alt := range p.alts {
		if err := alt.Close(); err != nil && first == nil {
			first = err
		}
		delete(p.alts, key)
	}
	for _, v := range p.limited {
		if err := p.d.ModuleUnload(v.mod); err != nil && first == nil {
			first = err
		}
	}
	p.limited = map[int]*variant{}
	if p.home != nil && p.home.mod != 0 {
		if err := p.d.ModuleUnload(p.home.mod); err != nil && first == nil {
			first = err
		}
		p.home.mod = 0
	}
	return first
}

// ptxVar is a module-scope variable declared in PTX text.
type ptxVar struct {
	name     string
	constant bool // .const, else .global
}

// ptxVariables lists the module-scope .global and .const variables a PTX
// text defines (not those it declares .extern), in order. An image that is
// not PTX text (a cubin or fatbin) yields none.
func ptxVariables(image []byte) []ptxVar {
	if i := bytes.IndexByte(image, 0); i >= 0 {
		image = image[:i]
	}
	src := string(image)
	if !strings.Contains(src, ".version") && !strings.Contains(src, ".target") {
		return nil
	}
	var out []ptxVar
	for _, stmt := range ptxTopLevel(src) {
		fields := strings.Fields(stmt)
		space := ""
		extern := false
		for _, f := range fields {
			switch f {
			case ".global", ".const":
				if space == "" {
					space = f
				}
			case ".extern":
				extern = true
			case ".entry", ".func":
				space = "" // a function declaration, not a variable
				extern = true
			}
		}
		if space == "" || extern {
			continue
		}
		for i, decl := range splitTop(stmt, ',') {
			if j := strings.IndexByte(decl, '='); j >= 0 {
				decl = decl[:j]
			}
			f := strings.Fields(decl)
			if len(f) == 0 {
				continue
			}
			name := f[len(f)-1]
			if i > 0 {
				name = f[0]
			}
			if j := strings.IndexAny(name, "[<"); j >= 0 {
				name = name[:j]
			}
			if name == "" || strings.HasPrefix(name, ".") {
				continue
			}
			out = append(out, ptxVar{name: name, constant: space == ".const"})
		}
	}
	return out
}

// ptxTopLevel returns the statements of a PTX text outside function
// bodies, without comments, each without its closing semicolon. A brace at
// the top level opens a function body unless the statement has an
// initializer (= {...}).
func ptxTopLevel(src string) []string {
	var stmts []string
	var cur strings.Builder
	depth := 0      // function body nesting
	initDepth := 0  // initializer braces
	inBody := false // skipping a function body
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if !inBody {
				cur.WriteByte(' ')
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				i = len(src)
			} else {
				i += 2 + end + 1
			}
			if !inBody {
				cur.WriteByte(' ')
			}
			continue
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				j++
			}
			if !inBody {
				cur.WriteString(src[i:min(j+1, len(src))])
			}
			i = j
			continue
		}
		if inBody {
			switch c {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					inBody = false
					cur.Reset()
				}
			}
			continue
		}
		switch {
		case c == '\n' && initDepth == 0:
			// Directives that end at the line's end, without a semicolon.
			s := strings.TrimSpace(cur.String())
			for _, d := range []string{".version", ".target", ".address_size", ".file"} {
				if strings.HasPrefix(s, d) {
					cur.Reset()
					break
				}
			}
		case c == '{' && initDepth == 0 && !strings.Contains(cur.String(), "="):
			inBody, depth = true, 1
			continue
		case c == '{':
			initDepth++
		case c == '}' && initDepth > 0:
			initDepth--
		case c == ';' && initDepth == 0:
			if s := strings.TrimSpace(cur.String()); s != "" {
				stmts = append(stmts, s)
			}
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return stmts
}

// splitTop splits s at sep outside braces, brackets and parentheses.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}
