package passes

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The half precision headers are one text in both include folders: the
// front end's (and clang's PTX) and the CPU backend's.
func TestHalfHeadersSame(t *testing.T) {
	for _, name := range []string{"ldcheck_fp16.h", "cuda_fp16.h", "cuda_bf16.h"} {
		a, err := os.ReadFile(filepath.Join("include", name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("..", "gpuruntime", "cpu", "include", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("passes/include/%s and gpuruntime/cpu/include/%s differ: edit one, copy it to the other", name, name)
		}
	}
}

// halfAPIKernel calls every function of testdata/half_api.txt with
// arguments of the listed types and checks the return type at compile
// time, as mathAPIKernel does for the math API.
func halfAPIKernel(t *testing.T) (src string, n int) {
	f, err := os.Open("testdata/half_api.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	arg := map[string]string{
		"__half": "h", "__half2": "h2", "__nv_bfloat16": "b", "__nv_bfloat162": "b2",
		"__half *": "hp", "__half2 *": "h2p", "__nv_bfloat16 *": "bp", "__nv_bfloat162 *": "b2p",
		"float": "f", "double": "d", "float2": "f2", "int": "i", "unsigned": "u", "unsigned int": "u",
		"short": "s", "unsigned short": "us", "long long": "ll", "unsigned long long": "ull",
	}
	var b strings.Builder
	b.WriteString(`#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <class A, class B> struct ldc_same { static const bool value = false; };
template <class A> struct ldc_same<A, A> { static const bool value = true; };
__global__ void half_api(__half *hp, __half2 *h2p, __nv_bfloat16 *bp, __nv_bfloat162 *b2p, float f, double d, int i, unsigned u,
                         short s, unsigned short us, long long ll, unsigned long long ull) {
  __half h = hp[i];
  __half2 h2 = h2p[i];
  __nv_bfloat16 b = bp[i];
  __nv_bfloat162 b2 = b2p[i];
  float2 f2 = make_float2(f, f);
  // The operators and conversions a kernel writes.
  h = h * h + h - h / h;
  h += h; h -= h; h *= h; h /= h; ++h; h--; h = -h;
  h2 = h2 * h2 + h2 - h2 / h2;
  h2 += h2;
  b = b * b + b;
  b2 = b2 * b2 + b2;
  bool c = h == h || h != h || h < h || h > h || h <= h || h >= h || h2 == h2 || b < b || b2 != b2;
  float g = h;
  __half fromf = f, fromi = i;
  __nv_bfloat16 bfromf = f;
  h = 0.5f;
  h = 2;
  (void)c; (void)g; (void)fromf; (void)fromi; (void)bfromf;
`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		m := sigRE.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("half_api.txt: cannot read %q", s)
		}
		var args []string
		if strings.TrimSpace(m[3]) != "" {
			for _, p := range strings.Split(m[3], ",") {
				a, ok := arg[strings.TrimSpace(p)]
				if !ok {
					t.Fatalf("half_api.txt: %s: no argument for type %q", s, p)
				}
				args = append(args, a)
			}
		}
		call := fmt.Sprintf("%s(%s)", m[2], strings.Join(args, ", "))
		fmt.Fprintf(&b, "  static_assert(ldc_same<decltype(%s), %s>::value, \"%s\");\n", call, m[1], s)
		n++
	}
	b.WriteString("}\n")
	return b.String(), n
}

// TestHalfAPI: every function of the list, and the operators, compile
// against the prelude (the front end, clang's PTX) and the CPU backend's
// header, with the listed return types.
func TestHalfAPI(t *testing.T) {
	src, n := halfAPIKernel(t)
	if n < 300 {
		t.Fatalf("testdata/half_api.txt lists %d functions; it should list the whole API", n)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "half_api.cu")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	compilesAgainstHeaders(t, dir, file, "half precision functions")
}
