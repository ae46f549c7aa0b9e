package report

import (
	"encoding/json"
	"io"

	"ldcheck/gpuruntime"
)

// JSON is the --format json document.
type JSON struct {
	Kernel  string `json:"kernel"`
	Source  string `json:"source"`
	Launch  Launch `json:"launch"`
	Backend string `json:"backend"`
	Verdict string `json:"verdict"` // race, none, unchecked
	// NotChecked says why the run is not a verdict on the whole kernel
	// (exit status 4 unless --allow-unchecked): it was not instrumented,
	// or something it writes was left unchecked.
	NotChecked string            `json:"not_checked,omitempty"`
	Races      []gpuruntime.Race `json:"races"`
	Summary    Summary           `json:"summary"`
	Notes      []string          `json:"notes,omitempty"`
}

// Summary is what the run did.
type Summary struct {
	Levels        []string           `json:"levels"`
	Regions       int                `json:"regions"`
	BytesCompared int64              `json:"bytes_compared"`
	Phases        []gpuruntime.Phase `json:"phases"`
	Unchecked     string             `json:"unchecked,omitempty"`
	// Level 1's rounds (1 without reshuffling) of the rounds planned, the
	// private copies each round's blocks shared (the blocks, without
	// reshuffling), the most memory the page copies took, and equation
	// (1)'s probability that a race between two blocks was checked.
	// Deterministic: a --deterministic run (its races are the write-write
	// conflicts met while merging).
	Deterministic        bool    `json:"deterministic,omitempty"`
	Rounds               int     `json:"rounds,omitempty"`
	RoundsPlanned        int     `json:"rounds_planned,omitempty"`
	Groups               int     `json:"groups,omitempty"`
	CopyBytes            int64   `json:"copy_bytes"`
	DetectionProbability float64 `json:"detection_probability,omitempty"`
	// HotPages: the pages whose chain of copies held more than 128 and an
	// eighth of a pass's copies, checked by the whole grid instead of a
	// thread a 16 bytes (counted once per check).
	HotPages int64 `json:"hot_pages,omitempty"`
}

// JSONOf builds the JSON document of d.
func JSONOf(d *Doc) JSON {
	res := d.Result
	races := res.Races
	if races == nil {
		races = []gpuruntime.Race{}
	}
	rep := JSON{Kernel: d.Kernel.Name, Source: d.Source, Backend: d.Backend, Races: races, Launch: d.Launch,
		Verdict: d.Verdict(), NotChecked: d.NotChecked,
		Summary: Summary{Levels: res.Levels, Regions: len(d.Kernel.Regions), BytesCompared: res.BytesCompared, Phases: res.Phases, Unchecked: res.Unchecked, Deterministic: res.Deterministic,
			Rounds: res.Rounds, RoundsPlanned: res.RoundsPlanned, Groups: res.Groups, CopyBytes: res.CopyBytes, DetectionProbability: res.DetectionProbability, HotPages: res.HotPages}}
	rep.Notes = append(append([]string(nil), d.Notes...), res.Notes...)
	return rep
}

// WriteJSON writes d as an indented JSON document.
func WriteJSON(w io.Writer, d *Doc) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(JSONOf(d))
}
