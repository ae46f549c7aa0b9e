package passes

// uniformEndsPass: barriers, body -> Kernel.UniformEnds.
//
// A region end decides, for the whole block, whether the region needs a
// check: a reduction over the block's threads. The hardware's
// (barrier.red) gives a warp whose lanes reach it from two places (some
// at a barrier, some at the exit, where a thread that left early waits
// for the rest of its block) a result for each part on the H100, and the
// block's threads then take different paths. The runtime's own reduction
// through shared words has no such case but costs a region end a fifth
// of ld_btree's run. So the hardware's is used where no warp can be split
// that way: every block barrier and every return of the kernel body
// under conditions every thread of the block computes alike (uniform
// locals and parameters, blockIdx, blockDim, gridDim), in loops no
// thread leaves alone. The threads then meet the same barriers in the
// same order and reach the exit after the same one.
//
// Conservative: a goto or a lambda (code run elsewhere than where it is
// written) or a barrier the kernel reaches through a call, and the kernel
// keeps the runtime's reduction.
func (ka *kernelAnalysis) uniformEndsPass(k *Kernel) {
	k.UniformEnds = false
	for _, b := range k.Barriers {
		if !b.Warp && b.Via != "" {
			return
		}
	}
	body := ka.fn.Body
	elsewhere := false
	var returns []*Node
	body.Walk(func(n *Node) bool {
		switch n.Kind {
		case "GotoStmt", "IndirectGotoStmt", "LambdaExpr":
			elsewhere = true
		case "ReturnStmt":
			returns = append(returns, n)
		}
		return !elsewhere
	})
	if elsewhere {
		return
	}
	u := findUniform(ka.fn)
	for n := range ka.sites {
		if !u.control(n, body) {
			return
		}
	}
	for _, r := range returns {
		if !u.control(r, body) {
			return
		}
	}
	k.UniformEnds = true
}
