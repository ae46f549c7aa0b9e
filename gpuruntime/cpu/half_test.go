package cpu

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHalfRounding compiles testdata/half_rounding.cpp against the
// backend's ldcheck_fp16.h (with stand-ins for what ldcheck_cpu.h gives it)
// and runs it: conversions in every rounding mode, subnormals, overflow,
// NaN, and a once-rounded fma, against references of its own.
func TestHalfRounding(t *testing.T) {
	cxx, err := findCompiler("")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	if err := WriteHeaders(dir); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "half_rounding")
	args := append(cxx[1:len(cxx):len(cxx)], "-std=c++17", "-O2", "-ffp-contract=off", "-I", dir, "testdata/half_rounding.cpp", "-o", bin)
	if out, err := exec.CommandContext(context.Background(), cxx[0], args...).CombinedOutput(); err != nil {
		t.Fatalf("compiling testdata/half_rounding.cpp: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil {
		t.Fatalf("half_rounding: %v\n%s", err, out)
	}
}
