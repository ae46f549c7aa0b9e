package passes

import (
	"fmt"
	"strings"
)

// Analyze runs every pass over a parsed unit. The passes run per kernel in
// a fixed order, each taking the results of earlier ones as arguments:
//
//	params      Func                         -> []Param
//	shared      body                         -> []*Variable
//	barriers    body, device functions       -> []Barrier, barrier call sites
//	regions     body, barrier call sites     -> []Region
//	atomics     body, device functions       -> []Atomic
//	targets     accesses, atomics, variables -> []Target, []Unchecked
//	onePass     targets, regions             -> Region.OnePass, Kernel.BlockOnePass
//	uniformEnds barriers, body               -> Kernel.UniformEnds
//	unsupported body, device functions       -> []Diagnostic
func Analyze(u *Unit) *Analysis {
	a := &Analysis{File: u.File, Kernels: []*Kernel{}}
	funcs := map[string]*Func{}
	for _, f := range u.Funcs {
		funcs[f.Key] = f
	}
	globals := map[string]*Variable{}
	var globalOrder []string
	for _, g := range u.Globals {
		v := variableOf(g)
		a.Globals = append(a.Globals, v)
		globals[g.Key] = v
		globalOrder = append(globalOrder, g.Key)
	}
	atomicParams := AtomicParams(u)
	for _, f := range u.Funcs {
		if !f.Kernel {
			continue
		}
		ka := &kernelAnalysis{unit: u, fn: f, funcs: funcs, globals: globals, globalOrder: globalOrder, atomicParams: atomicParams}
		k := ka.run()
		a.Kernels = append(a.Kernels, k)
		a.Diagnostics = append(a.Diagnostics, ka.diags...)
	}
	return a
}

// kernelAnalysis carries one kernel's intermediate results between passes.
type kernelAnalysis struct {
	unit        *Unit
	fn          *Func
	funcs       map[string]*Func
	globals     map[string]*Variable
	globalOrder []string
	reach       []*Func // device functions reachable from the kernel
	// atomicParams: AtomicParams of the unit.
	atomicParams map[string]map[int]bool
	diags        []Diagnostic
	// candidates: the variables targetsPass weighed, with their accesses.
	candidates []*candidate
	// sites: the block barriers' call nodes -> barrier IDs.
	sites map[*Node]int
}

