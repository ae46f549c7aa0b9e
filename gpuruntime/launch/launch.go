// Package launch turns `ldcheck run`'s command line into what to launch: the
// kernel, the grid and block, the dynamic shared memory, and one value per
// kernel parameter (the initial contents of each buffer, the bytes of each
// scalar), with defaults for what the user left out.
//
// Everything here is plain data and checks; nothing touches a device. Every
// problem with the user's input is an *Error, whose message is one line
// naming the flag and the value and saying what is expected; the caller
// exits with status 2 on those.
//
// The flags:
//
//	--kernel NAME            default: the manifest's only kernel
//	--grid X[,Y[,Z]]         required
//	--block X[,Y[,Z]]        required
//	--shared BYTES           dynamic shared memory: 1024, 4KiB, 48K, 2MiB
//	--arg NAME=TYPE[COUNT]:INIT   a pointer parameter's buffer; INIT is
//	                         zero, iota, rand[:SEED], const:V or file:PATH
//	--arg NAME=VALUE         a scalar parameter (type from the signature)
//	--arg NAME=TYPE:VALUE    a scalar whose type ldcheck cannot tell (a
//	                         typedef, an enum): TYPE's size must match
//	--arg NAME=hex:BYTES     a by-value parameter of any type (a struct) as
//	--arg NAME=file:PATH     its bytes: exactly the parameter's size
//	--arg NAME={FIELD=VALUE,...}   a struct by value, field by field:
//	                         omitted fields are zero; {...} for a nested
//	                         struct, [V,...] for an array field, @BUF for
//	                         a pointer field (the address of pointer
//	                         parameter BUF's buffer)
//	--arg NAME=STRUCT[COUNT]:{FIELD=VALUE,...}   a buffer of structs, every
//	                         element with those fields (rand[:SEED] and iota
//	                         vary per element); STRUCT[COUNT]:zero,
//	                         :rand[:SEED] (every number field random,
//	                         pointers null) and :file:PATH too
//	--out NAME=PATH          write buffer NAME to PATH after the run
//
// Buffer contents and scalars are little-endian, as on the GPU.
package launch

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// Error is a problem with the user's input (exit status 2). Its message is
// one line: "FLAG VALUE: MSG", "FLAG: MSG" when there is no value to show.
type Error struct {
	Flag  string // "--arg", "--grid", ...; empty when no one flag is at fault
	Value string // the flag's value as given, when there is one
	Msg   string // what is wrong and what is expected
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Flag)
	if e.Value != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteValue(e.Value))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// quoteValue shows v as typed when that is unambiguous on one line.
func quoteValue(v string) string {
	for _, r := range v {
		if r <= ' ' || r == 0x7f || r == '"' || r > 0x7e {
			return strconv.Quote(v)
		}
	}
	return v
}

func errorf(flag, value, format string, args ...any) *Error {
	return &Error{Flag: flag, Value: value, Msg: oneLine(fmt.Sprintf(format, args...))}
}

// oneLine keeps messages to one line whatever went into them (file names
// and values are the user's).
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}

// Dim3 is a grid or block shape: X, Y, Z.
type Dim3 [3]uint32

// Count is X*Y*Z (0 for the zero Dim3).
func (d Dim3) Count() uint64 { return mulSat(mulSat(uint64(d[0]), uint64(d[1])), uint64(d[2])) }

// String is the shortest flag spelling: "64", "16,16", "2,2,2".
func (d Dim3) String() string {
	n := 3
	for n > 1 && d[n-1] == 1 {
		n--
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.FormatUint(uint64(d[i]), 10)
	}
	return strings.Join(parts, ",")
}

