package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"ldcheck/gpuruntime"
	"ldcheck/privatize/manifest"
)

// WriteText writes d for a person: the verdict, each race like a compiler
// diagnostic, the run's notes and, with Doc.Phases, the phases' times.
func WriteText(w io.Writer, d *Doc) error {
	tw := &errWriter{w: w}
	writeText(tw, d)
	return tw.err
}

// errWriter keeps the first write error, so that the writers can print
// line after line and report a failure (a closed pipe) once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, nil
}

func writeText(w io.Writer, d *Doc) {
	res, k, base := d.Result, d.Kernel, d.base()
	switch {
	case res.Unchecked == "--unchecked":
		fmt.Fprintf(w, "%s:%d: kernel %s ran as written, without checking (--unchecked)\n", base, k.Line, k.Name)
	case res.Unchecked != "":
		fmt.Fprintf(w, "%s:%d: kernel %s ran unchecked (not instrumented: %s)\n", base, k.Line, k.Name, res.Unchecked)
	case res.Deterministic && len(res.Races) == 0:
		fmt.Fprintf(w, "%s:%d: kernel %s ran deterministically: no write-write conflict between warps or blocks (%s backend; warps merged in increasing order at every barrier, blocks at the end)\n", base, k.Line, k.Name, d.Backend)
		fmt.Fprintf(w, "  read-write races are not looked for in a deterministic run; run without --deterministic to check the kernel\n")
	case res.Deterministic:
		for i := range res.Races {
			writeRace(w, d, &res.Races[i])
		}
		fmt.Fprintf(w, "%s: kernel %s: %d write-write conflict(s) while merging; the outputs are those of the warps merged in increasing order at every barrier and the blocks merged in increasing order at the end, the same every run\n", base, k.Name, len(res.Races))
	case len(res.Races) == 0:
		fmt.Fprintf(w, "%s:%d: kernel %s: no race found (%s backend; levels %s; %d bytes compared)\n", base, k.Line, k.Name, d.Backend, listWords(res.Levels), res.BytesCompared)
		if res.RoundsPlanned > 1 {
			fmt.Fprintf(w, "  level 1 ran %d rounds of %d groups sharing private copies (memory-capped); every pair of blocks was checked\n", res.Rounds, res.Groups)
		}
		for _, u := range k.Unchecked {
			if strings.Contains(u.Reason, "atomic") {
				fmt.Fprintf(w, "  unchecked %s: %s\n", u.Name, u.Reason)
			}
		}
	default:
		for i := range res.Races {
			writeRace(w, d, &res.Races[i])
		}
		fmt.Fprintf(w, "%s: kernel %s: %d race(s) found; the kernel's outputs are undefined\n", base, k.Name, len(res.Races))
		if res.RoundsPlanned > 1 {
			fmt.Fprintf(w, "  found in round %d of %d of level 1 (groups of blocks sharing %d private copies); the blocks named took the copies of the racing pages\n", res.Rounds, res.RoundsPlanned, res.Groups)
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if res.CopyBytes > 0 && res.Unchecked == "" {
		fmt.Fprintf(w, "  private copies took at most %s\n", gpuruntime.FormatBytes(res.CopyBytes))
	}
	if d.Phases {
		for _, p := range res.Phases {
			bw := ""
			if p.Bytes > 0 && p.Seconds > 0 {
				bw = fmt.Sprintf("  %7.1f GB/s", float64(p.Bytes)/p.Seconds/1e9)
			}
			fmt.Fprintf(w, "  %-66s %10.3f ms%s\n", p.Name, p.Seconds*1000, bw)
		}
	}
}

// unitWord names the units of a race's scope, plural.
func unitWord(rc *gpuruntime.Race) string {
	switch rc.Scope {
	case manifest.ScopeInterBlock:
		return "blocks"
	case manifest.ScopeIntraWarp:
		return "lanes"
	}
	return "warps"
}

// where is a place in the source as a diagnostic starts it: file:line:col
// (file:line when the column is not known).
func where(file string, line, col int) string {
	if col > 0 {
		return fmt.Sprintf("%s:%d:%d", filepath.Base(file), line, col)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}

// accessText says who made an access: "write by thread 64 of block 0 (warp 2)".
func accessText(a gpuruntime.Access, rc *gpuruntime.Race) string {
	s := fmt.Sprintf("%s by thread %d of block %d (warp %d)", a.Kind, a.Thread, a.Block, a.Warp)
	if rc.Scope == manifest.ScopeIntraWarp {
		s = fmt.Sprintf("%s by thread %d of block %d (warp %d, lane %d)", a.Kind, a.Thread, a.Block, a.Warp, a.Thread%32)
	}
	if a.Element != "" && a.Element != rc.Element {
		s += " of " + a.Element
	}
	if a.Value != "" {
		verb := "wrote"
		if a.Kind == "read" {
			verb = "read"
		}
		s += fmt.Sprintf(": %s %s", verb, a.Value)
	}
	return s
}

// writeRace prints one race in the compiler form editors understand: an
// error line at the later of the two conflicting accesses (at the
// region's first line when the race was not explained), then notes.
func writeRace(w io.Writer, d *Doc, rc *gpuruntime.Race) {
	base, k := d.base(), d.Kernel
	units := unitWord(rc)
	unit := units[:len(units)-1]
	region := fmt.Sprintf("%s:%d-%d", base, rc.Region.BeginLine, rc.Region.EndLine)
	if rc.Region.From == -1 && rc.Region.To == -1 {
		region += " (the whole kernel)"
	}
	regionAt := where(d.KernelFile, rc.Region.BeginLine, 0)
	if rc.Space == "local" {
		fmt.Fprintf(w, "%s: error: read-write race (its effect stays in thread-local values, %s) in region %s of kernel %s\n", regionAt, rc.Scope, region, k.Name)
		fmt.Fprintf(w, "%s: note: thread %d of block %d (warp %d) computed different values once it saw the other warps' writes of this region (%d threads affected)\n", regionAt, rc.Thread, rc.Block, rc.Units[0], rc.Count)
		fmt.Fprintf(w, "    hint: a value this thread reads in lines %d-%d is written by another warp in the same region; add a __syncthreads() between the write and the read\n", rc.Region.BeginLine, rc.Region.EndLine)
		return
	}
	elem := rc.Element
	if elem == "" {
		elem = fmt.Sprintf("%s[%d]", rc.Variable, rc.Elements[0])
	}
	at := regionAt
	if len(rc.Accesses) == 2 {
		a := rc.Accesses[1]
		at = where(a.File, a.Line, a.Col)
	}
	fmt.Fprintf(w, "%s: error: %s race on %s (%s, %s) in kernel %s\n", at, rc.Kind, elem, rc.Space, rc.Scope, k.Name)
	if len(rc.Accesses) == 2 {
		a, b := rc.Accesses[0], rc.Accesses[1]
		fmt.Fprintf(w, "%s: note: %s\n", where(b.File, b.Line, b.Col), accessText(b, rc))
		fmt.Fprintf(w, "%s: note: conflicts with the %s\n", where(a.File, a.Line, a.Col), accessText(a, rc))
	}
	var us []string
	for _, u := range rc.Units {
		us = append(us, fmt.Sprint(u))
	}
	block := ""
	if rc.Scope == manifest.ScopeInterWarp && rc.Block >= 0 {
		block = fmt.Sprintf(" of block %d", rc.Block)
	}
	if rc.Scope == manifest.ScopeIntraWarp && rc.Warp != nil {
		block = fmt.Sprintf(" of warp %d of block %d", *rc.Warp, rc.Block)
	}
	span := rc.Element
	if rc.LastElement != "" && rc.LastElement != rc.Element {
		span += " to " + rc.LastElement
	}
	if span != "" {
		span += ", "
	}
	counted := "racy bytes"
	if rc.Scope == manifest.ScopeIntraWarp {
		counted = "racy words" // the intra-warp check's records are per 4-byte word (and block)
	}
	fmt.Fprintf(w, "%s: note: in region %s; %s %s%s; bytes %d..%d (%s%d %s)\n", regionAt, region, units, strings.Join(us, ", "), block, rc.Offset, rc.Offset+rc.Length-1, span, rc.Count, counted)
	first, second := rc.ValueUnits()
	if rc.Kind == "atomic-plain" {
		fmt.Fprintf(w, "%s: note: %s %d accessed it plainly, %s %d atomically, with no barrier between\n", regionAt, unit, first, unit, second)
	} else if rc.Scope == manifest.ScopeIntraWarp {
		what := "one read what the other wrote, or wrote what it read"
		if rc.Kind == "write-write" {
			what = "both wrote it"
		}
		fmt.Fprintf(w, "%s: note: %s %d and %d of one warp: %s, with no __syncwarp (or other warp synchronisation) between\n", regionAt, units, first, second, what)
	} else if rc.Typed != nil {
		if rc.Kind == "write-write" {
			fmt.Fprintf(w, "%s: note: %s (%s) was %s before the region; %s %d wrote %s, %s %d wrote %s\n", regionAt, elem, rc.Type, rc.Typed.Original, unit, first, rc.Typed.First, unit, second, rc.Typed.Second)
		} else {
			fmt.Fprintf(w, "%s: note: %s (%s): %s %d ended with %s instead of %s once it saw the others' writes\n", regionAt, elem, rc.Type, unit, rc.Units[0], rc.Typed.First, rc.Typed.Original)
		}
	} else if rc.Kind == "write-write" {
		fmt.Fprintf(w, "%s: note: at byte %d: original %#02x, %s %d wrote %#02x, %s %d wrote %#02x\n", regionAt, rc.Offset, rc.Values.Original, unit, first, rc.Values.First, unit, second, *rc.Values.Second)
	} else {
		fmt.Fprintf(w, "%s: note: at byte %d: %s %d ended with %#02x instead of %#02x once it saw the others' writes\n", regionAt, rc.Offset, unit, rc.Units[0], rc.Values.First, rc.Values.Original)
	}
	if rc.Kept != nil {
		fmt.Fprintf(w, "%s: note: kept %s %d's value %#02x at byte %d (a deterministic run keeps the highest %s's: the %s' changes are merged in increasing order)\n",
			regionAt, unit, rc.Kept.Unit, rc.Kept.Value, rc.Offset, unit, units)
	}
	if rc.SameValue {
		fmt.Fprintf(w, "%s: note: same value: both wrote %#02x at every racy byte (a race some tools call benign; --ignore-same-value leaves these out)\n", regionAt, rc.Values.First)
	}
	for _, p := range rc.MorePairs {
		fmt.Fprintf(w, "%s: note: also: %s, against the %s at %s\n", where(p[1].File, p[1].Line, p[1].Col), accessText(p[1], rc), accessText(p[0], rc), where(p[0].File, p[0].Line, p[0].Col))
	}
	switch {
	case len(rc.Accesses) < 2 && rc.Explanation != "":
		fmt.Fprintf(w, "%s: note: statements not named: %s\n", regionAt, rc.Explanation)
	case rc.Explanation != "":
		fmt.Fprintf(w, "%s: note: %s\n", regionAt, rc.Explanation)
	}
	if rc.Scope == manifest.ScopeIntraWarp {
		fmt.Fprintf(w, "    hint: the lanes of a warp are scheduled independently (Volta and later), even in warp-synchronous code; read into a register, __syncwarp(), then write (and __syncwarp() again before the next read), or exchange values with __shfl_*_sync\n")
	} else if rc.Kind == "atomic-plain" {
		fmt.Fprintf(w, "    hint: a %s reads or writes bytes plainly that another %s updates atomically in the same region; make that access atomic too, or put a barrier between them\n", unit, unit)
	} else if rc.Kind == "write-write" {
		fmt.Fprintf(w, "    hint: two %s write these bytes with no barrier between them; give each its own element, or order the writes with a barrier (or an atomic)\n", units)
	} else {
		fmt.Fprintf(w, "    hint: a %s reads bytes another %s writes in the same region; put a barrier between the write and the read\n", unit, unit)
	}
}

// listWords joins words as a sentence does: "a", "a and b", "a, b and c".
func listWords(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}
