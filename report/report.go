package report

import (
	"path/filepath"

	"ldcheck/gpuruntime"
	"ldcheck/privatize/manifest"
)

// Doc is everything a report states about one run.
type Doc struct {
	// Kernel is the manifest's kernel; KernelFile the file it is defined
	// in (manifest.KernelSource) and Source the file that was built.
	Kernel     *manifest.Kernel
	KernelFile string
	Source     string
	Backend    string
	Launch     Launch
	Result     *gpuruntime.Result
	// Notes are the command's own notes (assumed arguments, fallbacks),
	// printed before the run's (Result.Notes).
	Notes []string
	// NotChecked says why a run that found no race is no verdict on the
	// kernel (exit status 4 unless --allow-unchecked).
	NotChecked string
	// Phases adds each phase's time to the text report (-v).
	Phases bool
	// BaseDir is the directory SARIF locations are made relative to (the
	// repository root, for code scanning); files outside it keep their
	// absolute paths.
	BaseDir string
}

// Launch is the launch as the user gave it.
type Launch struct {
	Grid   [3]uint32 `json:"grid"`
	Block  [3]uint32 `json:"block"`
	Shared int64     `json:"shared"`
	Args   []string  `json:"args"`
}

// Verdict is the run's verdict in one word: race, none or unchecked.
func (d *Doc) Verdict() string {
	res := d.Result
	switch {
	case res.Unchecked != "" || d.NotChecked != "" && len(res.Races) == 0:
		return "unchecked"
	case len(res.Races) > 0:
		return "race"
	}
	return "none"
}

func (d *Doc) base() string { return filepath.Base(d.KernelFile) }
