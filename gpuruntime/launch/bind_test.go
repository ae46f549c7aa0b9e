package launch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"ldcheck/privatize/manifest"
)

// ptr is a pointer parameter as privatize writes it: elem "const float",
// size the pointee's (0 when unknown).
func ptr(name, elem string, size int64) manifest.Param {
	return manifest.Param{Name: name, Type: elem + " *", Size: 8, Pointer: true, Elem: elem, ElemSize: size, Const: strings.HasPrefix(elem, "const ")}
}

func scalarParam(name, typ string, size int64) manifest.Param {
	return manifest.Param{Name: name, Type: typ, Size: size}
}

func kernel(params ...manifest.Param) *manifest.Kernel {
	return &manifest.Kernel{Name: "k", Params: params, Instrumented: true}
}

var saxpy = kernel(scalarParam("n", "int", 4), scalarParam("a", "float", 4), ptr("x", "const float", 4), ptr("y", "float", 4))

// spec is a 64x256 launch with these --args.
func spec(t *testing.T, args ...string) Spec {
	t.Helper()
	s := Spec{Grid: Dim3{64, 1, 1}, Block: Dim3{256, 1, 1}}
	for _, raw := range args {
		a, err := ParseArg(raw)
		if err != nil {
			t.Fatalf("ParseArg(%q): %v", raw, err)
		}
		s.Args = append(s.Args, a)
	}
	return s
}

// decode reads data as elements of the named TYPE, as float64s (exact for
// the values these tests use).
func decode(t *testing.T, typ string, data []byte) []float64 {
	t.Helper()
	et, ok := lookupType(typ)
	if !ok {
		t.Fatalf("no TYPE %s", typ)
	}
	if len(data)%et.size != 0 {
		t.Fatalf("%d bytes of %s", len(data), typ)
	}
	out := make([]float64, len(data)/et.size)
	for i := range out {
		b := data[i*et.size:]
		var u uint64
		switch et.size {
		case 1:
			u = uint64(b[0])
		case 2:
			u = uint64(binary.LittleEndian.Uint16(b))
		case 4:
			u = uint64(binary.LittleEndian.Uint32(b))
		case 8:
			u = binary.LittleEndian.Uint64(b)
		}
		switch {
		case typ == "half":
			out[i] = testHalf(uint16(u))
		case typ == "bfloat16":
			out[i] = float64(math.Float32frombits(uint32(u) << 16))
		case et.kind == kindFloat && et.size == 4:
			out[i] = float64(math.Float32frombits(uint32(u)))
		case et.kind == kindFloat:
			out[i] = math.Float64frombits(u)
		case et.kind == kindInt:
			shift := 64 - 8*et.size
			out[i] = float64(int64(u<<shift) >> shift)
		default:
			out[i] = float64(u)
		}
	}
	return out
}

// ignoreData compares Values without their (large) contents.
var ignoreData = cmpopts.IgnoreFields(Value{}, "Data")

