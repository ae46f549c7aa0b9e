package privatize

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"ldcheck/passes"
	"ldcheck/privatize/manifest"
)

// Result is what Instrument produces: the instrumented source and the
// manifest (without module paths; the build step fills those in).
type Result struct {
	Source string
	// Native is the user's file as written, nothing instrumented, for
	// `ldcheck run --unchecked`; the build step writes it as
	// NativeName(Manifest.Output).
	Native   string
	Manifest *manifest.Manifest
}

// Instrument rewrites the analysed file. Kernels that cannot be
// instrumented are left as written and marked so in the manifest, with the
// reason; host-only functions are left out (ldcheck launches kernels itself).
// It also renders the file with nothing instrumented (Result.Native).
func Instrument(u *passes.Unit, a *passes.Analysis, absPath string) (*Result, error) {
	sum := sha256.Sum256(u.Source)
	m := &manifest.Manifest{
		Version: manifest.Version,
		Source:  absPath,
		SHA256:  hex.EncodeToString(sum[:]),
		Output:  strings.TrimSuffix(filepath.Base(absPath), filepath.Ext(absPath)) + ".ldcheck.cu",
		Kernels: []manifest.Kernel{},
	}
	es := hostAndAsm(u)
	sites := &siteTable{}
	// Module-scope __device__ targets are reached through the access hooks
	// wherever they are referenced, in kernels and device functions alike.
	deviceTargets := map[string]string{} // declaration key -> name
	for _, k := range a.Kernels {
		for _, t := range k.Targets {
			if t.Kind != manifest.KindDevice {
				continue
			}
			for _, g := range u.Globals {
				if g.Name == t.Name {
					deviceTargets[g.Key] = g.Name
				}
			}
		}
	}
	// Once-only operations (once.go), in kernels and device functions.
	atomicParams := passes.AtomicParams(u)
	userFuncs := map[string]*passes.Func{}
	moduleShared := map[string]bool{}
	for _, f := range u.Funcs {
		userFuncs[f.Key] = f
	}
	for _, g := range u.Globals {
		if g.Space == passes.Shared {
			moduleShared[g.Key] = true
		}
	}
	selfFuncs := map[string]bool{} // device functions that use LDC_SELF, by name
	plainNotes := false            // a plain access of an atomically updated variable is noted
	for _, f := range u.Funcs {
		if f.Kernel || !f.Device || f.Body == nil {
			continue
		}
		sc := &onceScope{shared: map[string]bool{}, atomic: passes.AtomicVars(f, atomicParams), userFuncs: userFuncs, sites: sites, plainNotes: &plainNotes}
		for key := range moduleShared {
			sc.shared[key] = true
		}
		f.Body.Walk(func(n *passes.Node) bool {
			if n.Kind == "VarDecl" && n.Space == passes.Shared {
				sc.shared[n.Key] = true
			}
			return true
		})
		if oe, any := onceEdits(f.Body, sc); any {
			selfFuncs[f.Name] = true
			oe.insert(f.Body.Pos.Offset+1, " LDC_SELF();", -5000)
			es = append(es, oe.inFile(f.File)...)
		}
	}
	// A device function whose accesses cannot all be redirected leaves the
	// kernels that call it unchecked, saying why.
	funcProblems := map[string]string{}
	localParams := notGlobalParams(u, a, deviceTargets)
	for _, f := range u.Funcs {
		if f.Kernel || !f.Device {
			continue
		}
		// A device function's pointers may come from anywhere (the hooks
		// check the address at run time), but for those its calls give
		// only memory outside the allocations.
		sc := newAccessScope(u, f, deviceTargets, localParams[f.Key])
		sc.traced = localParams[f.Key]
		ae, problems := accessEdits(f.Body, sc, sites)
		if len(problems) > 0 {
			funcProblems[f.Name] = "device function " + f.Name + ", " + problems[0]
		}
		es = append(es, ae.inFile(f.File)...)
		es = append(es, memoryCallEdits(f.Body, f.File, u, sites).inFile(f.File)...)
	}
	var macros, entries strings.Builder
	var tests edits // the native source's stride tests (nativeTests)
	testAt := map[[3]int]bool{}
	funcs := map[string]*passes.Func{}
	for _, f := range u.Funcs {
		funcs[f.Name] = f
	}
	for i, k := range a.Kernels {
		mk := kernelManifest(i, k, a.Globals)
		if fn := funcs[k.Name]; fn != nil && fn.File != u.Files[0] {
			mk.File = fn.File.Path
		}
		kr := &kernelRewrite{index: i, k: k, fn: funcs[k.Name], deviceTargets: deviceTargets, unit: u, atomicParams: atomicParams, sites: sites}
		if kr.fn != nil {
			kr.once = &onceScope{shared: moduleShared, atomic: passes.AtomicVars(kr.fn, atomicParams), userFuncs: userFuncs, sites: sites, kernel: k, plainNotes: &plainNotes}
		}
		for _, c := range k.Calls {
			kr.selfNeeded = kr.selfNeeded || selfFuncs[c]
		}
		if kr.fn != nil {
			kr.src, kr.tokens = kr.fn.File.Source, kr.fn.File.Tokens
		}
		for _, c := range k.Calls {
			if r := funcProblems[c]; r != "" && mk.Reason == "" {
				mk.Reason = r
			}
		}
		if mk.Reason != "" {
			mk.Instrumented = false
		} else if reason := kr.unsupported(u, a); reason != "" {
			mk.Instrumented, mk.Reason = false, reason
		} else {
			ke, mac, err := kr.rewrite()
			if err != nil {
				mk.Instrumented, mk.Reason = false, err.Error()
			} else {
				es = append(es, ke.inFile(kr.fn.File)...)
				tests = append(tests, nativeTests(kr.k, kr.fn.File, testAt)...)
				macros.WriteString(mac)
				mk.SharedTracked, mk.SharedUntracked = kr.sharedTracked, kr.sharedUntracked
			}
		}
		if !k.Template {
			entries.WriteString(cpuEntry(mk))
		}
		m.Kernels = append(m.Kernels, mk)
	}
	m.Sites = sites.sites
	for i := range m.Kernels {
		m.Kernels[i].NoPlainNotes = !plainNotes && m.Kernels[i].Instrumented && (m.Kernels[i].Atomics > 0 || len(m.Kernels[i].Atomic) > 0)
	}
	body, err := render(u, es)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	fmt.Fprintf(&out, "// Instrumented by ldcheck from %s. Do not edit: rebuild with `ldcheck build`.\n", absPath)
	fmt.Fprintf(&out, "#include %q\n", manifest.RuntimeHeader)
	out.WriteString(macros.String())
	fmt.Fprintf(&out, "#line 1 %q\n", absPath)
	out.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		out.WriteByte('\n')
	}
	fmt.Fprintf(&out, "#line 1 \"%s (ldcheck entry points)\"\n#ifdef LDC_CPU\n%s#endif\n", m.Output, entries.String())
	nat, err := native(u, absPath, m.Output, entries.String(), tests)
	if err != nil {
		return nil, err
	}
	return &Result{Source: out.String(), Native: nat, Manifest: m}, nil
}

