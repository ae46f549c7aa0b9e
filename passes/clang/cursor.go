package clang

// CursorKind is libclang's CXCursorKind. Only the kinds the front end names
// are listed; others compare by number.
type CursorKind int32

const (
	UnexposedDecl             CursorKind = 1
	StructDecl                CursorKind = 2
	UnionDecl                 CursorKind = 3
	ClassDecl                 CursorKind = 4
	EnumDecl                  CursorKind = 5
	FieldDecl                 CursorKind = 6
	FunctionDecl              CursorKind = 8
	VarDecl                   CursorKind = 9
	ParmDecl                  CursorKind = 10
	TypedefDecl               CursorKind = 20
	CXXMethod                 CursorKind = 21
	Namespace                 CursorKind = 22
	LinkageSpec               CursorKind = 23
	FunctionTemplate          CursorKind = 30
	ClassTemplate             CursorKind = 31
	TypeAliasDecl             CursorKind = 36
	TypeRef                   CursorKind = 43
	CXXBaseSpecifier          CursorKind = 44
	TemplateRef               CursorKind = 45
	MemberRef                 CursorKind = 47
	OverloadedDeclRef         CursorKind = 49
	UnexposedExpr             CursorKind = 100
	DeclRefExpr               CursorKind = 101
	MemberRefExpr             CursorKind = 102
	CallExpr                  CursorKind = 103
	IntegerLiteral            CursorKind = 106
	FloatingLiteral           CursorKind = 107
	ParenExpr                 CursorKind = 111
	UnaryOperator             CursorKind = 112
	ArraySubscriptExpr        CursorKind = 113
	BinaryOperator            CursorKind = 114
	CompoundAssignOperator    CursorKind = 115
	ConditionalOperator       CursorKind = 116
	CStyleCastExpr            CursorKind = 117
	InitListExpr              CursorKind = 119
	CXXStaticCastExpr         CursorKind = 124
	CXXReinterpretCastExpr    CursorKind = 126
	CXXConstCastExpr          CursorKind = 127
	CXXFunctionalCastExpr     CursorKind = 128
	UnaryExpr                 CursorKind = 136
	LambdaExpr                CursorKind = 144
	LabelStmt                 CursorKind = 201
	CompoundStmt              CursorKind = 202
	CaseStmt                  CursorKind = 203
	DefaultStmt               CursorKind = 204
	IfStmt                    CursorKind = 205
	SwitchStmt                CursorKind = 206
	WhileStmt                 CursorKind = 207
	DoStmt                    CursorKind = 208
	ForStmt                   CursorKind = 209
	GotoStmt                  CursorKind = 210
	ContinueStmt              CursorKind = 212
	BreakStmt                 CursorKind = 213
	ReturnStmt                CursorKind = 214
	AsmStmt                   CursorKind = 215
	CXXForRangeStmt           CursorKind = 225
	NullStmt                  CursorKind = 230
	DeclStmt                  CursorKind = 231
	TranslationUnitKind       CursorKind = 350
	MacroDefinition           CursorKind = 501
	MacroExpansion            CursorKind = 502
	InclusionDirective        CursorKind = 503
	CUDAConstantAttr          CursorKind = 412
	CUDADeviceAttr            CursorKind = 413
	CUDAGlobalAttr            CursorKind = 414
	CUDAHostAttr              CursorKind = 415
	CUDASharedAttr            CursorKind = 416
	firstInvalid, lastInvalid            = 70, 73
)

// Spelling returns libclang's name for the kind, e.g. "CallExpr".
func (l *Lib) KindSpelling(k CursorKind) string { return l.str(l.kindSpelling(int32(k))) }

// Cursor is a node of the AST (CXCursor).
type Cursor struct {
	lib *Lib
	c   cxCursor
}

// Kind returns the cursor's kind.
func (c Cursor) Kind() CursorKind { return CursorKind(c.lib.cursorKind(c.c)) }

// IsNull reports whether the cursor is the null or an invalid cursor.
func (c Cursor) IsNull() bool {
	k := c.Kind()
	return c.lib == nil || (k >= firstInvalid && k <= lastInvalid)
}

