package launch

import (
	"strings"
	"testing"
)

// FuzzParseFlags feeds arbitrary text to every launch-flag parser: none may
// panic, an error must name the flag's text, and what parses must hold
// together (a buffer has at least one element of a known type, or of a
// struct given field by field; a dimension is at least 1).
func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{
		"in=float[1024]:rand", "out=int[4]:zero", "n=1024", "a=float:1.5", "x=uint8[3]:file:C:x:y",
		"p=hex:05000000_0000c03f", "p=file:p.bin", "v=float4[2]:const:1", "b=bool:true",
		"64", "64,2", "4,0", "1,1,1", "2147483647", "1024", "32,32,2", "48K", "2MiB", "out=out.bin",
		"", "=", "a=", "a=[", "a=float[", "a=float[0]:zero", "a=float[1]:const:", "a=hex:0",
		"p={n=5,inner={a=1,b=[1,2]},d=@in}", "c=Cell[4]:{m=rand:3,id=iota}", "p={", "p={a=[{b=1},{}]}", "p={a=1 2}", "c=Cell[8]:rand:3", "c=Cell[2]:file:c.bin", "c=Cell[2]:zero",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, err := ParseArg(s); err == nil {
			if a.Raw != s || a.Name == "" {
				t.Fatalf("ParseArg(%q) = %+v: lost the flag's text or name", s, a)
			}
			if a.IsBuffer() {
				if _, ok := lookupType(a.Type); !ok && !a.Init.Struct || a.Count < 1 {
					t.Fatalf("ParseArg(%q) = %+v: a buffer of an unknown type or no elements", s, a)
				}
			}
		} else if !strings.Contains(err.Error(), "--arg") {
			t.Fatalf("ParseArg(%q): error %q does not name --arg", s, err)
		}
		for _, parse := range []func(string) (Dim3, error){ParseGrid, ParseBlock, ParseDim3} {
			if d, err := parse(s); err == nil && (d[0] < 1 || d[1] < 1 || d[2] < 1) {
				t.Fatalf("%q parsed to %v, a dimension below 1", s, d)
			}
		}
		if n, err := ParseBytes(s); err == nil && n < 0 {
			t.Fatalf("ParseBytes(%q) = %d", s, n)
		}
		if n, err := ParseMemory(s); err == nil && n < 0 {
			t.Fatalf("ParseMemory(%q) = %d", s, n)
		}
		ParseOut(s)
	})
}