func TestBindDefaults(t *testing.T) {
	pfloat, pdouble, pchar, pbool, pf4 := ptr("f", "float", 4), ptr("d", "double", 8), ptr("c", "unsigned char", 1), ptr("b", "bool", 1), ptr("v", "float4", 16)
	pint, puint, psize, pll, pshort := scalarParam("n", "int", 4), scalarParam("u", "unsigned int", 4), scalarParam("s", "size_t", 8), scalarParam("l", "long long", 8), scalarParam("h", "const short", 2)
	buf := func(p manifest.Param, typ string, count, size int, seed int64) Value {
		return Value{Param: p, Buffer: true, Count: count, ElemSize: size, Type: typ, Init: Init{Kind: "rand", Seed: seed}}
	}
	scalar := func(p manifest.Param, typ string, size int) Value {
		return Value{Param: p, Count: 1, ElemSize: size, Type: typ}
	}
	for _, tc := range []struct {
		name        string
		k           *manifest.Kernel
		grid, block Dim3
		args        []string
		want        []Value
		notes       []string
	}{
		{
			name: "saxpy", k: saxpy, grid: Dim3{64, 1, 1}, block: Dim3{256, 1, 1}, args: []string{"a=2"},
			want: []Value{scalar(saxpy.Params[0], "int", 4), scalar(saxpy.Params[1], "float", 4),
				buf(saxpy.Params[2], "float", 262144, 4, 3), buf(saxpy.Params[3], "float", 262144, 4, 4)},
			notes: []string{
				"assumed --arg n=16384 (no --arg given: grid x block threads)",
				"assumed --arg x=float[262144]:rand:3 (no --arg given)",
				"assumed --arg y=float[262144]:rand:4 (no --arg given)",
			},
		},
		{
			// Past 1 MiB, one element per thread.
			name: "element per thread", k: kernel(pfloat, pdouble, pint), grid: Dim3{64, 64, 1}, block: Dim3{16, 16, 1},
			want: []Value{buf(pfloat, "float", 1<<20, 4, 1), buf(pdouble, "double", 1<<20, 8, 2), scalar(pint, "int", 4)},
			notes: []string{
				"assumed --arg f=float[1048576]:rand:1 (no --arg given)",
				"assumed --arg d=double[1048576]:rand:2 (no --arg given)",
				"assumed --arg n=1048576 (no --arg given: grid x block threads)",
			},
		},
		{
			name: "at least 1 MiB", k: kernel(pdouble, pchar, pbool, pf4), grid: Dim3{1, 1, 1}, block: Dim3{32, 1, 1},
			want: []Value{buf(pdouble, "double", 131072, 8, 1), buf(pchar, "uchar", 1<<20, 1, 2), buf(pbool, "bool", 1<<20, 1, 3),
				buf(pf4, "float", 4*65536, 4, 4)},
			notes: []string{
				"assumed --arg d=double[131072]:rand:1 (no --arg given)",
				"assumed --arg c=uchar[1048576]:rand:2 (no --arg given)",
				"assumed --arg b=bool[1048576]:rand:3 (no --arg given)",
				"assumed --arg v=float[262144]:rand:4 (no --arg given)",
			},
		},
		{
			name: "integer scalars", k: kernel(puint, psize, pll, pshort), grid: Dim3{2, 3, 4}, block: Dim3{5, 6, 7},
			want: []Value{scalar(puint, "uint", 4), scalar(psize, "uint64", 8), scalar(pll, "longlong", 8), scalar(pshort, "short", 2)},
			notes: []string{
				"assumed --arg u=5040 (no --arg given: grid x block threads)",
				"assumed --arg s=5040 (no --arg given: grid x block threads)",
				"assumed --arg l=5040 (no --arg given: grid x block threads)",
				"assumed --arg h=5040 (no --arg given: grid x block threads)",
			},
		},
		{
			name: "unnamed", k: kernel(manifest.Param{Type: "float *", Size: 8, Pointer: true, Elem: "float", ElemSize: 4}, manifest.Param{Type: "int", Size: 4}),
			grid: Dim3{1, 1, 1}, block: Dim3{1, 1, 1},
			want: []Value{buf(manifest.Param{Type: "float *", Size: 8, Pointer: true, Elem: "float", ElemSize: 4}, "float", 262144, 4, 1), scalar(manifest.Param{Type: "int", Size: 4}, "int", 4)},
			notes: []string{
				"assumed parameter 1 (unnamed): float[262144]:rand:1 (unnamed, so no --arg can set it)",
				"assumed parameter 2 (unnamed): 1 (grid x block threads; unnamed, so no --arg can set it)",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := spec(t, tc.args...)
			s.Grid, s.Block = tc.grid, tc.block
			values, notes, err := Bind(tc.k, s)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, values, ignoreData); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.notes, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			threads := float64(s.Threads())
			for _, v := range values {
				if len(v.Data) != v.Count*v.ElemSize {
					t.Errorf("%s: %d bytes, want %d x %d", v.Param.Name, len(v.Data), v.Count, v.ElemSize)
				}
				if !v.Buffer && v.Type != "float" {
					if got := decode(t, v.Type, v.Data)[0]; got != threads {
						t.Errorf("%s = %v, want the thread count %v", v.Param.Name, got, threads)
					}
				}
			}
		})
	}
	// Default buffers are filled as their notes say, and no two alike.
	values, _, err := Bind(saxpy, spec(t, "a=2"))
	if err != nil {
		t.Fatal(err)
	}
	same, _, err := Bind(saxpy, spec(t, "a=2", "x=float[262144]:rand:3", "y=float[262144]:rand:4"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(values[2].Data, same[2].Data) || !bytes.Equal(values[3].Data, same[3].Data) {
		t.Error("default buffers differ from the --arg their notes give")
	}
	if bytes.Equal(values[2].Data, values[3].Data) {
		t.Error("x and y have the same default data")
	}
}

func TestBindErrors(t *testing.T) {
	big := Spec{Grid: Dim3{1 << 30, 1, 1}, Block: Dim3{1024, 1, 1}}
	for _, tc := range []struct {
		name string
		k    *manifest.Kernel
		s    Spec
		want string
	}{
		{"unknown param", saxpy, spec(t, "a=1", "alpha=2"), "--arg alpha=2: kernel k has no parameter alpha (its parameters: int n, float a, const float *x, float *y)"},
		{"unknown, no params", kernel(), spec(t, "a=1"), "--arg a=1: kernel k has no parameter a (it has no parameters)"},
		{"twice", saxpy, spec(t, "a=1", "a=2"), "--arg a=2: a is given twice (also --arg a=1)"},
		{"float without arg", saxpy, spec(t), "no --arg for a (float a): give --arg a=VALUE; only integer parameters default (to the thread count)"},
		{"double without arg", kernel(scalarParam("d", "double", 8)), spec(t), "no --arg for d (double d): give --arg d=VALUE; only integer parameters default (to the thread count)"},
		{"bool without arg", kernel(scalarParam("b", "bool", 1)), spec(t), "no --arg for b (bool b): give --arg b=VALUE; only integer parameters default (to the thread count)"},
		{"typedef without arg", kernel(scalarParam("r", "real", 4)), spec(t), "no --arg for r (real r, 4 bytes): ldcheck cannot tell what it takes; give --arg r=TYPE:VALUE, e.g. r=int:7, or its 4 bytes: r=hex:BYTES or r=file:PATH"},
		{"struct without arg", kernel(scalarParam("p", "Pair", 8)), spec(t), "no --arg for p (Pair p, 8 bytes): ldcheck cannot tell what it takes; give --arg p=TYPE:VALUE, e.g. p=int:7, or its 8 bytes: p=hex:BYTES or p=file:PATH"},
		{"unnamed float", kernel(scalarParam("", "float", 4)), spec(t), "no --arg for parameter 1 (unnamed) (float): name it in the kernel's signature and give --arg NAME=VALUE; only integer parameters default (to the thread count)"},
		{"default out of range", kernel(scalarParam("c", "char", 1)), spec(t), "no --arg for c (char c), and its default, the thread count (64 x 256 = 16384), is out of range for char; give --arg c=VALUE"},
		{"default int out of range", kernel(scalarParam("n", "int", 4)), big, "no --arg for n (int n), and its default, the thread count (1073741824 x 1024 = 1099511627776), is out of range for int; give --arg n=VALUE"},
		{"default buffer too big", kernel(ptr("x", "float", 4)), big, "no --arg for x (float *x): the default, a float per thread (1099511627776 threads), would be over 1073741824 bytes; give --arg x=TYPE[COUNT]:INIT"},
		{"void without arg", kernel(ptr("v", "void", 0)), spec(t), "no --arg for v (void *v): a void pointer says nothing of its data; give --arg v=TYPE[COUNT]:INIT, e.g. v=float[1024]:zero"},
		{"struct pointer without arg", kernel(ptr("p", "Pair", 0)), spec(t), "no --arg for p (Pair *p): ldcheck cannot tell what data Pair takes; give --arg p=TYPE[COUNT]:INIT, e.g. p=float[1024]:zero"},
		{"half struct without arg", kernel(ptr("h", "half_t", 2)), spec(t), "no --arg for h (half_t *h): ldcheck cannot tell what data half_t takes; give --arg h=TYPE[COUNT]:INIT, e.g. h=float[1024]:zero"},
		{"scalar for pointer", saxpy, spec(t, "a=1", "y=3"), "--arg y=3: y is a pointer (float *y); want y=TYPE[COUNT]:INIT, e.g. y=float[1024]:zero"},
		{"scalar for float4 pointer", kernel(ptr("v", "float4", 16)), spec(t, "v=zero"), "--arg v=zero: v is a pointer (float4 *v); want v=TYPE[COUNT]:INIT, e.g. v=float[4096]:zero"},
		{"buffer for scalar", saxpy, spec(t, "a=float[4]:zero"), "--arg a=float[4]:zero: a is not a pointer (float a); want a=VALUE"},
		{"double for float", saxpy, spec(t, "a=1", "x=double[64]:zero"), "--arg x=double[64]:zero: x points to float (4 bytes) but double is 8 bytes; want a 4-byte TYPE, e.g. float[64]"},
		{"char for int", kernel(ptr("p", "int", 4)), spec(t, "p=char[64]:zero"), "--arg p=char[64]:zero: p points to int (4 bytes) but char is 1 bytes; want a 4-byte TYPE, e.g. int[64]"},
		{"float for half", kernel(ptr("h", "__half", 2)), spec(t, "h=float[64]:zero"), "--arg h=float[64]:zero: h points to __half (2 bytes) but float is 4 bytes; want a 2-byte TYPE, e.g. half[64]"},
		{"half pairs, odd count", kernel(ptr("h", "__half2", 4)), spec(t, "h=half[7]:zero"), "--arg h=half[7]:zero: h points to __half2, 2 halfs each; COUNT 7 is not a multiple of 2"},
		{"double for float4", kernel(ptr("v", "float4", 16)), spec(t, "v=double[8]:zero"), "--arg v=double[8]:zero: v points to float4 (16 bytes) but double is 8 bytes; want float[COUNT], COUNT a multiple of 4"},
		{"lanes", kernel(ptr("v", "float4", 16)), spec(t, "v=float[6]:zero"), "--arg v=float[6]:zero: v points to float4, 4 floats each; COUNT 6 is not a multiple of 4"},
		{"typed scalar size", kernel(scalarParam("r", "real", 4)), spec(t, "r=double:3"), "--arg r=double:3: r has type real (4 bytes) but double is 8 bytes; want a 4-byte TYPE"},
		{"untyped typedef", kernel(scalarParam("r", "real", 4)), spec(t, "r=3"), "--arg r=3: ldcheck cannot tell what r (real r, 4 bytes) takes; give its TYPE: --arg r=TYPE:3, e.g. r=int:3, or its 4 bytes: r=hex:BYTES or r=file:PATH"},
		{"struct bytes short", kernel(scalarParam("p", "Pair", 8)), spec(t, "p=hex:0500"), "--arg p=hex:0500: p (Pair p) is 8 bytes; got 2"},
		{"struct bytes missing file", kernel(scalarParam("p", "Pair", 8)), spec(t, "p=file:/nonexistent/p.bin"), "--arg p=file:/nonexistent/p.bin: /nonexistent/p.bin: no such file or directory"},
		{"bytes for pointer", kernel(ptr("x", "float", 4)), spec(t, "x=hex:00000000"), "--arg x=hex:00000000: x is a pointer (float *x): hex: and file: without TYPE[COUNT] give a by-value parameter's bytes; for a buffer want x=TYPE[COUNT]:INIT, e.g. x=float[1024]:file:data.bin"},
		{"bad grid", saxpy, Spec{Grid: Dim3{1, 0, 1}, Block: Dim3{1, 1, 1}}, "--grid 1,0: y is 0; each dimension must be at least 1"},
		{"no grid", saxpy, Spec{Block: Dim3{1, 1, 1}}, "--grid: required: the number of blocks, X[,Y[,Z]] (e.g. --grid 64 --block 256: 64 blocks of 256 threads)"},
	} {
		_, _, err := Bind(tc.k, tc.s)
		if got := errText(t, err); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	// A spec for another kernel is the caller's mistake, not the user's.
	s := spec(t, "a=1")
	s.Kernel = "other"
	_, _, err := Bind(saxpy, s)
	var e *Error
	if err == nil || errors.As(err, &e) {
		t.Errorf("Bind with another kernel's spec: %v, want a non-*Error error", err)
	}
}

func TestBindScalars(t *testing.T) {
	le := func(size int, v uint64) []byte {
		b := make([]byte, size)
		put(b, size, v)
		return b
	}
	f32 := func(f float32) []byte { return le(4, uint64(math.Float32bits(f))) }
	f64 := func(f float64) []byte { return le(8, math.Float64bits(f)) }
	type result struct {
		Data []byte
		Type string
		Err  string
	}
	ok := func(typ string, b []byte) result { return result{Data: b, Type: typ} }
	bad := func(msg string) result { return result{Err: msg} }
	for _, tc := range []struct {
		typ  string
		size int64
		val  string
		want result
	}{
		{"int", 4, "7", ok("int", le(4, 7))},
		{"int", 4, "-1", ok("int", le(4, 0xffffffff))},
		{"int", 4, "2147483647", ok("int", le(4, 0x7fffffff))},
		{"int", 4, "-2147483648", ok("int", le(4, 0x80000000))},
		{"int", 4, "0x10", ok("int", le(4, 16))},
		{"int", 4, "1_000", ok("int", le(4, 1000))},
		{"int", 4, "1e6", ok("int", le(4, 1000000))},
		{"int", 4, "3000000000", bad("--arg v=3000000000: 3000000000 is out of range for int (want -2147483648..2147483647)")},
		{"int", 4, "-2147483649", bad("--arg v=-2147483649: -2147483649 is out of range for int (want -2147483648..2147483647)")},
		{"int", 4, "1.5", bad(`--arg v=1.5: "1.5" is not an integer (int wants e.g. 1024, -1, 0x400, 1e6)`)},
		{"int", 4, "ten", bad(`--arg v=ten: "ten" is not an integer (int wants e.g. 1024, -1, 0x400, 1e6)`)},
		{"const int", 4, "5", ok("int", le(4, 5))},
		{"int32_t", 4, "-5", ok("int32", le(4, 0xfffffffb))},
		{"unsigned int", 4, "4294967295", ok("uint", le(4, 0xffffffff))},
		{"unsigned int", 4, "-1", bad("--arg v=-1: -1 is out of range for unsigned int (want 0..4294967295)")},
		{"unsigned", 4, "4294967296", bad("--arg v=4294967296: 4294967296 is out of range for unsigned (want 0..4294967295)")},
		{"float", 4, "0.5", ok("float", f32(0.5))},
		{"float", 4, "-2", ok("float", f32(-2))},
		{"float", 4, "3.4e38", ok("float", f32(3.4e38))},
		{"float", 4, "1e39", bad("--arg v=1e39: 1e39 is out of range for float (want at most ±3.403e+38)")},
		{"float", 4, "-1e39", bad("--arg v=-1e39: -1e39 is out of range for float (want at most ±3.403e+38)")},
		{"float", 4, "x", bad(`--arg v=x: "x" is not a number (float wants e.g. 0.5, -2, 1e-3)`)},
		{"const float", 4, "0.1", ok("float", f32(0.1))},
		{"double", 8, "1e300", ok("double", f64(1e300))},
		{"double", 8, "1e309", bad("--arg v=1e309: 1e309 is out of range for double (want at most ±1.798e+308)")},
		{"long long", 8, "9223372036854775807", ok("longlong", le(8, math.MaxInt64))},
		{"long long", 8, "-9223372036854775808", ok("longlong", le(8, 1<<63))},
		{"long long", 8, "9223372036854775808", bad("--arg v=9223372036854775808: 9223372036854775808 is out of range for long long (want -9223372036854775808..9223372036854775807)")},
		{"unsigned long long", 8, "18446744073709551615", ok("ulonglong", le(8, math.MaxUint64))},
		{"unsigned long long", 8, "18446744073709551616", bad("--arg v=18446744073709551616: 18446744073709551616 is out of range for unsigned long long (want 0..18446744073709551615)")},
		{"long", 8, "-3", ok("long", le(8, math.MaxUint64-2))},
		{"size_t", 8, "1048576", ok("uint64", le(8, 1<<20))},
		{"size_t", 8, "-1", bad("--arg v=-1: -1 is out of range for size_t (want 0..18446744073709551615)")},
		{"short", 2, "-32768", ok("short", le(2, 0x8000))},
		{"unsigned short", 2, "65536", bad("--arg v=65536: 65536 is out of range for unsigned short (want 0..65535)")},
		{"char", 1, "-128", ok("char", le(1, 0x80))},
		{"char", 1, "128", bad("--arg v=128: 128 is out of range for char (want -128..127)")},
		{"unsigned char", 1, "255", ok("uchar", le(1, 255))},
		{"bool", 1, "true", ok("bool", le(1, 1))},
		{"bool", 1, "0", ok("bool", le(1, 0))},
		{"bool", 1, "yes", bad(`--arg v=yes: "yes" is not a bool (bool wants true, false, 1 or 0)`)},
		// Explicit types: for typedefs, enums, and on purpose.
		{"real", 4, "float:3", ok("float", f32(3))},
		{"Kind", 4, "int:2", ok("int", le(4, 2))},
		{"int", 4, "float:1.5", ok("float", f32(1.5))},
		{"real", 4, "double:3", bad("--arg v=double:3: v has type real (4 bytes) but double is 8 bytes; want a 4-byte TYPE")},
	} {
		values, _, err := Bind(kernel(scalarParam("v", tc.typ, tc.size)), spec(t, "v="+tc.val))
		var got result
		if got.Err = errText(t, err); err == nil {
			got.Data, got.Type = values[0].Data, values[0].Type
			if values[0].Buffer || values[0].Count != 1 || values[0].ElemSize != int(tc.size) {
				t.Errorf("%s v=%s: %+v, want a scalar of %d bytes", tc.typ, tc.val, values[0], tc.size)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s v=%s (-want +got):\n%s", tc.typ, tc.val, diff)
		}
	}
}

func TestBindBufferTypes(t *testing.T) {
	type result struct {
		Type  string
		Count int
		Notes []string
		Err   string
	}
	for _, tc := range []struct {
		name string
		p    manifest.Param
		arg  string
		want result
	}{
		{"same", ptr("p", "float", 4), "p=float[64]:zero", result{Type: "float", Count: 64}},
		{"const", ptr("p", "const float", 4), "p=float[64]:rand", result{Type: "float", Count: 64}},
		{"int for uint", ptr("p", "unsigned int", 4), "p=int[64]:rand", result{Type: "int", Count: 64}},
		{"int32 for int", ptr("p", "int", 4), "p=int32[64]:iota", result{Type: "int32", Count: 64}},
		{"int for float", ptr("p", "float", 4), "p=int[64]:rand", result{Type: "int", Count: 64, Notes: []string{"--arg p=int[64]:rand: fills float *p with int values"}}},
		{"float for int", ptr("p", "int", 4), "p=float[64]:const:1", result{Type: "float", Count: 64, Notes: []string{"--arg p=float[64]:const:1: fills int *p with float values"}}},
		{"int zeros for float", ptr("p", "float", 4), "p=int[64]:zero", result{Type: "int", Count: 64}},
		{"void", ptr("p", "void", 0), "p=double[3]:iota", result{Type: "double", Count: 3}},
		{"const void", ptr("p", "const void", 0), "p=char[3]:iota", result{Type: "char", Count: 3}},
		{"struct", ptr("p", "Pair", 0), "p=float[8]:zero", result{Type: "float", Count: 8, Notes: []string{"--arg p=float[8]:zero: cannot check float against p's element type Pair (size unknown)"}}},
		{"struct of known size", ptr("p", "Pair", 8), "p=float[8]:zero", result{Type: "float", Count: 8}},
		{"typedef of known size", ptr("p", "data_t", 4), "p=int[8]:iota", result{Type: "int", Count: 8}},
		{"struct, part of an element", ptr("p", "Pair", 8), "p=float[3]:zero", result{Err: "--arg p=float[3]:zero: p points to Pair (8 bytes) but float is 4 bytes; want a 8-byte TYPE"}},
		{"template", ptr("p", "const T", 0), "p=int[8]:zero", result{Type: "int", Count: 8, Notes: []string{"--arg p=int[8]:zero: cannot check int against p's element type T (size unknown)"}}},
		{"half as ushort", ptr("p", "__half", 2), "p=ushort[8]:zero", result{Type: "ushort", Count: 8}},
		{"half", ptr("p", "const __half", 2), "p=half[8]:rand", result{Type: "half", Count: 8}},
		{"half typedef", ptr("p", "half", 2), "p=half[8]:iota", result{Type: "half", Count: 8}},
		{"half pairs", ptr("p", "__half2", 4), "p=half[8]:const:0.5", result{Type: "half", Count: 8}},
		{"bfloat16", ptr("p", "__nv_bfloat16", 2), "p=bfloat16[8]:rand", result{Type: "bfloat16", Count: 8}},
		{"bfloat16 pairs", ptr("p", "nv_bfloat162", 4), "p=bfloat16[8]:zero", result{Type: "bfloat16", Count: 8}},
		{"bfloat16 for half", ptr("p", "__half", 2), "p=bfloat16[8]:const:1", result{Type: "bfloat16", Count: 8, Notes: []string{"--arg p=bfloat16[8]:const:1: fills __half *p with bfloat16 values"}}},
		{"half for float", ptr("p", "float", 4), "p=half[8]:zero", result{Err: "--arg p=half[8]:zero: p points to float (4 bytes) but half is 2 bytes; want a 4-byte TYPE, e.g. float[8]"}},
		{"float4 lanes", ptr("p", "float4", 16), "p=float[8]:rand", result{Type: "float", Count: 8}},
		{"int4 lanes", ptr("p", "int4", 16), "p=int[8]:iota", result{Type: "int", Count: 8}},
		{"float3 lanes", ptr("p", "float3", 0), "p=float[9]:zero", result{Type: "float", Count: 9}},
		{"float2 as double", ptr("p", "float2", 8), "p=double[4]:zero", result{Type: "double", Count: 4}},
		{"uint2 as float", ptr("p", "uint2", 8), "p=float[4]:rand", result{Type: "float", Count: 4, Notes: []string{"--arg p=float[4]:rand: fills uint2 *p with float values"}}},
		{"bool", ptr("p", "bool", 1), "p=bool[8]:const:true", result{Type: "bool", Count: 8}},
		{"size_t", ptr("p", "size_t", 8), "p=ulong[8]:iota", result{Type: "ulong", Count: 8}},
		{"long long", ptr("p", "long long", 8), "p=double[8]:iota", result{Type: "double", Count: 8, Notes: []string{"--arg p=double[8]:iota: fills long long *p with double values"}}},
		{"short for int", ptr("p", "int", 4), "p=short[8]:zero", result{Err: "--arg p=short[8]:zero: p points to int (4 bytes) but short is 2 bytes; want a 4-byte TYPE, e.g. int[8]"}},
		{"double for const float", ptr("p", "const float", 4), "p=double[8]:zero", result{Err: "--arg p=double[8]:zero: p points to float (4 bytes) but double is 8 bytes; want a 4-byte TYPE, e.g. float[8]"}},
		{"float for double", ptr("p", "double", 8), "p=float[8]:zero", result{Err: "--arg p=float[8]:zero: p points to double (8 bytes) but float is 4 bytes; want a 8-byte TYPE, e.g. double[8]"}},
	} {
		values, notes, err := Bind(kernel(tc.p), spec(t, tc.arg))
		got := result{Notes: notes, Err: errText(t, err)}
		if err == nil {
			v := values[0]
			got.Type, got.Count = v.Type, v.Count
			if !v.Buffer || len(v.Data) != v.Count*v.ElemSize {
				t.Errorf("%s: %+v is not a buffer of %d x %d bytes", tc.name, v, v.Count, v.ElemSize)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: --arg %s (-want +got):\n%s", tc.name, tc.arg, diff)
		}
	}
}

func TestBindFile(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, n int) string {
		path := filepath.Join(dir, name)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i * 7)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	exact, short, long, odd, empty := file("exact", 256), file("short", 255), file("long", 300), file("odd", 258), file("empty", 0)
	k := kernel(ptr("x", "float", 4))
	for _, tc := range []struct {
		arg  string
		want string
	}{
		{"x=float[64]:file:" + short, "--arg x=float[64]:file:" + short + ": " + short + " is 255 bytes, shorter than float[64] (256 bytes)"},
		{"x=float[64]:file:" + empty, "--arg x=float[64]:file:" + empty + ": " + empty + " is 0 bytes, shorter than float[64] (256 bytes)"},
		{"x=float[64]:file:" + long, "--arg x=float[64]:file:" + long + ": " + long + " is 300 bytes, longer than float[64] (256 bytes); float[75] reads all of it"},
		{"x=float[64]:file:" + odd, "--arg x=float[64]:file:" + odd + ": " + odd + " is 258 bytes, longer than float[64] (256 bytes)"},
		{"x=float[32]:file:" + short, "--arg x=float[32]:file:" + short + ": " + short + " is 255 bytes, longer than float[32] (128 bytes)"},
		{"x=float[64]:file:" + dir + "/none", "--arg x=float[64]:file:" + dir + "/none: " + dir + "/none: no such file or directory"},
		{"x=float[64]:file:" + dir, "--arg x=float[64]:file:" + dir + ": " + dir + " is a directory, not a file of float"},
	} {
		_, _, err := Bind(k, spec(t, tc.arg))
		if got := errText(t, err); got != tc.want {
			t.Errorf("--arg %s:\n got %q\nwant %q", tc.arg, got, tc.want)
		}
	}
	values, _, err := Bind(k, spec(t, "x=float[64]:file:"+exact))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(exact)
	if !bytes.Equal(values[0].Data, want) {
		t.Errorf("file init: got % x, want the file's bytes", values[0].Data[:8])
	}
	if got := (Value{Param: values[0].Param, Buffer: true, Count: 64, ElemSize: 4, Type: "float", Init: Init{Kind: "file", Path: exact}}); !cmp.Equal(got, values[0], ignoreData) {
		t.Errorf("file init value: %+v", values[0])
	}
	// Any TYPE of the right size reads the same bytes.
	values, _, err = Bind(k, spec(t, "x=uint[64]:file:"+exact))
	if err != nil || !bytes.Equal(values[0].Data, want) {
		t.Errorf("uint file init: %v", err)
	}
}

func TestBindConst(t *testing.T) {
	for _, tc := range []struct {
		p    manifest.Param
		arg  string
		typ  string
		want []float64
	}{
		{ptr("p", "float", 4), "p=float[3]:const:2.5", "float", []float64{2.5, 2.5, 2.5}},
		{ptr("p", "float", 4), "p=float[2]:const:-1e-3", "float", []float64{float64(float32(-1e-3)), float64(float32(-1e-3))}},
		{ptr("p", "double", 8), "p=double[2]:const:0.1", "double", []float64{0.1, 0.1}},
		{ptr("p", "int", 4), "p=int[3]:const:-7", "int", []float64{-7, -7, -7}},
		{ptr("p", "int", 4), "p=int[2]:const:0x7fffffff", "int", []float64{math.MaxInt32, math.MaxInt32}},
		{ptr("p", "unsigned int", 4), "p=uint[2]:const:4294967295", "uint", []float64{math.MaxUint32, math.MaxUint32}},
		{ptr("p", "unsigned char", 1), "p=uchar[2]:const:255", "uchar", []float64{255, 255}},
		{ptr("p", "signed char", 1), "p=int8[2]:const:-128", "int8", []float64{-128, -128}},
		{ptr("p", "short", 2), "p=short[2]:const:-2", "short", []float64{-2, -2}},
		{ptr("p", "long long", 8), "p=int64[2]:const:-1", "int64", []float64{-1, -1}},
		{ptr("p", "bool", 1), "p=bool[2]:const:true", "bool", []float64{1, 1}},
	} {
		values, _, err := Bind(kernel(tc.p), spec(t, tc.arg))
		if err != nil {
			t.Errorf("--arg %s: %v", tc.arg, err)
			continue
		}
		if diff := cmp.Diff(tc.want, decode(t, tc.typ, values[0].Data)); diff != "" {
			t.Errorf("--arg %s (-want +got):\n%s", tc.arg, diff)
		}
	}
}

func TestBindIota(t *testing.T) {
	const n = 300
	for _, typ := range TypeNames() {
		et, _ := lookupType(typ)
		values, _, err := Bind(kernel(ptr("p", "void", 0)), spec(t, "p="+typ+"[300]:iota"))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		want := make([]float64, n)
		for i := range want {
			switch {
			case et.kind == kindBool:
				want[i] = float64(i % 2)
			case et.size == 1 && et.kind == kindInt:
				want[i] = float64(int8(i)) // wraps
			case et.size == 1:
				want[i] = float64(uint8(i))
			case typ == "bfloat16" && i > 256 && i%2 == 1:
				// 8 bits: steps of 2 from 256, ties to the even
				// significand (a multiple of 4).
				want[i] = float64(i + 1)
				if (i+1)%4 != 0 {
					want[i] = float64(i - 1)
				}
			default:
				want[i] = float64(i)
			}
		}
		if diff := cmp.Diff(want, decode(t, typ, values[0].Data)); diff != "" {
			t.Errorf("%s[%d]:iota (-want +got):\n%s", typ, n, diff)
		}
	}
}

func TestBindRand(t *testing.T) {
	const n = 100000
	bind := func(typ, init string) []byte {
		t.Helper()
		values, _, err := Bind(kernel(ptr("p", "void", 0)), spec(t, "p="+typ+"[100000]:"+init))
		if err != nil {
			t.Fatal(err)
		}
		return values[0].Data
	}
	for _, typ := range TypeNames() {
		et, _ := lookupType(typ)
		data := bind(typ, "rand:5")
		if !bytes.Equal(data, bind(typ, "rand:5")) {
			t.Errorf("%s: rand:5 differs between runs", typ)
		}
		if bytes.Equal(data, bind(typ, "rand:6")) {
			t.Errorf("%s: rand:5 and rand:6 are the same", typ)
		}
		if !bytes.Equal(bind(typ, "rand"), bind(typ, "rand:1")) {
			t.Errorf("%s: rand is not rand:1", typ)
		}
		vals := decode(t, typ, data)
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		distinct := map[float64]bool{}
		for i, v := range vals {
			if et.kind == kindFloat {
				bad := math.IsNaN(v) || math.IsInf(v, 0) || v < -1 || v >= 1 ||
					(v != 0 && math.Abs(v) < 0x1p-126) // denormal as a float (and so as a double)
				if bad {
					t.Fatalf("%s: element %d is %v", typ, i, v)
				}
			} else if v != math.Trunc(v) {
				t.Fatalf("%s: element %d is %v", typ, i, v)
			}
			lo, hi, sum = min(lo, v), max(hi, v), sum+v
			distinct[v] = true
		}
		mean := sum / n
		// Expected ranges; with 100000 draws the extremes are all hit.
		type stats struct{ Lo, Hi, MeanMin, MeanMax float64 }
		var want stats
		switch {
		case et.kind == kindFloat:
			want = stats{-1, 1, -0.01, 0.01}
			if lo < -0.999 && hi > 0.99 { // bfloat16's largest draw: 1-2^-7
				lo, hi = -1, 1
			}
		case et.kind == kindBool:
			want = stats{0, 1, 0.49, 0.51}
		case et.size == 1:
			want = stats{0, 127, 62.5, 64.5}
		default:
			want = stats{0, 999, 494, 505}
		}
		got := stats{lo, hi, want.MeanMin, want.MeanMax}
		if mean < want.MeanMin || mean > want.MeanMax {
			got.MeanMin, got.MeanMax = mean, mean
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s rand: range or mean (-want +got):\n%s", typ, diff)
		}
		if et.kind == kindFloat && et.size == 2 {
			// A grid of 2^-10 (half) or 2^-7 (bfloat16) on [-1, 1): every
			// point drawn.
			want := map[string]int{"half": 2048, "bfloat16": 256}[typ]
			if len(distinct) != want {
				t.Errorf("%s rand: %d distinct values, want %d (every point of the grid)", typ, len(distinct), want)
			}
		} else if et.kind == kindFloat && len(distinct) < n*9/10 {
			t.Errorf("%s rand: only %d distinct values in %d", typ, len(distinct), n)
		}
	}
	// The generator is part of the contract: rand:SEED means the same data
	// in every ldcheck. (SplitMix64 from the seed; checked against an
	// independent implementation.)
	golden := []struct {
		typ  string
		want []float64
	}{
		{"float", []float64{0.13312304019927979, 0.49156343936920166, 0.9420053958892822, -0.1112816333770752}},
		{"int", []float64{566, 745, 971, 444}},
		{"uchar", []float64{72, 95, 124, 56}},
		{"double", []float64{0.1331231503445618, 0.49156351452540226, 0.9420055071735924, -0.11128156588845584}},
	}
	for _, g := range golden {
		values, _, err := Bind(kernel(ptr("p", "void", 0)), spec(t, "p="+g.typ+"[4]:rand:1"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g.want, decode(t, g.typ, values[0].Data)); diff != "" {
			t.Errorf("%s[4]:rand:1 changed (-want +got):\n%s", g.typ, diff)
		}
	}
}

func TestBindOuts(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	yPath := filepath.Join(dir, "y.bin")
	for _, tc := range []struct {
		name string
		outs []Out
		want string
	}{
		{"ok", []Out{{"y", yPath}, {"x", filepath.Join(dir, "x.bin")}}, ""},
		{"over an existing file", []Out{{"y", notDir}}, ""},
		{"same buffer twice", []Out{{"y", yPath}, {"y", filepath.Join(dir, "y2.bin")}}, ""},
		{"unknown", []Out{{"z", yPath}}, "--out z=" + yPath + ": kernel k has no parameter z (its pointer parameters: const float *x, float *y)"},
		{"scalar", []Out{{"n", yPath}}, "--out n=" + yPath + ": n is not a pointer (int n); --out writes a buffer (its pointer parameters: const float *x, float *y)"},
		{"same path", []Out{{"y", yPath}, {"x", dir + "/./y.bin"}}, "--out x=" + dir + "/./y.bin: " + dir + "/./y.bin is also written by --out y=" + yPath},
		{"no dir", []Out{{"y", dir + "/none/y.bin"}}, "--out y=" + dir + "/none/y.bin: directory " + dir + "/none does not exist"},
		{"dir not a dir", []Out{{"y", notDir + "/y.bin"}}, "--out y=" + notDir + "/y.bin: " + notDir + " is not a directory"},
		{"path is a dir", []Out{{"y", dir}}, "--out y=" + dir + ": " + dir + " is a directory; want a file path"},
	} {
		s := spec(t, "a=1")
		s.Outs = tc.outs
		_, _, err := Bind(saxpy, s)
		if got := errText(t, err); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	if _, err := os.Stat(yPath); err == nil {
		t.Error("Bind created an --out file")
	}
}

func TestBindShared(t *testing.T) {
	k := kernel(ptr("x", "float", 4))
	k.Targets = []manifest.Target{
		{Name: "tile", Space: "shared", Kind: "shared", Elem: "float", ElemSize: 4, Bytes: 1024, Line: 3},
		{Name: "buf", Space: "shared", Kind: "shared", Elem: "double", ElemSize: 8, Dynamic: true, Line: 9},
	}
	s := spec(t)
	s.Block = Dim3{16, 8, 1}
	_, _, err := Bind(k, s)
	want := "--shared: required: kernel k uses extern __shared__ buf (line 9), which needs dynamic shared memory; give its size, e.g. --shared 1024 (128 threads x 8-byte double)"
	if got := errText(t, err); got != want {
		t.Errorf("no --shared:\n got %q\nwant %q", got, want)
	}
	s.Shared = 1024
	if _, _, err := Bind(k, s); err != nil {
		t.Errorf("--shared 1024: %v", err)
	}
	k.Targets = k.Targets[:1]
	s.Shared = 0
	if _, _, err := Bind(k, s); err != nil {
		t.Errorf("static shared only, no --shared: %v", err)
	}
}

// TestBindBuiltSpec: a Spec built in code, without Raw, binds the same and
// its messages spell the --arg out.
func TestBindBuiltSpec(t *testing.T) {
	s := Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{32, 1, 1}, Args: []Arg{
		{Name: "n", Scalar: "8"},
		{Name: "a", Type: "float", Scalar: "0.5"},
		{Name: "x", Type: "float", Count: 8, Init: Init{Kind: "rand", Seed: 9}},
		{Name: "y", Type: "float", Count: 8, Init: Init{Kind: "const", Const: "2"}},
	}}
	values, _, err := Bind(saxpy, s)
	if err != nil {
		t.Fatal(err)
	}
	parsed, _, err := Bind(saxpy, spec(t, "n=8", "a=float:0.5", "x=float[8]:rand:9", "y=float[8]:const:2"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(parsed, values); diff != "" {
		t.Errorf("built vs parsed (-parsed +built):\n%s", diff)
	}
	for _, tc := range []struct {
		arg  Arg
		want string
	}{
		{Arg{Name: "x", Type: "double", Count: 8, Init: Init{Kind: "zero"}}, "--arg x=double[8]:zero: x points to float (4 bytes) but double is 8 bytes; want a 4-byte TYPE, e.g. float[8]"},
		{Arg{Name: "y", Type: "float", Count: 8, Init: Init{Kind: "file", Path: "/nonexistent"}}, "--arg y=float[8]:file:/nonexistent: /nonexistent: no such file or directory"},
		{Arg{Name: "y", Type: "float", Count: 8, Init: Init{Kind: "const", Const: "x"}}, `--arg y=float[8]:const:x: "x" is not a number (float wants e.g. 0.5, -2, 1e-3)`},
		{Arg{Name: "y", Type: "float", Count: 8, Init: Init{Kind: "ones"}}, `--arg y=float[8]:ones: unknown INIT "ones" (want zero, iota, rand[:SEED], const:V or file:PATH)`},
		{Arg{Name: "y", Type: "float16", Count: 8, Init: Init{Kind: "zero"}}, `--arg y=float16[8]:zero: unknown TYPE "float16" (want ` + typeList + ")"},
		{Arg{Name: "a", Type: "real", Scalar: "1"}, `--arg a=real:1: unknown TYPE "real" (want ` + typeList + ")"},
		{Arg{Name: "a", Scalar: "x"}, `--arg a=x: "x" is not a number (float wants e.g. 0.5, -2, 1e-3)`},
	} {
		s := spec(t, "a=1")
		s.Args = []Arg{tc.arg}
		if tc.arg.Name != "a" {
			s.Args = append(s.Args, Arg{Name: "a", Scalar: "1"})
		}
		_, _, err := Bind(saxpy, s)
		if got := errText(t, err); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.arg, got, tc.want)
		}
	}
}

// TestBindElemSizeDisagrees: where the manifest's element size is not the
// one ldcheck expects for the type (long on a 32-bit-long platform), the
// manifest wins and ldcheck makes no default of its own.
func TestBindElemSizeDisagrees(t *testing.T) {
	k := kernel(ptr("p", "long", 4))
	if _, _, err := Bind(k, spec(t, "p=int[4]:iota")); err != nil {
		t.Errorf("int[4] for a 4-byte long: %v", err)
	}
	_, _, err := Bind(k, spec(t, "p=long[4]:iota"))
	want := "--arg p=long[4]:iota: p points to long (4 bytes) but long is 8 bytes; want a 4-byte TYPE"
	if got := errText(t, err); got != want {
		t.Errorf("long[4] for a 4-byte long:\n got %q\nwant %q", got, want)
	}
	_, _, err = Bind(k, spec(t))
	want = "no --arg for p (long *p): ldcheck cannot tell what data long takes; give --arg p=TYPE[COUNT]:INIT, e.g. p=float[1024]:zero"
	if got := errText(t, err); got != want {
		t.Errorf("default for a 4-byte long:\n got %q\nwant %q", got, want)
	}
}

// TestValueString: each Value prints as the --arg that makes it, and
// binding that --arg gives the same Value.
func TestValueString(t *testing.T) {
	k := kernel(scalarParam("n", "int", 4), scalarParam("a", "const float", 4), scalarParam("d", "double", 8),
		scalarParam("u", "unsigned char", 1), scalarParam("c", "char", 1), scalarParam("b", "bool", 1), scalarParam("s", "size_t", 8),
		scalarParam("r", "real", 4), scalarParam("e", "int", 4),
		ptr("x", "const float", 4), ptr("y", "float", 4), ptr("v", "float4", 16), ptr("w", "void", 0))
	args := []string{"a=0.1", "d=-2.5e-300", "u=255", "c=-128", "b=true", "s=18446744073709551615", "r=float:1e-07", "e=float:0.5",
		"y=int[8]:const:-3", "w=double[3]:iota"}
	s := spec(t, args...)
	s.Grid, s.Block = Dim3{2, 1, 1}, Dim3{3, 1, 1}
	values, _, err := Bind(k, s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range values {
		got = append(got, v.String())
	}
	want := []string{"n=6", "a=0.1", "d=-2.5e-300", "u=255", "c=-128", "b=true", "s=18446744073709551615", "r=float:1e-07", "e=float:0.5",
		"x=float[262144]:rand:10", "y=int[8]:const:-3", "v=float[262144]:rand:12", "w=double[3]:iota"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("String (-want +got):\n%s", diff)
	}
	again, _, err := Bind(k, spec(t, got...))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(values, again, ignoreData); diff != "" {
		t.Errorf("binding String's --args (-first +again):\n%s", diff)
	}
	for i := range values {
		if !bytes.Equal(values[i].Data, again[i].Data) {
			t.Errorf("binding %s: other data", got[i])
		}
	}
	if got := (Value{Param: manifest.Param{Type: "int", Size: 4}, Data: []byte{1, 0, 0, 0}, Count: 1, ElemSize: 4, Type: "int"}).String(); got != "(unnamed)=1" {
		t.Errorf("unnamed: %q", got)
	}
}

// TestBindStructBytes: a struct parameter given whole as its bytes, from
// hex or from a file, lands in the launch as those bytes.
func TestBindStructBytes(t *testing.T) {
	k := kernel(scalarParam("p", "Pair", 8))
	want := []byte{5, 0, 0, 0, 0, 0, 0xc0, 0x3f}
	vals, _, err := Bind(k, spec(t, "p=hex:05000000_0000c03f"))
	if err != nil || len(vals) != 1 || !bytes.Equal(vals[0].Data, want) || vals[0].Buffer {
		t.Fatalf("hex: %v %+v", err, vals)
	}
	path := filepath.Join(t.TempDir(), "p.bin")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	vals, _, err = Bind(k, spec(t, "p="+"file:"+path))
	if err != nil || len(vals) != 1 || !bytes.Equal(vals[0].Data, want) {
		t.Fatalf("file: %v %+v", err, vals)
	}
}
