package clang

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Index is a libclang index (CXIndex): a set of translation units.
type Index struct {
	lib *Lib
	p   uintptr
}

// NewIndex creates an index. libclang's own diagnostic printing is off:
// callers read Diagnostics instead.
func (l *Lib) NewIndex() *Index {
	return &Index{lib: l, p: l.createIndex(0, 0)}
}

// Dispose frees the index.
func (x *Index) Dispose() {
	if x.p != 0 {
		x.lib.disposeIndex(x.p)
		x.p = 0
	}
}

// Parse options (CXTranslationUnit_Flags).
const (
	DetailedPreprocessingRecord = 0x01
	KeepGoing                   = 0x200
)

// Parse parses file with the given compiler arguments. A translation unit is
// returned even when the source has errors; read its Diagnostics.
func (x *Index) Parse(file string, args []string, options uint32) (*TranslationUnit, error) {
	cargs := make([]*byte, len(args))
	keep := make([][]byte, len(args))
	for i, a := range args {
		b := append([]byte(a), 0)
		keep[i] = b
		cargs[i] = &b[0]
	}
	var argv uintptr
	if len(cargs) > 0 {
		argv = uintptr(unsafe.Pointer(&cargs[0]))
	}
	var tu uintptr
	code := x.lib.parseTranslationUnit2(x.p, file, argv, int32(len(args)), 0, 0, options, &tu)
	runtime.KeepAlive(cargs)
	runtime.KeepAlive(keep)
	if code != 0 || tu == 0 {
		return nil, fmt.Errorf("libclang could not parse %s (error code %d)", file, code)
	}
	return &TranslationUnit{lib: x.lib, p: tu}, nil
}

// TranslationUnit is a parsed file (CXTranslationUnit).
type TranslationUnit struct {
	lib *Lib
	p   uintptr
}

// Dispose frees the translation unit; its cursors become invalid.
func (tu *TranslationUnit) Dispose() {
	if tu.p != 0 {
		tu.lib.disposeTranslationUnit(tu.p)
		tu.p = 0
	}
}

// Cursor returns the root cursor.
func (tu *TranslationUnit) Cursor() Cursor {
	return Cursor{lib: tu.lib, c: tu.lib.getTranslationUnitCur(tu.p)}
}

// Severity of a diagnostic (CXDiagnosticSeverity).
type Severity int32

const (
	Ignored Severity = iota
	Note
	Warning
	Error
	Fatal
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	case Fatal:
		return "fatal error"
	}
	return "ignored"
}

// Diagnostic is one compiler message.
type Diagnostic struct {
	Severity Severity
	Location Location
	Message  string
}

// String formats the diagnostic like a compiler: file:line:col: severity: message.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", d.Location.File, d.Location.Line, d.Location.Column, d.Severity, d.Message)
}

// Diagnostics returns every diagnostic of the translation unit.
func (tu *TranslationUnit) Diagnostics() []Diagnostic {
	n := tu.lib.numDiagnostics(tu.p)
	out := make([]Diagnostic, 0, n)
	for i := uint32(0); i < n; i++ {
		d := tu.lib.getDiagnostic(tu.p, i)
		out = append(out, Diagnostic{
			Severity: Severity(tu.lib.diagSeverity(d)),
			Location: tu.lib.location(tu.lib.diagLocation(d), spelling),
			Message:  tu.lib.str(tu.lib.diagSpelling(d)),
		})
		tu.lib.disposeDiagnostic(d)
	}
	return out
}

// Token kinds (CXTokenKind).
type TokenKind int32

const (
	Punctuation TokenKind = iota
	Keyword
	Identifier
	Literal
	Comment
)

// Token is one lexical token with its source range.
type Token struct {
	Kind     TokenKind
	Spelling string
	Extent   Range
}

// Tokens lexes the source range r.
func (tu *TranslationUnit) Tokens(r Range) []Token {
	var toks *cxToken
	var n uint32
	tu.lib.tokenize(tu.p, r.r, &toks, &n)
	if toks == nil || n == 0 {
		return nil
	}
	raw := unsafe.Slice(toks, n)
	out := make([]Token, n)
	for i, t := range raw {
		out[i] = Token{
			Kind:     TokenKind(tu.lib.tokenKind(t)),
			Spelling: tu.lib.str(tu.lib.tokenSpelling(tu.p, t)),
			Extent:   Range{lib: tu.lib, r: tu.lib.tokenExtent(tu.p, t)},
		}
	}
	tu.lib.disposeTokens(tu.p, toks, n)
	return out
}

