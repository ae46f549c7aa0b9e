package passes

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ldcheck/gpuruntime/cpu"
)

// mathAPI reads testdata/math_api.txt: the CUDA Math API functions that
// kernels may call, one signature a line.
func mathAPI(t *testing.T) []string {
	f, err := os.Open("testdata/math_api.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sigs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			sigs = append(sigs, l)
		}
	}
	return sigs
}

var sigRE = regexp.MustCompile(`^(.*?)\s*([A-Za-z_][A-Za-z_0-9]*)\((.*)\)$`)

// mathAPIKernel is a kernel that calls every function of sigs with
// arguments of the listed types and checks, at compile time, that the call
// has the listed return type: a missing function or overload does not
// compile, with its name in the message.
func mathAPIKernel(t *testing.T, sigs []string) string {
	arg := map[string]string{
		"float": "f", "double": "d", "int": "i", "unsigned int": "u", "long": "l", "long long": "ll",
		"unsigned long long": "ull", "float *": "&fo", "double *": "&dob", "int *": "&io",
		"const float *": "fa", "const double *": "da", "const char *": `""`, "size_t": "u",
	}
	var b strings.Builder
	b.WriteString(`template <class A, class B> struct ldc_same { static const bool value = false; };
template <class A> struct ldc_same<A, A> { static const bool value = true; };
__global__ void math_api(float f, double d, int i, unsigned int u, long l, long long ll, unsigned long long ull, float *fa, double *da) {
  float fo; double dob; int io;
`)
	for _, s := range sigs {
		m := sigRE.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("math_api.txt: cannot read %q", s)
		}
		var args []string
		if strings.TrimSpace(m[3]) != "" {
			for _, p := range strings.Split(m[3], ",") {
				a, ok := arg[strings.TrimSpace(p)]
				if !ok {
					t.Fatalf("math_api.txt: %s: no argument for type %q", s, p)
				}
				args = append(args, a)
			}
		}
		call := fmt.Sprintf("%s(%s)", m[2], strings.Join(args, ", "))
		fmt.Fprintf(&b, "  static_assert(ldc_same<decltype(%s), %s>::value, \"%s\");\n  (void)%s;\n", call, m[1], s, call)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestMathAPI: every function of the list is declared by the prelude (the
// front end, and clang's PTX) and defined by the CPU backend's header.
func TestMathAPI(t *testing.T) {
	sigs := mathAPI(t)
	src := mathAPIKernel(t, sigs)
	dir := t.TempDir()
	file := filepath.Join(dir, "math_api.cu")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("e2e kernel calls all", func(t *testing.T) {
		k, err := os.ReadFile("../testdata/e2e/math_api_ok.cu")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sigs {
			if name := sigRE.FindStringSubmatch(s)[2]; !strings.Contains(string(k), name+"(") {
				t.Errorf("testdata/e2e/math_api_ok.cu does not call %s", s)
			}
		}
	})
	compilesAgainstHeaders(t, dir, file, "math functions")
}

// compilesAgainstHeaders checks that file, a kernel calling an API, compiles
// against the prelude (the front end, and clang's PTX) and against the CPU
// backend's header; what names the API in the failure messages.
func compilesAgainstHeaders(t *testing.T, dir, file, what string) {
	t.Run("prelude", func(t *testing.T) {
		clangBin := ""
		for _, c := range []string{"clang-15", "clang"} {
			if p, err := exec.LookPath(c); err == nil {
				clangBin = p
				break
			}
		}
		if clangBin == "" {
			t.Skip("no clang-15")
		}
		inc := filepath.Join(dir, "prelude")
		if err := os.MkdirAll(inc, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteIncludes(inc); err != nil {
			t.Fatal(err)
		}
		args := append(Options{}.ClangArgs(inc), "-fsyntax-only", "-ferror-limit=0", file)
		if out, err := exec.Command(clangBin, args...).CombinedOutput(); err != nil {
			t.Errorf("the prelude lacks %s:\n%s", what, out)
		}
	})
	t.Run("cpu", func(t *testing.T) {
		cxx := ""
		for _, c := range []string{"c++", "g++", "clang++-15", "clang++"} {
			if p, err := exec.LookPath(c); err == nil {
				cxx = p
				break
			}
		}
		if cxx == "" {
			t.Skip("no C++ compiler")
		}
		inc := filepath.Join(dir, "cpu")
		if err := cpu.WriteHeaders(inc); err != nil {
			t.Fatal(err)
		}
		args := []string{"-std=c++17", "-fsyntax-only", "-I", inc, "-include", filepath.Join(inc, cpu.HeaderName), "-x", "c++", file}
		if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
			t.Errorf("the CPU backend lacks %s:\n%s", what, out)
		}
	})
}
