package privatize_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ldcheck/gpuruntime"
	"ldcheck/passes"
	"ldcheck/passes/clang"
	"ldcheck/privatize"
)

// nativeMarks are the only edits the native source makes to the user's
// lines: host functions left out, inline PTX and extern __shared__ behind
// macros that give back the user's text on the GPU.
var nativeMarks = regexp.MustCompile(`/\* ldcheck: host function \S+ left out|LDC_INLINE_ASM\(|LDC_NATIVE_EXTERN_SHARED\(`)

// TestNative: the native source of every test kernel is the user's file
// line for line, with no ldcheck hook anywhere in it, and it compiles to
// PTX (clang-15) with every kernel's symbol, and for the CPU backend.
func TestNative(t *testing.T) {
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	// (The e2e kernels' native sources are built and run by cmd/ldcheck's
	// TestEndToEnd, which compares --unchecked outputs with checked ones.)
	files, _ := filepath.Glob("../testdata/acceptance/*.cu")
	more, _ := filepath.Glob("../testdata/kernels/*.cu")
	files = append(files, more...)
	inc := t.TempDir()
	clangInc, cpuInc := filepath.Join(inc, "clang"), filepath.Join(inc, "cpu")
	for _, d := range []string{clangInc, cpuInc} {
		os.MkdirAll(d, 0o755)
	}
	if err := passes.WriteIncludes(clangInc); err != nil {
		t.Fatal(err)
	}
	passes.WriteInclude(cpuInc, "cooperative_groups.h")
	for _, f := range files {
		if strings.HasSuffix(f, "bad_syntax.cu") {
			continue
		}
		res := instrument(t, lib, f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := res.Native
			// The user's lines: after `#line 1 "FILE"`, up to the entry points.
			start := strings.Index(got, "#line 1 \""+f+"\"\n")
			end := strings.Index(got, "#line 1 \""+privatize.NativeName(res.Manifest.Output)+" (ldcheck entry points)\"")
			if start < 0 || end < start {
				t.Fatalf("no #line back to %s, or no entry points:\n%s", f, got)
			}
			body := got[start+len("#line 1 \""+f+"\"\n") : end]
			if strings.Contains(got, "ldcheck_rt.h") {
				t.Errorf("the native source includes the ldcheck runtime")
			}
			want := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
			lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
			if len(lines) != len(want) {
				t.Fatalf("native body has %d lines, the source %d", len(lines), len(want))
			}
			for i, l := range lines {
				l, ok := stripNativeTests(l)
				if !ok {
					t.Errorf("line %d: a stride test that does not wrap one expression: %s", i+1, lines[i])
				}
				if strings.Contains(strings.ToLower(nativeMarks.ReplaceAllString(l, "")), "ldc_") {
					t.Errorf("line %d has an ldcheck hook: %s", i+1, l)
				}
				if l != want[i] && l != "" && !nativeMarks.MatchString(l) {
					t.Errorf("line %d changed:\n  source: %s\n  native: %s", i+1, want[i], l)
				}
			}

			dir := t.TempDir()
			m := res.Manifest
			m.NativeSource = privatize.NativeName(m.Output)
			if err := os.WriteFile(filepath.Join(dir, m.NativeSource), []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			built, err := gpuruntime.CompileNative(context.Background(), dir, m, gpuruntime.BuildOptions{ClangInclude: clangInc, CPUInclude: cpuInc, NVCC: "", Clang: "clang-15"})
			if err != nil {
				t.Fatal(err)
			}
			if m.NativePTX == "" || m.NativeCPU == "" {
				t.Fatalf("native modules missing: ptx %q cpu %q\n%s", m.NativePTX, m.NativeCPU, strings.Join(built.Notes, "\n"))
			}
			// A proof resting on stride tests gets the tested module, with
			// the word its tests record a failure through. (The compiler
			// may drop a test it proves true: ld_scan's 2*step, with step
			// shifted a known number of times.)
			tested := false
			for _, k := range m.Kernels {
				for _, tg := range k.Targets {
					tested = tested || tg.BlockRaceFreeTested
				}
			}
			if tested != (m.TestedPTX != "") {
				t.Errorf("a proof rests on tests: %v; tested module %q\n%s", tested, m.TestedPTX, strings.Join(built.Notes, "\n"))
			}
			if tested {
				tp, _ := os.ReadFile(filepath.Join(dir, m.TestedPTX))
				if !strings.Contains(string(tp), ".global .align 8 .u64 ldc_native_failed") {
					t.Errorf("the tested module records no failure")
				}
			}
			ptx, _ := os.ReadFile(filepath.Join(dir, m.NativePTX))
			for _, k := range m.Kernels {
				if k.Symbol != "" && !strings.Contains(string(ptx), ".entry "+k.Symbol+"(") {
					t.Errorf("native PTX has no entry %s for kernel %s", k.Symbol, k.Name)
				}
			}
			if strings.Contains(string(ptx), "ldc_") {
				t.Errorf("native PTX mentions ldc_")
			}
		})
	}
}

// stripNativeTests takes the stride tests (privatize's nativeTests,
// "(LDC_NATIVE_TEST(LINE, EXPR), ACCESS)") out of a native line, leaving
// ACCESS as the user wrote it; ok is false for a wrapper that does not
// close.
func stripNativeTests(l string) (string, bool) {
	const open = "(LDC_NATIVE_TEST("
	for {
		i := strings.Index(l, open)
		if i < 0 {
			return l, true
		}
		// The test's own parentheses, then ", ", then the access up to
		// the wrapper's closing parenthesis.
		j := closing(l, i+len(open))
		if j < 0 || !strings.HasPrefix(l[j:], ", ") {
			return l, false
		}
		start := j + 2
		end := closing(l, start)
		if end < 0 {
			return l, false
		}
		l = l[:i] + l[start:end-1] + l[end:]
	}
}

// closing is the index just past the parenthesis that closes one opened
// before l[from:], -1 when none does.
func closing(l string, from int) int {
	depth := 1
	for j := from; j < len(l); j++ {
		switch l[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}
