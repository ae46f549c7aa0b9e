package launch

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// ParseDim3 parses X[,Y[,Z]]: "64", "16,16", "2,2,1"; missing dimensions
// are 1. Each must be 1..2^31-1; Validate checks CUDA's tighter limits.
// Its errors name the value but not the flag (the caller's, see
// ParseSpec).
func ParseDim3(s string) (Dim3, error) {
	return parseDim3(s, fmt.Sprintf("X[,Y[,Z]], each 1 to %d, e.g. 64 or 16,16", maxGridX))
}

// gridWant and blockWant say CUDA's limits for each dimension of --grid
// and --block, which their errors end with.
var (
	gridWant  = fmt.Sprintf("X[,Y[,Z]] blocks, x 1 to %d, y and z 1 to %d, e.g. 64 or 16,16", maxGridX, maxGridYZ)
	blockWant = fmt.Sprintf("X[,Y[,Z]] threads, x and y 1 to %d, z 1 to %d, at most %d in all, e.g. 256 or 16,16", maxBlockXY, maxBlockZ, maxBlockThreads)
)

// ParseGrid parses --grid's X[,Y[,Z]]; its errors give each dimension's
// limit. Validate checks the limits.
func ParseGrid(s string) (Dim3, error) { return parseDim3(s, gridWant) }

// ParseBlock parses --block's X[,Y[,Z]]; its errors give each dimension's
// limit. Validate checks the limits.
func ParseBlock(s string) (Dim3, error) { return parseDim3(s, blockWant) }

func parseDim3(s, want string) (Dim3, error) {
	fail := func(format string, args ...any) (Dim3, error) {
		return Dim3{}, errorf("", s, format+"; want %s", append(args, want)...)
	}
	if strings.TrimSpace(s) == "" {
		return fail("empty")
	}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return fail("%d dimensions", len(parts))
	}
	d := Dim3{1, 1, 1}
	axes := [3]string{"x", "y", "z"}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return fail("%s is empty", axes[i])
		}
		v, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			if isDigits(p) {
				return fail("%s is %s, too large", axes[i], p)
			}
			return fail("%s is %q, not a positive integer", axes[i], p)
		}
		if v == 0 {
			return fail("%s is 0", axes[i])
		}
		if v > maxGridX {
			return fail("%s is %d, too large", axes[i], v)
		}
		d[i] = uint32(v)
	}
	return d, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// byteUnits are ParseBytes's suffixes, all powers of 1024: CUDA's "48 KB"
// of shared memory is 49152 bytes.
var byteUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
}

// ParseBytes parses a byte count: 1024, 4KiB, 48K, 2MiB, 1GiB (K, KB and
// KiB are all 1024, and so on; case does not matter). Its errors name the
// value but not the flag.
func ParseBytes(s string) (int64, error) { return parseBytes(s, maxSharedBytes) }

// ParseMemory parses a memory size as ParseBytes does, up to a PiB
// (--mem-limit 2GiB).
func ParseMemory(s string) (int64, error) { return parseBytes(s, 1<<50) }

func parseBytes(s string, limit int64) (int64, error) {
	const want = "want BYTES, e.g. 1024, 4KiB, 48K, 2MiB"
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		if t == "" {
			return 0, errorf("", s, "empty (%s)", want)
		}
		if strings.HasPrefix(t, "-") {
			return 0, errorf("", s, "negative (%s)", want)
		}
		return 0, errorf("", s, "not a byte count (%s)", want)
	}
	if i < len(t) && t[i] == '.' {
		return 0, errorf("", s, "not a whole number of bytes (%s)", want)
	}
	unit, ok := byteUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	if !ok {
		return 0, errorf("", s, "unknown unit %q (%s)", strings.TrimSpace(t[i:]), want)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n > limit/unit {
		return 0, errorf("", s, "too large (at most %d bytes)", limit)
	}
	return n * unit, nil
}

// maxBufferBytes bounds one --arg buffer, which ldcheck holds in host
// memory as well as on the device.
const maxBufferBytes = 16 << 30

const (
	argSyntax  = "want NAME=VALUE for a scalar or NAME=TYPE[COUNT]:INIT for a pointer, e.g. n=1024 or out=float[1024]:zero"
	initSyntax = "zero, iota, rand[:SEED], const:V or file:PATH"
)

