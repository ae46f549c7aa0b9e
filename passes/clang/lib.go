package clang

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/ebitengine/purego"
)

// ErrNotFound is wrapped by Load's error when no libclang could be opened.
var ErrNotFound = errors.New("libclang 15 not found")

// candidates are tried in order when neither the caller nor LDCHECK_LIBCLANG
// names a library. Version 15 first: the front end is tested against it.
var candidates = []string{
	"libclang-15.so.1",
	"/usr/lib/llvm-15/lib/libclang.so.1",
	"/usr/lib/x86_64-linux-gnu/libclang-15.so.1",
	"/usr/lib/aarch64-linux-gnu/libclang-15.so.1",
	"libclang.so.1",
}

// Raw C layouts. purego copies these by value, so field order and padding
// must match clang-c/Index.h exactly.
type (
	cxString struct {
		data  uintptr
		flags uint32
		_     uint32
	}
	cxCursor struct {
		kind  int32
		xdata int32
		data  [3]uintptr
	}
	cxType struct {
		kind int32
		_    int32
		data [2]uintptr
	}
	cxSourceLocation struct {
		ptr     [2]uintptr
		intData uint32
		_       uint32
	}
	cxSourceRange struct {
		ptr   [2]uintptr
		begin uint32
		end   uint32
	}
	cxToken struct {
		intData [4]uint32
		ptr     uintptr
	}
)

// Lib is a loaded libclang. All other values of this package hold the Lib
// they came from; there is no package-level state.
type Lib struct {
	Path string

	getCString    func(cxString) string
	disposeString func(cxString)

	createIndex            func(excludePCH, displayDiag int32) uintptr
	disposeIndex           func(uintptr)
	parseTranslationUnit2  func(idx uintptr, file string, args uintptr, nargs int32, unsaved uintptr, nunsaved uint32, opts uint32, out *uintptr) int32
	disposeTranslationUnit func(uintptr)
	getTranslationUnitCur  func(uintptr) cxCursor

	numDiagnostics     func(uintptr) uint32
	getDiagnostic      func(uintptr, uint32) uintptr
	disposeDiagnostic  func(uintptr)
	diagSeverity       func(uintptr) int32
	diagLocation       func(uintptr) cxSourceLocation
	diagSpelling       func(uintptr) cxString
	visitChildren      func(parent cxCursor, visitor uintptr, data uintptr) uint32
	cursorKind         func(cxCursor) int32
	cursorSpelling     func(cxCursor) cxString
	cursorDisplayName  func(cxCursor) cxString
	cursorType         func(cxCursor) cxType
	cursorResultType   func(cxCursor) cxType
	cursorExtent       func(cxCursor) cxSourceRange
	cursorLocation     func(cxCursor) cxSourceLocation
	cursorReferenced   func(cxCursor) cxCursor
	cursorDefinition   func(cxCursor) cxCursor
	semanticParent     func(cxCursor) cxCursor
	lexicalParent      func(cxCursor) cxCursor
	equalCursors       func(cxCursor, cxCursor) uint32
	hashCursor         func(cxCursor) uint32
	isDefinition       func(cxCursor) uint32
	numArguments       func(cxCursor) int32
	argument           func(cxCursor, uint32) cxCursor
	storageClass       func(cxCursor) int32
	mangling           func(cxCursor) cxString
	varDeclInitializer func(cxCursor) cxCursor
	specializedTmpl    func(cxCursor) cxCursor
	kindSpelling       func(int32) cxString
	evaluate           func(cxCursor) uintptr
	evalKind           func(uintptr) int32
	evalAsLongLong     func(uintptr) int64
	evalDispose        func(uintptr)

	typeSpelling     func(cxType) cxString
	canonicalType    func(cxType) cxType
	pointeeType      func(cxType) cxType
	arrayElementType func(cxType) cxType
	arraySize        func(cxType) int64
	typeSizeOf       func(cxType) int64
	typeOffsetOf     func(cxType, string) int64
	isConstQualified func(cxType) uint32
	typeDeclaration  func(cxType) cxCursor

	rangeStart        func(cxSourceRange) cxSourceLocation
	rangeEnd          func(cxSourceRange) cxSourceLocation
	spellingLocation  func(loc cxSourceLocation, file *uintptr, line, col, off *uint32)
	expansionLocation func(loc cxSourceLocation, file *uintptr, line, col, off *uint32)
	fileLocation      func(loc cxSourceLocation, file *uintptr, line, col, off *uint32)
	isFromMainFile    func(cxSourceLocation) int32
	fileName          func(uintptr) cxString
	inSystemHeader    func(cxSourceLocation) int32
	getFile           func(tu uintptr, name string) uintptr
	locationForOffset func(tu uintptr, file uintptr, offset uint32) cxSourceLocation
	getRange          func(begin, end cxSourceLocation) cxSourceRange
	includedFile      func(cxCursor) uintptr
	getInclusions     func(tu uintptr, visitor uintptr, data uintptr)

	tokenize      func(tu uintptr, r cxSourceRange, toks **cxToken, n *uint32)
	disposeTokens func(tu uintptr, toks *cxToken, n uint32)
	tokenSpelling func(tu uintptr, t cxToken) cxString
	tokenKind     func(t cxToken) int32
	tokenExtent   func(tu uintptr, t cxToken) cxSourceRange

	// One C callback serves every Visit: purego callbacks are never freed
	// and limited in number, so visits are told apart by a client-data key.
	visitCallback uintptr
	// getInclusions reports through inclusionCallback into inclusions;
	// inclusionMu keeps one walk at a time.
	inclusionCallback uintptr
	inclusionMu       sync.Mutex
	inclusions        []Inclusion
	mu                sync.Mutex
	visits            map[uintptr]func(Cursor, Cursor) VisitResult
	nextVisit         uintptr
}

