package launch

import (
	"fmt"
	"strconv"
	"strings"

	"ldcheck/privatize/manifest"
)

// Field-wise values of structs: --arg 'p={n=5,scale=1.5}' for a struct
// passed by value, --arg 'cells=Cell[256]:{mass=1.5,id=iota}' for a
// buffer of structs. The layout (offsets, sizes and types of the fields)
// is the manifest's, which the front end took from clang.

// lit is a field-wise value as --arg spells it.
type lit struct {
	kind   litKind
	text   string     // a scalar's text; @NAME's NAME
	fields []litField // {FIELD=VALUE,...}
	elems  []*lit     // [VALUE,...]
}

type litKind uint8

const (
	litScalar litKind = iota
	litStruct
	litList
	litRef
)

type litField struct {
	name string
	val  *lit
}

// maxLitDepth bounds the nesting of {...} and [...].
const maxLitDepth = 32

const fieldSyntax = "{FIELD=VALUE,...}, VALUE a number, {...} for a nested struct, [V,...] for an array, @NAME for a pointer to buffer NAME"

// parseLit parses all of s as a field-wise value; msg says what is wrong.
func parseLit(s string) (l *lit, msg string) {
	p := litParser{s: s}
	l, msg = p.value(0, "")
	if msg != "" {
		return nil, msg
	}
	p.space()
	if p.i < len(s) {
		return nil, fmt.Sprintf("unexpected %q after the closing brace (want %s)", s[p.i:], fieldSyntax)
	}
	return l, ""
}

type litParser struct {
	s string
	i int
}

func (p *litParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// value parses one value; of is what it is the value of, for messages
// ("field n", "element 2 of v").
func (p *litParser) value(depth int, of string) (*lit, string) {
	if depth > maxLitDepth {
		return nil, fmt.Sprintf("nested more than %d levels deep", maxLitDepth)
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Sprintf("missing value%s (want %s)", forWhat(of), fieldSyntax)
	}
	switch p.s[p.i] {
	case '{':
		p.i++
		l := &lit{kind: litStruct}
		seen := map[string]bool{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' && len(l.fields) == 0 {
				p.i++
				return l, ""
			}
			n := identLen(p.s[p.i:])
			if n == 0 {
				return nil, fmt.Sprintf("want FIELD=VALUE%s, got %q (want %s)", inWhat(of), rest(p.s[p.i:]), fieldSyntax)
			}
			name := p.s[p.i : p.i+n]
			p.i += n
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != '=' {
				return nil, fmt.Sprintf("missing = after field %s%s (want %s)", name, inWhat(of), fieldSyntax)
			}
			p.i++
			if seen[name] {
				return nil, fmt.Sprintf("field %s is given twice%s", name, inWhat(of))
			}
			seen[name] = true
			v, msg := p.value(depth+1, joinPath(of, name))
			if msg != "" {
				return nil, msg
			}
			l.fields = append(l.fields, litField{name, v})
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return l, ""
			}
			if p.i >= len(p.s) {
				return nil, fmt.Sprintf("missing } at the end%s", inWhat(of))
			}
			return nil, fmt.Sprintf("want , or } after field %s, got %q", joinPath(of, name), rest(p.s[p.i:]))
		}
	case '[':
		p.i++
		l := &lit{kind: litList}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ']' && len(l.elems) == 0 {
				p.i++
				return l, ""
			}
			v, msg := p.value(depth+1, fmt.Sprintf("%s[%d]", of, len(l.elems)))
			if msg != "" {
				return nil, msg
			}
			l.elems = append(l.elems, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return l, ""
			}
			if p.i >= len(p.s) {
				return nil, fmt.Sprintf("missing ] at the end of the list%s", forWhat(of))
			}
			return nil, fmt.Sprintf("want , or ] in the list%s, got %q", forWhat(of), rest(p.s[p.i:]))
		}
	case '@':
		p.i++
		n := identLen(p.s[p.i:])
		if n == 0 {
			return nil, fmt.Sprintf("@ must name a pointer parameter, e.g. @in%s", forWhat(of))
		}
		l := &lit{kind: litRef, text: p.s[p.i : p.i+n]}
		p.i += n
		return l, ""
	}
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(",{}[]=@", rune(p.s[p.i])) {
		p.i++
	}
	text := strings.TrimSpace(p.s[start:p.i])
	if text == "" {
		return nil, fmt.Sprintf("missing value%s (want %s)", forWhat(of), fieldSyntax)
	}
	if strings.ContainsAny(text, " \t") {
		return nil, fmt.Sprintf("%q is not one value%s; separate fields and elements with ,", text, forWhat(of))
	}
	if p.i < len(p.s) && strings.ContainsRune("{[=@", rune(p.s[p.i])) {
		return nil, fmt.Sprintf("unexpected %q after %s%s (want %s)", p.s[p.i:p.i+1], text, forWhat(of), fieldSyntax)
	}
	return &lit{kind: litScalar, text: text}, ""
}

