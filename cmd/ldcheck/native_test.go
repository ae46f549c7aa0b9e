package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ldcheck/privatize/manifest"
)

// TestUncheckedWithoutNative: --unchecked runs the native module only;
// a build without one says so (exit 3), and never falls back to the
// instrumented kernel.
func TestUncheckedWithoutNative(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "k.cu")
	os.WriteFile(src, []byte("__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }\n"), 0o644)
	build := filepath.Join(dir, "build")
	var out, errb bytes.Buffer
	if code := run([]string{"ldcheck", "build", "-o", build, src}, &out, &errb); code != 0 {
		t.Fatalf("build exit %d:\n%s%s", code, out.String(), errb.String())
	}
	m, err := manifest.Read(build)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*manifest.Manifest)
		want string
	}{
		{"no native CPU library", func(m *manifest.Manifest) { m.NativeCPU = "" }, "has no native CPU library, so --unchecked cannot run the kernel as written"},
		{"no native device module", func(m *manifest.Manifest) { m.NativeCPU, m.NativePTX = "", "" }, "the build has no native device module"},
		{"no native source", func(m *manifest.Manifest) { m.NativeSource, m.NativeCPU, m.NativePTX = "", "", "" }, "has no native module (the kernels as written, which --unchecked runs): it was made by an older ldcheck"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mm := *m
			tc.edit(&mm)
			if err := mm.Write(build); err != nil {
				t.Fatal(err)
			}
			backend := "cpu"
			if strings.Contains(tc.name, "device") {
				backend = "cuda"
			}
			out.Reset()
			errb.Reset()
			code := run([]string{"ldcheck", "run", "--backend", backend, "--unchecked", "--grid", "1", "--block", "32", "--arg", "a=int[32]:zero", build}, &out, &errb)
			if code != exitFailed || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, want %d and %q in:\n%s%s", code, exitFailed, tc.want, out.String(), errb.String())
			}
		})
	}
}
