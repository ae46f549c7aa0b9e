package cpu

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed include/*.h
var includeFS embed.FS

// HeaderName is the header force-included into every kernel source.
const HeaderName = "ldcheck_cpu.h"

// WriteHeaders writes the CPU backend's include directory (ldcheck_cpu.h and
// the stub CUDA headers) into dir, creating it if needed.
func WriteHeaders(dir string) error {
	entries, err := fs.ReadDir(includeFS, "include")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		data, err := includeFS.ReadFile("include/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// CompileOptions tunes Compile. The zero value is the normal build.
type CompileOptions struct {
	// CXX is the compiler command, possibly with leading arguments
	// ("ccache g++"). Empty means $CXX, else the first of c++, g++,
	// clang++-15, clang++ found on PATH.
	CXX string
	// Flags go after the default flags, so they can override them
	// (-O0 -g) or set the header's knobs (-DLDC_FIBER_STACK_SIZE=1048576).
	Flags []string
	// NoSteps compiles without lockstep steps: threads of a block then run
	// one after another between synchronisation points (faster, but a
	// warp's lanes see each other's writes where a GPU's would not).
	NoSteps bool
}

var defaultCompilers = []string{"c++", "g++", "clang++-15", "clang++"}

// findCompiler returns the compiler command line prefix. An explicit choice
// (option or $CXX) that does not resolve is an error rather than a silent
// fallback, so the user learns their setting is wrong.
func findCompiler(explicit string) ([]string, error) {
	choice, from := explicit, "CompileOptions.CXX"
	if choice == "" {
		choice, from = os.Getenv("CXX"), "$CXX"
	}
	if fields := strings.Fields(choice); len(fields) > 0 {
		path, err := exec.LookPath(fields[0])
		if err != nil {
			return nil, fmt.Errorf("C++ compiler %q (from %s) not found: %w", fields[0], from, err)
		}
		return append([]string{path}, fields[1:]...), nil
	}
	for _, name := range defaultCompilers {
		if path, err := exec.LookPath(name); err == nil {
			return []string{path}, nil
		}
	}
	return nil, fmt.Errorf("no C++ compiler found (tried %s on PATH): the CPU backend needs one; "+
		"install g++ (Debian/Ubuntu: apt-get install g++) or clang++, or set $CXX",
		strings.Join(defaultCompilers, ", "))
}

// Compile compiles the CUDA device code in src into the shared library out.
// The library is written under a temporary name and renamed, so a failed or
// cancelled build never leaves a half-written out behind.
func Compile(ctx context.Context, src, out string, opt CompileOptions) error {
	cxx, err := findCompiler(opt.CXX)
	if err != nil {
		return err
	}
	inc, err := os.MkdirTemp("", "ldcheck-cpu-include-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(inc)
	if err := WriteHeaders(inc); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpName) // no-op after the rename

	// Two steps: -fsanitize=thread only instruments (the header defines the
	// hooks, see LDC_STEPS); linking with it would pull in the real
	// ThreadSanitizer runtime, which g++ does for shared libraries.
	obj := tmpName + ".o"
	defer os.Remove(obj)
	compile := append(cxx[1:len(cxx):len(cxx)],
		"-std=c++17", "-O2", "-fPIC", "-c",
		// CUDA code reinterprets freely (float4 loads of float arrays);
		// nvcc does not punish that, so neither may we.
		"-fno-strict-aliasing",
		// a*b+c rounds twice, as in ldcheck's device modules (nvcc
		// --fmad=false), whatever the host's FMA support.
		"-ffp-contract=off",
		// The library is one translation unit and exports only its entry
		// points: without this, g++ refuses to inline a non-static
		// always_inline function of the user's ("can be overwritten at
		// link time").
		"-fno-semantic-interposition")
	if !opt.NoSteps {
		compile = append(compile, "-fsanitize=thread")
	}
	compile = append(compile, opt.Flags...)
	compile = append(compile,
		"-I", inc, "-include", filepath.Join(inc, HeaderName),
		"-x", "c++", src, "-o", obj)
	link := append(cxx[1:len(cxx):len(cxx)], "-shared", "-fPIC",
		// Undefined symbols fail here, with the compiler's message,
		// instead of later in dlopen.
		"-Wl,-z,defs")
	link = append(link, opt.Flags...)
	link = append(link, obj, "-o", tmpName, "-lpthread")
	for _, args := range [][]string{compile, link} {
		if err := runCompiler(ctx, cxx[0], args, src); err != nil {
			return err
		}
	}
	return os.Rename(tmpName, out)
}

func runCompiler(ctx context.Context, cxx string, args []string, src string) error {
	cmd := exec.CommandContext(ctx, cxx, args...)
	var stderr bytes.Buffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("compiling %s: %w", src, ctxErr)
		}
		msg := strings.TrimSpace(stderr.String())
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) && msg != "" {
			return fmt.Errorf("compiling %s with %s failed:\n%s", src, filepath.Base(cxx), msg)
		}
		return fmt.Errorf("compiling %s with %s: %v\n%s", src, cxx, err, msg)
	}
	return nil
}
