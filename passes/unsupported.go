package passes

import (
	"fmt"

	"ldcheck/privatize/manifest"
)

// unsupportedPass: body, device functions -> diagnostics for constructs
// ldcheck cannot check, each saying what ldcheck will do about it.
func (ka *kernelAnalysis) unsupportedPass(k *Kernel) {
	unhandled := func(p Pos, format string, args ...any) {
		k.Unhandled = append(k.Unhandled, fmt.Sprintf("line %d: ", p.Line)+fmt.Sprintf(format, args...))
	}
	visit := func(where string, body *Node) {
		body.Walk(func(n *Node) bool {
			switch {
			case n.Kind == "GCCAsmStmt" || n.Kind == "AsmStmt" || n.Kind == "MSAsmStmt":
				ka.diag(n.Pos, "warning", "inline PTX in %s: ldcheck cannot see the memory it touches; accesses made by the asm are not checked", where)
				unhandled(n.Pos, "inline PTX in %s: the memory it touches is not checked", where)
			case n.Kind == "CallExpr" && (n.Name == "malloc" || n.Name == "free"):
				ka.diag(n.Pos, "warning", "device-side %s in %s: heap memory allocated in a kernel is not privatized; races on it are not checked", n.Name, where)
				unhandled(n.Pos, "device-side %s in %s: heap memory allocated in a kernel is not checked", n.Name, where)
			case n.Kind == "CXXNewExpr" || n.Kind == "CXXDeleteExpr":
				ka.diag(n.Pos, "warning", "device-side new/delete in %s: heap memory allocated in a kernel is not privatized; races on it are not checked", where)
				unhandled(n.Pos, "device-side new/delete in %s: heap memory allocated in a kernel is not checked", where)
			case isGridSync(n):
				ka.diag(n.Pos, "warning", "%s (grid_group::sync) in %s: not supported: ldcheck checks one launch as a single region and cannot replay across a grid barrier; kernel %s will not be instrumented", manifest.GridBarrier, where, ka.fn.Name)
			case n.Kind == "CUDAKernelCallExpr":
				ka.diag(n.Pos, "warning", "kernel launch from device code in %s (dynamic parallelism): the child grid is not checked", where)
				unhandled(n.Pos, "kernel launch from device code in %s: the child grid is not checked", where)
			case n.Kind == "GotoStmt" || n.Kind == "IndirectGotoStmt":
				ka.diag(n.Pos, "warning", "goto in %s: region replay re-enters regions by label and does not support goto; kernel %s will not be instrumented (rewrite with structured control flow)", where, ka.fn.Name)
			}
			return true
		})
	}
	visit("kernel "+ka.fn.Name, ka.fn.Body)
	for _, f := range ka.reach {
		visit("device function "+f.Name+" (called by "+ka.fn.Name+")", f.Body)
	}
}
