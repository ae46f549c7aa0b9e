package passes

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"ldcheck/passes/clang"
)

//go:embed include
var includeFS embed.FS

// PreludeName is the header force-included before user code.
const PreludeName = "ldcheck_prelude.h"

// WriteIncludes writes ldcheck's CUDA prelude and the stub CUDA headers
// (cuda_runtime.h, ...) into dir, for parsing and for compiling with clang
// when no CUDA toolkit is installed.
func WriteIncludes(dir string) error {
	return fs.WalkDir(includeFS, "include", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := includeFS.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(path)), b, 0o644)
	})
}

// WriteInclude writes one of the embedded headers (e.g. the
// cooperative_groups.h stub) into dir.
func WriteInclude(dir, name string) error {
	b, err := includeFS.ReadFile("include/" + name)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), b, 0o644)
}

// Options are the compiler flags passed through from the command line.
type Options struct {
	Includes []string // -I
	Defines  []string // -D (NAME or NAME=VALUE)
	Std      string   // -std=, default c++17
}

// ClangArgs returns the arguments that make clang read a .cu file as CUDA
// device code against ldcheck's prelude in includeDir.
func (o Options) ClangArgs(includeDir string) []string {
	std := o.Std
	if std == "" {
		std = "c++17"
	}
	args := []string{
		"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
		"--cuda-gpu-arch=sm_80", "-Xclang", "-target-feature", "-Xclang", "+ptx70",
		"-std=" + std, "-Wno-unknown-cuda-version",
		"-include", filepath.Join(includeDir, PreludeName), "-I" + includeDir,
	}
	for _, i := range o.Includes {
		args = append(args, "-I"+i)
	}
	for _, d := range o.Defines {
		args = append(args, "-D"+d)
	}
	return args
}

// InputError is a problem with the user's input (exit status 2): a file
// that cannot be read or does not compile.
type InputError struct {
	File        string
	Msg         string
	Diagnostics []Diagnostic
}

func (e *InputError) Error() string {
	if len(e.Diagnostics) == 0 {
		return e.File + ": " + e.Msg
	}
	var b strings.Builder
	for i, d := range e.Diagnostics {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s", d.File, d.Line, d.Col, d.Severity, d.Message)
	}
	return b.String()
}

// readSource checks that path is a readable, non-empty UTF-8 text file.
func readSource(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &InputError{File: path, Msg: "no such file"}
		}
		return nil, &InputError{File: path, Msg: err.Error()}
	}
	if st.IsDir() {
		return nil, &InputError{File: path, Msg: "is a directory, not a CUDA source file"}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: err.Error()}
	}
	if len(strings.TrimSpace(string(src))) == 0 {
		return nil, &InputError{File: path, Msg: "file is empty"}
	}
	if !utf8.Valid(src) {
		line := 1 + strings.Count(string(src[:firstInvalidUTF8(src)]), "\n")
		return nil, &InputError{File: path, Msg: fmt.Sprintf("line %d: not valid UTF-8 text (is this a source file?)", line)}
	}
	return src, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// Parse reads and parses a CUDA source file. Compile errors come back as an
// *InputError carrying clang's diagnostics; warnings are returned with the
// unit.
func Parse(lib *clang.Lib, path string, opt Options) (*Unit, []Diagnostic, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, &InputError{File: path, Msg: err.Error()}
	}
	inc, err := os.MkdirTemp("", "ldcheck-include-")
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	defer os.RemoveAll(inc)
	if err := WriteIncludes(inc); err != nil {
		return nil, nil, fmt.Errorf("parse %s: writing prelude: %w", path, err)
	}
	idx := lib.NewIndex()
	defer idx.Dispose()
	tu, err := idx.Parse(abs, opt.ClangArgs(inc), clang.KeepGoing|clang.DetailedPreprocessingRecord)
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	defer tu.Dispose()

	var diags, errs []Diagnostic
	for _, d := range tu.Diagnostics() {
		if d.Severity < clang.Warning {
			continue
		}
		file := d.Location.File
		if file == abs {
			file = path // report the name the user gave
		} else if strings.HasPrefix(file, inc) {
			file = "<ldcheck prelude>/" + filepath.Base(file)
		}
		out := Diagnostic{File: file, Line: d.Location.Line, Col: d.Location.Column, Severity: d.Severity.String(), Message: d.Message}
		if d.Severity >= clang.Error {
			errs = append(errs, out)
		} else {
			diags = append(diags, out)
		}
	}
	if len(errs) > 0 {
		return nil, diags, &InputError{File: path, Msg: "does not compile", Diagnostics: errs}
	}
	u, err := convert(lib, tu, path, abs, src, inc)
	if err != nil {
		return nil, diags, err
	}
	return u, diags, nil
}
