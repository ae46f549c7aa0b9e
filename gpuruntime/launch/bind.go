package launch

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// Value is one kernel parameter's launch value.
type Value struct {
	Param  manifest.Param
	Buffer bool
	// Data is a buffer's initial contents (Count*ElemSize bytes), or a
	// scalar's value (Param.Size bytes); little-endian either way.
	Data     []byte
	Count    int    // buffer elements of Type; 1 for a scalar
	ElemSize int    // bytes per element of Type
	Type     string // the TYPE Data holds ("float", "uint", ...)
	Init     Init   // how a buffer was filled; zero for a scalar
	// Ptrs are pointer fields of Data that must hold the address another
	// parameter's buffer has on the backend that runs ({data=@in}).
	Ptrs []Ptr
	// Spelled is a struct given field by field, as given ({n=5,...}).
	Spelled string
	// Texture: a texture object parameter given as the buffer it reads;
	// Data is the descriptor (TextureHeader bytes) and then the buffer.
	Texture bool
}

// Ptr says where Data holds pointers to parameter Param's buffer: Count
// 8-byte addresses, the first at byte Offset, each Stride bytes after the
// one before (the same field of each element of a buffer of structs).
type Ptr struct {
	Offset, Stride int64
	Count          int
	Param          int
}

// String is the --arg that makes v: "x=float[1024]:rand:3", "n=16384",
// "alpha=0.5", "r=float:0.5" (a scalar whose type ldcheck could not tell
// from its declaration). An unnamed parameter is "(unnamed)".
func (v Value) String() string {
	name := v.Param.Name
	if name == "" {
		name = "(unnamed)"
	}
	if v.Buffer {
		return fmt.Sprintf("%s=%s[%d]:%s", name, v.Type, v.Count, v.Init)
	}
	if v.Spelled != "" {
		return name + "=" + v.Spelled
	}
	t, ok := lookupType(v.Type)
	if !ok || len(v.Data) < t.size {
		return fmt.Sprintf("%s=(%d bytes)", name, len(v.Data))
	}
	text := formatValue(t, v.Data)
	if ct, ok := lookupCType(v.Param.Type); !ok || ct.lanes != 1 || ct.t != t {
		text = t.name + ":" + text
	}
	return name + "=" + text
}

// formatValue spells the value of t at b as --arg would read it back.
func formatValue(t elemType, b []byte) string {
	var u uint64
	for i := t.size - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if f, ok := t.format(); ok {
		// float32's shortest spelling reads back as the same float, and
		// so as the same half or bfloat16.
		return strconv.FormatFloat(f.toFloat64(uint16(u)), 'g', -1, 32)
	}
	switch {
	case t.kind == kindFloat && t.size == 4:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(u))), 'g', -1, 32)
	case t.kind == kindFloat:
		return strconv.FormatFloat(math.Float64frombits(u), 'g', -1, 64)
	case t.kind == kindBool:
		return strconv.FormatBool(u != 0)
	case t.kind == kindInt:
		shift := 64 - 8*t.size
		return strconv.FormatInt(int64(u<<shift)>>shift, 10)
	}
	return strconv.FormatUint(u, 10)
}

// Defaults for what --arg leaves out.
const (
	// A default buffer has an element per thread, but at least this many
	// bytes' worth, so that kernels indexing a little past their thread
	// count stay in bounds.
	minDefaultBytes = 1 << 20
	// and at most this many bytes: more needs an explicit --arg.
	maxDefaultBytes = 1 << 30
)