// render applies the edits to the main file and puts each of the user's
// files it includes in place of its #include directive, rendered the same
// way, between #line directives that keep compiler messages on the user's
// lines. So the compile of the result needs none of the user's files, and
// host code or kernels in them are handled as in the main file.
func render(u *passes.Unit, es edits) (string, error) {
	return renderFile(u.Files[0], es, map[*passes.SourceFile]bool{})
}

func renderFile(f *passes.SourceFile, es edits, open map[*passes.SourceFile]bool) (string, error) {
	mine := es.of(f)
	if len(open) > 0 {
		// Put in place of its #include, the file is no longer one of its
		// own: the compilers would warn of #pragma once in the main file.
		for i := 0; i+2 < len(f.Tokens); i++ {
			if t := f.Tokens; t[i].Spelling == "#" && t[i+1].Spelling == "pragma" && t[i+2].Spelling == "once" {
				mine = append(mine, edit{from: t[i].Offset, to: t[i+2].End, text: "/* #pragma once */"})
			}
		}
	}
	open[f] = true
	defer delete(open, f)
	for _, inc := range f.Includes {
		if open[inc.File] || overlaps(mine, inc.Pos) {
			continue // a recursive include, or one inside code left out
		}
		if !inc.Entered {
			// The preprocessor skipped it (include guard, #pragma once):
			// its text is already above, and the file on disk must not be
			// read again.
			mine = append(mine, edit{from: inc.Pos.Offset, to: inc.Pos.End, text: "/* ldcheck: " + filepath.Base(inc.File.Path) + " is included above */"})
			continue
		}
		text, err := renderFile(inc.File, es, open)
		if err != nil {
			return "", fmt.Errorf("%s: %w", inc.File.Name, err)
		}
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		// The rest of the directive's line keeps its line number.
		text = fmt.Sprintf("#line 1 %q\n%s#line %d %q\n", inc.File.Path, text, inc.Pos.Line, f.Path)
		mine = append(mine, edit{from: inc.Pos.Offset, to: inc.Pos.End, text: text, lines: true})
	}
	return mine.apply(f.Source)
}

