package launch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

type kind uint8

const (
	kindInt kind = iota
	kindUint
	kindFloat
	kindBool
)

// elemType is a TYPE of --arg: a buffer's element type, or an explicit
// scalar type.
type elemType struct {
	name string
	size int
	kind kind
}

// types are the TYPEs, in the order error messages list them. long is
// 8 bytes, as on Linux (LP64) where CUDA runs.
var types = []elemType{
	{"float", 4, kindFloat}, {"double", 8, kindFloat},
	{"char", 1, kindInt}, {"uchar", 1, kindUint},
	{"short", 2, kindInt}, {"ushort", 2, kindUint},
	{"int", 4, kindInt}, {"uint", 4, kindUint},
	{"long", 8, kindInt}, {"ulong", 8, kindUint},
	{"longlong", 8, kindInt}, {"ulonglong", 8, kindUint},
	{"int8", 1, kindInt}, {"int16", 2, kindInt}, {"int32", 4, kindInt}, {"int64", 8, kindInt},
	{"uint8", 1, kindUint}, {"uint16", 2, kindUint}, {"uint32", 4, kindUint}, {"uint64", 8, kindUint},
	{"bool", 1, kindBool},
	{"half", 2, kindFloat}, {"bfloat16", 2, kindFloat},
}

// TypeNames lists the TYPEs --arg accepts.
func TypeNames() []string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.name
	}
	return names
}

func lookupType(name string) (elemType, bool) {
	for _, t := range types {
		if t.name == name {
			return t, true
		}
	}
	return elemType{}, false
}

// unknownType explains a TYPE that is not one.
func unknownType(name string) string {
	msg := fmt.Sprintf("unknown TYPE %q (want %s)", name, strings.Join(TypeNames(), ", "))
	switch name {
	case "__half", "half2", "__half2":
		msg = fmt.Sprintf("unknown TYPE %q (__half and __half2 elements are half; want %s)", name, strings.Join(TypeNames(), ", "))
	case "__nv_bfloat16", "nv_bfloat16", "__nv_bfloat162", "nv_bfloat162", "bf16":
		msg = fmt.Sprintf("unknown TYPE %q (__nv_bfloat16 and __nv_bfloat162 elements are bfloat16; want %s)", name, strings.Join(TypeNames(), ", "))
	case "unsigned":
		msg = fmt.Sprintf("unknown TYPE %q (unsigned int is uint; want %s)", name, strings.Join(TypeNames(), ", "))
	}
	return msg
}

// cTypes maps the C spellings of the types ldcheck can fill and set to
// TYPEs.
var cTypes = map[string]string{
	"float": "float", "double": "double",
	"char": "char", "signed char": "char", "unsigned char": "uchar",
	"short": "short", "short int": "short", "signed short": "short", "signed short int": "short",
	"unsigned short": "ushort", "unsigned short int": "ushort",
	"int": "int", "signed": "int", "signed int": "int",
	"unsigned": "uint", "unsigned int": "uint",
	"long": "long", "long int": "long", "signed long": "long", "signed long int": "long",
	"unsigned long": "ulong", "unsigned long int": "ulong",
	"long long": "longlong", "long long int": "longlong", "signed long long": "longlong", "signed long long int": "longlong",
	"unsigned long long": "ulonglong", "unsigned long long int": "ulonglong",
	"int8_t": "int8", "int16_t": "int16", "int32_t": "int32", "int64_t": "int64",
	"uint8_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
	"size_t": "uint64", "uintptr_t": "uint64", "ssize_t": "int64", "ptrdiff_t": "int64", "intptr_t": "int64",
	"bool": "bool", "_Bool": "bool",
	"__half": "half", "half": "half", "__nv_bfloat16": "bfloat16", "nv_bfloat16": "bfloat16",
}

// cPairs are the half types' pairs (__half2), which have no other widths.
var cPairs = map[string]string{
	"__half2": "half", "half2": "half", "__nv_bfloat162": "bfloat16", "nv_bfloat162": "bfloat16",
}

// cVectors maps CUDA's vector types' prefixes to their lane TYPEs.
var cVectors = map[string]string{
	"char": "char", "uchar": "uchar", "short": "short", "ushort": "ushort",
	"int": "int", "uint": "uint", "long": "long", "ulong": "ulong",
	"longlong": "longlong", "ulonglong": "ulonglong", "float": "float", "double": "double",
}

// cType is what ldcheck knows of a C type: its TYPE and, for CUDA vector
// types (float4), the number of lanes.
type cType struct {
	t     elemType
	lanes int
}

func (c cType) size() int { return c.t.size * c.lanes }

// spelling is the TYPE[COUNT] that holds n elements of c.
func (c cType) spelling(n int) string {
	return fmt.Sprintf("%s[%d]", c.t.name, n*c.lanes)
}

// lookupCType recognises a parameter's or pointee's C type, qualifiers
// aside; ok is false for anything else (void, structs, typedefs, half).
func lookupCType(s string) (cType, bool) {
	s = normalizeCType(s)
	if name, ok := cTypes[s]; ok {
		t, _ := lookupType(name)
		return cType{t, 1}, true
	}
	if name, ok := cPairs[s]; ok {
		t, _ := lookupType(name)
		return cType{t, 2}, true
	}
	if n := len(s); n > 1 && s[n-1] >= '1' && s[n-1] <= '4' {
		if name, ok := cVectors[s[:n-1]]; ok {
			t, _ := lookupType(name)
			return cType{t, int(s[n-1] - '0')}, true
		}
	}
	return cType{}, false
}

