package manifest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Validate checks that m is a manifest the runtime can use: every index
// (a target's parameter, a region's barriers, the target table's slots)
// points at something that exists, every size is positive or zero, every
// kind, space and requirement is one of the contract's words and every
// required field is there. Read calls it, so that a damaged or hand-edited
// manifest is named as such instead of failing, or being misreported,
// deep in a run. The error lists the first problems found.
func (m *Manifest) Validate() error {
	var v validator
	v.check(m.Version == Version, "version is %d, want %d", m.Version, Version)
	v.required("source", m.Source)
	v.required("instrumented", m.Output)
	v.required("runtime", m.Runtime)
	for _, f := range []struct{ field, path string }{
		{"instrumented", m.Output}, {"ptx", m.PTX}, {"cubin", m.Cubin}, {"cpu", m.CPU},
		{"native_source", m.NativeSource}, {"native_ptx", m.NativePTX}, {"native_cpu", m.NativeCPU},
		{"trace_ptx", m.TracePTX}, {"trace_cpu", m.TraceCPU}, {"tested_ptx", m.TestedPTX},
	} {
		v.check(f.path == "" || filepath.IsLocal(f.path), "%s %q is not a file inside the build directory", f.field, f.path)
	}
	for i, s := range m.Sites {
		v.check(s.ID == i, "site %d: id %d, but it is entry %d of the site table", i, s.ID, i)
		v.check(filepath.IsAbs(s.File), "site %d: file %q is not an absolute path", i, s.File)
		v.check(s.Line >= 1 && s.Col >= 1, "site %d: %d:%d is not a place in the source", i, s.Line, s.Col)
		v.check(s.Kind == SiteRead || s.Kind == SiteWrite || s.Kind == SiteReadWrite || s.Kind == SiteAtomic, "site %d: kind %q, want %q, %q, %q or %q", i, s.Kind, SiteRead, SiteWrite, SiteReadWrite, SiteAtomic)
	}
	v.check(len(m.Kernels) > 0, "no kernels")
	seen := map[string]bool{}
	for i := range m.Kernels {
		k := &m.Kernels[i]
		v.kernel(i, k)
		v.check(k.Name == "" || !seen[k.Name], "kernel %s is listed twice", k.Name)
		seen[k.Name] = true
	}
	return v.err()
}

// validator collects a manifest's problems; where names the part being
// checked ("kernel k: target t").
type validator struct {
	where    string
	problems []string
}

func (v *validator) check(ok bool, format string, args ...any) {
	if ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if v.where != "" {
		msg = v.where + ": " + msg
	}
	v.problems = append(v.problems, msg)
}

func (v *validator) required(field, value string) {
	v.check(value != "", "required field %q is missing or empty", field)
}

