package gpuruntime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ldcheck/gpuruntime/cuda"
	"ldcheck/privatize/manifest"
)

// fakePtxas writes a ptxas beside a fake nvcc that records its arguments
// in the cubin it is asked for, and fails on bad.ptx.
func fakePtxas(t *testing.T) (nvcc string) {
	t.Helper()
	tools := t.TempDir()
	nvcc = filepath.Join(tools, "nvcc")
	script := `#!/bin/sh
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out=$a; prev=$a; done
case "$*" in *bad.ptx*) echo "ptxas fatal: Unresolved extern function" >&2; exit 1;; esac
echo "$*" > "$out"
`
	if err := os.WriteFile(nvcc, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tools, "ptxas"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return nvcc
}

// TestCompileSASS: each module a run loads first is compiled for the arch
// with each register cap a run may load it with; a failure is a note naming
// the module; stale cubins are removed first; without an arch nothing is
// compiled.
func TestCompileSASS(t *testing.T) {
	nvcc := fakePtxas(t)
	dir := t.TempDir()
	for _, f := range []string{"k.ptx", "k.blk.ptx", "k.once.ptx", "k.det.ptx", "native.ptx", "bad.ptx", "old.sm_90.r128.cubin"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := &manifest.Manifest{PTX: "k.ptx", BlockPTX: "k.blk.ptx", OnePassPTX: "k.once.ptx", DetPTX: "k.det.ptx", NativePTX: "native.ptx", TestedPTX: "bad.ptx"}
	if err := removeSASS(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.sm_90.r128.cubin")); !os.IsNotExist(err) {
		t.Errorf("a stale cubin survived removeSASS: %v", err)
	}
	notes := compileSASS(context.Background(), dir, nvcc, "sm_90", sassModules(m))
	for f, want := range map[string]string{
		"k.sm_90.r128.cubin":      "-arch=sm_90 -maxrregcount=128 -o k.sm_90.r128.cubin k.ptx",
		"k.blk.sm_90.r128.cubin":  "-arch=sm_90 -maxrregcount=128 -o k.blk.sm_90.r128.cubin k.blk.ptx",
		"k.sm_90.r64.cubin":       "-arch=sm_90 -maxrregcount=64 -o k.sm_90.r64.cubin k.ptx",
		"k.blk.sm_90.r64.cubin":   "-arch=sm_90 -maxrregcount=64 -o k.blk.sm_90.r64.cubin k.blk.ptx",
		"native.sm_90.r0.cubin":   "-arch=sm_90 -o native.sm_90.r0.cubin native.ptx",
		"k.once.sm_90.r128.cubin": "-arch=sm_90 -maxrregcount=128 -o k.once.sm_90.r128.cubin k.once.ptx",
		"k.once.sm_90.r64.cubin":  "-arch=sm_90 -maxrregcount=64 -o k.once.sm_90.r64.cubin k.once.ptx",
		"k.once.sm_90.r32.cubin":  "-arch=sm_90 -maxrregcount=32 -o k.once.sm_90.r32.cubin k.once.ptx",
	} {
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("%s: %v (notes %q)", f, err, notes)
			continue
		}
		if strings.TrimSpace(string(got)) != want {
			t.Errorf("%s made by ptxas %s, want ptxas %s", f, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "k.det.sm_90.r128.cubin")); err == nil {
		t.Error("the deterministic module got SASS: only its mode loads it, the JIT is left to do it")
	}
	joined := strings.Join(notes, "\n")
	if !strings.Contains(joined, "no SASS for bad.ptx") || !strings.Contains(joined, "Unresolved extern function") {
		t.Errorf("notes %q: want the failed module named with ptxas's message", notes)
	}
	if !strings.HasPrefix(notes[0], "SASS for sm_90") || strings.Contains(notes[0], "bad") {
		t.Errorf("first note %q: want the cubins made", notes[0])
	}
	if n := compileSASS(context.Background(), dir, nvcc, "", sassModules(m)); len(n) != 1 || !strings.Contains(n[0], "no GPU here and no --arch") {
		t.Errorf("no arch: notes %q", n)
	}
}

// TestReadSASS: a run takes the cubin for its GPU and register cap only,
// and not once the PTX is newer.
func TestReadSASS(t *testing.T) {
	dir := t.TempDir()
	ptx := filepath.Join(dir, "k.ptx")
	cubin := SASSPath(ptx, "sm_90", 128)
	if filepath.Base(cubin) != "k.sm_90.r128.cubin" {
		t.Fatalf("SASSPath = %s", cubin)
	}
	for _, f := range []string{ptx, cubin} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := &CUDABackend{arch: "sm_90"}
	if b.readSASS(ptx, 128) == nil {
		t.Error("the cubin for this GPU and cap was not read")
	}
	if b.readSASS(ptx, 64) != nil || b.readSASS(ptx, 0) != nil {
		t.Error("a cubin of another register cap was read")
	}
	if (&CUDABackend{arch: "sm_80"}).readSASS(ptx, 128) != nil {
		t.Error("a cubin of another GPU was read")
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(ptx, later, later); err != nil {
		t.Fatal(err)
	}
	if b.readSASS(ptx, 128) != nil {
		t.Error("a cubin older than its PTX was read")
	}
}

// TestJITNote: a run that waited a second or more on the driver's JIT
// says which modules, at which caps, for how long, and what makes the
// SASS; a run whose compiles were quick (the driver's cache) says
// nothing.
func TestJITNote(t *testing.T) {
	modules := map[string]string{"": "kernel.ldcheck.ptx", BlockModule: "kernel.ldcheck.blk.ptx"}
	quick := []cuda.JIT{{Limit: 64, Took: 300 * time.Millisecond}, {Alternate: BlockModule, Limit: 64, Took: 200 * time.Millisecond}}
	if n := jitNote(quick, modules, "sm_90"); n != "" {
		t.Errorf("0.5 s of JIT: note %q, want none", n)
	}
	if n := jitNote(nil, modules, "sm_90"); n != "" {
		t.Errorf("no JIT: note %q, want none", n)
	}
	slow := []cuda.JIT{{Limit: 96, Took: 20 * time.Second}, {Alternate: BlockModule, Limit: 96, Took: 7 * time.Second}}
	n := jitNote(slow, modules, "sm_90")
	for _, want := range []string{"27.0 s in all", "kernel.ldcheck.ptx at 96 registers (20.0 s)", "kernel.ldcheck.blk.ptx at 96 registers (7.0 s)", "sm_90", "ldcheck compile --arch sm_90 DIR", "128 and 64 registers"} {
		if !strings.Contains(n, want) {
			t.Errorf("note %q: want %q in it", n, want)
		}
	}
	if n := jitNote(slow, modules, ""); !strings.Contains(n, "for this GPU") || !strings.Contains(n, "ldcheck compile DIR") {
		t.Errorf("unknown arch: note %q", n)
	}
}
