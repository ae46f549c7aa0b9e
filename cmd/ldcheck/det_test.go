package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ldcheck/privatize/manifest"
)

// detRuns is how many times a racy kernel runs with --deterministic: its
// outputs must be the same bytes every time (issue 11).
const detRuns = 5

// checkDeterministic runs a built kernel of testdata with --deterministic
// (TestEndToEnd calls it for every kernel, to share the build): a racy
// kernel detRuns times, which must write the same bytes each time; a
// race-free one once, which must write the bytes of an --unchecked run.
// The exit status is 1 or 0 (0 for race-free kernels), the outputs written
// either way. A kernel that is not instrumented, or whose atomics depend on
// the order threads run them, is refused with exit status 2, naming why (the
// atomics by file:line); with --allow-atomics the latter runs, with a
// warning.
func checkDeterministic(t *testing.T, dir string, e expectation, m *manifest.Manifest, launch, outs []string) {
	t.Helper()
	k := &m.Kernels[0]
	if name := kernelFlag(launch); name != "" {
		var ok bool
		if k, ok = m.Kernel(name); !ok {
			t.Fatalf("no kernel %s in the build", name)
		}
	}
	base := append([]string{"ldcheck", "run", "--backend", "cpu", "--deterministic"}, launch...)
	if len(k.Unhandled) > 0 {
		base = append(base, "--allow-unchecked")
	}
	run1 := func(what string, extra ...string) (int, string, string) {
		var out, errb bytes.Buffer
		args := append(append(append([]string{}, base...), extra...), outFlags(t, outs, what)...)
		code := run(append(args, dir), &out, &errb)
		return code, out.String(), errb.String()
	}
	if !k.Instrumented {
		code, _, stderr := run1("det-refused")
		if code != exitInput || !strings.Contains(stderr, "cannot run deterministically: it was not instrumented") {
			t.Fatalf("--deterministic on a kernel that is not instrumented: exit %d, want 2 saying so\n%s", code, stderr)
		}
		return
	}
	var extra []string
	if ops := orderDependentAtomics(m, k); len(ops) > 0 {
		code, _, stderr := run1("det-refused")
		if code != exitInput || !strings.Contains(stderr, ops[0]) {
			t.Fatalf("--deterministic with order-dependent atomics: exit %d, want 2 naming %q\n%s", code, ops[0], stderr)
		}
		extra = append(extra, "--allow-atomics")
	}
	runs := 1
	if e.race {
		runs = detRuns
	}
	// A plain store racing with other threads' atomics lands before or
	// after them as the threads run (documented: a deterministic run
	// orders the units' private copies, not atomics): such a kernel runs,
	// but its outputs are not held to be the same every run.
	vary := e.kind == "atomic-plain"
	var first map[string][]byte
	for i := 0; i < runs; i++ {
		what := fmt.Sprintf("det%d", i)
		code, stdout, stderr := run1(what, extra...)
		if code != 0 && (code != exitRace || !e.race) {
			t.Fatalf("--deterministic run %d: exit %d\n%s%s", i+1, code, stdout, stderr)
		}
		if extra != nil && !strings.Contains(stderr, "--allow-atomics: ") {
			t.Errorf("--allow-atomics: no warning that the atomics may make outputs differ\n%s", stderr)
		}
		got := map[string][]byte{}
		for _, o := range outs {
			b, err := os.ReadFile(filepath.Join(outDir(t), what+"-"+o))
			if err != nil || len(b) == 0 {
				t.Fatalf("--deterministic run %d wrote no %s (exit %d): %v", i+1, o, code, err)
			}
			got[o] = b
		}
		if first == nil {
			first = got
			continue
		}
		for _, o := range outs {
			if vary {
				break
			}
			if !bytes.Equal(first[o], got[o]) {
				t.Errorf("--deterministic run %d wrote other bytes to %s than run 1", i+1, o)
			}
		}
	}
	if e.race || extra != nil || vary {
		// Racy: any order is as right as another. Order-dependent
		// atomics (allowed): may legitimately differ from any one run.
		return
	}
	var out, errb bytes.Buffer
	plain := append(append([]string{"ldcheck", "run", "--backend", "cpu", "--unchecked"}, launch...), outFlags(t, outs, "det-plain")...)
	if code := run(append(plain, dir), &out, &errb); code != 0 {
		t.Fatalf("unchecked run: exit %d\n%s", code, errb.String())
	}
	for _, o := range outs {
		b, _ := os.ReadFile(filepath.Join(outDir(t), "det-plain-"+o))
		if !bytes.Equal(first[o], b) {
			t.Errorf("race-free kernel: --deterministic wrote other bytes to %s than --unchecked", o)
		}
	}
}