// Bind resolves the spec against the kernel's parameters: one Value per
// parameter, in order. Parameters without --arg get defaults: a pointer a
// buffer of random data, an element per thread (at least 1 MiB), seeded
// with DefaultSeed plus the parameter's index (so that no two default
// buffers hold the same bytes); an integer scalar the thread count. Each
// default, and each --arg that looks like a mistake, is described in
// notes. It reads file: inits, and checks that each --out's directory
// exists.
func Bind(k *manifest.Kernel, s Spec) (values []Value, notes []string, err error) {
	if s.Kernel != "" && s.Kernel != k.Name {
		return nil, nil, fmt.Errorf("launch: spec is for kernel %s, not %s", s.Kernel, k.Name)
	}
	if err := Validate(s); err != nil {
		return nil, nil, err
	}
	b := binder{k: k, s: s, byName: map[string]int{}, args: map[string]Arg{}}
	for i, p := range k.Params {
		if p.Name != "" {
			b.byName[p.Name] = i
		}
	}
	for _, a := range s.Args {
		if _, ok := b.byName[a.Name]; !ok {
			return nil, nil, errorf("--arg", a.raw(), "kernel %s has no parameter %s (%s)", k.Name, a.Name, b.paramList(false))
		}
		if prev, dup := b.args[a.Name]; dup {
			return nil, nil, errorf("--arg", a.raw(), "%s is given twice (also --arg %s)", a.Name, prev.raw())
		}
		b.args[a.Name] = a
	}
	if err := b.checkOuts(); err != nil {
		return nil, nil, err
	}
	if err := b.checkShared(); err != nil {
		return nil, nil, err
	}
	for i, p := range k.Params {
		a, given := b.args[p.Name]
		if err := funcPointer(i, p, a, given); err != nil {
			return nil, nil, err
		}
		var v Value
		var err error
		switch {
		case IsTexture(p):
			v, err = b.texture(i, p, a, given)
		case p.Pointer && given:
			v, err = b.buffer(p, a)
		case p.Pointer:
			v, err = b.defaultBuffer(i, p)
		default:
			var ap *Arg
			if given {
				ap = &a
			}
			v, err = b.scalar(i, p, ap)
		}
		if err != nil {
			return nil, nil, err
		}
		values = append(values, v)
	}
	return values, b.notes, nil
}

type binder struct {
	k      *manifest.Kernel
	s      Spec
	byName map[string]int
	args   map[string]Arg
	notes  []string
}

func (b *binder) note(format string, args ...any) {
	b.notes = append(b.notes, oneLine(fmt.Sprintf(format, args...)))
}

// raw is the --arg as given, or as it would have been.
func (a Arg) raw() string {
	if a.Raw != "" {
		return a.Raw
	}
	if a.IsBuffer() {
		return fmt.Sprintf("%s=%s[%d]:%s", a.Name, a.Type, a.Count, a.Init)
	}
	if a.Type != "" {
		return a.Name + "=" + a.Type + ":" + a.Scalar
	}
	return a.Name + "=" + a.Scalar
}

// decl spells a parameter as declared: "float *x", "int n".
func decl(p manifest.Param) string {
	if strings.HasSuffix(p.Type, "*") || p.Name == "" {
		return p.Type + p.Name
	}
	return p.Type + " " + p.Name
}

// paramName is how messages call parameter i.
func paramName(i int, p manifest.Param) string {
	if p.Name == "" {
		return fmt.Sprintf("parameter %d (unnamed)", i+1)
	}
	return p.Name
}

// paramList lists the kernel's parameters (only the pointers, if
// pointers) for messages.
func (b *binder) paramList(pointers bool) string {
	var ds []string
	for _, p := range b.k.Params {
		if p.Name != "" && (p.Pointer || !pointers) {
			ds = append(ds, decl(p))
		}
	}
	what := "parameters"
	if pointers {
		what = "pointer parameters"
	}
	if len(ds) == 0 {
		return "it has no " + what
	}
	return "its " + what + ": " + strings.Join(ds, ", ")
}

// pointee is what ldcheck knows of a pointer parameter's element type;
// ok is false when it cannot fill or check it (void, a struct, a typedef,
// half, or a size that disagrees with the manifest's).
func pointee(p manifest.Param) (ct cType, ok bool) {
	ct, ok = lookupCType(p.Elem)
	if ok && p.ElemSize != 0 && int64(ct.size()) != p.ElemSize {
		return cType{}, false
	}
	return ct, ok
}

// named says whether the binder knows the C type t by name.
func named(t string) bool {
	_, ok := lookupCType(t)
	return ok
}

// funcPointer refuses a parameter that is, or holds, a function pointer:
// ldcheck has no device function's address to give it.
func funcPointer(i int, p manifest.Param, a Arg, given bool) error {
	flag, value := "", ""
	if given {
		flag, value = "--arg", a.raw()
	}
	const why = "not supported (ldcheck cannot pass the address of a device function)"
	if (p.Pointer && isFuncType(p.Elem)) || (!p.Pointer && isFuncType(p.Type)) {
		return errorf(flag, value, "kernel parameter %s (%s) is a function pointer: %s", paramName(i, p), decl(p), why)
	}
	if f, ok := funcPointerField(p.Fields); ok {
		return errorf(flag, value, "kernel parameter %s (%s) holds a function pointer, field %s (%s): %s", paramName(i, p), decl(p), f.Name, f.Type, why)
	}
	return nil
}

