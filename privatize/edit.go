package privatize

import (
	"fmt"
	"sort"
	"strings"

	"ldcheck/passes"
)

// edit replaces src[from:to] with text. Insertions have from == to.
type edit struct {
	from, to int
	text     string
	order    int // among insertions at one offset, lower first
	// file is the user's file the offsets are in; nil means the file of
	// the function whose rewrite made the edit (see inFile).
	file *passes.SourceFile
	// lines marks a replacement that may add lines: it restores the
	// numbering itself with #line (an included file put in its place).
	lines bool
}

// inFile returns es with every edit that names no file placed in f.
func (es edits) inFile(f *passes.SourceFile) edits {
	out := append(edits(nil), es...)
	for i := range out {
		if out[i].file == nil {
			out[i].file = f
		}
	}
	return out
}

// of returns the edits of file f.
func (es edits) of(f *passes.SourceFile) edits {
	var out edits
	for _, e := range es {
		if e.file == f {
			out = append(out, e)
		}
	}
	return out
}

// edits is an ordered set of non-overlapping replacements.
type edits []edit

func (es *edits) replace(from, to int, text string) {
	*es = append(*es, edit{from: from, to: to, text: text})
}

func (es *edits) insert(at int, text string, order int) {
	*es = append(*es, edit{from: at, to: at, text: text, order: order})
}

// apply returns src with the edits made. Replacement text never contains a
// newline unless the replaced text had as many, so line numbers of the
// user's code are unchanged and compiler messages point at the right line.
func (es edits) apply(src []byte) (string, error) {
	sorted := append(edits(nil), es...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].from != sorted[j].from {
			return sorted[i].from < sorted[j].from
		}
		if (sorted[i].from == sorted[i].to) != (sorted[j].from == sorted[j].to) {
			return sorted[i].from == sorted[i].to // insertions before a replacement at the same offset
		}
		return sorted[i].order < sorted[j].order
	})
	var b strings.Builder
	pos := 0
	for i, e := range sorted {
		if prev := sorted[max(i-1, 0)]; i > 0 && e.from < e.to && e.from == prev.from && e.to == prev.to && e.text == prev.text {
			continue // the same edit twice: a macro's definition, edited for each use
		}
		if e.from < pos {
			return "", fmt.Errorf("internal error: overlapping rewrites at byte %d", e.from)
		}
		b.Write(src[pos:e.from])
		old := src[e.from:e.to]
		text := e.text
		// Keep the line count: pad with the newlines the replaced text had.
		if n := strings.Count(string(old), "\n") - strings.Count(text, "\n"); n > 0 {
			text += strings.Repeat("\n", n)
		} else if n < 0 && !e.lines {
			return "", fmt.Errorf("internal error: rewrite at byte %d adds %d lines", e.from, -n)
		}
		b.WriteString(text)
		pos = e.to
	}
	b.Write(src[pos:])
	return b.String(), nil
}
