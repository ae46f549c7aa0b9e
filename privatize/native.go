package privatize

import (
	"fmt"
	"strings"

	"ldcheck/passes"
)

// NativeName is the name of the native source next to the instrumented
// one: scan.ldcheck.cu gives scan.ldcheck.native.cu.
func NativeName(instrumented string) string {
	return strings.TrimSuffix(instrumented, ".cu") + ".native.cu"
}

// nativePrelude makes the few spellings the native source needs mean the
// user's own text on the GPU; on the CPU backend (LDC_CPU) they are what
// the CPU header can run. LDC_NATIVE_TEST is an index proof's stride test
// (nativeTests): nothing, unless the source is compiled with
// -DLDC_NATIVE_TESTS (manifest TestedPTX), where a failed test records its
// line in *ldc_native_failed as the instrumented kernels' ldc_test does.
const nativePrelude = `#ifdef LDC_NATIVE_TESTS
__device__ int *ldc_native_failed;
#define LDC_NATIVE_TEST(line, c) ((void)((c) != 0 || (atomicMax(ldc_native_failed, (line) > 0 ? (line) : 1), 0)))
#else
#define LDC_NATIVE_TEST(line, c) ((void)0)
#endif
#ifdef LDC_CPU
#define LDC_INLINE_ASM(...) __trap() /* inline PTX cannot run on the CPU backend */
#define LDC_NATIVE_TYPE(...) __VA_ARGS__
#define LDC_NATIVE_EXTERN_SHARED(T, name, ...) LDC_DYNAMIC_SHARED(LDC_NATIVE_TYPE T, name)
#else
#define LDC_INLINE_ASM(...) __VA_ARGS__
#define LDC_NATIVE_EXTERN_SHARED(T, name, ...) __VA_ARGS__
#endif
`

// hostAndAsm are the edits both sources share: host-only functions are
// left out (ldcheck launches kernels itself), and inline PTX, which cannot
// run on the CPU backend, is wrapped so that it traps there with a message
// instead of failing the whole build.
func hostAndAsm(u *passes.Unit) edits {
	var all edits
	for _, f := range u.Funcs {
		var es edits
		if !f.Kernel && !f.Device {
			es.replace(f.Pos.Offset, f.Pos.End, "/* ldcheck: host function "+f.Name+" left out: ldcheck launches kernels itself */")
		} else {
			f.Body.Walk(func(n *passes.Node) bool {
				if n.Kind == "GCCAsmStmt" || n.Kind == "AsmStmt" {
					es.insert(n.Pos.Offset, "LDC_INLINE_ASM(", 0)
					es.insert(n.Pos.End, ")", 1)
					return false
				}
				return true
			})
		}
		all = append(all, es.inFile(f.File)...)
	}
	return all
}

// nativeTests are the edits that put kernel k's stride tests (its
// Conditions, in file f) into the native source, as the instrumented
// source tests them: a launch whose only checks would be those tests runs
// the user's kernels with them and nothing else (manifest TestedPTX),
// where the instrumented module would cost several native runs. at skips
// a test already placed (a template's instances share their text).
func nativeTests(k *passes.Kernel, f *passes.SourceFile, at map[[3]int]bool) edits {
	var es edits
	for _, c := range k.Conditions {
		key := [3]int{c.Offset, c.End, c.Line}
		if at[key] {
			continue
		}
		at[key] = true
		line := 0
		if c.Target {
			line = c.Line
		}
		es.insert(c.Offset, fmt.Sprintf("(LDC_NATIVE_TEST(%d, %s), ", line, c.Expr), -3000)
		es.insert(c.End, ")", 3000)
	}
	return es.inFile(f)
}

// native renders the user's file as written, for `ldcheck run --unchecked`:
// host code left out as in the instrumented source, kernels and device
// functions untouched (same lines, same signatures, so the same mangled
// names), and the CPU entry points appended under LDC_CPU. The one other
// change is for the CPU backend: an extern __shared__ declaration there
// becomes LDC_DYNAMIC_SHARED, while on the GPU the macro gives back the
// declaration's own text.
func native(u *passes.Unit, absPath, output, entries string, tests edits) (string, error) {
	es := append(hostAndAsm(u), tests...)
	externShared := func(n *passes.Node) {
		tokens := &kernelRewrite{src: n.File.Source, tokens: n.File.Tokens}
		if n.Kind != "VarDecl" || n.Space != passes.Shared || !n.Extern || !strings.HasSuffix(n.Type, "[]") {
			return
		}
		stmt := n
		if n.Parent != nil && n.Parent.Kind == "DeclStmt" {
			if len(n.Parent.Children) != 1 {
				return // several declarators: left as written (the CPU build will say so)
			}
			stmt = n.Parent
		}
		end := stmt.Pos.End
		if !strings.HasSuffix(tokens.text(stmt.Pos), ";") {
			e, ok := tokens.semicolonAfter(stmt.Pos.End)
			if !ok {
				return
			}
			end = e
		}
		decl := strings.TrimSpace(strings.TrimSuffix(string(n.File.Source[stmt.Pos.Offset:end]), ";"))
		elem := strings.TrimSpace(strings.TrimSuffix(n.Type, "[]"))
		es = append(es, edit{from: stmt.Pos.Offset, to: end, text: fmt.Sprintf("LDC_NATIVE_EXTERN_SHARED((%s), %s, %s);", elem, n.Name, decl), file: n.File})
	}
	for _, g := range u.Globals {
		externShared(g)
	}
	for _, f := range u.Funcs {
		if !f.Kernel && !f.Device {
			continue
		}
		f.Body.Walk(func(n *passes.Node) bool {
			externShared(n)
			return true
		})
	}
	body, err := render(u, es)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	fmt.Fprintf(&out, "// %s as written, for `ldcheck run --unchecked`: host code left out, nothing instrumented.\n// Made by ldcheck build; do not edit: rebuild with `ldcheck build`.\n", absPath)
	if len(tests) > 0 {
		out.WriteString("// The index proofs' stride tests (LDC_NATIVE_TEST) are compiled in only with -DLDC_NATIVE_TESTS.\n")
	}
	out.WriteString(nativePrelude)
	fmt.Fprintf(&out, "#line 1 %q\n", absPath)
	out.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		out.WriteByte('\n')
	}
	fmt.Fprintf(&out, "#line 1 \"%s (ldcheck entry points)\"\n#ifdef LDC_CPU\n%s#endif\n", NativeName(output), entries)
	return out.String(), nil
}
