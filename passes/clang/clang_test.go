package clang_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ldcheck/passes/clang"
)

func TestLoadMissing(t *testing.T) {
	_, err := clang.Load("/nonexistent/libclang.so")
	if !errors.Is(err, clang.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
	if !strings.Contains(err.Error(), "libclang-15-dev") || !strings.Contains(err.Error(), "LDCHECK_LIBCLANG") {
		t.Errorf("error %q does not say what to install", err)
	}
	t.Setenv("LDCHECK_LIBCLANG", "/nonexistent/other.so")
	if _, err := clang.Load(""); !errors.Is(err, clang.ErrNotFound) || !strings.Contains(err.Error(), "other.so") {
		t.Errorf("LDCHECK_LIBCLANG not honoured: %v", err)
	}
}

func parse(t *testing.T, src string) (*clang.Lib, *clang.TranslationUnit, string) {
	t.Helper()
	lib, err := clang.Load("")
	if err != nil {
		t.Fatalf("needs libclang 15 (make deps): %v", err)
	}
	path := filepath.Join(t.TempDir(), "x.cpp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	idx := lib.NewIndex()
	t.Cleanup(idx.Dispose)
	tu, err := idx.Parse(path, []string{"-x", "c++", "-std=c++17"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tu.Dispose)
	return lib, tu, path
}

func TestCursorsAndTypes(t *testing.T) {
	lib, tu, path := parse(t, "struct P { int a; double b; };\nint f(const float *p, P q) {\n  int x[3][4];\n  return x[1][2] + q.a;\n}\n")
	var names []string
	var f clang.Cursor
	tu.Cursor().Visit(func(c, parent clang.Cursor) clang.VisitResult {
		if c.Location().File != path {
			return clang.Continue
		}
		names = append(names, lib.KindSpelling(c.Kind())+":"+c.Spelling())
		if c.Kind() == clang.FunctionDecl {
			f = c
		}
		return clang.Recurse
	})
	joined := strings.Join(names, " ")
	for _, want := range []string{"StructDecl:P", "FieldDecl:a", "FunctionDecl:f", "ParmDecl:p", "VarDecl:x", "ArraySubscriptExpr:", "MemberRefExpr:a", "ReturnStmt:"} {
		if !strings.Contains(joined, want) {
			t.Errorf("walk lacks %s: %s", want, joined)
		}
	}
	if f.NumArguments() != 2 {
		t.Fatalf("f has %d arguments, want 2", f.NumArguments())
	}
	p := f.Argument(0).Type()
	if p.Kind() != clang.TypePointer || p.Spelling() != "const float *" || !p.Pointee().IsConst() || p.Pointee().Size() != 4 {
		t.Errorf("parameter p: kind %d %q, pointee const=%v size=%d", p.Kind(), p.Spelling(), p.Pointee().IsConst(), p.Pointee().Size())
	}
	if q := f.Argument(1).Type(); q.Canonical().Size() != 16 || q.Declaration().Spelling() != "P" {
		t.Errorf("parameter q: size %d, decl %q", q.Canonical().Size(), q.Declaration().Spelling())
	}
	if f.ResultType().Spelling() != "int" || !f.IsDefinition() || f.Mangling() != "_Z1fPKf1P" {
		t.Errorf("f: result %q definition %v mangling %q", f.ResultType().Spelling(), f.IsDefinition(), f.Mangling())
	}
	ext := f.Extent()
	if s, e := ext.Start(), ext.End(); s.Line != 2 || e.Line != 5 || s.Offset != 31 {
		t.Errorf("f extent %+v - %+v", s, e)
	}
	toks := tu.Tokens(ext)
	if len(toks) < 10 || toks[0].Spelling != "int" || toks[0].Kind != clang.Keyword || toks[1].Spelling != "f" || toks[1].Kind != clang.Identifier {
		t.Errorf("tokens: %+v", toks[:3])
	}
	// Break stops the walk early.
	n := 0
	tu.Cursor().Visit(func(c, _ clang.Cursor) clang.VisitResult { n++; return clang.Break })
	if n != 1 {
		t.Errorf("Break visited %d cursors", n)
	}
}

func TestDiagnostics(t *testing.T) {
	_, tu, path := parse(t, "int f() {\n  return y;\n}\n")
	ds := tu.Diagnostics()
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics: %v", len(ds), ds)
	}
	d := ds[0]
	if d.Severity != clang.Error || d.Location.File != path || d.Location.Line != 2 || d.Location.Column != 10 || !strings.Contains(d.Message, "undeclared identifier 'y'") {
		t.Errorf("diagnostic %v", d)
	}
	if !strings.HasSuffix(d.String(), "x.cpp:2:10: error: use of undeclared identifier 'y'") {
		t.Errorf("String() = %q", d.String())
	}
}