func (b *binder) buffer(p manifest.Param, a Arg) (Value, error) {
	if a.Init.Struct {
		return b.structBuffer(p, a)
	}
	ct, known := pointee(p)
	if a.IsBytes() {
		example := "float[1024]"
		if known {
			example = ct.spelling(1024)
		}
		return Value{}, errorf("--arg", a.raw(), "%s is a pointer (%s): hex: and file: without TYPE[COUNT] give a by-value parameter's bytes; for a buffer want %s=TYPE[COUNT]:INIT, e.g. %s=%s:file:data.bin", p.Name, decl(p), p.Name, p.Name, example)
	}
	if !a.IsBuffer() {
		example := "float[1024]"
		if known {
			example = ct.spelling(1024)
		}
		return Value{}, errorf("--arg", a.raw(), "%s is a pointer (%s); want %s=TYPE[COUNT]:INIT, e.g. %s=%s:zero", p.Name, decl(p), p.Name, p.Name, example)
	}
	t, ok := lookupType(a.Type)
	if !ok {
		return Value{}, errorf("--arg", a.raw(), "%s", unknownType(a.Type))
	}
	esize := int(p.ElemSize)
	if esize == 0 && known {
		esize = ct.size()
	}
	mixed := false // t's kind differs from the pointee's
	switch {
	case isVoid(p.Elem):
	case esize == 0:
		b.note("--arg %s: cannot check %s against %s's element type %s (size unknown)", a.raw(), t.name, p.Name, normalizeCType(p.Elem))
	case t.size == esize:
		mixed = known && ((t.kind == kindFloat) != (ct.t.kind == kindFloat) || t.kind == kindFloat && t != ct.t)
	case !named(p.Elem) && esize > t.size && (a.Count*t.size)%esize == 0:
		// A struct the binder cannot name: a smaller TYPE will do whose
		// bytes make whole elements (float[8] for four {float, int} pairs).
	case known && ct.lanes > 1 && t.size*ct.lanes == esize:
		if a.Count%ct.lanes != 0 {
			return Value{}, errorf("--arg", a.raw(), "%s points to %s, %d %ss each; COUNT %d is not a multiple of %d", p.Name, normalizeCType(p.Elem), ct.lanes, ct.t.name, a.Count, ct.lanes)
		}
		mixed = (t.kind == kindFloat) != (ct.t.kind == kindFloat) || t.kind == kindFloat && t != ct.t
	default:
		want := fmt.Sprintf("a %d-byte TYPE", esize)
		switch {
		case known && ct.lanes > 1:
			want = fmt.Sprintf("%s[COUNT], COUNT a multiple of %d", ct.t.name, ct.lanes)
		case known:
			want += fmt.Sprintf(", e.g. %s[%d]", ct.t.name, a.Count)
		}
		return Value{}, errorf("--arg", a.raw(), "%s points to %s (%d bytes) but %s is %d bytes; want %s", p.Name, normalizeCType(p.Elem), esize, t.name, t.size, want)
	}
	if mixed && a.Init.Kind != "zero" && a.Init.Kind != "file" {
		b.note("--arg %s: fills %s with %s values", a.raw(), decl(p), t.name)
	}
	data, err := initData(t, a.Count, a.Init, a.raw())
	if err != nil {
		return Value{}, err
	}
	return Value{Param: p, Buffer: true, Data: data, Count: a.Count, ElemSize: t.size, Type: t.name, Init: a.Init}, nil
}