// Spelling is the cursor's name (a variable's, a function's) or "".
func (c Cursor) Spelling() string { return c.lib.str(c.lib.cursorSpelling(c.c)) }

// DisplayName is the name with parameters for functions, e.g. "f(int)".
func (c Cursor) DisplayName() string { return c.lib.str(c.lib.cursorDisplayName(c.c)) }

// Type returns the type of a declaration or expression.
func (c Cursor) Type() Type { return Type{lib: c.lib, t: c.lib.cursorType(c.c)} }

// ResultType returns a function's return type.
func (c Cursor) ResultType() Type { return Type{lib: c.lib, t: c.lib.cursorResultType(c.c)} }

// Extent is the source range the cursor covers.
func (c Cursor) Extent() Range { return Range{lib: c.lib, r: c.lib.cursorExtent(c.c)} }

// Location is where the cursor's name is spelled (after macro expansion).
func (c Cursor) Location() Location { return c.lib.location(c.lib.cursorLocation(c.c), expansion) }

// Referenced returns the declaration a reference or call refers to.
func (c Cursor) Referenced() Cursor { return Cursor{c.lib, c.lib.cursorReferenced(c.c)} }

// Definition returns the defining declaration, or the null cursor.
func (c Cursor) Definition() Cursor { return Cursor{c.lib, c.lib.cursorDefinition(c.c)} }

// SemanticParent returns the enclosing scope.
func (c Cursor) SemanticParent() Cursor { return Cursor{c.lib, c.lib.semanticParent(c.c)} }

// LexicalParent returns the lexically enclosing scope.
func (c Cursor) LexicalParent() Cursor { return Cursor{c.lib, c.lib.lexicalParent(c.c)} }

// Equal reports whether two cursors denote the same node.
func (c Cursor) Equal(o Cursor) bool { return c.lib.equalCursors(c.c, o.c) != 0 }

// Hash is a hash of the cursor consistent with Equal.
func (c Cursor) Hash() uint32 { return c.lib.hashCursor(c.c) }

// IsDefinition reports whether the declaration is also a definition.
func (c Cursor) IsDefinition() bool { return c.lib.isDefinition(c.c) != 0 }

// NumArguments returns a function's or call's argument count, -1 otherwise.
func (c Cursor) NumArguments() int { return int(c.lib.numArguments(c.c)) }

// Argument returns argument i of a function declaration or call.
func (c Cursor) Argument(i int) Cursor { return Cursor{c.lib, c.lib.argument(c.c, uint32(i))} }

// Storage classes (CX_StorageClass).
const (
	StorageNone   = 1
	StorageExtern = 2
	StorageStatic = 3
)

// StorageClass returns a declaration's storage class.
func (c Cursor) StorageClass() int { return int(c.lib.storageClass(c.c)) }

// Mangling returns the symbol name of a function or variable.
func (c Cursor) Mangling() string { return c.lib.str(c.lib.mangling(c.c)) }

// IncludedFile returns the file an inclusion directive names, as the
// preprocessor found it ("" when it was not found).
func (c Cursor) IncludedFile() string {
	f := c.lib.includedFile(c.c)
	if f == 0 {
		return ""
	}
	return c.lib.str(c.lib.fileName(f))
}

// InSystemHeader reports whether the cursor is declared in a system header.
func (c Cursor) InSystemHeader() bool { return c.lib.inSystemHeader(c.lib.cursorLocation(c.c)) != 0 }

// VarInitializer returns a variable's initializer expression, or the null cursor.
func (c Cursor) VarInitializer() Cursor { return Cursor{c.lib, c.lib.varDeclInitializer(c.c)} }

// IntValue evaluates an integer constant expression (an integer literal,
// whatever macro it was written through); ok is false for anything else.
func (c Cursor) IntValue() (v int64, ok bool) {
	r := c.lib.evaluate(c.c)
	if r == 0 {
		return 0, false
	}
	defer c.lib.evalDispose(r)
	const evalInt = 1 // CXEval_Int
	if c.lib.evalKind(r) != evalInt {
		return 0, false
	}
	return c.lib.evalAsLongLong(r), true
}