// normalizeCType drops qualifiers and extra spaces: "const float" and
// "float const" are "float".
func normalizeCType(s string) string {
	var keep []string
	for _, w := range strings.Fields(s) {
		switch w {
		case "const", "volatile", "__restrict__", "__restrict", "restrict":
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

func isVoid(s string) bool { return normalizeCType(s) == "void" }

// parseValue parses s as a value of type t and returns its bits (the low
// t.size bytes are the little-endian value). The message of the error
// says what t, called typeName in it ("" for t.name), wants; the caller
// names the flag and the value.
func parseValue(t elemType, typeName, s string) (uint64, error) {
	if typeName == "" {
		typeName = t.name
	}
	switch t.kind {
	case kindFloat:
		if f, ok := t.format(); ok {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return 0, fmt.Errorf("%q is not a number (%s wants e.g. 0.5, -2, 1e-3)", s, typeName)
			}
			h := f.fromDecimal(s, x)
			if h&^f.signBit() == f.infBits() && (!math.IsInf(x, 0) || err != nil) {
				return 0, fmt.Errorf("%s is out of range for %s (want at most ±%.6g)", s, typeName, maxFloat(t))
			}
			return uint64(h), nil
		}
		bitSize := 8 * t.size
		f, err := strconv.ParseFloat(s, bitSize)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return 0, fmt.Errorf("%s is out of range for %s (want at most ±%.4g)", s, typeName, maxFloat(t))
			}
			return 0, fmt.Errorf("%q is not a number (%s wants e.g. 0.5, -2, 1e-3)", s, typeName)
		}
		if t.size == 4 {
			return uint64(math.Float32bits(float32(f))), nil
		}
		return math.Float64bits(f), nil
	case kindBool:
		switch s {
		case "true", "1":
			return 1, nil
		case "false", "0":
			return 0, nil
		}
		return 0, fmt.Errorf("%q is not a bool (%s wants true, false, 1 or 0)", s, typeName)
	}
	v, ok := parseInteger(s)
	if !ok {
		return 0, fmt.Errorf("%q is not an integer (%s wants e.g. 1024, -1, 0x400, 1e6)", s, typeName)
	}
	lo, hi := intRange(t)
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return 0, fmt.Errorf("%s is out of range for %s (want %s..%s)", s, typeName, lo, hi)
	}
	if t.kind == kindInt {
		return uint64(v.Int64()), nil
	}
	return v.Uint64(), nil
}

func maxFloat(t elemType) float64 {
	if f, ok := t.format(); ok {
		return f.maxFinite()
	}
	if t.size == 4 {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// parseInteger accepts Go/C integer literals (1024, -1, 0x400, 0b101,
// 1_000) and exact integers in floating-point notation (1e6).
func parseInteger(s string) (*big.Int, bool) {
	if v, ok := new(big.Int).SetString(s, 0); ok {
		return v, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return nil, false
	}
	v, _ := big.NewFloat(f).Int(nil)
	return v, true
}

// intRange is t's smallest and largest value.
func intRange(t elemType) (lo, hi *big.Int) {
	bitsN := uint(8 * t.size)
	one := big.NewInt(1)
	if t.kind == kindUint {
		return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, bitsN), one)
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bitsN-1), one)
	return new(big.Int).Neg(new(big.Int).Add(hi, one)), hi
}

// put stores the low size bytes of v at b, little-endian.
func put(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	default:
		panic(fmt.Sprintf("launch: element size %d", size))
	}
}

// fill writes count elements of t into data, element i being gen(i)'s
// bits.
func fill(data []byte, t elemType, count int, gen func(i int) uint64) {
	for i := 0; i < count; i++ {
		put(data[i*t.size:], t.size, gen(i))
	}
}

// iotaBits is element i of iota: i in t, wrapping in narrow integer types
// (a uchar buffer counts 0..255, 0..255, ...), i%2 for bool.
func iotaBits(t elemType, i int) uint64 {
	switch t.kind {
	case kindFloat:
		if f, ok := t.format(); ok {
			return uint64(f.fromFloat64(float64(i), 0)) // inexact (or infinite) where t's precision ends
		}
		if t.size == 4 {
			return uint64(math.Float32bits(float32(i)))
		}
		return math.Float64bits(float64(i))
	case kindBool:
		return uint64(i & 1)
	}
	return uint64(i)
}

// rng is SplitMix64: small, fast, and fixed here, so a seed means the same
// data in every ldcheck build.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// randBits is the next random value of t: floats uniform in [-1, 1) on a
// grid of 2^-23 (float), 2^-52 (double), 2^-10 (half) or 2^-7 (bfloat16),
// so never NaN, infinite or denormal; 1-byte integers in [0, 128); other integers in [0, 1000),
// small enough for index-like uses; bools 0 or 1.
func (r *rng) randBits(t elemType) uint64 {
	u := r.next()
	f, small := t.format()
	switch {
	case small:
		m := int64(u>>(63-f.frac)) - 1<<f.frac // frac+1 bits, centred: exact in f
		return uint64(f.fromFloat64(float64(m)/float64(uint64(1)<<f.frac), 0))
	case t.kind == kindFloat && t.size == 4:
		m := int32(u>>40) - 1<<23 // 24 bits, centred
		return uint64(math.Float32bits(float32(m) / (1 << 23)))
	case t.kind == kindFloat:
		m := int64(u>>11) - 1<<52 // 53 bits, centred
		return math.Float64bits(float64(m) / (1 << 52))
	case t.kind == kindBool:
		return u >> 63
	case t.size == 1:
		return u >> 57
	}
	hi, _ := bits.Mul64(u, 1000)
	return hi
}