func (b *binder) defaultBuffer(i int, p manifest.Param) (Value, error) {
	name := paramName(i, p)
	ct, known := pointee(p)
	if !known {
		how := fmt.Sprintf("give --arg %s=TYPE[COUNT]:INIT, e.g. %s=float[1024]:zero", p.Name, p.Name)
		if p.Name == "" {
			how = "name it in the kernel's signature and give --arg NAME=TYPE[COUNT]:INIT"
		}
		what := fmt.Sprintf("ldcheck cannot tell what data %s takes", normalizeCType(p.Elem))
		if isVoid(p.Elem) {
			what = "a void pointer says nothing of its data"
		}
		return Value{}, errorf("", "", "no --arg for %s (%s): %s; %s", name, decl(p), what, how)
	}
	esize := uint64(ct.size())
	n := b.s.Threads()
	if min := (minDefaultBytes + esize - 1) / esize; n < min {
		n = min
	}
	if n > maxDefaultBytes/esize {
		return Value{}, errorf("", "", "no --arg for %s (%s): the default, a %s per thread (%d threads), would be over %d bytes; give --arg %s=TYPE[COUNT]:INIT", name, decl(p), normalizeCType(p.Elem), b.s.Threads(), maxDefaultBytes, p.Name)
	}
	seed := int64(DefaultSeed + i)
	count := int(n) * ct.lanes
	in := Init{Kind: "rand", Seed: seed}
	data, err := initData(ct.t, count, in, "")
	if err != nil {
		return Value{}, err
	}
	if p.Name == "" {
		b.note("assumed %s: %s:%s (unnamed, so no --arg can set it)", name, ct.spelling(int(n)), in)
	} else {
		b.note("assumed --arg %s=%s:%s (no --arg given)", name, ct.spelling(int(n)), in)
	}
	return Value{Param: p, Buffer: true, Data: data, Count: count, ElemSize: ct.t.size, Type: ct.t.name, Init: in}, nil
}

func (b *binder) scalar(i int, p manifest.Param, a *Arg) (Value, error) {
	name := paramName(i, p)
	if a != nil && a.IsBuffer() {
		want := "VALUE"
		if len(p.Fields) > 0 {
			want = "{FIELD=VALUE,...}"
		}
		return Value{}, errorf("--arg", a.raw(), "%s is not a pointer (%s); want %s=%s", p.Name, decl(p), p.Name, want)
	}
	if a != nil && a.IsBytes() {
		return byValueBytes(p, a)
	}
	if a != nil && a.Fields != nil {
		return b.byValueFields(p, a)
	}
	ct, known := lookupCType(p.Type)
	known = known && ct.lanes == 1 && (p.Size == 0 || p.Size == int64(ct.t.size))
	var t elemType
	typeName := normalizeCType(p.Type)
	switch {
	case a != nil && a.Type != "":
		var ok bool
		if t, ok = lookupType(a.Type); !ok {
			return Value{}, errorf("--arg", a.raw(), "%s", unknownType(a.Type))
		}
		if p.Size != 0 && int64(t.size) != p.Size {
			return Value{}, errorf("--arg", a.raw(), "%s has type %s (%d bytes) but %s is %d bytes; want a %d-byte TYPE", p.Name, normalizeCType(p.Type), p.Size, t.name, t.size, p.Size)
		}
		typeName = t.name
	case known:
		t = ct.t
	case a != nil && len(p.Fields) > 0 && a.Type == "":
		return Value{}, errorf("--arg", a.raw(), "%s is a struct (%s); give its fields: --arg %s={FIELD=VALUE,...} (fields: %s), or its %d bytes: %s=hex:BYTES or %s=file:PATH", p.Name, decl(p), p.Name, buildLayout(p.Fields).describe(), p.Size, p.Name, p.Name)
	case len(p.Fields) > 0 && a == nil && p.Name != "":
		return Value{}, errorf("", "", "no --arg for %s (%s): give its fields, --arg %s={FIELD=VALUE,...} (fields: %s; those left out are zero), or its %d bytes: %s=hex:BYTES or %s=file:PATH", name, decl(p), p.Name, buildLayout(p.Fields).describe(), p.Size, p.Name, p.Name)
	case a != nil:
		return Value{}, errorf("--arg", a.raw(), "ldcheck cannot tell what %s (%s, %d bytes) takes; give its TYPE: --arg %s=TYPE:%s, e.g. %s=int:%s, or its %d bytes: %s=hex:BYTES or %s=file:PATH", p.Name, decl(p), p.Size, p.Name, a.Scalar, p.Name, a.Scalar, p.Size, p.Name, p.Name)
	default:
		how := fmt.Sprintf("give --arg %s=TYPE:VALUE, e.g. %s=int:7, or its %d bytes: %s=hex:BYTES or %s=file:PATH", p.Name, p.Name, p.Size, p.Name, p.Name)
		if p.Name == "" {
			how = "name it in the kernel's signature and give --arg NAME=TYPE:VALUE"
		}
		return Value{}, errorf("", "", "no --arg for %s (%s, %d bytes): ldcheck cannot tell what it takes; %s", name, decl(p), p.Size, how)
	}
	var v uint64
	if a != nil {
		var err error
		if v, err = parseValue(t, typeName, a.Scalar); err != nil {
			return Value{}, errorf("--arg", a.raw(), "%v", err)
		}
	} else {
		threads := b.s.Threads()
		how := fmt.Sprintf("give --arg %s=VALUE", p.Name)
		if p.Name == "" {
			how = "name it in the kernel's signature and give --arg NAME=VALUE"
		}
		if t.kind != kindInt && t.kind != kindUint {
			return Value{}, errorf("", "", "no --arg for %s (%s): %s; only integer parameters default (to the thread count)", name, decl(p), how)
		}
		s := fmt.Sprint(threads)
		var err error
		if v, err = parseValue(t, typeName, s); err != nil {
			return Value{}, errorf("", "", "no --arg for %s (%s), and its default, the thread count (%s x %s = %d), is out of range for %s; %s", name, decl(p), b.s.Grid, b.s.Block, threads, typeName, how)
		}
		if p.Name == "" {
			b.note("assumed %s: %d (grid x block threads; unnamed, so no --arg can set it)", name, threads)
		} else {
			b.note("assumed --arg %s=%d (no --arg given: grid x block threads)", name, threads)
		}
	}
	data := make([]byte, t.size)
	put(data, t.size, v)
	return Value{Param: p, Data: data, Count: 1, ElemSize: t.size, Type: t.name}, nil
}

