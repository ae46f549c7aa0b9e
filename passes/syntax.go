package passes

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ldcheck/passes/clang"
	"ldcheck/privatize/manifest"
)

// Node is one node of a function's syntax tree, copied out of libclang so
// that the analyses (and privatize) work on plain Go data.
type Node struct {
	Kind string `json:"kind"`           // libclang's cursor kind, e.g. "CallExpr"
	Name string `json:"name,omitempty"` // the cursor's spelling
	Type string `json:"type,omitempty"`
	// Size is sizeof(Type) when known, else <= 0.
	Size int64 `json:"size,omitempty"`
	// Op is the operator of a unary, binary or compound-assignment
	// expression, empty when the operator is written in a macro's body;
	// Postfix tells x++ from ++x.
	Op      string `json:"op,omitempty"`
	Postfix bool   `json:"postfix,omitempty"`
	Pos     Pos    `json:"pos"`
	// InMacro: the node is written in a macro's body, so Pos is the
	// macro's use, not the node's own text. (A node written wholly in one
	// of a macro's arguments has its own Pos there and is not InMacro.)
	InMacro bool `json:"in_macro,omitempty"`
	// Key identifies a declaration; Ref is the Key of the declaration an
	// expression refers to (variables, functions, fields).
	Key      string  `json:"key,omitempty"`
	Ref      string  `json:"ref,omitempty"`
	RefKind  string  `json:"ref_kind,omitempty"`
	Space    Space   `json:"space,omitempty"` // for VarDecl: __shared__, __device__, __constant__
	Extern   bool    `json:"extern,omitempty"`
	Children []*Node `json:"children,omitempty"`
	Parent   *Node   `json:"-"`
	// File is the user's file the node is written in.
	File *SourceFile `json:"-"`
	// Init is a VarDecl's initializer, one of its Children; nil when it
	// has none. For a class-type variable declared without one, it is the
	// implicit default construction (a CallExpr with no arguments).
	Init *Node `json:"-"`
	// Pointee and PointeeSize describe a VarDecl's or ParmDecl's pointer
	// type, looked through typedefs: what it points to, and sizeof of that
	// (0 when unknown: void, incomplete, dependent).
	Pointee     string `json:"-"`
	PointeeSize int64  `json:"-"`
	// ElemFields is the layout of a VarDecl's or ParmDecl's element type
	// (through arrays and one pointer) when it is a struct, for reports
	// that name fields.
	ElemFields []manifest.Field `json:"-"`
	// ValueBytes, on a VarDecl of a struct type (or an array of them)
	// with padding, are the byte ranges [from, to) that hold its members'
	// values, merged; nil when every byte does or the layout is not known.
	// Padding is not part of the value: a copy of the struct may leave it
	// as it was, and on the GPU a struct kept in registers has none, so
	// its bytes in memory are whatever was there.
	ValueBytes [][2]int64 `json:"-"`
	// Undefined, on a reference to a __device__ function that is declared
	// in the user's code but defined nowhere in the translation unit, says
	// where it is declared ("file:line").
	Undefined string `json:"-"`
	// Int is the value (IsInt) of an IntegerLiteral, or of a constant
	// expression written in a macro's body, read by the compiler: neither
	// has text of its own there.
	Int   int64 `json:"-"`
	IsInt bool  `json:"-"`
}

// Walk calls fn on n and its descendants, depth first, parents first. If fn
// returns false the node's children are skipped.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Func is a function defined in one of the user's files.
type Func struct {
	File     *SourceFile
	Name     string
	Mangled  string
	Key      string
	Kernel   bool // __global__
	Device   bool // __device__ (and not only __host__)
	Template bool
	Pos      Pos
	Params   []*Node // ParmDecl nodes
	Result   string
	Body     *Node
}

// Unit is a parsed file as plain data: the functions and module-scope
// variables of the user's files, with syntax trees. File, Source and
// Tokens are the main file's (Files[0]).
type Unit struct {
	File    string
	Source  []byte
	Funcs   []*Func
	Globals []*Node // module-scope VarDecl nodes with a CUDA memory space
	Tokens  []Token
	// Files are the user's files: the main file, then the files it
	// includes by quoted #include (transitively) that are not system
	// headers, in the order first included.
	Files []*SourceFile
	// Macros are the macros defined in the user's files, by name (a name
	// #undef'd and defined again has several definitions).
	Macros map[string][]MacroDef
}