// ParseArg parses one --arg: NAME=TYPE[COUNT]:INIT (a buffer), NAME=VALUE
// (a scalar typed by the kernel's signature) or NAME=TYPE:VALUE (a scalar
// of an explicit type). A buffer's TYPE, COUNT and INIT are checked here,
// a const:V against TYPE included; a scalar's VALUE is checked here only
// when its type is explicit, else by Bind.
func ParseArg(s string) (Arg, error) {
	fail := func(format string, args ...any) (Arg, error) {
		return Arg{}, errorf("--arg", s, format, args...)
	}
	name, val, ok := strings.Cut(s, "=")
	if !ok {
		return fail("missing =; %s", argSyntax)
	}
	if !isIdent(name) {
		if name == "" {
			return fail("missing NAME before =; %s", argSyntax)
		}
		return fail("%q is not a parameter name; %s", name, argSyntax)
	}
	if val == "" {
		return fail("missing value after %s=; %s", name, argSyntax)
	}
	a := Arg{Name: name, Raw: s}
	n := identLen(val)
	switch {
	case n > 0 && n < len(val) && val[n] == '[':
		typ := val[:n]
		t, ok := lookupType(typ)
		end := strings.IndexByte(val, ']')
		if !ok && end > 0 && (strings.HasPrefix(val[end+1:], ":{") || structInit(typ, val[end+1:])) {
			// A buffer of structs: Bind checks TYPE against the kernel's
			// element type and knows its size.
			return parseStructBuffer(a, typ, val[n+1:end], val[end+2:], fail)
		}
		if !ok {
			return fail("%s", unknownType(typ))
		}
		if end < 0 {
			return fail("missing ] after %s[ (want %s=%s[COUNT]:INIT, e.g. %s=%s[1024]:zero)", typ, name, typ, name, typ)
		}
		countText := val[n+1 : end]
		if countText == "" {
			return fail("missing COUNT in %s[] (want %s=%s[COUNT]:INIT, e.g. %s=%s[1024]:zero)", typ, name, typ, name, typ)
		}
		count, err := strconv.ParseInt(countText, 10, 64)
		if err != nil && !isDigits(countText) {
			return fail("COUNT %q is not a positive integer (want e.g. %s[1024])", countText, typ)
		}
		if err != nil || count > maxBufferBytes/int64(t.size) {
			return fail("%s[%s] is too large (at most %d bytes a buffer)", typ, countText, int64(maxBufferBytes))
		}
		if count < 1 {
			return fail("COUNT is %d; a buffer needs at least 1 element", count)
		}
		rest := val[end+1:]
		if rest == "" {
			return fail("missing :INIT after %s (want %s:INIT, INIT one of %s)", val, val, initSyntax)
		}
		if rest[0] != ':' {
			return fail("want :INIT after %s, got %q (INIT is %s)", val[:end+1], rest, initSyntax)
		}
		if strings.HasPrefix(rest, ":{") {
			return fail("%s is not a struct: {FIELD=VALUE,...} sets the fields of a buffer of structs (want %s=%s[%s]:INIT, INIT one of %s)", typ, name, typ, countText, initSyntax)
		}
		in, msg := parseInit(t, rest[1:])
		if msg != "" {
			return fail("%s", msg)
		}
		a.Type, a.Count, a.Init = typ, int(count), in
	case n > 0 && n < len(val) && val[n] == ':' && (val[:n] == "hex" || val[:n] == "file"):
		// A by-value parameter's bytes, whatever its type (a struct).
		v := val[n+1:]
		if val[:n] == "file" {
			if v == "" {
				return fail("missing PATH after file: (want %s=file:PATH, the parameter's bytes)", name)
			}
			a.BytesFile = v
			return a, nil
		}
		b, err := hex.DecodeString(strings.ReplaceAll(v, "_", ""))
		if err != nil || len(b) == 0 {
			return fail("want %s=hex:BYTES, an even number of hex digits (the parameter's bytes as they lie in memory, little-endian; _ may separate them), e.g. %s=hex:05000000_0000c03f", name, name)
		}
		a.BytesGiven = b
	case n > 0 && n < len(val) && val[n] == ':':
		typ := val[:n]
		t, ok := lookupType(typ)
		if !ok {
			switch typ {
			case "zero", "iota", "rand", "const":
				return fail("INIT needs a TYPE and COUNT first (want %s=TYPE[COUNT]:%s, e.g. %s=float[1024]:%s)", name, val, name, val)
			}
			return fail("%s", unknownType(typ))
		}
		v := val[n+1:]
		if v == "" {
			return fail("missing VALUE after %s: (want %s=%s:VALUE)", typ, name, typ)
		}
		if _, err := parseValue(t, "", v); err != nil {
			return fail("%v", err)
		}
		a.Type, a.Scalar = typ, v
	case strings.HasPrefix(strings.TrimSpace(val), "{"):
		// A struct passed by value, field by field.
		l, msg := parseLit(val)
		if msg != "" {
			return fail("%s", msg)
		}
		a.Fields = l
	default:
		if strings.ContainsAny(val, "[]") {
			return fail("want %s=TYPE[COUNT]:INIT with TYPE one of %s", name, strings.Join(TypeNames(), ", "))
		}
		a.Scalar = val
	}
	return a, nil
}

