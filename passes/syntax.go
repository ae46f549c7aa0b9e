package passes

import (
	"fmt"
	"sort"

	"ldcheck/passes/clang"
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
	// expression; Postfix tells x++ from ++x.
	Op      string `json:"op,omitempty"`
	Postfix bool   `json:"postfix,omitempty"`
	Pos     Pos    `json:"pos"`
	// Key identifies a declaration; Ref is the Key of the declaration an
	// expression refers to (variables, functions, fields).
	Key      string  `json:"key,omitempty"`
	Ref      string  `json:"ref,omitempty"`
	RefKind  string  `json:"ref_kind,omitempty"`
	Space    Space   `json:"space,omitempty"` // for VarDecl: __shared__, __device__, __constant__
	Extern   bool    `json:"extern,omitempty"`
	Children []*Node `json:"children,omitempty"`
	Parent   *Node   `json:"-"`
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

// Func is a function defined in the analysed file.
type Func struct {
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

// Unit is a parsed file as plain data: its functions and module-scope
// variables, with syntax trees, and the tokens of the file.
type Unit struct {
	File    string
	Source  []byte
	Funcs   []*Func
	Globals []*Node // module-scope VarDecl nodes with a CUDA memory space
	Tokens  []Token
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
	file  string
	kinds map[clang.CursorKind]string
	toks  []Token // sorted by Offset
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

func declKey(c clang.Cursor) string {
	l := c.Location()
	return fmt.Sprintf("%s:%d:%s", l.File, l.Offset, c.Spelling())
}

// tokenAt returns the index of the first token starting at or after off.
func (cv *converter) tokenAt(off int) int {
	return sort.Search(len(cv.toks), func(i int) bool { return cv.toks[i].Offset >= off })
}

func (cv *converter) node(c clang.Cursor, parent *Node) *Node {
	k := c.Kind()
	n := &Node{Kind: cv.kindName(k), Name: c.Spelling(), Pos: posOf(c.Extent()), Parent: parent}
	t := c.Type()
	if t.Kind() != clang.TypeInvalid {
		n.Type = t.Spelling()
	}
	switch k {
	case clang.VarDecl, clang.ParmDecl, clang.FieldDecl, clang.FunctionDecl:
		// Only declarations get a size: libclang crashes on sizeof of some
		// expression types (bound member functions, property references).
		if k != clang.FunctionDecl && t.Kind() != clang.TypeInvalid && t.Kind() != clang.TypeUnexposed {
			n.Size = t.Size()
		}
		n.Key = declKey(c)
		if k == clang.VarDecl {
			n.Extern = c.StorageClass() == clang.StorageExtern
		}
	case clang.DeclRefExpr, clang.MemberRefExpr, clang.CallExpr, clang.MemberRef:
		if ref := c.Referenced(); !ref.IsNull() {
			n.Ref = declKey(ref)
			n.RefKind = cv.kindName(ref.Kind())
		}
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
		n.Children = append(n.Children, cv.node(ch, n))
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
		if len(n.Children) > 0 {
			if i := cv.tokenAt(n.Children[0].Pos.End); i < len(cv.toks) {
				n.Op = cv.toks[i].Spelling
			}
		}
	case clang.UnaryOperator:
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

// convert copies the main file's functions and variables out of tu.
func convert(lib *clang.Lib, tu *clang.TranslationUnit, file string, src []byte) *Unit {
	cv := &converter{lib: lib, file: file, kinds: map[clang.CursorKind]string{}}
	root := tu.Cursor()
	for _, t := range tu.Tokens(root.Extent()) {
		s, e := t.Extent.Start(), t.Extent.End()
		if s.File != file {
			continue
		}
		cv.toks = append(cv.toks, Token{Kind: t.Kind, Spelling: t.Spelling, Offset: s.Offset, End: e.Offset})
	}
	sort.SliceStable(cv.toks, func(i, j int) bool { return cv.toks[i].Offset < cv.toks[j].Offset })
	u := &Unit{File: file, Source: src, Tokens: cv.toks}

	var top func(c clang.Cursor)
	top = func(c clang.Cursor) {
		for _, ch := range c.Children() {
			if ch.Location().File != file {
				continue
			}
			switch ch.Kind() {
			case clang.Namespace, clang.LinkageSpec:
				top(ch)
			case clang.FunctionDecl, clang.FunctionTemplate, clang.CXXMethod:
				if !ch.IsDefinition() {
					continue
				}
				f := &Func{
					Name:     ch.Spelling(),
					Key:      declKey(ch),
					Kernel:   hasChildKind(ch, clang.CUDAGlobalAttr),
					Device:   hasChildKind(ch, clang.CUDADeviceAttr),
					Template: ch.Kind() == clang.FunctionTemplate,
					Pos:      posOf(ch.Extent()),
					Result:   ch.ResultType().Spelling(),
				}
				if !f.Template {
					f.Mangled = ch.Mangling()
				}
				for _, p := range ch.Children() {
					switch p.Kind() {
					case clang.ParmDecl:
						f.Params = append(f.Params, cv.node(p, nil))
					case clang.CompoundStmt:
						f.Body = cv.node(p, nil)
					}
				}
				if f.Body != nil {
					u.Funcs = append(u.Funcs, f)
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
	return u
}