// MacroDef is where a macro is defined: from its name to the end of its
// body, in File.
type MacroDef struct {
	File *SourceFile
	Pos  Pos
}

// SourceFile is one of the user's files.
type SourceFile struct {
	Path   string // absolute
	Name   string // as messages show it
	Source []byte
	Tokens []Token
	// Includes are the directives in this file that include another of
	// the user's files, in source order.
	Includes []Include
}

// Include is an #include directive naming one of the user's files.
type Include struct {
	Pos  Pos // from '#' to the end of the file's name
	File *SourceFile
	// Entered is false when the preprocessor did not read the file for
	// this directive (its include guard or #pragma once skipped it).
	Entered bool
}

// Token is a lexical token of the main file.
type Token struct {
	Kind     clang.TokenKind
	Spelling string
	Offset   int
	End      int
}

// converter turns libclang cursors into Nodes.
type converter struct {
	lib   *clang.Lib
	kinds map[clang.CursorKind]string
	// user holds libclang's names of the user's files; files maps them to
	// their contents.
	user  map[string]bool
	files map[string]*SourceFile
	// The file being converted: libclang's name, and its tokens sorted by
	// Offset.
	cur  *SourceFile
	file string
	toks []Token
	// expansions are the places where macros are used, per file (the
	// offset of the macro's name -> the end of its use): a node whose range
	// is one of them is written in the macro's body.
	expansions map[string]map[int]int
}

// at makes f the file nodes are converted from.
func (cv *converter) at(f *SourceFile) {
	cv.cur, cv.file, cv.toks = f, f.Path, f.Tokens
	for name, g := range cv.files {
		if g == f {
			cv.file = name
		}
	}
}

// display names a user file the way messages do.
func (cv *converter) display(file string) string {
	if f := cv.files[file]; f != nil {
		return f.Name
	}
	return file
}

func (cv *converter) kindName(k clang.CursorKind) string {
	if s, ok := cv.kinds[k]; ok {
		return s
	}
	s := cv.lib.KindSpelling(k)
	cv.kinds[k] = s
	return s
}

func posOf(r clang.Range) Pos {
	s, e := r.Start(), r.End()
	return Pos{Line: s.Line, Col: s.Column, Offset: s.Offset, End: e.Offset}
}

// macroArgPos places a node that lies inside a macro's expansion, where
// posOf gives an empty range at the macro's use, when the node is written
// wholly inside one of the macro's arguments (out[i] in assert(out[i] == v)):
// its place is the argument's text, which can be edited. Its start must
// not map to the macro's use (a token of the body does), its end must
// follow its start (an end in the body maps back to the use), and no
// comma or closing parenthesis may separate the two at the top level (they
// would lie in different arguments).
//
// A node written in the body of a macro used inside another's argument
// (AT in assert(AT(i) > 0)) is placed at that inner use, still InMacro
// (arg false).
func (cv *converter) macroArgPos(r clang.Range) (p Pos, arg, ok bool) {
	s := r.Start()
	fs, fe := r.FileStart(), r.FileEnd()
	if s.File != cv.file || fs.File != cv.file || fe.File != cv.file || fs.Offset <= s.Offset {
		return Pos{}, false, false
	}
	if fe.Offset <= fs.Offset {
		// The innermost use of a macro, inside the outer one's argument,
		// that holds the node's start.
		best, bestEnd := -1, 0
		for start, end := range cv.expansions[cv.file] {
			if start > s.Offset && start <= fs.Offset && fs.Offset < end && start > best {
				best, bestEnd = start, end
			}
		}
		if best < 0 {
			return Pos{}, false, false
		}
		line, col := cv.lineCol(best)
		return Pos{Line: line, Col: col, Offset: best, End: bestEnd}, false, true
	}
	i := cv.tokenAt(fs.Offset)
	if i >= len(cv.toks) || cv.toks[i].Offset != fs.Offset {
		return Pos{}, false, false
	}
	depth := 0
	for ; i < len(cv.toks) && cv.toks[i].Offset < fe.Offset; i++ {
		switch cv.toks[i].Spelling {
		case "(":
			depth++
		case ")":
			if depth--; depth < 0 {
				return Pos{}, false, false
			}
		case ",":
			if depth == 0 {
				return Pos{}, false, false
			}
		}
	}
	if depth != 0 {
		return Pos{}, false, false
	}
	return Pos{Line: fs.Line, Col: fs.Column, Offset: fs.Offset, End: fe.Offset}, true, true
}