func (v *validator) kernel(i int, k *Kernel) {
	v.where = fmt.Sprintf("kernel %d", i)
	if k.Name != "" {
		v.where = "kernel " + k.Name
	}
	defer func() { v.where = "" }()
	v.required("name", k.Name)
	v.required("symbol", k.Symbol)
	v.required("cpu_entry", k.Entry)
	v.check(k.File == "" || filepath.IsAbs(k.File), "file %q is not an absolute path", k.File)
	v.check(k.Line >= 1, "line %d is not a source line", k.Line)
	v.check(k.Atomics >= 0, "atomics is %d, a negative count", k.Atomics)
	v.check(k.Instrumented || k.Reason != "", "not instrumented, and no reason says why")
	for j, p := range k.Params {
		name := p.Name
		if name == "" {
			name = fmt.Sprintf("#%d", j)
		}
		v.check(p.Size > 0, "parameter %s: size %d bytes, want at least 1", name, p.Size)
		v.check(p.ElemSize >= 0, "parameter %s: elem_size %d bytes is negative", name, p.ElemSize)
		v.check(p.Type != "", "parameter %s: required field \"type\" is missing or empty", name)
		v.fields("parameter "+name, p.Fields, p.Size)
		v.fields("parameter "+name+"'s element", p.ElemFields, p.ElemSize)
	}
	barriers := map[int]bool{}
	for _, b := range k.Barriers {
		v.check(b.ID >= 0, "barrier id %d is negative", b.ID)
		v.check(!barriers[b.ID], "barrier id %d is listed twice", b.ID)
		v.check(b.Line >= 1, "barrier %d: line %d is not a source line", b.ID, b.Line)
		barriers[b.ID] = true
	}
	if k.Instrumented {
		// Even a kernel without barriers has one region, entry to exit:
		// the reports take its lines from here.
		v.check(len(k.Regions) > 0, "instrumented, but it has no regions")
	}
	for _, r := range k.Regions {
		v.check(r.From == NoBarrier || barriers[r.From], "region %d: from barrier %d, which is not in the kernel's barriers", r.ID, r.From)
		v.check(r.To == NoBarrier || barriers[r.To], "region %d: to barrier %d, which is not in the kernel's barriers", r.ID, r.To)
		v.check(r.BeginLine >= 1 && r.EndLine >= 1, "region %d: lines %d-%d are not source lines", r.ID, r.BeginLine, r.EndLine)
	}
	sharedDone := false
	for j, t := range k.Targets {
		name := t.Name
		if name == "" {
			name = fmt.Sprintf("#%d", j)
		}
		what := "target " + name
		v.required(what+": name", t.Name)
		v.check(t.Index == j, "%s: index %d, but it is entry %d of the target table", what, t.Index, j)
		v.check(t.Kind.valid(), "%s: kind %q, want %q, %q or %q", what, t.Kind, KindShared, KindDevice, KindParam)
		v.check(t.Space.valid(), "%s: space %q, want %q or %q", what, t.Space, SpaceShared, SpaceGlobal)
		v.check(t.Bytes >= 0, "%s: bytes %d is negative", what, t.Bytes)
		v.check(t.ElemSize >= 0, "%s: elem_size %d is negative", what, t.ElemSize)
		v.check(t.Line >= 0, "%s: line %d is negative", what, t.Line)
		elems := int64(1)
		for _, d := range t.Dims {
			v.check(d > 0, "%s: dimension %d, want at least 1", what, d)
			elems *= max(d, 1)
		}
		if len(t.Dims) > 0 && t.Bytes > 0 && t.ElemSize > 0 {
			v.check(elems*t.ElemSize == t.Bytes, "%s: dimensions %v of %d-byte elements make %d bytes, but the target has %d", what, t.Dims, t.ElemSize, elems*t.ElemSize, t.Bytes)
		}
		v.fields(what, t.Fields, t.ElemSize)
		switch t.Kind {
		case KindParam:
			ok := t.Param >= 0 && t.Param < len(k.Params)
			v.check(ok, "%s: parameter index %d is outside the parameter list (%d parameters)", what, t.Param, len(k.Params))
			if ok {
				v.check(k.Params[t.Param].Pointer, "%s: parameter %d (%s) is not a pointer", what, t.Param, k.Params[t.Param].Name)
			}
			v.check(t.Space == SpaceGlobal, "%s: a parameter's memory is in space %q, not %q", what, SpaceGlobal, t.Space)
		case KindShared:
			v.check(t.Space == SpaceShared, "%s: a __shared__ variable is in space %q, not %q", what, SpaceShared, t.Space)
			fallthrough
		default:
			v.check(t.Param == NoParam, "%s: parameter index %d for kind %q (want %d)", what, t.Param, t.Kind, NoParam)
		}
		v.check(t.BlockRaceFreeIf == "" || t.BlockRaceFreeIf == "block-2d" || t.BlockRaceFreeIf == "block-1d", "%s: block_race_free_if %q, want %q, %q or nothing", what, t.BlockRaceFreeIf, "block-2d", "block-1d")
		v.check(len(t.BlockRaceFreeWhen) == 0 || t.BlockRaceFree || t.BlockRaceFreeIf != "", "%s: block_race_free_when without block_race_free or block_race_free_if", what)
		v.check(!t.BlockRaceFreeTested || t.BlockRaceFree || t.BlockRaceFreeIf != "", "%s: block_race_free_tested without block_race_free or block_race_free_if", what)
		v.check(!t.GridRaceFree || t.Space == SpaceGlobal, "%s: grid_race_free on a %s target (global targets only)", what, t.Space)
		v.check(len(t.GridRaceFreeWhen) == 0 || t.GridRaceFree, "%s: grid_race_free_when without grid_race_free", what)
		v.check(!t.BlocksApart || t.Space == SpaceGlobal, "%s: blocks_apart on a %s target (global targets only)", what, t.Space)
		v.check(len(t.BlocksApartWhen) == 0 || t.BlocksApart, "%s: blocks_apart_when without blocks_apart", what)
		for i, lt := range append(append(append([]LaunchTest{}, t.BlockRaceFreeWhen...), t.GridRaceFreeWhen...), t.BlocksApartWhen...) {
			grid := i >= len(t.BlockRaceFreeWhen)
			for _, side := range [][]LaunchTerm{lt.Left, lt.Right} {
				for _, term := range side {
					for _, f := range term.Factors {
						n, err := strconv.Atoi(strings.TrimPrefix(f, "param:"))
						okParam := strings.HasPrefix(f, "param:") && err == nil && n >= 0 && n < len(k.Params)
						okGrid := grid && (f == "gridDim.x" || f == "gridDim.y" || f == "gridDim.z")
						_, _, okCeil := CeilFactor(f)
						v.check(f == "blockDim.x" || f == "blockDim.y" || f == "blockDim.z" || okGrid || okParam || okCeil, "%s: launch test %s: factor %q, want blockDim.x, .y, .z, ceil(blockDim.x/C), gridDim's (grid tests) or param:N for a parameter", what, lt, f)
					}
				}
			}
		}
		v.check(!(t.BlockRaceFree && t.BlockRaceFreeIf != ""), "%s: block_race_free and block_race_free_if %q together (block_race_free holds for every launch)", what, t.BlockRaceFreeIf)
		// The device-side checks walk the shared targets as the table's
		// first slots.
		if t.Space == SpaceShared {
			v.check(!sharedDone, "%s: a shared target after a global one (shared targets come first in the table)", what)
		} else {
			sharedDone = true
		}
	}
	v.check(len(k.AtomicOps) <= k.Atomics, "%d atomic operations listed, more than the %d atomic calls counted", len(k.AtomicOps), k.Atomics)
	for _, a := range k.AtomicOps {
		v.required("atomic operation: call", a.Call)
		v.check(a.Line >= 1, "atomic %s: line %d is not a source line", a.Call, a.Line)
		v.check(a.File == "" || filepath.IsAbs(a.File), "atomic %s: file %q is not an absolute path", a.Call, a.File)
		v.check(a.Class.valid(), "atomic %s at line %d: class %q, want one of %q, %q, %q, %q, %q or %q", a.Call, a.Line, a.Class,
			AtomicCommutative, AtomicFloat, AtomicExchange, AtomicCompareSwap, AtomicValueUsed, AtomicUnknown)
	}
	for _, u := range k.Unchecked {
		v.required("unchecked variable: name", u.Name)
		v.check(u.Requires.valid(), "unchecked %s: requires %q, want %q or nothing", u.Name, u.Requires, Requires1DLaunch)
	}
}

// fields checks a struct layout: each field named and inside the struct's
// size (when known).
func (v *validator) fields(what string, fs []Field, size int64) {
	for _, f := range fs {
		v.check(f.Name != "", "%s: a field has no name", what)
		v.check(f.Offset >= 0 && f.Size > 0, "%s: field %s at offset %d, size %d (want a place in the element)", what, f.Name, f.Offset, f.Size)
		v.check(size == 0 || f.Offset+f.Size <= size, "%s: field %s (bytes %d..%d) lies outside the %d-byte element", what, f.Name, f.Offset, f.Offset+f.Size-1, size)
	}
}

// err is nil or the problems found, the first few of them.
func (v *validator) err() error {
	const show = 3
	switch n := len(v.problems); {
	case n == 0:
		return nil
	case n <= show:
		return errors.New(strings.Join(v.problems, "; "))
	default:
		return fmt.Errorf("%s; and %d more problems", strings.Join(v.problems[:show], "; "), n-show)
	}
}