// byValueBytes is a by-value parameter given as its bytes (hex:BYTES or
// file:PATH): exactly its size, which the build recorded.
func byValueBytes(p manifest.Param, a *Arg) (Value, error) {
	data := a.BytesGiven
	if a.BytesFile != "" {
		var err error
		if data, err = os.ReadFile(a.BytesFile); err != nil {
			return Value{}, errorf("--arg", a.raw(), "%v", fileError(err))
		}
	}
	if p.Size <= 0 {
		return Value{}, errorf("--arg", a.raw(), "the build does not know the size of %s (%s); rebuild with this ldcheck, or give its TYPE", p.Name, decl(p))
	}
	if int64(len(data)) != p.Size {
		return Value{}, errorf("--arg", a.raw(), "%s (%s) is %d bytes; got %d", p.Name, decl(p), p.Size, len(data))
	}
	return Value{Param: p, Data: data, Count: 1, ElemSize: len(data), Type: "bytes"}, nil
}

// initData makes count elements of t as in says; raw is the --arg for
// messages.
func initData(t elemType, count int, in Init, raw string) ([]byte, error) {
	nbytes := int64(count) * int64(t.size)
	switch in.Kind {
	case "file":
		return readInit(in.Path, t, count, raw)
	case "zero":
		return make([]byte, nbytes), nil
	case "iota":
		data := make([]byte, nbytes)
		fill(data, t, count, func(i int) uint64 { return iotaBits(t, i) })
		return data, nil
	case "rand":
		data := make([]byte, nbytes)
		r := rng{uint64(in.Seed)}
		fill(data, t, count, func(int) uint64 { return r.randBits(t) })
		return data, nil
	case "const":
		v, err := parseValue(t, "", in.Const)
		if err != nil {
			return nil, errorf("--arg", raw, "%v", err)
		}
		data := make([]byte, nbytes)
		fill(data, t, count, func(int) uint64 { return v })
		return data, nil
	}
	return nil, errorf("--arg", raw, "unknown INIT %q (want %s)", in.Kind, initSyntax)
}

// readInit reads a file: init, which must be exactly count elements of t.
func readInit(path string, t elemType, count int, raw string) ([]byte, error) {
	want := int64(count) * int64(t.size)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errorf("--arg", raw, "%v", fileError(err))
	}
	if fi.IsDir() {
		return nil, errorf("--arg", raw, "%s is a directory, not a file of %s", path, t.name)
	}
	check := func(have int64) error {
		switch {
		case have < want:
			return errorf("--arg", raw, "%s is %d bytes, shorter than %s[%d] (%d bytes)%s", path, have, t.name, count, want, fits(t, have))
		case have > want:
			return errorf("--arg", raw, "%s is %d bytes, longer than %s[%d] (%d bytes)%s", path, have, t.name, count, want, fits(t, have))
		}
		return nil
	}
	if fi.Mode().IsRegular() {
		if err := check(fi.Size()); err != nil {
			return nil, err // before reading a file of the wrong size
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errorf("--arg", raw, "%v", fileError(err))
	}
	if err := check(int64(len(data))); err != nil {
		return nil, err
	}
	return data, nil
}