func (ka *kernelAnalysis) diag(p Pos, sev, format string, args ...any) {
	ka.diags = append(ka.diags, Diagnostic{File: ka.fn.File.Name, Line: p.Line, Col: p.Col, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

func (ka *kernelAnalysis) run() *Kernel {
	f := ka.fn
	k := &Kernel{Name: f.Name, Mangled: f.Mangled, Template: f.Template, Pos: f.Pos, Body: f.Body.Pos, body: f.Body}
	if f.File != nil && f.File != ka.unit.Files[0] {
		k.File = f.File.Name
	}
	ka.reach = reachableFuncs(f, ka.funcs)
	for _, r := range ka.reach {
		k.Calls = append(k.Calls, r.Name)
	}
	k.Params = paramsPass(f)
	k.Shared = sharedPass(f.Body)
	var sites map[*Node]int
	k.Barriers, sites = ka.barriersPass()
	k.Regions, k.startsAt, k.endsAt, k.reach = ka.regionsPass(sites)
	ka.sites = sites
	k.Atomics = ka.atomicsPass(k)
	k.Targets, k.Unchecked = ka.targetsPass(k)
	ka.onePassPass(k)
	ka.uniformEndsPass(k)
	ka.unsupportedPass(k)
	ka.undefinedPass()
	if k.Barriers == nil {
		k.Barriers = []Barrier{}
	}
	if k.Targets == nil {
		k.Targets = []Target{}
	}
	if k.Unchecked == nil {
		k.Unchecked = []Unchecked{}
	}
	return k
}

// undefinedPass: body, device functions -> an error for each device
// function the kernel calls that has no body in the user's files: the
// instrumented kernel must be compiled with it (separate compilation,
// -rdc, is out of reach).
func (ka *kernelAnalysis) undefinedPass() {
	seen := map[string]bool{}
	visit := func(where string, f *Func) {
		f.Body.Walk(func(n *Node) bool {
			if n.Kind == "CallExpr" && n.Undefined != "" && !seen[n.Ref] {
				seen[n.Ref] = true
				ka.diags = append(ka.diags, Diagnostic{File: f.File.Name, Line: n.Pos.Line, Col: n.Pos.Col, Severity: "error",
					Message: fmt.Sprintf("ldcheck needs the body of %s: %s calls it, but it is only declared (at %s), not defined in this file or the files it includes; define it where ldcheck can see it (code linked from other files, -rdc, cannot be instrumented)", n.Name, where, n.Undefined)})
			}
			return true
		})
	}
	visit("kernel "+ka.fn.Name, ka.fn)
	for _, f := range ka.reach {
		visit("device function "+f.Name+" (called by "+ka.fn.Name+")", f)
	}
}

// Errors returns the diagnostics that stop a build.
func (a *Analysis) Errors() []Diagnostic {
	var out []Diagnostic
	for _, d := range a.Diagnostics {
		if d.Severity == "error" {
			out = append(out, d)
		}
	}
	return out
}

// reachableFuncs lists the functions defined in the file that f calls,
// directly or through other calls, in the order first reached.
func reachableFuncs(f *Func, funcs map[string]*Func) []*Func {
	seen := map[string]bool{f.Key: true}
	var out []*Func
	var visit func(body *Node)
	visit = func(body *Node) {
		body.Walk(func(n *Node) bool {
			if n.Kind == "CallExpr" && n.Ref != "" && !seen[n.Ref] {
				if g := funcs[n.Ref]; g != nil {
					seen[n.Ref] = true
					out = append(out, g)
					visit(g.Body)
				}
			}
			return true
		})
	}
	visit(f.Body)
	return out
}

// paramsPass: Func -> []Param.
func paramsPass(f *Func) []Param {
	ps := []Param{}
	texels := texelTypes(f)
	for _, p := range f.Params {
		q := Param{Name: p.Name, Type: p.Type, Size: p.Size, Texel: texels[p.Key]}
		elem, ok := pointee(p.Type)
		if !ok && p.Pointee != "" {
			elem, ok = p.Pointee, true // a typedef of a pointer type
		}
		if ok {
			q.Pointer = true
			q.Elem = elem
			q.ElemConst = strings.HasPrefix(elem, "const ") || strings.HasSuffix(elem, " const")
			q.ElemSize = scalarSize(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(elem, "const "), " const")))
			if q.ElemSize == 0 {
				// Structs, typedefs and aliases: clang knows their size.
				q.ElemSize = p.PointeeSize
			}
			q.ElemFields = p.ElemFields
		} else {
			q.Fields = p.ElemFields // a struct passed by value: its own layout
		}
		ps = append(ps, q)
	}
	return ps
}

// textureFetches are the texture functions whose first argument is the
// texture object and whose result is the texel.
var textureFetches = map[string]bool{"tex1Dfetch": true, "tex1D": true, "tex2D": true, "tex3D": true, "tex1DLayered": true, "tex2DLayered": true}

// texelTypes maps the declaration key of each parameter that f's body
// fetches texels through to the type the fetches return, "" where two
// fetches disagree. The CUDA backend makes a texture of that many
// channels (a float4 fetch needs four).
func texelTypes(f *Func) map[string]string {
	out := map[string]string{}
	if f.Body == nil {
		return out
	}
	f.Body.Walk(func(n *Node) bool {
		if n.Kind != "CallExpr" || !textureFetches[n.Name] || len(n.Children) < 2 || n.Type == "" || n.Type == "void" {
			return true
		}
		arg := n.Children[1]
		for arg != nil && arg.Kind != "DeclRefExpr" && len(arg.Children) == 1 {
			arg = arg.Children[0]
		}
		if arg == nil || arg.Kind != "DeclRefExpr" || arg.Ref == "" {
			return true
		}
		t := strings.TrimSpace(n.Type)
		if old, seen := out[arg.Ref]; seen && old != t {
			t = ""
		}
		out[arg.Ref] = t
		return true
	})
	return out
}

// pointee returns T for a type spelled "T *" (with optional qualifiers after
// the star).
func pointee(t string) (string, bool) {
	t = strings.TrimSpace(t)
	for _, q := range []string{"__restrict", "restrict", "const", "volatile"} {
		t = strings.TrimSpace(strings.TrimSuffix(t, q))
	}
	if !strings.HasSuffix(t, "*") {
		return "", false
	}
	return strings.TrimSpace(strings.TrimSuffix(t, "*")), true
}

var scalarSizes = map[string]int64{
	"char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "int8_t": 1, "uint8_t": 1,
	"short": 2, "unsigned short": 2, "int16_t": 2, "uint16_t": 2, "__half": 2, "half": 2,
	"int": 4, "unsigned int": 4, "unsigned": 4, "float": 4, "int32_t": 4, "uint32_t": 4,
	"long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "double": 8,
	"int64_t": 8, "uint64_t": 8, "size_t": 8,
	"float2": 8, "int2": 8, "uint2": 8, "float4": 16, "int4": 16, "uint4": 16, "double2": 16,
}

func scalarSize(t string) int64 { return scalarSizes[t] }

// ScalarSize is the size in bytes of a scalar C type (int, float, unsigned
// long long, ...), 0 for other types.
func ScalarSize(t string) int64 {
	t = strings.TrimSpace(t)
	for _, q := range []string{"const ", "volatile "} {
		t = strings.TrimPrefix(t, q)
	}
	return scalarSize(strings.TrimSpace(t))
}

func variableOf(n *Node) *Variable {
	v := &Variable{Name: n.Name, Type: n.Type, Space: n.Space, Bytes: n.Size, Extern: n.Extern, Pos: n.Pos, Decl: n.Pos}
	if n.Parent != nil && n.Parent.Kind == "DeclStmt" && len(n.Parent.Children) == 1 {
		v.Decl = n.Parent.Pos
	}
	elem, dims := splitArray(n.Type)
	v.Elem, v.Dims, v.Fields = elem, dims, n.ElemFields
	v.ElemSize = scalarSize(elem)
	if v.ElemSize == 0 && n.Size > 0 {
		total := int64(1)
		for _, d := range dims {
			total *= d
		}
		if total > 0 {
			v.ElemSize = n.Size / total
		}
	}
	if n.Extern && strings.HasSuffix(n.Type, "[]") {
		v.Bytes = -1
	}
	return v
}

// splitArray splits "float [2][256]" into "float" and [2 256].
func splitArray(t string) (string, []int64) {
	i := strings.IndexByte(t, '[')
	if i < 0 {
		return strings.TrimSpace(t), nil
	}
	var dims []int64
	for _, part := range strings.Split(t[i:], "]") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "[")
		if part == "" {
			continue
		}
		var d int64
		fmt.Sscan(part, &d)
		dims = append(dims, d)
	}
	return strings.TrimSpace(t[:i]), dims
}