// SpecializedTemplate returns the template a specialization came from.
func (c Cursor) SpecializedTemplate() Cursor { return Cursor{c.lib, c.lib.specializedTmpl(c.c)} }

// VisitResult tells Visit how to go on (CXChildVisitResult).
type VisitResult int32

const (
	Break    VisitResult = 0
	Continue VisitResult = 1
	Recurse  VisitResult = 2
)

// Visit calls fn for each child of c (and, when fn returns Recurse, their
// children, depth first) with the child and its parent.
func (c Cursor) Visit(fn func(cursor, parent Cursor) VisitResult) {
	l := c.lib
	l.mu.Lock()
	l.nextVisit++
	key := l.nextVisit
	l.visits[key] = fn
	l.mu.Unlock()
	l.visitChildren(c.c, l.visitCallback, key)
	l.mu.Lock()
	delete(l.visits, key)
	l.mu.Unlock()
}

// Children returns the direct children of c.
func (c Cursor) Children() []Cursor {
	var out []Cursor
	c.Visit(func(ch, _ Cursor) VisitResult {
		out = append(out, ch)
		return Continue
	})
	return out
}

func (l *Lib) dispatchVisit(cursor, parent cxCursor, key uintptr) uintptr {
	l.mu.Lock()
	fn := l.visits[key]
	l.mu.Unlock()
	if fn == nil {
		return uintptr(Break)
	}
	return uintptr(fn(Cursor{l, cursor}, Cursor{l, parent}))
}

// TypeKind is libclang's CXTypeKind.
type TypeKind int32

// Type kinds the front end distinguishes.
const (
	TypeInvalid           TypeKind = 0
	TypeUnexposed         TypeKind = 1
	TypeVoid              TypeKind = 2
	TypeBool              TypeKind = 3
	TypeFloat             TypeKind = 21
	TypeDouble            TypeKind = 22
	TypePointer           TypeKind = 101
	TypeLValueReference   TypeKind = 103
	TypeRValueReference   TypeKind = 104
	TypeRecord            TypeKind = 105
	TypeEnum              TypeKind = 106
	TypeTypedef           TypeKind = 107
	TypeConstantArray     TypeKind = 112
	TypeIncompleteArray   TypeKind = 114
	TypeDependentSizedArr TypeKind = 116
	TypeElaborated        TypeKind = 119
)

// Type is a C/C++ type (CXType).
type Type struct {
	lib *Lib
	t   cxType
}

// Kind returns the type's kind.
func (t Type) Kind() TypeKind { return TypeKind(t.t.kind) }

// Spelling returns the type as written, e.g. "const float *".
func (t Type) Spelling() string { return t.lib.str(t.lib.typeSpelling(t.t)) }

// Canonical strips typedefs and sugar.
func (t Type) Canonical() Type { return Type{t.lib, t.lib.canonicalType(t.t)} }

// Pointee returns what a pointer or reference points to.
func (t Type) Pointee() Type { return Type{t.lib, t.lib.pointeeType(t.t)} }

// Elem returns an array's element type.
func (t Type) Elem() Type { return Type{t.lib, t.lib.arrayElementType(t.t)} }

// ArraySize returns a constant array's length, -1 otherwise.
func (t Type) ArraySize() int64 { return t.lib.arraySize(t.t) }

// Size returns sizeof(t), or a negative value when it is not known
// (incomplete or dependent types).
func (t Type) Size() int64 { return t.lib.typeSizeOf(t.t) }

// OffsetOf returns the offset in bits of record type t's field called
// name, or a negative value when clang cannot say (incomplete, dependent).
func (t Type) OffsetOf(name string) int64 { return t.lib.typeOffsetOf(t.t, name) }

// IsConst reports whether the type is const-qualified at its top level.
func (t Type) IsConst() bool { return t.lib.isConstQualified(t.t) != 0 }

// Declaration returns the declaration of a record, enum or typedef type.
func (t Type) Declaration() Cursor { return Cursor{t.lib, t.lib.typeDeclaration(t.t)} }
