package launch

import (
	"encoding/binary"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// testHalf decodes IEEE binary16 bits on its own (sign, 5-bit exponent
// biased by 15, 10-bit fraction), independently of half.go.
func testHalf(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	case 0:
		return sign * m / 1024 / 16384 // m * 2^-24
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}

// TestHalfCorners: float (and decimal) to half and bfloat16, round to
// nearest even, at the corners a GPU's cvt.rn gets right.
func TestHalfCorners(t *testing.T) {
	for _, tc := range []struct {
		in   string
		typ  string
		want uint16
	}{
		{"0", "half", 0x0000},
		{"-0", "half", 0x8000},
		{"1", "half", 0x3c00},
		{"-2", "half", 0xc000},
		{"0.333333343267", "half", 0x3555},         // 1.0f/3
		{"65504", "half", 0x7bff},                  // the largest finite half
		{"65519.99", "half", 0x7bff},               // below the tie with 65536: down
		{"5.96e-8", "half", 0x0001},                // the smallest subnormal, 2^-24
		{"2.9802322387695312e-8", "half", 0x0000},  // 2^-25: a tie with 0, to even
		{"2.9802322387695313e-8", "half", 0x0001},  // just above the tie
		{"6.097555160522461e-05", "half", 0x03ff},  // the largest subnormal
		{"6.1035156e-05", "half", 0x0400},          // the smallest normal, 2^-14
		{"1.00048828125", "half", 0x3c00},          // 1+2^-11: a tie, to even (down)
		{"1.00146484375", "half", 0x3c02},          // 1+3*2^-11: a tie, to even (up)
		{"1.00048828125000000001", "half", 0x3c01}, // above the tie its float64 is on
		{"1.00048828124999999999", "half", 0x3c00},
		{"-1.00048828125000000001", "half", 0xbc01},
		{"2049", "half", 0x6800}, // 2048, ties to even
		{"2051", "half", 0x6802}, // 2052
		{"inf", "half", 0x7c00},
		{"-inf", "half", 0xfc00},
		{"nan", "half", 0x7fff},
		{"0.333333343267", "bfloat16", 0x3eab}, // 1.0f/3
		{"1", "bfloat16", 0x3f80},
		{"1.00390625", "bfloat16", 0x3f80}, // 1+2^-8: a tie, to even
		{"1.01171875", "bfloat16", 0x3f82}, // 1+3*2^-8: to even, up
		{"3.3895313892515355e38", "bfloat16", 0x7f7f},
		{"1e-40", "bfloat16", 0x0001}, // subnormal: 1e-40 / 2^-133 = 1.089...
		{"-inf", "bfloat16", 0xff80},
	} {
		et, _ := lookupType(tc.typ)
		u, err := parseValue(et, "", tc.in)
		if err != nil {
			t.Errorf("%s %s: %v", tc.typ, tc.in, err)
			continue
		}
		if uint16(u) != tc.want {
			t.Errorf("%s %s: got %#04x, want %#04x", tc.typ, tc.in, u, tc.want)
		}
	}
	for _, tc := range []struct{ in, typ, want string }{
		{"65520", "half", "65520 is out of range for half (want at most ±65504)"},
		{"-1e6", "half", "-1e6 is out of range for half (want at most ±65504)"},
		{"3.4e38", "bfloat16", "3.4e38 is out of range for bfloat16 (want at most ±3.38953e+38)"},
		{"1e400", "half", "1e400 is out of range for half (want at most ±65504)"},
		{"x", "half", `"x" is not a number (half wants e.g. 0.5, -2, 1e-3)`},
	} {
		et, _ := lookupType(tc.typ)
		if _, err := parseValue(et, "", tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("%s %s: error %v, want %q", tc.typ, tc.in, err, tc.want)
		}
	}
}

// TestHalfNearest: for random floats, the half is the nearest one (ties to
// the even significand), found by a search over all 63488 finite halves'
// values; every half goes back and forth unchanged.
func TestHalfNearest(t *testing.T) {
	var finite []float64 // positive finite halves, increasing
	for h := uint16(0); h < 0x7c00; h++ {
		finite = append(finite, testHalf(h))
	}
	for h := 0; h < 0x10000; h++ {
		v := testHalf(uint16(h))
		got := halfFormat.fromFloat64(v, 0)
		if math.IsNaN(v) {
			if got != 0x7fff {
				t.Fatalf("NaN %#04x: got %#04x, want the canonical 0x7fff", h, got)
			}
			continue
		}
		if got != uint16(h) || halfFormat.toFloat64(uint16(h)) != v {
			t.Fatalf("%#04x (%v) back and forth: %#04x", h, v, got)
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		f := math.Float32frombits(0x33000000 + uint32(r.Int63n(0x0c000000)))
		if i%2 == 1 {
			f = -f
		}
		a := math.Abs(float64(f))
		lo := sort.SearchFloat64s(finite, a) // finite[lo] >= a
		if lo == len(finite) || finite[lo] > a {
			lo-- // finite[lo] <= a < finite[lo+1]
		}
		var want uint16
		switch {
		case lo == len(finite)-1:
			want = uint16(lo) // 65504 <= a < 65520 (nearer 65504)
			if a >= 65520 {
				want = 0x7c00
			}
		case a-finite[lo] < finite[lo+1]-a:
			want = uint16(lo)
		case a-finite[lo] > finite[lo+1]-a:
			want = uint16(lo + 1)
		default:
			want = uint16(lo + lo&1)
		}
		if f < 0 {
			want |= 0x8000
		}
		if got := halfFormat.fromFloat64(float64(f), 0); got != want {
			t.Fatalf("%v (%#08x): got %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
	}
}

// TestHalfBuffers: what --arg fills half and bfloat16 buffers with.
func TestHalfBuffers(t *testing.T) {
	bind := func(p, arg string) []uint16 {
		t.Helper()
		values, _, err := Bind(kernel(ptr("p", p, 2)), spec(t, "p="+arg))
		if err != nil {
			t.Fatal(err)
		}
		d := values[0].Data
		out := make([]uint16, len(d)/2)
		for i := range out {
			out[i] = binary.LittleEndian.Uint16(d[2*i:])
		}
		return out
	}
	if got := bind("__half", "half[3]:const:0.1"); got[0] != 0x2e66 || got[2] != 0x2e66 {
		t.Errorf("half const:0.1: %#04x, want 0x2e66", got)
	}
	if got := bind("__nv_bfloat16", "bfloat16[2]:const:-0.1"); got[0] != 0xbdcd {
		t.Errorf("bfloat16 const:-0.1: %#04x, want 0xbdcd", got)
	}
	if got := bind("__half", "half[70000]:iota"); got[2049] != 0x6800 || got[65504] != 0x7bff || got[65519] != 0x7bff || got[65520] != 0x7c00 {
		t.Errorf("half iota: [2049] %#04x (want 0x6800), [65504] %#04x, [65519] %#04x (want 0x7bff), [65520] %#04x (want 0x7c00)", got[2049], got[65504], got[65519], got[65520])
	}
	values, _, err := Bind(kernel(ptr("p", "__half", 2)), spec(t, "p=half[4]:const:0.1"))
	if err != nil {
		t.Fatal(err)
	}
	if s := formatValue(mustType(t, "half"), values[0].Data); s != "0.099975586" {
		t.Errorf("a half 0.1 reads %s, want 0.099975586", s)
	}
}

func mustType(t *testing.T, name string) elemType {
	t.Helper()
	et, ok := lookupType(name)
	if !ok {
		t.Fatalf("no TYPE %s", name)
	}
	return et
}

// TestHalfArgBytes: a half or bfloat16 buffer's size, as the flag gives it.
func TestHalfArgBytes(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want uint64
	}{{"h=half[1024]:zero", 2048}, {"b=bfloat16[3]:rand", 6}, {"c=int8[5]:zero", 5}, {"f=float[4]:zero", 16}} {
		a, err := ParseArg(tc.arg)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := a.Bytes(); !ok || n != tc.want {
			t.Errorf("%s: %d bytes (%v), want %d", tc.arg, n, ok, tc.want)
		}
	}
}