func declKey(c clang.Cursor) string {
	l := c.Location()
	return fmt.Sprintf("%s:%d:%s", l.File, l.Offset, c.Spelling())
}

// elemFields is the field layout of t's element type (looking through
// arrays and one pointer) when that is a struct; nil otherwise or when
// clang cannot lay it out (templates not instantiated, incomplete types).
func elemFields(t clang.Type) []manifest.Field {
	ct := t.Canonical()
	if ct.Kind() == clang.TypePointer {
		ct = ct.Pointee().Canonical()
	}
	for ct.Kind() == clang.TypeConstantArray || ct.Kind() == clang.TypeIncompleteArray {
		ct = ct.Elem().Canonical()
	}
	if ct.Kind() != clang.TypeRecord || ct.Size() <= 0 {
		return nil
	}
	return recordFields(ct, "", 0, 0)
}

// valueBytes is the Node.ValueBytes of a variable of type t.
func valueBytes(t clang.Type) [][2]int64 {
	ct := t.Canonical()
	size := ct.Size()
	if size <= 0 || (ct.Kind() != clang.TypeRecord && ct.Kind() != clang.TypeConstantArray) {
		return nil
	}
	var out [][2]int64
	if !addValueBytes(ct, 0, &out) {
		return nil
	}
	out = mergeRanges(out)
	if len(out) == 0 || len(out) > maxValueRanges || (len(out) == 1 && out[0] == [2]int64{0, size}) {
		return nil // no padding, or too many pieces to compare one by one
	}
	return out
}

// maxValueRanges bounds the pieces a variable is compared in; beyond it
// the variable is compared whole (padding included).
const maxValueRanges = 64

// addValueBytes adds to out the ranges that hold the value of an object
// of canonical type t at off; false when t's layout is not fully known.
// What it cannot see into (unions, bases, bit fields) counts whole: too
// many bytes compared is the old behaviour, too few would miss races.
func addValueBytes(t clang.Type, off int64, out *[][2]int64) bool {
	size := t.Size()
	if size <= 0 {
		return false
	}
	if len(*out) > maxValueRanges {
		return true // the caller gives up on the count anyway
	}
	switch t.Kind() {
	case clang.TypeConstantArray:
		et := t.Elem().Canonical()
		n, es := t.ArraySize(), et.Size()
		if es <= 0 || n <= 0 {
			return false
		}
		if et.Kind() != clang.TypeRecord && et.Kind() != clang.TypeConstantArray {
			*out = append(*out, [2]int64{off, off + size})
			return true
		}
		for i := int64(0); i < n; i++ {
			if !addValueBytes(et, off+i*es, out) {
				return false
			}
			if len(*out) > maxValueRanges {
				return true
			}
		}
		return true
	case clang.TypeRecord:
		d := t.Declaration()
		if d.Kind() == clang.UnionDecl {
			*out = append(*out, [2]int64{off, off + size})
			return true
		}
		start := len(*out)
		for _, ch := range d.Children() {
			switch ch.Kind() {
			case clang.CXXBaseSpecifier:
				// Bases (and a vtable) are laid out where libclang does not
				// say: the whole object counts.
				*out = append((*out)[:start], [2]int64{off, off + size})
				return true
			case clang.FieldDecl:
			default:
				continue
			}
			ft := ch.Type().Canonical()
			bits := t.OffsetOf(ch.Spelling())
			if ch.Spelling() == "" || bits < 0 {
				// An unnamed bit field or member: no offset by name.
				*out = append((*out)[:start], [2]int64{off, off + size})
				return true
			}
			fo := off + bits/8
			if bits%8 != 0 {
				// A bit field inside a byte: from that byte on, as wide as
				// its declared type (or to the end of the struct).
				end := fo + ft.Size()
				if end > off+size || ft.Size() <= 0 {
					end = off + size
				}
				*out = append(*out, [2]int64{fo, end})
				continue
			}
			if !addValueBytes(ft, fo, out) {
				return false
			}
		}
		// A bit field's declared type may reach past the struct's end.
		for i := start; i < len(*out); i++ {
			(*out)[i][1] = min((*out)[i][1], off+size)
		}
		return true
	default:
		*out = append(*out, [2]int64{off, off + size})
		return true
	}
}

