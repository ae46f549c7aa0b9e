package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIntraWarpOff(t *testing.T) {
	for _, c := range []struct {
		expect, flags, shown string
		ok                   bool
	}{
		{"race read-write global intra-warp", "--intra-warp=false", "none (race read-write global intra-warp: intra-warp off)", true},
		{"race read-write global intra-warp", "", "", false},
		{"race read-write global intra-warp", "--intra-warp=false --intra-warp", "", false},
		{"race write-write shared inter-warp", "--intra-warp=false", "", false},
		{"none", "--intra-warp=false", "", false},
	} {
		shown, ok := intraWarpOff(c.expect, c.flags)
		if shown != c.shown || ok != c.ok {
			t.Errorf("intraWarpOff(%q, %q) = %q, %v; want %q, %v", c.expect, c.flags, shown, ok, c.shown, c.ok)
		}
	}
}

func TestHasPTX(t *testing.T) {
	d := t.TempDir()
	if hasPTX(d) {
		t.Fatalf("%s: an empty build has a device module", d)
	}
	if err := os.WriteFile(filepath.Join(d, "k.ldcheck.ptx"), []byte("//"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !hasPTX(d) {
		t.Fatalf("%s: k.ldcheck.ptx not seen", d)
	}
}