// overlaps says whether an edit touches p.
func overlaps(es edits, p passes.Pos) bool {
	for _, e := range es {
		if e.from < p.End && p.Offset < e.to || e.from == e.to && e.from > p.Offset && e.from < p.End {
			return true
		}
	}
	return false
}

func kernelManifest(i int, k *passes.Kernel, globals []*passes.Variable) manifest.Kernel {
	mk := manifest.Kernel{
		Name:         k.Name,
		Symbol:       k.Mangled,
		Entry:        "ldc_entry_" + k.Name,
		Line:         k.Pos.Line,
		Instrumented: true,
		Params:       []manifest.Param{},
		Barriers:     []manifest.Barrier{},
		Regions:      []manifest.Region{},
		Targets:      []manifest.Target{},
		Unchecked:    []manifest.Unchecked{},
		Unhandled:    k.Unhandled,
		BlockOnePass: k.BlockOnePass,
	}
	for _, p := range k.Params {
		mk.Params = append(mk.Params, manifest.Param{Name: p.Name, Type: p.Type, Size: p.Size, Pointer: p.Pointer, Elem: p.Elem, ElemSize: p.ElemSize, Const: p.ElemConst, Fields: p.Fields, ElemFields: p.ElemFields, Texel: p.Texel})
	}
	for _, b := range k.Barriers {
		if !b.Warp {
			mk.Barriers = append(mk.Barriers, manifest.Barrier{ID: b.ID, Line: b.Pos.Line, Call: b.Call})
		}
	}
	for _, r := range k.Regions {
		mk.Regions = append(mk.Regions, manifest.Region{ID: r.ID, From: r.From, To: r.To, BeginLine: r.BeginLine, EndLine: r.EndLine, Wraps: r.Wraps, OnePass: r.OnePass, OnePassIf: r.OnePassIf, Conditional: r.Conditional})
	}
	for _, t := range orderedTargets(k) {
		mt := manifest.Target{Index: len(mk.Targets), Name: t.Name, Space: manifest.Space(t.Space), Kind: t.Kind, Param: manifest.NoParam, Type: t.Type, Bytes: t.Bytes,
			BlockRaceFree: t.BlockRaceFree, BlockRaceFreeIf: t.BlockRaceFreeIf, BlockRaceFreeWhen: t.BlockRaceFreeWhen, BlockRaceFreeTested: t.BlockRaceFreeTested,
			GridRaceFree: t.GridRaceFree, GridRaceFreeWhen: t.GridRaceFreeWhen, BlocksApart: t.BlocksApart, BlocksApartWhen: t.BlocksApartWhen}
		for pi, p := range k.Params {
			if t.Kind == manifest.KindParam && p.Name == t.Name {
				mt.Param, mt.Elem, mt.ElemSize, mt.Fields = pi, p.Elem, p.ElemSize, p.ElemFields
			}
		}
		for _, v := range k.Shared {
			if t.Kind == manifest.KindShared && v.Name == t.Name {
				mt.Elem, mt.ElemSize, mt.Dynamic, mt.Line, mt.Fields = v.Elem, v.ElemSize, v.Extern, v.Pos.Line, v.Fields
				mt.Dims = reportDims(v)
			}
		}
		for _, v := range globals {
			if t.Kind == manifest.KindDevice && v.Name == t.Name {
				mt.Elem, mt.ElemSize, mt.Line, mt.Fields = v.Elem, v.ElemSize, v.Pos.Line, v.Fields
				mt.Dims = reportDims(v)
			}
		}
		mk.Targets = append(mk.Targets, mt)
	}
	mk.Atomics = len(k.Atomics)
	for _, at := range k.Atomics {
		if at.Class != "" {
			mk.AtomicOps = append(mk.AtomicOps, manifest.AtomicOp{Call: at.Call, File: at.File, Line: at.Pos.Line, Class: at.Class})
		}
		if at.Variable != "" && !slices.Contains(mk.Atomic, at.Variable) {
			mk.Atomic = append(mk.Atomic, at.Variable)
		}
	}
	for _, u := range k.Unchecked {
		// Named as the kernel names it: an atomic in a device function
		// names the function's parameter.
		if u.Atomic && !slices.Contains(mk.Atomic, u.Name) {
			mk.Atomic = append(mk.Atomic, u.Name)
		}
		mk.Unchecked = append(mk.Unchecked, manifest.Unchecked{Name: u.Name, Reason: u.Reason, Requires: u.Requires})
		if u.Requires == manifest.Requires1DLaunch {
			mk.Requires1D = append(mk.Requires1D, u.Name)
		}
		if pi := privateParam(k, u); pi >= 0 {
			p := k.Params[pi]
			mk.Targets = append(mk.Targets, manifest.Target{Index: len(mk.Targets), Name: p.Name, Space: manifest.SpaceGlobal, Kind: manifest.KindParam, Param: pi,
				Type: p.Type, Elem: p.Elem, ElemSize: p.ElemSize, Fields: p.ElemFields, Private: true})
		}
	}
	return mk
}