// fits suggests the COUNT that reads all of a file.
func fits(t elemType, have int64) string {
	if have == 0 || have%int64(t.size) != 0 {
		return ""
	}
	return fmt.Sprintf("; %s[%d] reads all of it", t.name, have/int64(t.size))
}

// fileError drops Go's operation name: "open x.bin: no such file or
// directory" is "x.bin: no such file or directory".
func fileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

func (b *binder) checkOuts() error {
	paths := map[string]string{} // cleaned path -> --out
	for _, o := range b.s.Outs {
		raw := o.Name + "=" + o.Path
		i, ok := b.byName[o.Name]
		if !ok {
			return errorf("--out", raw, "kernel %s has no parameter %s (%s)", b.k.Name, o.Name, b.paramList(true))
		}
		if p := b.k.Params[i]; !p.Pointer {
			return errorf("--out", raw, "%s is not a pointer (%s); --out writes a buffer (%s)", o.Name, decl(p), b.paramList(true))
		}
		clean := filepath.Clean(o.Path)
		if prev, dup := paths[clean]; dup {
			return errorf("--out", raw, "%s is also written by --out %s", o.Path, prev)
		}
		paths[clean] = raw
		if fi, err := os.Stat(o.Path); err == nil && fi.IsDir() {
			return errorf("--out", raw, "%s is a directory; want a file path", o.Path)
		}
		dir := filepath.Dir(o.Path)
		fi, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return errorf("--out", raw, "directory %s does not exist", dir)
		case err != nil:
			return errorf("--out", raw, "%v", fileError(err))
		case !fi.IsDir():
			return errorf("--out", raw, "%s is not a directory", dir)
		}
	}
	return nil
}

// checkShared insists on --shared for kernels with extern __shared__
// arrays, which would otherwise be empty.
func (b *binder) checkShared() error {
	if b.s.Shared != 0 {
		return nil
	}
	for _, t := range b.k.Targets {
		if !t.Dynamic {
			continue
		}
		example := "4KiB"
		if t.ElemSize > 0 {
			threads := b.s.Block.Count()
			example = fmt.Sprintf("%d (%d threads x %d-byte %s)", threads*uint64(t.ElemSize), threads, t.ElemSize, t.Elem)
		}
		return errorf("--shared", "", "required: kernel %s uses extern __shared__ %s (line %d), which needs dynamic shared memory; give its size, e.g. --shared %s", b.k.Name, t.Name, t.Line, example)
	}
	return nil
}

// byValueFields is a struct passed by value, given field by field.
func (b *binder) byValueFields(p manifest.Param, a *Arg) (Value, error) {
	if len(p.Fields) == 0 {
		if _, scalar := lookupCType(p.Type); scalar {
			return Value{}, errorf("--arg", a.raw(), "%s is not a struct (%s); want %s=VALUE", p.Name, decl(p), p.Name)
		}
		return Value{}, errorf("--arg", a.raw(), "the build does not know the fields of %s (%s); rebuild with this ldcheck, or give its %d bytes: %s=hex:BYTES or %s=file:PATH", p.Name, decl(p), p.Size, p.Name, p.Name)
	}
	c := encoder{what: fmt.Sprintf("%s (%s)", p.Name, normalizeCType(p.Type)), e: encoded{data: make([]byte, p.Size)}}
	if msg := c.encode(buildLayout(p.Fields), a.Fields, 0); msg != "" {
		return Value{}, errorf("--arg", a.raw(), "%s", msg)
	}
	ptrs, err := b.ptrs(a, c.e.refs, 0, 1)
	if err != nil {
		return Value{}, err
	}
	_, spelled, _ := strings.Cut(a.raw(), "=")
	return Value{Param: p, Data: c.e.data, Count: 1, ElemSize: len(c.e.data), Type: "fields", Ptrs: ptrs, Spelled: spelled}, nil
}

