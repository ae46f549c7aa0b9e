package launch

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/privatize/manifest"
)

// errText is err's message, "" for nil; every message must be one line
// and every error an *Error.
func errText(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("error %q is a %T, want *Error", err, err)
	}
	if strings.ContainsAny(err.Error(), "\r\n") {
		t.Errorf("error %q is not one line", err)
	}
	return err.Error()
}

const dimWant = "; want X[,Y[,Z]], each 1 to 2147483647, e.g. 64 or 16,16"

// What --grid and --block say of CUDA's limits, for each dimension.
const (
	gridLimits  = "; want X[,Y[,Z]] blocks, x 1 to 2147483647, y and z 1 to 65535, e.g. 64 or 16,16"
	blockLimits = "; want X[,Y[,Z]] threads, x and y 1 to 1024, z 1 to 64, at most 1024 in all, e.g. 256 or 16,16"
)

func TestParseDim3(t *testing.T) {
	type result struct {
		D   Dim3
		Err string
	}
	for _, tc := range []struct {
		in   string
		want result
	}{
		{"64", result{D: Dim3{64, 1, 1}}},
		{"4,4", result{D: Dim3{4, 4, 1}}},
		{"2,2,1", result{D: Dim3{2, 2, 1}}},
		{" 4 , 8 ", result{D: Dim3{4, 8, 1}}},
		{"2147483647", result{D: Dim3{2147483647, 1, 1}}},
		{"1,1,100000", result{D: Dim3{1, 1, 100000}}}, // Validate's business
		{"", result{Err: "empty" + dimWant}},
		{" ", result{Err: `" ": empty` + dimWant}},
		{"0", result{Err: "0: x is 0" + dimWant}},
		{"4,0", result{Err: "4,0: y is 0" + dimWant}},
		{"4,4,0", result{Err: "4,4,0: z is 0" + dimWant}},
		{"2147483648", result{Err: "2147483648: x is 2147483648, too large" + dimWant}},
		{"99999999999999999999999", result{Err: "99999999999999999999999: x is 99999999999999999999999, too large" + dimWant}},
		{"1,2,3,4", result{Err: "1,2,3,4: 4 dimensions" + dimWant}},
		{"x", result{Err: `x: x is "x", not a positive integer` + dimWant}},
		{"-1", result{Err: `-1: x is "-1", not a positive integer` + dimWant}},
		{"4x4", result{Err: `4x4: x is "4x4", not a positive integer` + dimWant}},
		{"4,,4", result{Err: "4,,4: y is empty" + dimWant}},
		{"4,", result{Err: "4,: y is empty" + dimWant}},
		{"1.5", result{Err: `1.5: x is "1.5", not a positive integer` + dimWant}},
	} {
		d, err := ParseDim3(tc.in)
		got := result{D: d, Err: errText(t, err)}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseDim3(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestDim3String(t *testing.T) {
	for _, tc := range []struct {
		d    Dim3
		want string
	}{
		{Dim3{64, 1, 1}, "64"},
		{Dim3{16, 16, 1}, "16,16"},
		{Dim3{1, 1, 2}, "1,1,2"},
		{Dim3{1, 1, 1}, "1"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%v.String() = %q, want %q", [3]uint32(tc.d), got, tc.want)
		}
	}
}

func TestParseBytes(t *testing.T) {
	const want = " (want BYTES, e.g. 1024, 4KiB, 48K, 2MiB)"
	type result struct {
		N   int64
		Err string
	}
	for _, tc := range []struct {
		in   string
		want result
	}{
		{"0", result{N: 0}},
		{"1024", result{N: 1024}},
		{"100B", result{N: 100}},
		{"4KiB", result{N: 4096}},
		{"48K", result{N: 48 << 10}},
		{"48KB", result{N: 48 << 10}},
		{"48 kb", result{N: 48 << 10}},
		{"2MiB", result{N: 2 << 20}},
		{"2m", result{N: 2 << 20}},
		{"1GiB", result{N: 1 << 30}},
		{"3G", result{N: 3 << 30}},
		{"4294967295", result{N: 4294967295}},
		{"4GiB", result{Err: "4GiB: too large (at most 4294967295 bytes)"}},
		{"99999999999999999999", result{Err: "99999999999999999999: too large (at most 4294967295 bytes)"}},
		{"", result{Err: "empty" + want}},
		{"x", result{Err: "x: not a byte count" + want}},
		{"KiB", result{Err: "KiB: not a byte count" + want}},
		{"-1", result{Err: "-1: negative" + want}},
		{"4QB", result{Err: `4QB: unknown unit "QB"` + want}},
		{"4KiBs", result{Err: `4KiBs: unknown unit "KiBs"` + want}},
		{"1.5K", result{Err: "1.5K: not a whole number of bytes" + want}},
	} {
		n, err := ParseBytes(tc.in)
		got := result{N: n, Err: errText(t, err)}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseBytes(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

const typeList = "float, double, char, uchar, short, ushort, int, uint, long, ulong, longlong, ulonglong, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool, half, bfloat16"

func TestParseArg(t *testing.T) {
	const syntax = "want NAME=VALUE for a scalar or NAME=TYPE[COUNT]:INIT for a pointer, e.g. n=1024 or out=float[1024]:zero"
	const inits = "zero, iota, rand[:SEED], const:V or file:PATH"
	type result struct {
		A   Arg
		Err string
	}
	buf := func(raw, name, typ string, count int, in Init) result {
		return result{A: Arg{Name: name, Type: typ, Count: count, Init: in, Raw: raw}}
	}
	scalar := func(raw, name, typ, v string) result {
		return result{A: Arg{Name: name, Type: typ, Scalar: v, Raw: raw}}
	}
	bad := func(msg string) result { return result{Err: msg} }
	for _, tc := range []struct {
		in   string
		want result
	}{
		// Buffers, every INIT.
		{"out=float[64]:zero", buf("out=float[64]:zero", "out", "float", 64, Init{Kind: "zero"})},
		{"idx=int[10]:iota", buf("idx=int[10]:iota", "idx", "int", 10, Init{Kind: "iota"})},
		{"x=double[8]:rand", buf("x=double[8]:rand", "x", "double", 8, Init{Kind: "rand", Seed: 1})},
		{"x=double[8]:rand:42", buf("x=double[8]:rand:42", "x", "double", 8, Init{Kind: "rand", Seed: 42})},
		{"x=double[8]:rand:-3", buf("x=double[8]:rand:-3", "x", "double", 8, Init{Kind: "rand", Seed: -3})},
		{"a=float[4]:const:2.5", buf("a=float[4]:const:2.5", "a", "float", 4, Init{Kind: "const", Const: "2.5"})},
		{"a=int[4]:const:-7", buf("a=int[4]:const:-7", "a", "int", 4, Init{Kind: "const", Const: "-7"})},
		{"a=uchar[4]:const:0xff", buf("a=uchar[4]:const:0xff", "a", "uchar", 4, Init{Kind: "const", Const: "0xff"})},
		{"m=bool[4]:const:true", buf("m=bool[4]:const:true", "m", "bool", 4, Init{Kind: "const", Const: "true"})},
		{"in=float[256]:file:data/in.bin", buf("in=float[256]:file:data/in.bin", "in", "float", 256, Init{Kind: "file", Path: "data/in.bin"})},
		{"in=uint8[3]:file:C:x:y", buf("in=uint8[3]:file:C:x:y", "in", "uint8", 3, Init{Kind: "file", Path: "C:x:y"})},
		{"_b2=ulonglong[1]:zero", buf("_b2=ulonglong[1]:zero", "_b2", "ulonglong", 1, Init{Kind: "zero"})},
		// Scalars.
		{"n=1024", scalar("n=1024", "n", "", "1024")},
		{"alpha=-0.5", scalar("alpha=-0.5", "alpha", "", "-0.5")},
		{"n=1e6", scalar("n=1e6", "n", "", "1e6")},
		{"flag=true", scalar("flag=true", "flag", "", "true")},
		{"x=3000000000", scalar("x=3000000000", "x", "", "3000000000")}, // checked by Bind, against x's type
		{"r=float:0.25", scalar("r=float:0.25", "r", "float", "0.25")},
		{"e=int:-3", scalar("e=int:-3", "e", "int", "-3")},
		// Bad NAME=.
		{"n", bad("--arg n: missing =; " + syntax)},
		{"=3", bad("--arg =3: missing NAME before =; " + syntax)},
		{"1n=3", bad(`--arg 1n=3: "1n" is not a parameter name; ` + syntax)},
		{"a-b=3", bad(`--arg a-b=3: "a-b" is not a parameter name; ` + syntax)},
		{"n=", bad("--arg n=: missing value after n=; " + syntax)},
		// Bad TYPE.
		{"out=__half[4]:zero", bad(`--arg out=__half[4]:zero: unknown TYPE "__half" (__half and __half2 elements are half; want ` + typeList + ")")},
		{"out=__nv_bfloat162[4]:zero", bad(`--arg out=__nv_bfloat162[4]:zero: unknown TYPE "__nv_bfloat162" (__nv_bfloat16 and __nv_bfloat162 elements are bfloat16; want ` + typeList + ")")},
		{"out=half[4]:const:65520", bad("--arg out=half[4]:const:65520: 65520 is out of range for half (want at most ±65504)")},
		{"out=bfloat16[4]:const:x", bad(`--arg out=bfloat16[4]:const:x: "x" is not a number (bfloat16 wants e.g. 0.5, -2, 1e-3)`)},
		{"out=float4[4]:zero", bad(`--arg out=float4[4]:zero: unknown TYPE "float4" (want ` + typeList + ")")},
		{"out=unsigned[4]:zero", bad(`--arg out=unsigned[4]:zero: unknown TYPE "unsigned" (unsigned int is uint; want ` + typeList + ")")},
		{"a=x[3]", bad(`--arg a=x[3]: unknown TYPE "x" (want ` + typeList + ")")},
		{"a=[3]:zero", bad("--arg a=[3]:zero: want a=TYPE[COUNT]:INIT with TYPE one of " + typeList)},
		// Bad COUNT.
		{"out=float[4", bad("--arg out=float[4: missing ] after float[ (want out=float[COUNT]:INIT, e.g. out=float[1024]:zero)")},
		{"out=float[]:zero", bad("--arg out=float[]:zero: missing COUNT in float[] (want out=float[COUNT]:INIT, e.g. out=float[1024]:zero)")},
		{"out=float[x]:zero", bad(`--arg out=float[x]:zero: COUNT "x" is not a positive integer (want e.g. float[1024])`)},
		{"out=float[1e3]:zero", bad(`--arg out=float[1e3]:zero: COUNT "1e3" is not a positive integer (want e.g. float[1024])`)},
		{"out=float[0]:zero", bad("--arg out=float[0]:zero: COUNT is 0; a buffer needs at least 1 element")},
		{"out=float[-4]:zero", bad("--arg out=float[-4]:zero: COUNT is -4; a buffer needs at least 1 element")},
		{"out=float[5000000000]:zero", bad("--arg out=float[5000000000]:zero: float[5000000000] is too large (at most 17179869184 bytes a buffer)")},
		{"out=float[99999999999999999999]:zero", bad("--arg out=float[99999999999999999999]:zero: float[99999999999999999999] is too large (at most 17179869184 bytes a buffer)")},
		// Bad INIT.
		{"out=float[64]:zeros", bad(`--arg out=float[64]:zeros: unknown INIT "zeros" (want ` + inits + ")")},
		{"out=float[64]:random", bad(`--arg out=float[64]:random: unknown INIT "random" (want ` + inits + ")")},
		{"out=float[4]", bad("--arg out=float[4]: missing :INIT after float[4] (want float[4]:INIT, INIT one of " + inits + ")")},
		{"out=float[4]:", bad("--arg out=float[4]:: empty INIT (want " + inits + ")")},
		{"out=float[4]zero", bad(`--arg out=float[4]zero: want :INIT after float[4], got "zero" (INIT is ` + inits + ")")},
		{"out=float[4]:zero:1", bad("--arg out=float[4]:zero:1: INIT zero takes no argument (want " + inits + ")")},
		{"out=float[4]:iota:1", bad("--arg out=float[4]:iota:1: INIT iota takes no argument (want " + inits + ")")},
		{"out=float[4]:rand:x", bad(`--arg out=float[4]:rand:x: SEED "x" is not an integer (want rand or rand:SEED, e.g. rand:7)`)},
		{"out=float[4]:rand:", bad(`--arg out=float[4]:rand:: SEED "" is not an integer (want rand or rand:SEED, e.g. rand:7)`)},
		{"out=float[4]:const", bad("--arg out=float[4]:const: missing V in const:V (want e.g. const:0.5)")},
		{"out=int[4]:const:", bad("--arg out=int[4]:const:: missing V in const:V (want e.g. const:7)")},
		{"out=uchar[4]:const:300", bad("--arg out=uchar[4]:const:300: 300 is out of range for uchar (want 0..255)")},
		{"out=uint[4]:const:-1", bad("--arg out=uint[4]:const:-1: -1 is out of range for uint (want 0..4294967295)")},
		{"out=int[4]:const:1.5", bad(`--arg out=int[4]:const:1.5: "1.5" is not an integer (int wants e.g. 1024, -1, 0x400, 1e6)`)},
		{"out=float[4]:const:1e39", bad("--arg out=float[4]:const:1e39: 1e39 is out of range for float (want at most ±3.403e+38)")},
		{"out=float[4]:const:x", bad(`--arg out=float[4]:const:x: "x" is not a number (float wants e.g. 0.5, -2, 1e-3)`)},
		{"out=bool[4]:const:2", bad(`--arg out=bool[4]:const:2: "2" is not a bool (bool wants true, false, 1 or 0)`)},
		{"out=float[4]:file:", bad("--arg out=float[4]:file:: missing PATH in file:PATH")},
		{"out=float[4]:file", bad("--arg out=float[4]:file: missing PATH in file:PATH")},
		// Bad typed scalars.
		{"a=float:x", bad(`--arg a=float:x: "x" is not a number (float wants e.g. 0.5, -2, 1e-3)`)},
		{"a=short:40000", bad("--arg a=short:40000: 40000 is out of range for short (want -32768..32767)")},
		{"a=float:", bad("--arg a=float:: missing VALUE after float: (want a=float:VALUE)")},
		{"a=half:1e5", bad("--arg a=half:1e5: 1e5 is out of range for half (want at most ±65504)")},
		{"a=bfloat16:1e39", bad("--arg a=bfloat16:1e39: 1e39 is out of range for bfloat16 (want at most ±3.38953e+38)")},
		{"p=hex:0g", bad("--arg p=hex:0g: want p=hex:BYTES, an even number of hex digits (the parameter's bytes as they lie in memory, little-endian; _ may separate them), e.g. p=hex:05000000_0000c03f")},
		{"p=hex:050", bad("--arg p=hex:050: want p=hex:BYTES, an even number of hex digits (the parameter's bytes as they lie in memory, little-endian; _ may separate them), e.g. p=hex:05000000_0000c03f")},
		{"p=file:", bad("--arg p=file:: missing PATH after file: (want p=file:PATH, the parameter's bytes)")},
		{"a=rand:1", bad("--arg a=rand:1: INIT needs a TYPE and COUNT first (want a=TYPE[COUNT]:rand:1, e.g. a=float[1024]:rand:1)")},
		{"a=zero", scalar("a=zero", "a", "", "zero")}, // Bind says a pointer needs TYPE[COUNT]
		// Values are shown quoted when they would not read as one word.
		{"a=float[4]:const:1 2", bad(`--arg "a=float[4]:const:1 2": "1 2" is not a number (float wants e.g. 0.5, -2, 1e-3)`)},
		{"a=float[4]:const:\n", bad(`--arg "a=float[4]:const:\n": "\n" is not a number (float wants e.g. 0.5, -2, 1e-3)`)},
	} {
		a, err := ParseArg(tc.in)
		got := result{A: a, Err: errText(t, err)}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseArg(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestParseOut(t *testing.T) {
	const want = "want NAME=PATH, e.g. out=out.bin"
	type result struct {
		O   Out
		Err string
	}
	for _, tc := range []struct {
		in   string
		want result
	}{
		{"y=y.bin", result{O: Out{"y", "y.bin"}}},
		{"y=dir/a=b.bin", result{O: Out{"y", "dir/a=b.bin"}}},
		{"y", result{Err: "--out y: missing =; " + want}},
		{"=p", result{Err: "--out =p: missing NAME before =; " + want}},
		{"y=", result{Err: "--out y=: missing PATH after y=; " + want}},
		{"1=p", result{Err: `--out 1=p: "1" is not a parameter name; ` + want}},
	} {
		o, err := ParseOut(tc.in)
		got := result{O: o, Err: errText(t, err)}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseOut(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestParseSpec(t *testing.T) {
	const example = "e.g. --grid 64 --block 256: 64 blocks of 256 threads"
	type result struct {
		S   Spec
		Err string
	}
	for _, tc := range []struct {
		name string
		in   Flags
		want result
	}{
		{"minimal", Flags{Grid: "64", Block: "256"}, result{S: Spec{Grid: Dim3{64, 1, 1}, Block: Dim3{256, 1, 1}}}},
		{"everything", Flags{Kernel: "k", Grid: "8,8", Block: "16,16", Shared: "4KiB", Args: []string{"n=3", "y=float[4]:zero"}, Outs: []string{"y=y.bin"}},
			result{S: Spec{Kernel: "k", Grid: Dim3{8, 8, 1}, Block: Dim3{16, 16, 1}, Shared: 4096,
				Args: []Arg{{Name: "n", Scalar: "3", Raw: "n=3"}, {Name: "y", Type: "float", Count: 4, Init: Init{Kind: "zero"}, Raw: "y=float[4]:zero"}},
				Outs: []Out{{"y", "y.bin"}}}}},
		{"limits", Flags{Grid: "2147483647,65535,65535", Block: "1024"}, result{S: Spec{Grid: Dim3{2147483647, 65535, 65535}, Block: Dim3{1024, 1, 1}}}},
		{"block limits", Flags{Grid: "1", Block: "4,4,64"}, result{S: Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{4, 4, 64}}}},
		{"neither", Flags{}, result{Err: "--grid and --block are required (" + example + ")"}},
		{"no grid", Flags{Block: "256"}, result{Err: "--grid: required: the number of blocks, X[,Y[,Z]] (" + example + ")"}},
		{"no block", Flags{Grid: "64"}, result{Err: "--block: required: the threads per block, X[,Y[,Z]] (" + example + ")"}},
		{"bad grid", Flags{Grid: "0", Block: "256"}, result{Err: "--grid 0: x is 0" + gridLimits}},
		{"grid y 0", Flags{Grid: "4,0", Block: "256"}, result{Err: "--grid 4,0: y is 0" + gridLimits}},
		{"grid z too large", Flags{Grid: "4,4,99999999999", Block: "256"}, result{Err: "--grid 4,4,99999999999: z is 99999999999, too large" + gridLimits}},
		{"bad block", Flags{Grid: "1", Block: "a,b"}, result{Err: `--block a,b: x is "a", not a positive integer` + blockLimits}},
		{"block z 0", Flags{Grid: "1", Block: "32,1,0"}, result{Err: "--block 32,1,0: z is 0" + blockLimits}},
		{"grid y", Flags{Grid: "1,70000", Block: "4"}, result{Err: "--grid 1,70000: y is 70000; CUDA allows at most 65535 blocks in y"}},
		{"grid z", Flags{Grid: "1,1,65536", Block: "4"}, result{Err: "--grid 1,1,65536: z is 65536; CUDA allows at most 65535 blocks in z"}},
		{"block x", Flags{Grid: "4", Block: "2000"}, result{Err: "--block 2000: x is 2000; CUDA allows at most 1024 threads in x"}},
		{"block y", Flags{Grid: "4", Block: "1,1025"}, result{Err: "--block 1,1025: y is 1025; CUDA allows at most 1024 threads in y"}},
		{"block z", Flags{Grid: "4", Block: "1,1,65"}, result{Err: "--block 1,1,65: z is 65; CUDA allows at most 64 threads in z"}},
		{"block threads", Flags{Grid: "4", Block: "32,32,2"}, result{Err: "--block 32,32,2: 2048 threads per block; CUDA allows at most 1024"}},
		{"bad shared", Flags{Grid: "1", Block: "1", Shared: "lots"}, result{Err: "--shared lots: not a byte count (want BYTES, e.g. 1024, 4KiB, 48K, 2MiB)"}},
		{"bad arg", Flags{Grid: "1", Block: "1", Args: []string{"n"}}, result{Err: "--arg n: missing =; want NAME=VALUE for a scalar or NAME=TYPE[COUNT]:INIT for a pointer, e.g. n=1024 or out=float[1024]:zero"}},
		{"bad out", Flags{Grid: "1", Block: "1", Outs: []string{"y"}}, result{Err: "--out y: missing =; want NAME=PATH, e.g. out=out.bin"}},
	} {
		s, err := ParseSpec(tc.in)
		got := result{S: s, Err: errText(t, err)}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: ParseSpec(%+v) (-want +got):\n%s", tc.name, tc.in, diff)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Spec
		want string
	}{
		{"ok", Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{1, 1, 1}, Shared: 48 << 10}, ""},
		{"zero grid x", Spec{Grid: Dim3{0, 1, 1}, Block: Dim3{1, 1, 1}}, "--grid 0: x is 0; each dimension must be at least 1"},
		{"zero block z", Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{1, 1, 0}}, "--block 1,1,0: z is 0; each dimension must be at least 1"},
		{"grid x", Spec{Grid: Dim3{1 << 31, 1, 1}, Block: Dim3{1, 1, 1}}, "--grid 2147483648: x is 2147483648; CUDA allows at most 2147483647 blocks in x"},
		{"negative shared", Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{1, 1, 1}, Shared: -1}, "--shared -1: want 0 to 4294967295 bytes"},
		{"huge shared", Spec{Grid: Dim3{1, 1, 1}, Block: Dim3{1, 1, 1}, Shared: 1 << 32}, "--shared 4294967296: want 0 to 4294967295 bytes"},
	} {
		if got := errText(t, Validate(tc.s)); got != tc.want {
			t.Errorf("%s: Validate = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestThreads(t *testing.T) {
	for _, tc := range []struct {
		s    Spec
		want uint64
	}{
		{Spec{Grid: Dim3{64, 1, 1}, Block: Dim3{256, 1, 1}}, 16384},
		{Spec{Grid: Dim3{4, 4, 2}, Block: Dim3{8, 8, 4}}, 32 * 256},
		{Spec{}, 0},
		// 2^31 * 2^16 * 2^16 * 1024 overflows: saturate.
		{Spec{Grid: Dim3{1 << 31, 65535, 65535}, Block: Dim3{1024, 1, 1}}, 1<<64 - 1},
	} {
		if got := tc.s.Threads(); got != tc.want {
			t.Errorf("%v x %v: Threads() = %d, want %d", tc.s.Grid, tc.s.Block, got, tc.want)
		}
	}
}

func TestSelectKernel(t *testing.T) {
	one := &manifest.Manifest{Source: "/src/a.cu", Kernels: []manifest.Kernel{{Name: "saxpy"}}}
	three := &manifest.Manifest{Source: "/src/b.cu", Kernels: []manifest.Kernel{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	none := &manifest.Manifest{Source: "/src/c.cu"}
	type result struct {
		Name string
		Err  string
	}
	for _, tc := range []struct {
		m    *manifest.Manifest
		name string
		want result
	}{
		{one, "", result{Name: "saxpy"}},
		{one, "saxpy", result{Name: "saxpy"}},
		{three, "b", result{Name: "b"}},
		{one, "sgemm", result{Err: "--kernel sgemm: no such kernel (kernels: saxpy)"}},
		{three, "", result{Err: "--kernel: required: the build has 3 kernels (a, b, c); choose one with --kernel NAME"}},
		{three, "d", result{Err: "--kernel d: no such kernel (kernels: a, b, c)"}},
		{none, "", result{Err: "the build has no kernels (no __global__ function in /src/c.cu)"}},
	} {
		k, err := SelectKernel(tc.m, tc.name)
		got := result{Err: errText(t, err)}
		if k != nil {
			got.Name = k.Name
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("SelectKernel(%q) (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{Flag: "--arg", Value: "n=x", Msg: "bad"}, "--arg n=x: bad"},
		{Error{Flag: "--grid", Msg: "required"}, "--grid: required"},
		{Error{Value: "0", Msg: "bad"}, "0: bad"},
		{Error{Msg: "no kernels"}, "no kernels"},
		{Error{Flag: "--out", Value: "y=a b", Msg: "bad"}, `--out "y=a b": bad`},
		{Error{Flag: "--out", Value: "y=é", Msg: "bad"}, `--out "y=é": bad`},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
	if got := errorf("--arg", "x", "a\nb").Error(); got != `--arg x: a\nb` {
		t.Errorf("errorf keeps a newline: %q", got)
	}
}