// reportDims is what the manifest keeps of v's dimensions: two or more
// that account for its bytes (reports then name a[i][j]); nil when the
// declaration's spelling gave no clear shape (a typedef, a macro clang did
// not expand in the type's spelling).
func reportDims(v *passes.Variable) []int64 {
	if len(v.Dims) < 2 || v.ElemSize <= 0 {
		return nil
	}
	n := v.ElemSize
	for _, d := range v.Dims {
		if d <= 0 {
			return nil
		}
		n *= d
	}
	if v.Bytes > 0 && n != v.Bytes {
		return nil
	}
	return v.Dims
}

// privateParam returns the index of the pointer parameter an unchecked
// entry names when the parameter is written privately (it must still be
// privatized), else -1.
func privateParam(k *passes.Kernel, u passes.Unchecked) int {
	if u.Requires != manifest.Requires1DLaunch {
		return -1
	}
	for i, p := range k.Params {
		if p.Name == u.Name && p.Pointer {
			return i
		}
	}
	return -1
}

// orderedTargets puts shared targets first: their table slots are the ones
// the in-kernel checks walk.
func orderedTargets(k *passes.Kernel) []passes.Target {
	ts := append([]passes.Target(nil), k.Targets...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Space == passes.Shared && ts[j].Space != passes.Shared })
	return ts
}

// cpuEntry is the C entry point the CPU backend calls: it unpacks the
// argument array and calls the kernel.
func cpuEntry(k manifest.Kernel) string {
	var args []string
	for i, p := range k.Params {
		args = append(args, fmt.Sprintf("*(%s *)a[%d]", p.Type, i))
	}
	return fmt.Sprintf("extern \"C\" void %s(void **a) { %s(%s); }\n", k.Entry, k.Name, strings.Join(args, ", "))
}
