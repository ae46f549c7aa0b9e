package launch

import (
	"math"
	"math/big"
	"math/bits"
)

// smallFloat is a 16-bit binary floating-point format: IEEE half
// (binary16: 10 fraction bits, 5 exponent bits) or bfloat16 (7 and 8).
type smallFloat struct {
	frac, exp uint
}

var (
	halfFormat     = smallFloat{10, 5}
	bfloat16Format = smallFloat{7, 8}
)

// format is t's 16-bit format; ok is false for other types.
func (t elemType) format() (f smallFloat, ok bool) {
	switch {
	case t.kind != kindFloat || t.size != 2:
		return smallFloat{}, false
	case t.name == "bfloat16":
		return bfloat16Format, true
	}
	return halfFormat, true
}

func (f smallFloat) bias() int          { return 1<<(f.exp-1) - 1 }
func (f smallFloat) infBits() uint16    { return uint16((1<<f.exp - 1) << f.frac) }
func (f smallFloat) nanBits() uint16    { return f.infBits() | uint16(1<<f.frac-1) }
func (f smallFloat) signBit() uint16    { return 1 << (f.frac + f.exp) }
func (f smallFloat) maxFinite() float64 { return f.toFloat64(f.infBits() - 1) }

// fromFloat64 rounds x to f to nearest, ties to even, as a GPU's
// cvt.rn does (__float2half, __float2bfloat16): overflow gives an
// infinity, tiny values subnormals or a signed zero, and a NaN the
// canonical NaN (0x7fff). sticky breaks a tie that x alone would see: the
// sign of what the exact value has beyond x's magnitude (0: x is exact).
func (f smallFloat) fromFloat64(x float64, sticky int) uint16 {
	b := math.Float64bits(x)
	var sign uint16
	if b>>63 != 0 {
		sign = f.signBit()
	}
	ex := int(b >> 52 & 0x7ff)
	man := b & (1<<52 - 1)
	switch {
	case ex == 0x7ff && man != 0:
		return f.nanBits()
	case ex == 0x7ff:
		return sign | f.infBits()
	case ex == 0 && man == 0:
		return sign
	}
	sig, e := man|1<<52, ex-1075 // |x| = sig * 2^e
	if ex == 0 {
		sig, e = man, -1074
	}
	ue := e + 63 - bits.LeadingZeros64(sig) // floor(log2 |x|)
	q := ue
	if q < 1-f.bias() {
		q = 1 - f.bias() // subnormal: a fixed quantum
	}
	q -= int(f.frac)
	shift := uint(q - e) // > 0: x has more bits than f
	var n uint64
	cmp := -1 // the dropped bits against half a quantum
	if shift < 64 {
		n = sig >> shift
		rem, half := sig&(1<<shift-1), uint64(1)<<(shift-1)
		switch {
		case rem > half:
			cmp = 1
		case rem == half:
			cmp = 0
		}
	}
	if cmp > 0 || cmp == 0 && (sticky > 0 || sticky == 0 && n&1 == 1) {
		n++
	}
	if n>>(f.frac+1) != 0 {
		n >>= 1
		q++
	}
	if n < 1<<f.frac {
		return sign | uint16(n) // subnormal, or the smallest normal after rounding up
	}
	biased := q + int(f.frac) + f.bias()
	if biased >= 1<<f.exp-1 {
		return sign | f.infBits()
	}
	return sign | uint16(biased)<<f.frac | uint16(n-1<<f.frac)
}

// toFloat64 is the value of bits h of f (exact).
func (f smallFloat) toFloat64(h uint16) float64 {
	neg := h&f.signBit() != 0
	ex := int(h>>f.frac) & (1<<f.exp - 1)
	man := float64(h & (1<<f.frac - 1))
	var v float64
	switch {
	case ex == 1<<f.exp-1 && man != 0:
		return math.NaN()
	case ex == 1<<f.exp-1:
		v = math.Inf(1)
	case ex == 0:
		v = math.Ldexp(man, 1-f.bias()-int(f.frac))
	default:
		v = math.Ldexp(man+float64(uint64(1)<<f.frac), ex-f.bias()-int(f.frac))
	}
	if neg {
		return -v
	}
	return v
}

// fromDecimal rounds the number s spells, whose nearest float64 is x, to
// f to nearest even: exactly, even where x itself lies on a tie the
// decimal is not on (1.00048828125000000001 is above 1+2^-11, so it
// rounds up in half, though its float64 is that tie).
func (f smallFloat) fromDecimal(s string, x float64) uint16 {
	sticky := 0
	if r, ok := new(big.Rat).SetString(s); ok && !math.IsInf(x, 0) && !math.IsNaN(x) {
		var xr big.Rat
		xr.SetFloat64(x)
		sticky = r.Cmp(&xr)
		if x < 0 || x == 0 && r.Sign() < 0 {
			sticky = -sticky // in magnitude
		}
	}
	return f.fromFloat64(x, sticky)
}
