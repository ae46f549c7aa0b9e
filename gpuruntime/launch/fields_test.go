package launch

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/privatize/manifest"
)

// params is struct Params { const float *data; int n; struct { float
// scale; short bias; } inner; int v[3]; unsigned char flags[2][2];
// struct { int a; } pairs[2]; } passed by value, as the front end lays it
// out (40 bytes on LP64, flattened as in the manifest).
var paramsFields = []manifest.Field{
	{Name: "data", Offset: 0, Size: 8, Type: "const float *"},
	{Name: "n", Offset: 8, Size: 4, Type: "int"},
	{Name: "inner.scale", Offset: 12, Size: 4, Type: "float"},
	{Name: "inner.bias", Offset: 16, Size: 2, Type: "short"},
	{Name: "v", Offset: 20, Size: 12, Type: "int[3]"},
	{Name: "flags", Offset: 32, Size: 4, Type: "unsigned char[2][2]"},
	{Name: "pairs[0].a", Offset: 36, Size: 4, Type: "int"},
	{Name: "pairs[1].a", Offset: 40, Size: 4, Type: "int"},
}

func structKernel() *manifest.Kernel {
	p := manifest.Param{Name: "p", Type: "Params", Size: 44, Fields: paramsFields}
	cells := ptr("cells", "Cell", 16)
	cells.ElemFields = []manifest.Field{
		{Name: "mass", Offset: 0, Size: 4, Type: "float"},
		{Name: "id", Offset: 4, Size: 4, Type: "int"},
		{Name: "next", Offset: 8, Size: 8, Type: "Cell *"},
	}
	return kernel(p, ptr("in", "const float", 4), cells, scalarParam("n", "int", 4))
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// TestParseArgFields: the field-wise forms parse, spaces and nesting
// included; their syntax errors say what is wrong.
func TestParseArgFields(t *testing.T) {
	for _, s := range []string{
		"p={n=5,inner={scale=1.5},v=[1,2,3],data=@in}",
		"p={ n = 5 , inner = { scale = -2e3 } }",
		"p={}",
		"p={v=[]}",
		"cells=Cell[256]:{mass=1.5,id=iota,next=@cells}",
		"cells=Cell[4]:{mass=rand:7}",
	} {
		if _, err := ParseArg(s); err != nil {
			t.Errorf("ParseArg(%q): %v", s, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"p={n=5", "--arg p={n=5: missing } at the end"},
		{"p={n}", "--arg p={n}: missing = after field n (want " + fieldSyntax + ")"},
		{"p={n=}", "--arg p={n=}: missing value for n (want " + fieldSyntax + ")"},
		{"p={n=1,n=2}", "--arg p={n=1,n=2}: field n is given twice"},
		{"p={inner={a=1 b=2}}", `--arg "p={inner={a=1 b=2}}": "1 b" is not one value for inner.a; separate fields and elements with ,`},
		{"p={a=1=2}", `--arg p={a=1=2}: unexpected "=" after 1 for a (want ` + fieldSyntax + ")"},
		{"p={v=[1,2}", `--arg p={v=[1,2}: want , or ] in the list for v, got "}"`},
		{"p={n=5}x", `--arg p={n=5}x: unexpected "x" after the closing brace (want ` + fieldSyntax + ")"},
		{"p={data=@}", "--arg p={data=@}: @ must name a pointer parameter, e.g. @in for data"},
		{"p={1=2}", `--arg p={1=2}: want FIELD=VALUE, got "1=2}" (want ` + fieldSyntax + ")"},
		{"x=float[4]:{a=1}", "--arg x=float[4]:{a=1}: float is not a struct: {FIELD=VALUE,...} sets the fields of a buffer of structs (want x=float[4]:INIT, INIT one of " + initSyntax + ")"},
		{"c=Cell[0]:{a=1}", "--arg c=Cell[0]:{a=1}: COUNT is 0; a buffer needs at least 1 element"},
		{"c=Cell[]:{a=1}", "--arg c=Cell[]:{a=1}: missing COUNT in Cell[] (want c=Cell[COUNT]:{FIELD=VALUE,...})"},
	} {
		_, err := ParseArg(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseArg(%q):\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

// TestBindStructFields: each field lands at its offset in its type,
// nested structs, arrays and arrays of structs included; omitted fields
// are zero; @in becomes a pointer to parameter in's buffer.
func TestBindStructFields(t *testing.T) {
	k := structKernel()
	vals, _, err := Bind(k, spec(t, "p={n=5,inner={scale=1.5,bias=-2},v=[7,8],flags=[[1],[2,3]],pairs=[{},{a=9}],data=@in}", "cells=Cell[2]:{}"))
	if err != nil {
		t.Fatal(err)
	}
	v := vals[0]
	want := make([]byte, 44)
	copy(want[8:], le32(5))
	copy(want[12:], le32(math.Float32bits(1.5)))
	copy(want[16:], []byte{0xfe, 0xff})
	copy(want[20:], le32(7))
	copy(want[24:], le32(8))
	copy(want[32:], []byte{1, 0, 2, 3})
	copy(want[40:], le32(9))
	if !bytes.Equal(v.Data, want) {
		t.Errorf("bytes:\n got %x\nwant %x", v.Data, want)
	}
	if d := cmp.Diff([]Ptr{{Offset: 0, Count: 1, Param: 1}}, v.Ptrs); d != "" {
		t.Errorf("pointers (-want +got):\n%s", d)
	}
	if got := v.String(); got != "p={n=5,inner={scale=1.5,bias=-2},v=[7,8],flags=[[1],[2,3]],pairs=[{},{a=9}],data=@in}" {
		t.Errorf("String() = %s", got)
	}
	// A null pointer, and rand for one value.
	vals, _, err = Bind(k, spec(t, "p={data=0,n=rand:3}", "cells=Cell[2]:{}"))
	if err != nil || len(vals[0].Ptrs) != 0 || !bytes.Equal(vals[0].Data[:8], make([]byte, 8)) {
		t.Errorf("data=0: %v %+v", err, vals)
	}
}

// TestBindStructBuffer: every element of a buffer of structs gets the
// fields given; iota and rand vary per element; a pointer field points
// Count times, one element apart.
func TestBindStructBuffer(t *testing.T) {
	k := structKernel()
	vals, _, err := Bind(k, spec(t, "p={}", "cells=Cell[3]:{mass=rand:5,id=iota,next=@cells}"))
	if err != nil {
		t.Fatal(err)
	}
	v := vals[2]
	if !v.Buffer || v.Count != 3 || v.ElemSize != 16 || len(v.Data) != 48 || v.Type != "Cell" {
		t.Fatalf("value %+v", v)
	}
	r := rng{5}
	f, _ := lookupType("float")
	for i := 0; i < 3; i++ {
		el := v.Data[i*16:]
		if got, want := binary.LittleEndian.Uint32(el), uint32(r.randBits(f)); got != want {
			t.Errorf("cells[%d].mass bits %#x, want %#x", i, got, want)
		}
		if got := binary.LittleEndian.Uint32(el[4:]); got != uint32(i) {
			t.Errorf("cells[%d].id = %d, want %d", i, got, i)
		}
	}
	if d := cmp.Diff([]Ptr{{Offset: 8, Stride: 16, Count: 3, Param: 2}}, v.Ptrs); d != "" {
		t.Errorf("pointers (-want +got):\n%s", d)
	}
	if got := v.String(); got != "cells=Cell[3]:{mass=rand:5,id=iota,next=@cells}" {
		t.Errorf("String() = %s", got)
	}
}

// TestBindStructBufferInits: zero, rand and file for a buffer of
// structs; a TYPE that is not the kernel's struct is an unknown TYPE.
func TestBindStructBufferInits(t *testing.T) {
	k := structKernel()
	vals, _, err := Bind(k, spec(t, "p={}", "cells=Cell[3]:zero"))
	if err != nil || !bytes.Equal(vals[2].Data, make([]byte, 48)) || vals[2].String() != "cells=Cell[3]:zero" {
		t.Fatalf("zero: %v %+v", err, vals)
	}
	vals, _, err = Bind(k, spec(t, "p={}", "cells=Cell[3]:rand:9"))
	if err != nil {
		t.Fatal(err)
	}
	r := rng{9}
	f, _ := lookupType("float")
	i32, _ := lookupType("int")
	for i := 0; i < 3; i++ {
		el := vals[2].Data[i*16:]
		mass, id := uint64(binary.LittleEndian.Uint32(el)), uint64(binary.LittleEndian.Uint32(el[4:]))
		if wm, wi := r.randBits(f), r.randBits(i32); mass != wm || id != wi {
			t.Errorf("cells[%d]: mass bits %#x id %d, want %#x %d", i, mass, id, wm, wi)
		}
		if !bytes.Equal(el[8:16], make([]byte, 8)) {
			t.Errorf("cells[%d].next is not null: %x", i, el[8:16])
		}
	}
	path := filepath.Join(t.TempDir(), "cells.bin")
	os.WriteFile(path, bytes.Repeat([]byte{7}, 32), 0o644)
	vals, _, err = Bind(k, spec(t, "p={}", "cells=Cell[2]:file:"+path))
	if err != nil || !bytes.Equal(vals[2].Data, bytes.Repeat([]byte{7}, 32)) {
		t.Errorf("file: %v", err)
	}
	_, _, err = Bind(k, spec(t, "p={}", "cells=Cell[3]:file:"+path))
	if want := "is 32 bytes, shorter than Cell[3] (48 bytes); Cell[2] reads all of it"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("file of the wrong size: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"p={}", "cells=Cel[3]:zero"}, `--arg cells=Cel[3]:zero: unknown TYPE "Cel" (want ` + strings.Join(TypeNames(), ", ") + "); cells points to Cell, so cells=Cell[3]:zero"},
		{[]string{"p={}", "cells=Cell[1]:{}", "in=flaot[4]:rand"}, `--arg in=flaot[4]:rand: unknown TYPE "flaot" (want ` + strings.Join(TypeNames(), ", ") + ")"},
	} {
		if _, _, err := Bind(k, spec(t, tc.args...)); err == nil || err.Error() != tc.want {
			t.Errorf("%v:\n got %v\nwant %s", tc.args, err, tc.want)
		}
	}
	// Spellings that are numbers or vectors stay unknown TYPEs at once.
	for _, s := range []string{"v=float4[4]:zero", "v=Cell[4]:iota", "v=Cell[4]:const:1"} {
		if _, err := ParseArg(s); err == nil || !strings.Contains(err.Error(), "unknown TYPE") {
			t.Errorf("ParseArg(%q): %v, want an unknown TYPE", s, err)
		}
	}
}

// TestBindPointerToTarget: a pointer field to a buffer the kernel writes
// (a checked target) says that accesses through it are not checked.
func TestBindPointerToTarget(t *testing.T) {
	k := structKernel()
	k.Targets = []manifest.Target{{Name: "cells", Kind: manifest.KindParam, Param: 2, Space: manifest.SpaceGlobal}}
	_, notes, err := Bind(k, spec(t, "p={data=@cells}", "cells=Cell[1]:{}"))
	want := "--arg p={data=@cells}: field data points to cells, which the kernel writes: accesses through the field are not checked, and reads through it can see other threads' writes, which ldcheck may report as a read-write race"
	if err != nil || len(notes) == 0 || notes[0] != want {
		t.Errorf("err %v, notes %q\nwant %s", err, notes, want)
	}
	_, notes, _ = Bind(k, spec(t, "p={data=@in}", "cells=Cell[1]:{}"))
	if strings.Contains(strings.Join(notes, "\n"), "not checked") {
		t.Errorf("a pointer to an input: notes %q", notes)
	}
}

// TestBindStructErrors: each error names the field and says what is
// valid there.
func TestBindStructErrors(t *testing.T) {
	const fields = "data (const float *), n (int), inner {scale, bias}, v (int[3]), flags (unsigned char[2][2]), pairs[2] of {a}"
	for _, tc := range []struct{ arg, want string }{
		{"p={m=1}", "--arg p={m=1}: p (Params) has no field m (fields: " + fields + ")"},
		{"p={inner={scal=1}}", "--arg p={inner={scal=1}}: field inner has no field scal (fields: scale (float), bias (short))"},
		{"p={n=3000000000}", "--arg p={n=3000000000}: field n: 3000000000 is out of range for int (want -2147483648..2147483647)"},
		{"p={inner={bias=40000}}", "--arg p={inner={bias=40000}}: field inner.bias: 40000 is out of range for short (want -32768..32767)"},
		{"p={inner={scale=x}}", `--arg p={inner={scale=x}}: field inner.scale: "x" is not a number (float wants e.g. 0.5, -2, 1e-3)`},
		{"p={n=1.5}", `--arg p={n=1.5}: field n: "1.5" is not an integer (int wants e.g. 1024, -1, 0x400, 1e6)`},
		{"p={v=[1,2,3,4]}", "--arg p={v=[1,2,3,4]}: field v (int[3]) has 3 elements; got 4"},
		{"p={v=1}", "--arg p={v=1}: field v is an array (int[3]); want v=[V,...], e.g. v=[1,2]"},
		{"p={v=[1,x]}", `--arg p={v=[1,x]}: field v[1]: "x" is not an integer (int wants e.g. 1024, -1, 0x400, 1e6)`},
		{"p={flags=[[1,2,3]]}", "--arg p={flags=[[1,2,3]]}: field flags[0] (unsigned char[2]) has 2 elements; got 3"},
		{"p={pairs=[{b=1}]}", "--arg p={pairs=[{b=1}]}: field pairs[0] has no field b (fields: a (int))"},
		{"p={pairs={a=1}}", "--arg p={pairs={a=1}}: field pairs is an array of 2 structs (fields: a (int)); want pairs=[{FIELD=VALUE,...},...]"},
		{"p={inner=1}", "--arg p={inner=1}: field inner is a struct (fields: scale (float), bias (short)); want inner={FIELD=VALUE,...}"},
		{"p={n={a=1}}", "--arg p={n={a=1}}: field n (int) is not a struct; want n=VALUE"},
		{"p={data=@nope}", "--arg p={data=@nope}: field data: @nope names no buffer; want @NAME, NAME a pointer parameter of kernel k (its pointer parameters: const float *in, Cell *cells)"},
		{"p={data=@n}", "--arg p={data=@n}: field data: @n names no buffer; want @NAME, NAME a pointer parameter of kernel k (its pointer parameters: const float *in, Cell *cells)"},
		{"p={n=@in}", "--arg p={n=@in}: field n (int) is not a pointer; @in sets pointer fields only"},
		{"p={data=5}", "--arg p={data=5}: field data is a pointer (const float *); want @NAME, the buffer of pointer parameter NAME (e.g. data=@in), or 0"},
		{"p=5", "--arg p=5: p is a struct (Params p); give its fields: --arg p={FIELD=VALUE,...} (fields: " + fields + "), or its 44 bytes: p=hex:BYTES or p=file:PATH"},
		{"n={a=1}", "--arg n={a=1}: n is not a struct (int n); want n=VALUE"},
		{"p=float[4]:zero", "--arg p=float[4]:zero: p is not a pointer (Params p); want p={FIELD=VALUE,...}"},
		{"cells=Node[4]:{mass=1}", "--arg cells=Node[4]:{mass=1}: cells points to Cell, not Node; want cells=Cell[4]:{FIELD=VALUE,...} (fields: mass (float), id (int), next (Cell *))"},
		{"cells=Cell[4]:{mass=1,weight=2}", "--arg cells=Cell[4]:{mass=1,weight=2}: Cell has no field weight (fields: mass (float), id (int), next (Cell *))"},
		{"in=float[4]:{a=1}", "--arg in=float[4]:{a=1}: float is not a struct: {FIELD=VALUE,...} sets the fields of a buffer of structs (want in=float[4]:INIT, INIT one of " + initSyntax + ")"},
		{"in=Cell[4]:{a=1}", "--arg in=Cell[4]:{a=1}: in points to float, not a struct whose fields the build knows; want in=TYPE[COUNT]:INIT, INIT one of " + initSyntax},
	} {
		s := Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{32, 1, 1}}
		a, err := ParseArg(tc.arg)
		if err == nil {
			s.Args = append(s.Args, a)
			for _, other := range []string{"p={}", "cells=Cell[1]:{}"} {
				if other[0] != tc.arg[0] {
					o, _ := ParseArg(other)
					s.Args = append(s.Args, o)
				}
			}
			_, _, err = Bind(structKernel(), s)
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.arg, err, tc.want)
		}
		if _, ok := err.(*Error); err != nil && !ok {
			t.Errorf("%s: %T is not an *Error (exit 2)", tc.arg, err)
		}
	}
}

// TestBindStructMissing: a struct without --arg says how to give it.
func TestBindStructMissing(t *testing.T) {
	_, _, err := Bind(structKernel(), spec(t, "cells=Cell[1]:{}"))
	want := "no --arg for p (Params p): give its fields, --arg p={FIELD=VALUE,...} (fields: data (const float *), n (int), inner {scale, bias}, v (int[3]), flags (unsigned char[2][2]), pairs[2] of {a}; those left out are zero), or its 44 bytes: p=hex:BYTES or p=file:PATH"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestBindStructNoLayout: a manifest without the fields of a struct says
// how else to give it.
func TestBindStructNoLayout(t *testing.T) {
	k := kernel(scalarParam("p", "Params", 8))
	_, _, err := Bind(k, spec(t, "p={n=1}"))
	want := "--arg p={n=1}: the build does not know the fields of p (Params p); rebuild with this ldcheck, or give its 8 bytes: p=hex:BYTES or p=file:PATH"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestBindFunctionPointers: a parameter that is or holds a function
// pointer is refused by name, given or not.
func TestBindFunctionPointers(t *testing.T) {
	fp := manifest.Param{Name: "f", Type: "cb_t", Size: 8, Pointer: true, Elem: "void (int)", ElemSize: 1}
	holder := manifest.Param{Name: "w", Type: "WithCb", Size: 16, Fields: []manifest.Field{
		{Name: "n", Offset: 0, Size: 4, Type: "int"}, {Name: "cb", Offset: 8, Size: 8, Type: "void (*)(int)"}}}
	for _, tc := range []struct {
		p    manifest.Param
		args []string
		want string
	}{
		{fp, nil, "kernel parameter f (cb_t f) is a function pointer: not supported (ldcheck cannot pass the address of a device function)"},
		{fp, []string{"f=int[4]:zero"}, "--arg f=int[4]:zero: kernel parameter f (cb_t f) is a function pointer: not supported (ldcheck cannot pass the address of a device function)"},
		{holder, nil, "kernel parameter w (WithCb w) holds a function pointer, field cb (void (*)(int)): not supported (ldcheck cannot pass the address of a device function)"},
		{holder, []string{"w={n=1}"}, "--arg w={n=1}: kernel parameter w (WithCb w) holds a function pointer, field cb (void (*)(int)): not supported (ldcheck cannot pass the address of a device function)"},
		{holder, []string{"w=hex:00000000000000000000000000000000"}, "--arg w=hex:00000000000000000000000000000000: kernel parameter w (WithCb w) holds a function pointer, field cb (void (*)(int)): not supported (ldcheck cannot pass the address of a device function)"},
	} {
		_, _, err := Bind(kernel(tc.p), spec(t, tc.args...))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %v:\n got %v\nwant %s", tc.p.Name, tc.args, err, tc.want)
		}
	}
}

// TestLayoutTypes: the C types of fields that --arg reads by name, and
// enums (an integer's size, another spelling) as integers.
func TestLayoutTypes(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		size int
		ok   bool
		name string
	}{
		{"float", 4, true, "float"}, {"unsigned long", 8, true, "ulong"}, {"const int", 4, true, "int"},
		{"Color", 4, true, "Color"}, {"long double", 16, false, ""}, {"float4", 16, false, ""},
	} {
		got, ok := leafType(tc.typ, tc.size)
		if ok != tc.ok || ok && got.name != tc.name {
			t.Errorf("leafType(%q, %d) = %+v, %v", tc.typ, tc.size, got, ok)
		}
	}
	for _, tc := range []struct {
		typ, elem string
		n         int
	}{{"int[3]", "int", 3}, {"float[2][4]", "float[4]", 2}, {"unsigned char [5]", "unsigned char", 5}} {
		elem, n, ok := firstDim(tc.typ)
		if !ok || elem != tc.elem || n != tc.n {
			t.Errorf("firstDim(%q) = %q, %d, %v", tc.typ, elem, n, ok)
		}
	}
	if _, _, ok := firstDim("void (*)(int[3])"); ok {
		t.Errorf("a function pointer is not an array")
	}
}

// FuzzBindFields: no field-wise value panics Bind, and every error is an
// *Error (exit 2).
func FuzzBindFields(f *testing.F) {
	for _, s := range []string{
		"p={n=5,inner={scale=1.5,bias=-2},v=[7,8],flags=[[1],[2,3]],pairs=[{},{a=9}],data=@in}",
		"p={data=@cells}", "cells=Cell[2]:{next=@cells,id=iota}", "p={flags=[[1,2],[3]]}", "p={pairs=[{a=rand}]}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseArg(s)
		if err != nil {
			return
		}
		sp := Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{1, 1, 1}, Args: []Arg{a}}
		for _, other := range []string{"p={}", "cells=Cell[1]:{}"} {
			if other[0] != a.Name[0] {
				o, _ := ParseArg(other)
				sp.Args = append(sp.Args, o)
			}
		}
		if _, _, err := Bind(structKernel(), sp); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: %T %v is not an *Error", s, err, err)
			}
		}
	})
}