// FileTokens lexes the whole of file, which must be part of the translation
// unit, size bytes long; nil when the unit does not know the file.
func (tu *TranslationUnit) FileTokens(file string, size int) []Token {
	f := tu.lib.getFile(tu.p, file)
	if f == 0 {
		return nil
	}
	r := tu.lib.getRange(tu.lib.locationForOffset(tu.p, f, 0), tu.lib.locationForOffset(tu.p, f, uint32(size)))
	return tu.Tokens(Range{lib: tu.lib, r: r})
}

// IsSystemFile reports whether file, part of the translation unit, is a
// system header (found through a system include path).
func (tu *TranslationUnit) IsSystemFile(file string) bool {
	f := tu.lib.getFile(tu.p, file)
	return f != 0 && tu.lib.inSystemHeader(tu.lib.locationForOffset(tu.p, f, 0)) != 0
}

// Inclusion is one file the preprocessor entered: File, and where the
// directive that included it is (zero for the main file).
type Inclusion struct {
	File string
	From Location
}

// Inclusions lists every entry of the preprocessor into a file, in the
// order libclang reports them. A file skipped by its include guard or
// #pragma once is not entered again, so it is listed once; a file
// included several times without a guard is listed each time.
func (tu *TranslationUnit) Inclusions() []Inclusion {
	l := tu.lib
	l.inclusionMu.Lock()
	defer l.inclusionMu.Unlock()
	l.inclusions = nil
	l.getInclusions(tu.p, l.inclusionCallback, 0)
	out := l.inclusions
	l.inclusions = nil
	return out
}

func (l *Lib) dispatchInclusion(file uintptr, stack *cxSourceLocation, n uint32, _ uintptr) {
	inc := Inclusion{File: l.str(l.fileName(file))}
	if n > 0 && stack != nil {
		inc.From = l.location(*stack, spelling)
	}
	l.inclusions = append(l.inclusions, inc)
}

// Location is a resolved source position. Offset is in bytes from the start
// of File; Line and Column count from 1.
type Location struct {
	File   string
	Line   int
	Column int
	Offset int
}

// Where a location inside a macro's expansion maps to.
const (
	spelling  = iota // where its token is spelled
	expansion        // where the outermost macro was used
	// fileLoc is where the token is written in a file: for a token of a
	// macro's argument, the argument as written at the macro's use; for a
	// token of the macro's body, the macro's use.
	fileLoc
)

func (l *Lib) location(loc cxSourceLocation, how int) Location {
	var file uintptr
	var line, col, off uint32
	switch how {
	case expansion:
		l.expansionLocation(loc, &file, &line, &col, &off)
	case fileLoc:
		l.fileLocation(loc, &file, &line, &col, &off)
	default:
		l.spellingLocation(loc, &file, &line, &col, &off)
	}
	out := Location{Line: int(line), Column: int(col), Offset: int(off)}
	if file != 0 {
		out.File = l.str(l.fileName(file))
	}
	return out
}

// Range is a source range (CXSourceRange).
type Range struct {
	lib *Lib
	r   cxSourceRange
}

// Start returns where the range begins, after macro expansion: for code
// written through a macro this is the place the macro was used.
func (r Range) Start() Location { return r.lib.location(r.lib.rangeStart(r.r), expansion) }

// End returns the position just past the range's last token.
func (r Range) End() Location { return r.lib.location(r.lib.rangeEnd(r.r), expansion) }

// FileStart and FileEnd are Start and End, except that a range written as
// a macro's argument maps to the argument's text at the macro's use.
func (r Range) FileStart() Location { return r.lib.location(r.lib.rangeStart(r.r), fileLoc) }
func (r Range) FileEnd() Location   { return r.lib.location(r.lib.rangeEnd(r.r), fileLoc) }

// InMainFile reports whether the range starts in the file being parsed
// (not in an included header).
func (r Range) InMainFile() bool { return r.lib.isFromMainFile(r.lib.rangeStart(r.r)) != 0 }