// structBuffer is a buffer of structs whose every element gets the fields
// given (rand and iota fields vary from element to element).
func (b *binder) structBuffer(p manifest.Param, a Arg) (Value, error) {
	elem := structName(p.Elem)
	if a.Init.Kind != "fields" && (len(p.ElemFields) == 0 || a.Type != elem) {
		// Not the kernel's struct: a TYPE misspelt, as ParseArg would
		// have said had it known there was no struct of that name.
		msg := unknownType(a.Type)
		if len(p.ElemFields) > 0 {
			msg += fmt.Sprintf("; %s points to %s, so %s=%s[%d]:%s", p.Name, elem, p.Name, elem, a.Count, a.Init)
		}
		return Value{}, errorf("--arg", a.raw(), "%s", msg)
	}
	if len(p.ElemFields) == 0 || p.ElemSize <= 0 {
		what := fmt.Sprintf("%s points to %s, not a struct whose fields the build knows", p.Name, normalizeCType(p.Elem))
		if !named(p.Elem) && !isVoid(p.Elem) {
			what = fmt.Sprintf("the build does not know the fields of %s (%s points to it); rebuild with this ldcheck", normalizeCType(p.Elem), p.Name)
		}
		return Value{}, errorf("--arg", a.raw(), "%s; want %s=TYPE[COUNT]:INIT, INIT one of %s", what, p.Name, initSyntax)
	}
	if a.Type != elem {
		return Value{}, errorf("--arg", a.raw(), "%s points to %s, not %s; want %s=%s[%d]:{FIELD=VALUE,...} (fields: %s)", p.Name, elem, a.Type, p.Name, elem, a.Count, buildLayout(p.ElemFields).describe())
	}
	if int64(a.Count) > maxBufferBytes/p.ElemSize {
		return Value{}, errorf("--arg", a.raw(), "%s[%d] is too large (at most %d bytes a buffer)", a.Type, a.Count, int64(maxBufferBytes))
	}
	esize := int(p.ElemSize)
	c := encoder{what: elem, e: encoded{data: make([]byte, esize)}, buf: true}
	switch a.Init.Kind {
	case "fields":
		if msg := c.encode(buildLayout(p.ElemFields), a.Init.Fields, 0); msg != "" {
			return Value{}, errorf("--arg", a.raw(), "%s", msg)
		}
	case "rand":
		c.e.gens = randFields(p.ElemFields, &rng{uint64(a.Init.Seed)})
	case "file":
		data, err := readInit(a.Init.Path, elemType{name: elem, size: esize, kind: kindUint}, a.Count, a.raw())
		if err != nil {
			return Value{}, err
		}
		return Value{Param: p, Buffer: true, Data: data, Count: a.Count, ElemSize: esize, Type: elem, Init: a.Init}, nil
	}
	data := make([]byte, a.Count*esize)
	for i := 0; i < a.Count; i++ {
		el := data[i*esize : (i+1)*esize]
		copy(el, c.e.data)
		for _, g := range c.e.gens {
			bits := iotaBits(g.t, i)
			if !g.iota {
				bits = g.r.randBits(g.t)
			}
			put(el[g.off:], g.t.size, bits)
		}
	}
	ptrs, err := b.ptrs(&a, c.e.refs, int64(esize), a.Count)
	if err != nil {
		return Value{}, err
	}
	return Value{Param: p, Buffer: true, Data: data, Count: a.Count, ElemSize: esize, Type: elem, Init: a.Init, Ptrs: ptrs}, nil
}

// ptrs resolves the @NAMEs of pointer fields to parameters.
func (b *binder) ptrs(a *Arg, refs []fieldRef, stride int64, count int) ([]Ptr, error) {
	var ptrs []Ptr
	for _, r := range refs {
		i, ok := b.byName[r.name]
		if !ok || !b.k.Params[i].Pointer {
			return nil, errorf("--arg", a.raw(), "field %s: @%s names no buffer; want @NAME, NAME a pointer parameter of kernel %s (%s)", r.path, r.name, b.k.Name, b.paramList(true))
		}
		ptrs = append(ptrs, Ptr{Offset: int64(r.off), Stride: stride, Count: count, Param: i})
		for _, t := range b.k.Targets {
			if t.Kind == manifest.KindParam && t.Param == i && !t.Private {
				b.note("--arg %s: field %s points to %s, which the kernel writes: accesses through the field are not checked, and reads through it can see other threads' writes, which ldcheck may report as a read-write race", a.raw(), r.path, r.name)
				break
			}
		}
	}
	return ptrs, nil
}