func forWhat(of string) string {
	if of == "" {
		return ""
	}
	return " for " + of
}

func inWhat(of string) string {
	if of == "" {
		return ""
	}
	return " in " + of
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// rest shortens the unparsed rest of a value for messages.
func rest(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// layout is a struct's fields as a tree, built from the manifest's
// flattened fields ("inner.a" is field a of field inner).
type layout struct {
	name  string          // its own name ("a"); "" for the top
	path  string          // from the top ("inner.a")
	field *manifest.Field // a leaf: the manifest's field
	kids  []*layout       // a struct
	elems []*layout       // an array of structs ("cells[1].mass")
}

func buildLayout(fields []manifest.Field) *layout {
	top := &layout{}
	for i := range fields {
		f := &fields[i]
		n := top
		parts := strings.Split(f.Name, ".")
		for j, part := range parts {
			path := strings.Join(parts[:j+1], ".")
			base, idx, isElem := elemPart(part)
			c := n.child(base)
			if c == nil {
				c = &layout{name: base, path: strings.TrimSuffix(path, part) + base}
				n.kids = append(n.kids, c)
			}
			if isElem {
				for len(c.elems) <= idx {
					c.elems = append(c.elems, nil)
				}
				if c.elems[idx] == nil {
					c.elems[idx] = &layout{name: part, path: path}
				}
				c = c.elems[idx]
			}
			n = c
		}
		n.field = f
	}
	return top
}

// elemPart splits "cells[1]" into "cells" and 1.
func elemPart(part string) (base string, idx int, ok bool) {
	i := strings.IndexByte(part, '[')
	if i <= 0 || !strings.HasSuffix(part, "]") {
		return part, 0, false
	}
	n, err := strconv.Atoi(part[i+1 : len(part)-1])
	if err != nil || n < 0 || n > 1<<20 {
		return part, 0, false
	}
	return part[:i], n, true
}

func (l *layout) child(name string) *layout {
	for _, k := range l.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// describe lists the fields of l for messages: "n (int), inner {a, b},
// data (float *)".
func (l *layout) describe() string {
	var parts []string
	for _, k := range l.kids {
		if k.field != nil {
			parts = append(parts, fmt.Sprintf("%s (%s)", k.name, k.field.Type))
			continue
		}
		if len(k.elems) > 0 {
			parts = append(parts, fmt.Sprintf("%s[%d] of {%s}", k.name, len(k.elems), k.elems[0].names()))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s {%s}", k.name, k.names()))
	}
	return strings.Join(parts, ", ")
}

// names lists the names of l's fields.
func (l *layout) names() string {
	if l == nil {
		return ""
	}
	var names []string
	for _, k := range l.kids {
		names = append(names, k.name)
	}
	return strings.Join(names, ", ")
}

// funcPointerField is the first field of fields whose type is or holds a
// function pointer.
func funcPointerField(fields []manifest.Field) (manifest.Field, bool) {
	for _, f := range fields {
		if isFuncType(f.Type) {
			return f, true
		}
	}
	return manifest.Field{}, false
}

// isFuncType tells function (pointer) types by their spelling:
// "void (*)(int)", "int (int)".
func isFuncType(t string) bool { return strings.Contains(t, "(") }

// encoded is one struct's bytes made from a field-wise value.
type encoded struct {
	data []byte
	refs []fieldRef // pointer fields set to a buffer's address
	gens []fieldGen // fields that differ from element to element
}

// fieldRef is a pointer field set to the address of buffer name.
type fieldRef struct {
	off        int
	name, path string
}

// fieldGen is a field filled with rand or iota.
type fieldGen struct {
	off  int
	t    elemType
	iota bool
	r    *rng
}

// encoder turns a field-wise value into bytes; what names the struct in
// messages ("p (Params)").
type encoder struct {
	what string
	e    encoded
	buf  bool // a buffer's elements: rand and iota vary per element
}

// encode sets the fields v gives (the others stay zero) of struct l
// at off.
func (c *encoder) encode(l *layout, v *lit, off int) string {
	if l.field != nil {
		return c.leaf(l.path, l.field.Type, int(l.field.Size), v, off+int(l.field.Offset))
	}
	name := c.what
	if l.path != "" {
		name = "field " + l.path
	}
	if len(l.elems) > 0 {
		if v.kind != litList {
			return fmt.Sprintf("%s is an array of %d structs (fields: %s); want %s=[{FIELD=VALUE,...},...]", name, len(l.elems), l.elems[0].describe(), l.name)
		}
		if len(v.elems) > len(l.elems) {
			return fmt.Sprintf("%s has %d elements; got %d", name, len(l.elems), len(v.elems))
		}
		for i, ev := range v.elems {
			if l.elems[i] == nil {
				return fmt.Sprintf("%s[%d]: the build does not know its fields; give the parameter's bytes (hex:BYTES)", name, i)
			}
			if msg := c.encode(l.elems[i], ev, off); msg != "" {
				return msg
			}
		}
		return ""
	}
	if v.kind != litStruct {
		return fmt.Sprintf("%s is a struct (fields: %s); want %s={FIELD=VALUE,...}", name, l.describe(), leafName(l.path))
	}
	for _, f := range v.fields {
		k := l.child(f.name)
		if k == nil {
			return fmt.Sprintf("%s has no field %s (fields: %s)", name, f.name, l.describe())
		}
		if msg := c.encode(k, f.val, off); msg != "" {
			return msg
		}
	}
	return ""
}

// leafName is how an example spells the field at path: its last part.
func leafName(path string) string {
	if path == "" {
		return "NAME"
	}
	return path[strings.LastIndexByte(path, '.')+1:]
}

// leaf sets the field called name, of C type typ and size bytes, at off.
func (c *encoder) leaf(name, typ string, size int, v *lit, off int) string {
	if isFuncType(typ) {
		return fmt.Sprintf("field %s (%s) is a function pointer: not supported (ldcheck cannot pass the address of a device function)", name, typ)
	}
	if elem, n, ok := firstDim(typ); ok {
		if v.kind != litList {
			return fmt.Sprintf("field %s is an array (%s); want %s=[V,...], e.g. %s=[1,2]", name, typ, leafName(name), leafName(name))
		}
		if n <= 0 || size%n != 0 {
			return fmt.Sprintf("field %s (%s) cannot be set element by element; give the parameter's bytes (hex:BYTES)", name, typ)
		}
		if len(v.elems) > n {
			return fmt.Sprintf("field %s (%s) has %d elements; got %d", name, typ, n, len(v.elems))
		}
		es := size / n
		for i, ev := range v.elems {
			if msg := c.leaf(fmt.Sprintf("%s[%d]", name, i), elem, es, ev, off+i*es); msg != "" {
				return msg
			}
		}
		return ""
	}
	pointer := strings.HasSuffix(strings.TrimSpace(normalizeCType(typ)), "*")
	switch {
	case v.kind == litRef && !pointer:
		return fmt.Sprintf("field %s (%s) is not a pointer; @%s sets pointer fields only", name, typ, v.text)
	case v.kind == litRef:
		c.e.refs = append(c.e.refs, fieldRef{off: off, name: v.text, path: name})
		return ""
	case pointer && v.kind == litScalar && (v.text == "0" || v.text == "NULL" || v.text == "nullptr"):
		return "" // null, as it is
	case pointer:
		return fmt.Sprintf("field %s is a pointer (%s); want @NAME, the buffer of pointer parameter NAME (e.g. %s=@in), or 0", name, typ, leafName(name))
	case v.kind == litStruct:
		return fmt.Sprintf("field %s (%s) is not a struct; want %s=VALUE", name, typ, leafName(name))
	case v.kind == litList:
		return fmt.Sprintf("field %s (%s) is not an array; want %s=VALUE", name, typ, leafName(name))
	}
	t, ok := leafType(typ, size)
	if !ok {
		return fmt.Sprintf("field %s (%s, %d bytes) cannot be set field by field; give the parameter's bytes (hex:BYTES or file:PATH)", name, typ, size)
	}
	kind, arg, hasArg := strings.Cut(v.text, ":")
	switch kind {
	case "rand":
		seed := int64(DefaultSeed)
		if hasArg {
			s, err := strconv.ParseInt(arg, 10, 64)
			if err != nil {
				return fmt.Sprintf("field %s: SEED %q is not an integer (want rand or rand:SEED, e.g. rand:7)", name, arg)
			}
			seed = s
		}
		r := &rng{uint64(seed)}
		if !c.buf {
			put(c.e.data[off:], t.size, r.randBits(t))
			return ""
		}
		c.e.gens = append(c.e.gens, fieldGen{off: off, t: t, r: r})
		return ""
	case "iota":
		if !hasArg {
			if c.buf {
				c.e.gens = append(c.e.gens, fieldGen{off: off, t: t, iota: true})
			}
			return "" // element 0's iota is 0
		}
	}
	bits, err := parseValue(t, typ, v.text)
	if err != nil {
		return fmt.Sprintf("field %s: %v", name, err)
	}
	put(c.e.data[off:], t.size, bits)
	return ""
}

// firstDim splits an array type "int[3]" or "float[2][4]" into its
// element type ("int", "float[4]") and first dimension.
func firstDim(typ string) (elem string, n int, ok bool) {
	i := strings.IndexByte(typ, '[')
	if i < 0 || !strings.HasSuffix(typ, "]") || isFuncType(typ) {
		return "", 0, false
	}
	j := strings.IndexByte(typ[i:], ']')
	d, err := strconv.Atoi(strings.TrimSpace(typ[i+1 : i+j]))
	if err != nil {
		return "", 0, false
	}
	return strings.TrimSpace(typ[:i]) + typ[i+j+1:], d, true
}

// leafType is the TYPE that reads and writes a field of C type typ:
// integers, floats and bools by name; other types of an integer's size
// (enums) as integers.
func leafType(typ string, size int) (elemType, bool) {
	if ct, ok := lookupCType(typ); ok && ct.lanes == 1 && ct.size() == size {
		return ct.t, true
	}
	switch size {
	case 1, 2, 4, 8:
		if _, ok := lookupCType(typ); ok {
			return elemType{}, false // a vector type, or a size that disagrees
		}
		return elemType{name: typ, size: size, kind: kindInt}, true
	}
	return elemType{}, false
}

// structName drops struct, class and union and qualifiers from a C type:
// "const struct Cell" is "Cell".
func structName(t string) string {
	var keep []string
	for _, w := range strings.Fields(normalizeCType(t)) {
		switch w {
		case "struct", "class", "union":
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

// randFields fills every number field of a struct (array elements each)
// from r, element after element; pointers and what --arg cannot read stay
// zero.
func randFields(fields []manifest.Field, r *rng) []fieldGen {
	var gens []fieldGen
	var add func(typ string, size, off int)
	add = func(typ string, size, off int) {
		if isFuncType(typ) || strings.HasSuffix(strings.TrimSpace(typ), "*") {
			return
		}
		if elem, n, ok := firstDim(typ); ok {
			if n > 0 && size%n == 0 {
				for i := 0; i < n; i++ {
					add(elem, size/n, off+i*(size/n))
				}
			}
			return
		}
		if t, ok := leafType(typ, size); ok {
			if _, named := lookupCType(typ); named {
				gens = append(gens, fieldGen{off: off, t: t, r: r})
			}
		}
	}
	for _, f := range fields {
		add(f.Type, int(f.Size), int(f.Offset))
	}
	return gens
}
