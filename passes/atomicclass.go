package passes

import (
	"strings"

	"ldcheck/privatize/manifest"
)

// ResultDiscarded says whether call n is a statement of its own, so its
// value is never used.
func ResultDiscarded(n *Node) bool {
	p := n.Parent
	if p == nil {
		return false
	}
	idx := -1
	for i, c := range p.Children {
		if c == n {
			idx = i
		}
	}
	switch p.Kind {
	case "CompoundStmt":
		return true
	case "IfStmt":
		return idx >= 1
	case "WhileStmt", "ForStmt", "LabelStmt", "CaseStmt", "DefaultStmt":
		return idx == len(p.Children)-1 && idx > 0
	case "DoStmt":
		return idx == 0
	}
	return false
}

// classifyAtomic says how the outcome of atomic call n depends on the
// order the threads run it in (manifest.AtomicClass). Scoped variants
// (atomicAdd_block, atomicAdd_system) are classified as the plain call.
func classifyAtomic(n *Node) manifest.AtomicClass {
	op, ok := strings.CutPrefix(n.Name, "atomic")
	if !ok {
		return manifest.AtomicUnknown // __atomic_* builtins: orders and kinds we do not model
	}
	op = strings.TrimSuffix(strings.TrimSuffix(op, "_block"), "_system")
	switch op {
	case "Exch":
		return manifest.AtomicExchange
	case "CAS":
		return manifest.AtomicCompareSwap
	case "Add", "Sub":
		if !isIntegerType(n.Type) {
			return manifest.AtomicFloat
		}
	case "Min", "Max":
		// Exact in any type: the order changes nothing (the returned
		// value aside).
		if n.Type == "" {
			return manifest.AtomicUnknown
		}
	case "And", "Or", "Xor", "Inc", "Dec":
	default:
		return manifest.AtomicUnknown
	}
	if !ResultDiscarded(n) {
		return manifest.AtomicValueUsed
	}
	return manifest.AtomicCommutative
}

// isIntegerType says whether t, an atomic's value type as libclang spells
// it, is an integer type (unknown types are not: their adds may round).
func isIntegerType(t string) bool {
	t = strings.TrimSpace(strings.NewReplacer("const ", "", "volatile ", "").Replace(t))
	switch t {
	case "int", "unsigned int", "unsigned", "long", "unsigned long", "long long", "unsigned long long",
		"short", "unsigned short", "char", "signed char", "unsigned char",
		"int32_t", "uint32_t", "int64_t", "uint64_t", "size_t":
		return true
	}
	return false
}