// mulSat is a*b, or MaxUint64 when that overflows.
func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// Arg is one --arg. A buffer (Count > 0) has Type, Count and Init; a
// scalar has Scalar, the value as typed, and Type only when given as
// TYPE:VALUE.
type Arg struct {
	Name   string
	Type   string // element type of a buffer; of a scalar, only when explicit
	Count  int    // buffer elements; 0 for a scalar
	Init   Init   // a buffer's initial contents
	Scalar string // a scalar's value
	// Bytes of a by-value parameter given whole (hex:BYTES, or the file
	// at BytesFile for file:PATH): a struct --arg cannot spell by fields.
	BytesGiven []byte
	BytesFile  string
	// Fields is a struct passed by value given field by field
	// ({FIELD=VALUE,...}).
	Fields *lit
	Raw    string // the flag's value as given, for messages
}

// IsBytes tells a by-value parameter given as its bytes.
func (a Arg) IsBytes() bool { return a.BytesGiven != nil || a.BytesFile != "" }

// IsBuffer tells the two forms apart.
func (a Arg) IsBuffer() bool { return a.Count > 0 }

// Bytes is a buffer's size as the flag gives it (Count elements of Type),
// saturating; false when Type's size is known only from the kernel (a
// struct) or a is a scalar.
func (a Arg) Bytes() (uint64, bool) {
	if t, ok := lookupType(a.Type); ok && a.IsBuffer() {
		return mulSat(uint64(a.Count), uint64(t.size)), true // int8, half, bfloat16, ...: TYPEs no C type spells
	}
	ct, ok := lookupCType(a.Type)
	if !a.IsBuffer() || !ok || ct.size() == 0 {
		return 0, false
	}
	return mulSat(uint64(a.Count), uint64(ct.size())), true
}

// Init says how a buffer starts.
type Init struct {
	Kind  string // "zero", "iota", "rand", "const", "file" or "fields"
	Seed  int64  // rand
	Const string // const: the value as typed (already checked against the type); fields: {...} as typed
	Path  string // file
	// Fields are a struct element's fields ({FIELD=VALUE,...}), the same
	// for every element but for rand and iota.
	Fields *lit
	// Struct says that the buffer's TYPE is not one of --arg's but the
	// name of a struct, which Bind checks against the kernel's element
	// type (fields, zero, rand and file).
	Struct bool
}

// String is the INIT spelling: "zero", "rand:1", "const:2.5", "file:x.bin".
func (in Init) String() string {
	switch in.Kind {
	case "rand":
		return "rand:" + strconv.FormatInt(in.Seed, 10)
	case "const":
		return "const:" + in.Const
	case "file":
		return "file:" + in.Path
	case "fields":
		return in.Const
	}
	return in.Kind
}

// Out is one --out: write buffer Name to Path after the run.
type Out struct{ Name, Path string }

// Spec is a parsed command line.
type Spec struct {
	Kernel      string // empty: the manifest's only kernel
	Grid, Block Dim3
	Shared      int64 // dynamic shared memory, bytes
	Args        []Arg
	Outs        []Out
}

// Threads is the launch's total thread count (MaxUint64 if it overflows).
func (s Spec) Threads() uint64 { return mulSat(s.Grid.Count(), s.Block.Count()) }

// CUDA's launch limits (compute capability 3.0 and later).
const (
	maxGridX         = math.MaxInt32
	maxGridYZ        = 65535
	maxBlockXY       = 1024
	maxBlockZ        = 64
	maxBlockThreads  = 1024
	maxSharedBytes   = math.MaxUint32 // the driver takes a uint32; the device's own limit is lower
	launchExample    = "e.g. --grid 64 --block 256: 64 blocks of 256 threads"
	dim3Syntax       = "X[,Y[,Z]]"
	requiredGridHint = "the number of blocks, " + dim3Syntax
)