// mergeRanges sorts byte ranges and joins those that touch or overlap.
func mergeRanges(rs [][2]int64) [][2]int64 {
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	var out [][2]int64
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1] {
			if r[1] > out[n-1][1] {
				out[n-1][1] = r[1]
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// recordFields lists record type rt's fields (nested structs flattened
// with dots, up to a few levels; small arrays of structs element by
// element, "cells[1].mass") at their byte offsets from base. Bit fields
// are left out: they have no byte of their own.
func recordFields(rt clang.Type, prefix string, base int64, depth int) []manifest.Field {
	var out []manifest.Field
	children := rt.Declaration().Children()
	for _, ch := range children {
		if (ch.Kind() == clang.StructDecl || ch.Kind() == clang.UnionDecl) && depth < maxFieldDepth {
			// An anonymous struct or union member: its fields are the
			// record's own (v.i for union { int i; float f; }).
			if at, off, ok := anonymousMember(rt, ch, children); ok {
				out = append(out, recordFields(at, prefix, base+off, depth+1)...)
			}
			continue
		}
		if ch.Kind() != clang.FieldDecl || ch.Spelling() == "" {
			continue
		}
		bits := rt.OffsetOf(ch.Spelling())
		ft := ch.Type().Canonical()
		size := ft.Size()
		if bits < 0 || bits%8 != 0 || size <= 0 {
			continue
		}
		name, off := prefix+ch.Spelling(), base+bits/8
		if ft.Kind() == clang.TypeRecord && depth < maxFieldDepth {
			if inner := recordFields(ft, name+".", off, depth+1); len(inner) > 0 {
				out = append(out, inner...)
				continue
			}
		}
		if inner := recordArrayFields(ft, name, off, depth); len(inner) > 0 {
			out = append(out, inner...)
			continue
		}
		out = append(out, manifest.Field{Name: name, Offset: off, Size: size, Type: ft.Spelling()})
	}
	return out
}

// anonymousMember tells whether record declaration d, a child of record
// type rt's declaration, is an anonymous member of rt (no field of rt has
// its type, and its first field is found by name in rt); it returns d's
// type and byte offset in rt.
func anonymousMember(rt clang.Type, d clang.Cursor, siblings []clang.Cursor) (clang.Type, int64, bool) {
	at := d.Type().Canonical()
	if at.Kind() != clang.TypeRecord || at.Size() <= 0 {
		return at, 0, false
	}
	spelling := at.Spelling()
	for _, s := range siblings {
		if s.Kind() == clang.FieldDecl && strings.Contains(s.Type().Canonical().Spelling(), spelling) {
			return at, 0, false // a named member's type (or array, pointer of it)
		}
	}
	for _, f := range d.Children() {
		if f.Kind() != clang.FieldDecl || f.Spelling() == "" {
			continue
		}
		outer, inner := rt.OffsetOf(f.Spelling()), at.OffsetOf(f.Spelling())
		if outer < 0 || inner < 0 || (outer-inner)%8 != 0 {
			return at, 0, false
		}
		return at, (outer - inner) / 8, true
	}
	return at, 0, false
}

// maxFieldDepth and maxFieldArray bound how far recordFields flattens:
// nested structs, and arrays of structs of up to maxFieldArray elements.
const (
	maxFieldDepth = 3
	maxFieldArray = 16
)

// recordArrayFields flattens the fields of a small array of structs at
// off, element by element ("name[0].a", "name[1].a"); nil for other
// types.
func recordArrayFields(ft clang.Type, name string, off int64, depth int) []manifest.Field {
	if ft.Kind() != clang.TypeConstantArray || depth >= maxFieldDepth {
		return nil
	}
	et := ft.Elem().Canonical()
	n, es := ft.ArraySize(), et.Size()
	if et.Kind() != clang.TypeRecord || n <= 0 || n > maxFieldArray || es <= 0 {
		return nil
	}
	var out []manifest.Field
	for i := int64(0); i < n; i++ {
		inner := recordFields(et, fmt.Sprintf("%s[%d].", name, i), off+i*es, depth+1)
		if len(inner) == 0 {
			return nil
		}
		out = append(out, inner...)
	}
	return out
}

// lineCol is the line and column (1-based, in bytes) of offset off of
// the file being converted.
func (cv *converter) lineCol(off int) (line, col int) {
	src := cv.cur.Source
	if off > len(src) {
		off = len(src)
	}
	line, col = 1, 1
	for _, b := range src[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// tokenAt returns the index of the first token starting at or after off.
func (cv *converter) tokenAt(off int) int {
	return sort.Search(len(cv.toks), func(i int) bool { return cv.toks[i].Offset >= off })
}

func (cv *converter) node(c clang.Cursor, parent *Node) *Node {
	k := c.Kind()
	n := &Node{Kind: cv.kindName(k), Name: c.Spelling(), Pos: posOf(c.Extent()), Parent: parent, File: cv.cur}
	if end, ok := cv.expansions[cv.file][n.Pos.Offset]; n.Pos.End <= n.Pos.Offset || ok && end == n.Pos.End {
		// Written through a macro: editable where the node is wholly one
		// of the macro's arguments; otherwise its Pos is the macro's use.
		p, arg, ok := cv.macroArgPos(c.Extent())
		if ok {
			n.Pos = p
		}
		n.InMacro = !arg
	}
	t := c.Type()
	if t.Kind() != clang.TypeInvalid {
		n.Type = t.Spelling()
	}
	if k == clang.IntegerLiteral || n.InMacro && (k == clang.BinaryOperator || k == clang.ParenExpr || k == clang.UnaryOperator) {
		// (2 * THREADS): an operator in a macro's body has no text, but a
		// constant's value is known.
		n.Int, n.IsInt = c.IntValue()
	}
	switch k {
	case clang.VarDecl, clang.ParmDecl, clang.FieldDecl, clang.FunctionDecl:
		// Only declarations get a size: libclang crashes on sizeof of some
		// expression types (bound member functions, property references).
		if k != clang.FunctionDecl && t.Kind() != clang.TypeInvalid && t.Kind() != clang.TypeUnexposed {
			n.Size = t.Size()
		}
		n.Key = declKey(c)
		if k == clang.VarDecl || k == clang.ParmDecl {
			n.ElemFields = elemFields(t)
		}
		if k == clang.VarDecl {
			n.ValueBytes = valueBytes(t)
		}
		if k == clang.VarDecl {
			n.Extern = c.StorageClass() == clang.StorageExtern
		}
		if k == clang.VarDecl || k == clang.ParmDecl {
			// Typedefs and aliases (data_t *, fptr) are pointers too.
			if ct := t.Canonical(); ct.Kind() == clang.TypePointer {
				pt := t.Pointee()
				if pt.Kind() == clang.TypeInvalid {
					pt = ct.Pointee()
				}
				n.Pointee = pt.Spelling()
				if cp := ct.Pointee(); cp.Kind() != clang.TypeVoid && cp.Kind() != clang.TypeInvalid {
					n.PointeeSize = max(cp.Size(), 0)
				}
			}
		}
	case clang.DeclRefExpr, clang.MemberRefExpr, clang.CallExpr, clang.MemberRef:
		if ref := c.Referenced(); !ref.IsNull() {
			rk := ref.Kind()
			if rk == clang.FunctionDecl || rk == clang.CXXMethod || rk == clang.FunctionTemplate {
				// A call written after a prototype refers to the prototype;
				// the analyses follow the body.
				if def := ref.Definition(); !def.IsNull() {
					ref = def
				} else if l := ref.Location(); cv.user[l.File] && k != clang.MemberRef && hasChildKind(ref, clang.CUDADeviceAttr) {
					n.Undefined = fmt.Sprintf("%s:%d", cv.display(l.File), l.Line)
				}
			}
			n.Ref = declKey(ref)
			n.RefKind = cv.kindName(ref.Kind())
		}
	}
	var init clang.Cursor
	hasInit := false
	if k == clang.VarDecl {
		init = c.VarInitializer()
		hasInit = !init.IsNull()
	}
	for _, ch := range c.Children() {
		switch ch.Kind() {
		case clang.CUDASharedAttr:
			n.Space = Shared
			continue
		case clang.CUDADeviceAttr:
			if n.Space == "" {
				n.Space = Global
			}
			continue
		case clang.CUDAConstantAttr:
			n.Space = Constant
			continue
		}
		cn := cv.node(ch, n)
		if hasInit && ch.Equal(init) {
			n.Init = cn
		}
		n.Children = append(n.Children, cn)
	}
	switch k {
	case clang.MemberRefExpr:
		// Property members (threadIdx.x in the prelude) have no spelling;
		// the member is the last token of the expression.
		if n.Name == "" {
			if j := cv.tokenAt(n.Pos.End) - 1; j >= 0 && j < len(cv.toks) && cv.toks[j].Kind == clang.Identifier {
				n.Name = cv.toks[j].Spelling
			}
		}
	case clang.BinaryOperator, clang.CompoundAssignOperator:
		// An operator written in a macro's body has no token of its own
		// here: its Op stays empty (unknown).
		if len(n.Children) > 0 && !n.InMacro {
			if i := cv.tokenAt(n.Children[0].Pos.End); i < len(cv.toks) {
				n.Op = cv.toks[i].Spelling
			}
		}
	case clang.UnaryOperator:
		if n.InMacro {
			break
		}
		if i := cv.tokenAt(n.Pos.Offset); i < len(cv.toks) && cv.toks[i].Offset == n.Pos.Offset && cv.toks[i].Kind == clang.Punctuation {
			n.Op = cv.toks[i].Spelling
		} else if j := cv.tokenAt(n.Pos.End) - 1; j >= 0 && j < len(cv.toks) {
			n.Op, n.Postfix = cv.toks[j].Spelling, true
		}
	}
	return n
}

func hasChildKind(c clang.Cursor, kinds ...clang.CursorKind) bool {
	found := false
	c.Visit(func(ch, _ clang.Cursor) clang.VisitResult {
		for _, k := range kinds {
			if ch.Kind() == k {
				found = true
				return clang.Break
			}
		}
		return clang.Continue
	})
	return found
}

// convert copies the functions and variables of the user's files out of
// tu: the main file (path as the user gave it, abs as libclang knows it)
// and the files it includes with quoted includes, transitively, that are
// neither system headers nor ldcheck's prelude (in prelude).
func convert(lib *clang.Lib, tu *clang.TranslationUnit, path, abs string, src []byte, prelude string) (*Unit, error) {
	cv := &converter{lib: lib, kinds: map[clang.CursorKind]string{}, user: map[string]bool{abs: true}, files: map[string]*SourceFile{}}
	main := &SourceFile{Path: abs, Name: path, Source: src}
	cv.files[abs] = main
	files := []*SourceFile{main}
	root := tu.Cursor()

	// Directives come in preprocessing order, so a header's own includes
	// come after the directive that made it a user file.
	for _, d := range root.Children() {
		if d.Kind() != clang.InclusionDirective {
			continue
		}
		from := cv.files[d.Location().File]
		inc := d.IncludedFile()
		if from == nil || inc == "" {
			continue
		}
		p := posOf(d.Extent())
		if p.Offset < 0 || p.End > len(from.Source) || p.Offset >= p.End || !quotedInclude(from.Source[p.Offset:p.End]) {
			continue
		}
		if strings.HasPrefix(inc, prelude+string(filepath.Separator)) || tu.IsSystemFile(inc) {
			continue
		}
		f := cv.files[inc]
		if f == nil {
			b, err := readSource(inc)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: included here: %w", from.Name, p.Line, err)
			}
			f = &SourceFile{Path: filepath.Clean(inc), Name: displayName(path, inc), Source: b}
			cv.files[inc] = f
			cv.user[inc] = true
			files = append(files, f)
		}
		from.Includes = append(from.Includes, Include{Pos: p, File: f})
	}
	for _, in := range tu.Inclusions() {
		f := cv.files[in.From.File]
		if f == nil {
			continue
		}
		for i := range f.Includes {
			if p := f.Includes[i].Pos; in.From.Offset >= p.Offset && in.From.Offset < p.End {
				f.Includes[i].Entered = true
			}
		}
	}
	for name, f := range cv.files {
		var toks []clang.Token
		if f == main {
			toks = tu.Tokens(root.Extent())
		} else {
			toks = tu.FileTokens(name, len(f.Source))
		}
		for _, t := range toks {
			s, e := t.Extent.Start(), t.Extent.End()
			if s.File != name {
				continue
			}
			f.Tokens = append(f.Tokens, Token{Kind: t.Kind, Spelling: t.Spelling, Offset: s.Offset, End: e.Offset})
		}
		sort.SliceStable(f.Tokens, func(i, j int) bool { return f.Tokens[i].Offset < f.Tokens[j].Offset })
	}
	u := &Unit{File: path, Source: src, Tokens: main.Tokens, Files: files, Macros: map[string][]MacroDef{}}
	cv.expansions = map[string]map[int]int{}
	for _, d := range root.Children() {
		switch d.Kind() {
		case clang.MacroDefinition:
			if f := cv.files[d.Location().File]; f != nil {
				u.Macros[d.Spelling()] = append(u.Macros[d.Spelling()], MacroDef{File: f, Pos: posOf(d.Extent())})
			}
		case clang.MacroExpansion:
			if name := d.Location().File; cv.files[name] != nil {
				if cv.expansions[name] == nil {
					cv.expansions[name] = map[int]int{}
				}
				p := posOf(d.Extent())
				cv.expansions[name][p.Offset] = p.End
			}
		}
	}

	var top func(c clang.Cursor)
	top = func(c clang.Cursor) {
		for _, ch := range c.Children() {
			f := cv.files[ch.Location().File]
			if f == nil {
				continue
			}
			cv.at(f)
			switch ch.Kind() {
			case clang.Namespace, clang.LinkageSpec, clang.UnexposedDecl:
				// libclang 15 exposes extern "C" { ... } as UnexposedDecl.
				top(ch)
			case clang.FunctionDecl, clang.FunctionTemplate, clang.CXXMethod:
				if !ch.IsDefinition() {
					continue
				}
				fn := &Func{
					Name:     ch.Spelling(),
					Key:      declKey(ch),
					Kernel:   hasChildKind(ch, clang.CUDAGlobalAttr),
					Device:   hasChildKind(ch, clang.CUDADeviceAttr),
					Template: ch.Kind() == clang.FunctionTemplate,
					Pos:      posOf(ch.Extent()),
					Result:   ch.ResultType().Spelling(),
					File:     f,
				}
				if !fn.Template {
					fn.Mangled = ch.Mangling()
				}
				for _, p := range ch.Children() {
					switch p.Kind() {
					case clang.ParmDecl:
						fn.Params = append(fn.Params, cv.node(p, nil))
					case clang.CompoundStmt:
						fn.Body = cv.node(p, nil)
					}
				}
				if fn.Body != nil {
					u.Funcs = append(u.Funcs, fn)
				}
			case clang.VarDecl:
				n := cv.node(ch, nil)
				if n.Space != "" {
					u.Globals = append(u.Globals, n)
				}
			}
		}
	}
	top(root)
	return u, nil
}

// quotedInclude tells whether an #include directive's text names its file
// in quotes (the user's own headers) rather than in angle brackets.
func quotedInclude(directive []byte) bool {
	i := strings.IndexAny(string(directive), "\"<")
	return i >= 0 && directive[i] == '"'
}

// displayName is how messages name an included file: relative to the
// working directory when the user named the main file that way.
func displayName(mainPath, abs string) string {
	abs = filepath.Clean(abs)
	if filepath.IsAbs(mainPath) {
		return abs
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return abs
}