// sharedPass: body -> the __shared__ variables declared in it.
func sharedPass(body *Node) []*Variable {
	var out []*Variable
	body.Walk(func(n *Node) bool {
		if n.Kind == "VarDecl" && n.Space == Shared {
			out = append(out, variableOf(n))
		}
		return true
	})
	return out
}

var blockBarriers = map[string]bool{"__syncthreads": true, "__syncthreads_count": true, "__syncthreads_and": true, "__syncthreads_or": true}

// isBarrierCall tells whether n calls a barrier, and whether the barrier
// orders the whole block (as opposed to one warp).
func isBarrierCall(n *Node) (call string, block bool) {
	if n.Kind != "CallExpr" {
		return "", false
	}
	if blockBarriers[n.Name] {
		return n.Name, true
	}
	if n.Name == "__syncwarp" {
		return n.Name, false
	}
	// cooperative_groups: block.sync() and cg::sync(block) are block barriers.
	if n.Name == "sync" && len(n.Children) > 0 {
		callee := n.Children[0]
		if strings.Contains(callee.Type, "thread_block") || strings.Contains(calleeObjectType(callee), "thread_block") {
			return "thread_block::sync", true
		}
		if len(n.Children) > 1 && strings.Contains(n.Children[1].Type, "thread_block") {
			return "cooperative_groups::sync", true
		}
	}
	return "", false
}

func calleeObjectType(n *Node) string {
	for n != nil && len(n.Children) > 0 {
		n = n.Children[0]
		if n.Kind == "DeclRefExpr" || n.Kind == "CallExpr" {
			return n.Type
		}
	}
	return ""
}

func isGridSync(n *Node) bool {
	return n.Kind == "CallExpr" && n.Name == "sync" && len(n.Children) > 0 &&
		strings.Contains(calleeObjectType(n.Children[0])+n.Children[0].Type, "grid_group")
}

// funcHasBarrier reports whether f, or anything it calls, holds a block barrier.
func (ka *kernelAnalysis) funcHasBarrier(f *Func, seen map[string]bool) (string, bool) {
	if seen[f.Key] {
		return "", false
	}
	seen[f.Key] = true
	var call string
	f.Body.Walk(func(n *Node) bool {
		if call != "" {
			return false
		}
		if c, block := isBarrierCall(n); block {
			call = c
		} else if n.Kind == "CallExpr" {
			if g := ka.funcs[n.Ref]; g != nil {
				if c, ok := ka.funcHasBarrier(g, seen); ok {
					call = c
				}
			}
		}
		return true
	})
	return call, call != ""
}

// barriersPass: body, device functions -> the kernel's barriers in source
// order, and for each block-level one the node where the kernel reaches it
// (the barrier call, or the call of a device function holding one).
func (ka *kernelAnalysis) barriersPass() ([]Barrier, map[*Node]int) {
	var out []Barrier
	sites := map[*Node]int{}
	ka.fn.Body.Walk(func(n *Node) bool {
		if n.Kind != "CallExpr" {
			return true
		}
		b := Barrier{ID: len(out), Pos: n.Pos, Context: controlContext(n)}
		if call, block := isBarrierCall(n); call != "" {
			b.Call, b.Warp = call, !block
		} else if g := ka.funcs[n.Ref]; g != nil && g.Device {
			call, ok := ka.funcHasBarrier(g, map[string]bool{})
			if !ok {
				return true
			}
			b.Call, b.Context, b.Via = call, "device-function", g.Name
			ka.diag(n.Pos, "warning", "%s calls device function %s, which holds a barrier (%s): ldcheck cannot replay a region that ends inside a device function; kernel %s will not be instrumented (inline %s into the kernel to check it)", ka.fn.Name, g.Name, call, ka.fn.Name, g.Name)
		} else {
			return true
		}
		if !b.Warp {
			sites[n] = b.ID
		}
		out = append(out, b)
		return true
	})
	return out, sites
}

// controlContext says what control flow encloses n inside its function.
func controlContext(n *Node) string {
	ctx := "top"
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "ForStmt", "WhileStmt", "DoStmt", "CXXForRangeStmt":
			return "loop"
		case "IfStmt", "SwitchStmt", "ConditionalOperator":
			ctx = "conditional"
		}
	}
	return ctx
}
