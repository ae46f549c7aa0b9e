package privatize_test

import (
	"os"
	"path/filepath"
	"testing"

	"ldcheck/passes"
	"ldcheck/passes/clang"
	"ldcheck/privatize"
)

// FuzzFrontEnd feeds arbitrary source text through the whole front end of
// `ldcheck build`: libclang's parse, the analyses, and the instrumenter.
// Errors are fine (most inputs are not CUDA); a panic, a hang or a crash
// of the process is a bug. The seeds are test kernels and pieces of them;
// inputs the fuzzer found are kept in testdata/fuzz/FuzzFrontEnd and run
// as ordinary tests. To fuzz:
//
//	go test ./privatize -run '^$' -fuzz FuzzFrontEnd -fuzztime 5m
func FuzzFrontEnd(f *testing.F) {
	lib, err := clang.Load("")
	if err != nil {
		f.Fatalf("the front-end tests need libclang 15 (run `make deps`): %v", err)
	}
	for _, glob := range []string{"../testdata/acceptance/*.cu", "../testdata/e2e/*.cu"} {
		files, _ := filepath.Glob(glob)
		for i, path := range files {
			if i%4 != 0 { // a sample keeps the seed run short
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
			f.Add(src[:len(src)/2]) // cut mid-kernel
		}
	}
	f.Add([]byte("__global__ void k(int *p) { __shared__ int s[4]; s[threadIdx.x] = p[0]; __syncthreads(); p[threadIdx.x] = s[3 - threadIdx.x]; }"))
	f.Add([]byte("__global__ void k() { goto x; x: ; }"))
	f.Add([]byte("#define K __global__\nK void k(float *a) { if (a) __syncthreads(); }"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		path := filepath.Join(dir, "fuzz.cu")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		u, _, err := passes.Parse(lib, path, passes.Options{})
		if err != nil {
			return
		}
		a := passes.Analyze(u)
		if len(a.Errors()) > 0 {
			return
		}
		privatize.Instrument(u, a, path)
	})
}