// parseStructBuffer parses NAME=TYPE[COUNT]:{FIELD=VALUE,...}, a buffer
// of structs each element of which gets the fields given.
func parseStructBuffer(a Arg, typ, countText, fields string, fail func(string, ...any) (Arg, error)) (Arg, error) {
	count, err := strconv.ParseInt(countText, 10, 64)
	switch {
	case countText == "":
		return fail("missing COUNT in %s[] (want %s=%s[COUNT]:{FIELD=VALUE,...})", typ, a.Name, typ)
	case err != nil && !isDigits(countText):
		return fail("COUNT %q is not a positive integer (want e.g. %s[1024])", countText, typ)
	case err != nil || count > maxBufferBytes:
		return fail("%s[%s] is too large (at most %d bytes a buffer)", typ, countText, int64(maxBufferBytes))
	case count < 1:
		return fail("COUNT is %d; a buffer needs at least 1 element", count)
	}
	if !strings.HasPrefix(fields, "{") {
		in, msg := parseInit(elemType{}, fields)
		if msg != "" {
			return fail("%s", msg)
		}
		in.Struct = true
		a.Type, a.Count, a.Init = typ, int(count), in
		return a, nil
	}
	l, msg := parseLit(fields)
	if msg != "" {
		return fail("%s", msg)
	}
	a.Type, a.Count, a.Init = typ, int(count), Init{Kind: "fields", Fields: l, Const: fields, Struct: true}
	return a, nil
}

// structInit tells a buffer of a struct TYPE with an INIT that needs no
// numeric TYPE (rest is ":zero", ":rand[:SEED]" or ":file:PATH"); the
// spellings of C scalars, vectors and halves are not struct TYPEs.
func structInit(typ, rest string) bool {
	if _, ok := lookupCType(typ); ok || strings.Contains(unknownType(typ), "not supported") || typ == "unsigned" {
		return false
	}
	kind, _, _ := strings.Cut(strings.TrimPrefix(rest, ":"), ":")
	return strings.HasPrefix(rest, ":") && (kind == "zero" || kind == "rand" || kind == "file")
}

// parseInit parses INIT for a buffer of t; msg is empty when it is good.
func parseInit(t elemType, s string) (in Init, msg string) {
	kind, arg, hasArg := strings.Cut(s, ":")
	switch kind {
	case "zero", "iota":
		if hasArg {
			return Init{}, fmt.Sprintf("INIT %s takes no argument (want %s)", kind, initSyntax)
		}
		return Init{Kind: kind}, ""
	case "rand":
		in := Init{Kind: "rand", Seed: DefaultSeed}
		if hasArg {
			seed, err := strconv.ParseInt(arg, 10, 64)
			if err != nil {
				return Init{}, fmt.Sprintf("SEED %q is not an integer (want rand or rand:SEED, e.g. rand:7)", arg)
			}
			in.Seed = seed
		}
		return in, ""
	case "const":
		if !hasArg || arg == "" {
			return Init{}, fmt.Sprintf("missing V in const:V (want e.g. const:%s)", exampleValue(t))
		}
		if _, err := parseValue(t, "", arg); err != nil {
			return Init{}, err.Error()
		}
		return Init{Kind: "const", Const: arg}, ""
	case "file":
		if !hasArg || arg == "" {
			return Init{}, "missing PATH in file:PATH"
		}
		return Init{Kind: "file", Path: arg}, ""
	case "":
		return Init{}, fmt.Sprintf("empty INIT (want %s)", initSyntax)
	}
	return Init{}, fmt.Sprintf("unknown INIT %q (want %s)", kind, initSyntax)
}

// DefaultSeed is the seed of rand without one, and of the first default
// buffer.
const DefaultSeed = 1

func exampleValue(t elemType) string {
	switch t.kind {
	case kindFloat:
		return "0.5"
	case kindBool:
		return "true"
	}
	return "7"
}

// ParseOut parses one --out: NAME=PATH. Bind checks NAME against the
// kernel and PATH's directory.
func ParseOut(s string) (Out, error) {
	const want = "want NAME=PATH, e.g. out=out.bin"
	name, path, ok := strings.Cut(s, "=")
	switch {
	case !ok:
		return Out{}, errorf("--out", s, "missing =; %s", want)
	case name == "":
		return Out{}, errorf("--out", s, "missing NAME before =; %s", want)
	case !isIdent(name):
		return Out{}, errorf("--out", s, "%q is not a parameter name; %s", name, want)
	case path == "":
		return Out{}, errorf("--out", s, "missing PATH after %s=; %s", name, want)
	}
	return Out{Name: name, Path: path}, nil
}

// identLen is the length of the C identifier that s starts with.
func identLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return i
	}
	return len(s)
}

func isIdent(s string) bool { return s != "" && identLen(s) == len(s) }
