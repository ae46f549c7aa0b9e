package gpuruntime

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// Element names the element of target t that holds byte off, as the
// source would write it: partial[31], As[3][5], cells[5].mass. t may be
// of unknown element size: the byte offset is then all there is.
func Element(t *manifest.Target, off int64) string {
	size := t.ElemSize
	if size <= 0 {
		return fmt.Sprintf("%s[byte %d]", t.Name, off)
	}
	i := off / size
	s := t.Name + index(i, t.Dims)
	if f, ok := fieldAt(elemFields(t), off%size); ok {
		s += "." + f.Name
		if _, n, ok := arrayOf(f.Type); ok && n > 0 {
			s += fmt.Sprintf("[%d]", (off%size-f.Offset)/(f.Size/n))
		}
	}
	return s
}

// index writes element i of an array of dims (row-major) as [a][b]...,
// or [i] when the dimensions are not known.
func index(i int64, dims []int64) string {
	if len(dims) < 2 {
		return fmt.Sprintf("[%d]", i)
	}
	idx := make([]int64, len(dims))
	for d := len(dims) - 1; d >= 1; d-- {
		idx[d] = i % dims[d]
		i /= dims[d]
	}
	idx[0] = i
	var b strings.Builder
	for _, x := range idx {
		fmt.Fprintf(&b, "[%d]", x)
	}
	return b.String()
}

// fieldAt is the field holding byte off of a struct element.
func fieldAt(fields []manifest.Field, off int64) (manifest.Field, bool) {
	for _, f := range fields {
		if off >= f.Offset && off < f.Offset+f.Size {
			return f, true
		}
	}
	return manifest.Field{}, false
}

// arrayOf splits an array type "T[n]" into T and n.
func arrayOf(typ string) (string, int64, bool) {
	i := strings.IndexByte(typ, '[')
	if i < 0 || !strings.HasSuffix(typ, "]") {
		return typ, 0, false
	}
	n, err := strconv.ParseInt(typ[i+1:len(typ)-1], 10, 64)
	if err != nil {
		return typ, 0, false
	}
	return strings.TrimSpace(typ[:i]), n, true
}

// scalarAt is the scalar of target t that holds byte off: its byte range
// in the target and its type, so that a value can be read in its type.
// ok is false when the element's type is not known.
func scalarAt(t *manifest.Target, off int64) (from, n int64, typ string, ok bool) {
	size := t.ElemSize
	if size <= 0 {
		return 0, 0, "", false
	}
	start := off - off%size
	fields := elemFields(t)
	if f, found := fieldAt(fields, off%size); found {
		if elem, cnt, isArr := arrayOf(f.Type); isArr && cnt > 0 {
			es := f.Size / cnt
			k := (off%size - f.Offset) / es
			return start + f.Offset + k*es, es, elem, true
		}
		return start + f.Offset, f.Size, f.Type, true
	}
	if len(fields) > 0 {
		return 0, 0, "", false // padding, or a field the manifest leaves out
	}
	return start, size, t.Elem, true
}

// elemFields are the fields of t's element that reports name: none for
// the half precision scalars (__half, __nv_bfloat16), structs of one
// 16-bit field in CUDA's headers that are numbers to the user.
func elemFields(t *manifest.Target) []manifest.Field {
	if halfKind(t.Elem) != "" {
		return nil
	}
	return t.Fields
}

// halfKind says whether C type typ is a half precision scalar: "half"
// (__half, half), "bfloat16" (__nv_bfloat16, nv_bfloat16), or "".
func halfKind(typ string) string {
	switch bareType(typ) {
	case "__half", "half":
		return "half"
	case "__nv_bfloat16", "nv_bfloat16":
		return "bfloat16"
	}
	return ""
}

// bareType is typ without const and volatile.
func bareType(typ string) string {
	typ = strings.TrimSpace(typ)
	for _, q := range []string{"const ", "volatile "} {
		typ = strings.TrimPrefix(typ, q)
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(typ, " const"), " volatile"))
}

// halfValue is the value of IEEE binary16 bits h.
func halfValue(h uint16) float64 {
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	var v float64
	switch e {
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	case 0:
		v = math.Ldexp(m, -24)
	default:
		v = math.Ldexp(1024+m, e-25)
	}
	if h&0x8000 != 0 {
		return -v
	}
	return v
}

// FormatValue writes the little-endian bytes b as a value of C type typ:
// 3.25 for a float (or a __half), -7 for an int; hex bytes for types it
// does not know.
func FormatValue(typ string, b []byte) string {
	typ = bareType(typ)
	u := func() uint64 {
		var v uint64
		for i := len(b) - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		return v
	}
	signed := func() int64 {
		v := u()
		shift := 64 - 8*uint(len(b))
		return int64(v<<shift) >> shift
	}
	switch {
	case halfKind(typ) == "half" && len(b) == 2:
		return strconv.FormatFloat(halfValue(binary.LittleEndian.Uint16(b)), 'g', -1, 32)
	case halfKind(typ) == "bfloat16" && len(b) == 2:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b))<<16)), 'g', -1, 32)
	case typ == "float" && len(b) == 4:
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', -1, 32)
	case typ == "double" && len(b) == 8:
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', -1, 64)
	case typ == "bool" && len(b) == 1:
		return strconv.FormatBool(b[0] != 0)
	case len(b) > 8 || len(b) == 0:
	case strings.HasPrefix(typ, "unsigned") || strings.HasPrefix(typ, "uint") || typ == "size_t":
		return strconv.FormatUint(u(), 10)
	case typ == "int" || typ == "short" || typ == "long" || typ == "long long" || typ == "char" || typ == "signed char" ||
		strings.HasPrefix(typ, "int") || strings.HasPrefix(typ, "signed"):
		return strconv.FormatInt(signed(), 10)
	}
	var s strings.Builder
	s.WriteString("0x")
	for i := len(b) - 1; i >= 0; i-- {
		fmt.Fprintf(&s, "%02x", b[i])
	}
	return s.String()
}