// Load opens libclang. path "" means $LDCHECK_LIBCLANG, else the usual
// install locations of Debian's libclang-15-dev.
func Load(path string) (*Lib, error) {
	tried := []string{path}
	if path == "" {
		if env := os.Getenv("LDCHECK_LIBCLANG"); env != "" {
			tried = []string{env}
		} else {
			tried = candidates
		}
	}
	var handle uintptr
	var lastErr error
	for _, p := range tried {
		h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err == nil {
			handle, path = h, p
			break
		}
		lastErr = err
	}
	if handle == 0 {
		return nil, fmt.Errorf("%w (tried %s: %v); install it with `apt-get install libclang-15-dev` or set LDCHECK_LIBCLANG=/path/to/libclang.so", ErrNotFound, strings.Join(tried, ", "), lastErr)
	}
	l := &Lib{Path: path, visits: map[uintptr]func(Cursor, Cursor) VisitResult{}}
	syms := []struct {
		fn   any
		name string
	}{
		{&l.getCString, "clang_getCString"},
		{&l.disposeString, "clang_disposeString"},
		{&l.createIndex, "clang_createIndex"},
		{&l.disposeIndex, "clang_disposeIndex"},
		{&l.parseTranslationUnit2, "clang_parseTranslationUnit2"},
		{&l.disposeTranslationUnit, "clang_disposeTranslationUnit"},
		{&l.getTranslationUnitCur, "clang_getTranslationUnitCursor"},
		{&l.numDiagnostics, "clang_getNumDiagnostics"},
		{&l.getDiagnostic, "clang_getDiagnostic"},
		{&l.disposeDiagnostic, "clang_disposeDiagnostic"},
		{&l.diagSeverity, "clang_getDiagnosticSeverity"},
		{&l.diagLocation, "clang_getDiagnosticLocation"},
		{&l.diagSpelling, "clang_getDiagnosticSpelling"},
		{&l.visitChildren, "clang_visitChildren"},
		{&l.cursorKind, "clang_getCursorKind"},
		{&l.cursorSpelling, "clang_getCursorSpelling"},
		{&l.cursorDisplayName, "clang_getCursorDisplayName"},
		{&l.cursorType, "clang_getCursorType"},
		{&l.cursorResultType, "clang_getCursorResultType"},
		{&l.cursorExtent, "clang_getCursorExtent"},
		{&l.cursorLocation, "clang_getCursorLocation"},
		{&l.cursorReferenced, "clang_getCursorReferenced"},
		{&l.cursorDefinition, "clang_getCursorDefinition"},
		{&l.semanticParent, "clang_getCursorSemanticParent"},
		{&l.lexicalParent, "clang_getCursorLexicalParent"},
		{&l.equalCursors, "clang_equalCursors"},
		{&l.hashCursor, "clang_hashCursor"},
		{&l.isDefinition, "clang_isCursorDefinition"},
		{&l.numArguments, "clang_Cursor_getNumArguments"},
		{&l.argument, "clang_Cursor_getArgument"},
		{&l.storageClass, "clang_Cursor_getStorageClass"},
		{&l.mangling, "clang_Cursor_getMangling"},
		{&l.varDeclInitializer, "clang_Cursor_getVarDeclInitializer"},
		{&l.specializedTmpl, "clang_getSpecializedCursorTemplate"},
		{&l.kindSpelling, "clang_getCursorKindSpelling"},
		{&l.evaluate, "clang_Cursor_Evaluate"},
		{&l.evalKind, "clang_EvalResult_getKind"},
		{&l.evalAsLongLong, "clang_EvalResult_getAsLongLong"},
		{&l.evalDispose, "clang_EvalResult_dispose"},
		{&l.typeSpelling, "clang_getTypeSpelling"},
		{&l.canonicalType, "clang_getCanonicalType"},
		{&l.pointeeType, "clang_getPointeeType"},
		{&l.arrayElementType, "clang_getArrayElementType"},
		{&l.arraySize, "clang_getArraySize"},
		{&l.typeSizeOf, "clang_Type_getSizeOf"},
		{&l.typeOffsetOf, "clang_Type_getOffsetOf"},
		{&l.isConstQualified, "clang_isConstQualifiedType"},
		{&l.typeDeclaration, "clang_getTypeDeclaration"},
		{&l.rangeStart, "clang_getRangeStart"},
		{&l.rangeEnd, "clang_getRangeEnd"},
		{&l.spellingLocation, "clang_getSpellingLocation"},
		{&l.expansionLocation, "clang_getExpansionLocation"},
		{&l.fileLocation, "clang_getFileLocation"},
		{&l.isFromMainFile, "clang_Location_isFromMainFile"},
		{&l.fileName, "clang_getFileName"},
		{&l.inSystemHeader, "clang_Location_isInSystemHeader"},
		{&l.getFile, "clang_getFile"},
		{&l.locationForOffset, "clang_getLocationForOffset"},
		{&l.getRange, "clang_getRange"},
		{&l.includedFile, "clang_getIncludedFile"},
		{&l.getInclusions, "clang_getInclusions"},
		{&l.tokenize, "clang_tokenize"},
		{&l.disposeTokens, "clang_disposeTokens"},
		{&l.tokenSpelling, "clang_getTokenSpelling"},
		{&l.tokenKind, "clang_getTokenKind"},
		{&l.tokenExtent, "clang_getTokenExtent"},
	}
	for _, s := range syms {
		addr, err := purego.Dlsym(handle, s.name)
		if err != nil {
			return nil, fmt.Errorf("%s: missing symbol %s (is it libclang 15 or newer?): %v", path, s.name, err)
		}
		purego.RegisterFunc(s.fn, addr)
	}
	l.visitCallback = purego.NewCallback(l.dispatchVisit)
	l.inclusionCallback = purego.NewCallback(l.dispatchInclusion)
	return l, nil
}

// str converts and frees a CXString.
func (l *Lib) str(s cxString) string {
	out := l.getCString(s) // purego copies the C string into Go memory
	l.disposeString(s)
	return out
}