// Validate checks the launch shape against CUDA's limits; the device's own
// limits (its shared memory, its registers) are the driver's to check.
func Validate(s Spec) error {
	if s.Grid == (Dim3{}) && s.Block == (Dim3{}) {
		return errorf("", "", "--grid and --block are required (%s)", launchExample)
	}
	if s.Grid == (Dim3{}) {
		return errorf("--grid", "", "required: %s (%s)", requiredGridHint, launchExample)
	}
	if s.Block == (Dim3{}) {
		return errorf("--block", "", "required: the threads per block, %s (%s)", dim3Syntax, launchExample)
	}
	axes := [3]string{"x", "y", "z"}
	for i, v := range s.Grid {
		if v == 0 {
			return errorf("--grid", s.Grid.String(), "%s is 0; each dimension must be at least 1", axes[i])
		}
		max := uint32(maxGridYZ)
		if i == 0 {
			max = maxGridX
		}
		if v > max {
			return errorf("--grid", s.Grid.String(), "%s is %d; CUDA allows at most %d blocks in %s", axes[i], v, max, axes[i])
		}
	}
	for i, v := range s.Block {
		if v == 0 {
			return errorf("--block", s.Block.String(), "%s is 0; each dimension must be at least 1", axes[i])
		}
		max := uint32(maxBlockXY)
		if i == 2 {
			max = maxBlockZ
		}
		if v > max {
			return errorf("--block", s.Block.String(), "%s is %d; CUDA allows at most %d threads in %s", axes[i], v, max, axes[i])
		}
	}
	if n := s.Block.Count(); n > maxBlockThreads {
		return errorf("--block", s.Block.String(), "%d threads per block; CUDA allows at most %d", n, maxBlockThreads)
	}
	if s.Shared < 0 || s.Shared > maxSharedBytes {
		return errorf("--shared", strconv.FormatInt(s.Shared, 10), "want 0 to %d bytes", int64(maxSharedBytes))
	}
	return nil
}

// Flags are the raw flag values, as the command line gave them; "" for a
// flag not given.
type Flags struct {
	Kernel, Grid, Block, Shared string
	Args, Outs                  []string
}

// ParseSpec parses and validates the flags.
func ParseSpec(f Flags) (Spec, error) {
	s := Spec{Kernel: f.Kernel}
	dims := []struct {
		flag, value string
		dst         *Dim3
		parse       func(string) (Dim3, error)
	}{{"--grid", f.Grid, &s.Grid, ParseGrid}, {"--block", f.Block, &s.Block, ParseBlock}}
	for _, d := range dims {
		if d.value == "" {
			continue // Validate says it is required
		}
		v, err := d.parse(d.value)
		if err != nil {
			return Spec{}, withFlag(err, d.flag)
		}
		*d.dst = v
	}
	if f.Shared != "" {
		n, err := ParseBytes(f.Shared)
		if err != nil {
			return Spec{}, withFlag(err, "--shared")
		}
		s.Shared = n
	}
	for _, raw := range f.Args {
		a, err := ParseArg(raw)
		if err != nil {
			return Spec{}, err
		}
		s.Args = append(s.Args, a)
	}
	for _, raw := range f.Outs {
		o, err := ParseOut(raw)
		if err != nil {
			return Spec{}, err
		}
		s.Outs = append(s.Outs, o)
	}
	if err := Validate(s); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// withFlag names the flag in an error from ParseDim3 or ParseBytes, which
// do not know which flag they parse.
func withFlag(err error, flag string) error {
	if e, ok := err.(*Error); ok && e.Flag == "" {
		c := *e
		c.Flag = flag
		return &c
	}
	return err
}

// SelectKernel finds the kernel --kernel names; with no name, the
// manifest's only kernel.
func SelectKernel(m *manifest.Manifest, name string) (*manifest.Kernel, error) {
	names := make([]string, len(m.Kernels))
	for i, k := range m.Kernels {
		names[i] = k.Name
	}
	if len(m.Kernels) == 0 {
		return nil, errorf("", "", "the build has no kernels (no __global__ function in %s)", m.Source)
	}
	if name == "" {
		if len(m.Kernels) == 1 {
			return &m.Kernels[0], nil
		}
		return nil, errorf("--kernel", "", "required: the build has %d kernels (%s); choose one with --kernel NAME", len(names), strings.Join(names, ", "))
	}
	if k, ok := m.Kernel(name); ok {
		return k, nil
	}
	return nil, errorf("--kernel", name, "no such kernel (kernels: %s)", strings.Join(names, ", "))
}
