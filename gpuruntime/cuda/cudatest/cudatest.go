// Package cudatest builds the fake CUDA driver (testdata/fakecuda.c: host memory as
// device memory, the entry points package cuda binds) that the tests of
// package cuda and of the CUDA backend load in place of libcuda, so that
// both run where there is no GPU. Only tests import it.
package cudatest

import (
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

//go:embed testdata/fakecuda.c
var source []byte

// Build compiles the fake driver with extra C flags into a temporary
// directory of t and returns the library's path. It skips t when there is
// no C compiler ($CC, else cc).
func Build(t testing.TB, flags ...string) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to build the fake CUDA driver: %v", cc, err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "fakecuda.c")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "libfakecuda.so")
	args := append([]string{"-shared", "-fPIC", "-O1", "-Wall", "-o", lib, src}, flags...)
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, out)
	}
	return lib
}
