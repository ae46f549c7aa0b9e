package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"ldcheck/gpuruntime"
)

// Rule ids of the SARIF results, one per kind of race, so that code
// scanning can group, filter and suppress them.
const (
	RuleWriteWrite = "ldcheck/write-write"
	RuleReadWrite  = "ldcheck/read-write"
	// RuleAtomicPlain: a plain access and another unit's atomic on the
	// same bytes with no barrier between (a data race in the CUDA memory
	// model, which atomics on one side do not make benign).
	RuleAtomicPlain = "ldcheck/atomic-plain"
)

// srcRoot is the base the SARIF locations of files under Doc.BaseDir are
// relative to (code scanning maps it to the repository's root).
const srcRoot = "%SRCROOT%"

// SARIFOf builds the SARIF 2.1.0 log of d: one result per race, at the
// later of the two conflicting accesses (at the region's first line when
// the race was not explained), the other access as a related location.
func SARIFOf(d *Doc) (*sarif.Report, error) {
	log, err := sarif.New(sarif.Version210)
	if err != nil {
		return nil, fmt.Errorf("SARIF report: %w", err)
	}
	driver := sarif.NewDriver("ldcheck")
	run := sarif.NewRun(*sarif.NewTool(driver))
	run.AddRule(RuleWriteWrite).WithName("WriteWriteRace").
		WithShortDescription(sarif.NewMultiformatMessageString("Write-write data race")).
		WithFullDescription(sarif.NewMultiformatMessageString("Two warps or blocks write the same bytes with no barrier between them: the value that remains depends on their timing.")).
		WithTextHelp("Give each warp or block its own element, or order the writes with a barrier or an atomic.")
	run.AddRule(RuleReadWrite).WithName("ReadWriteRace").
		WithShortDescription(sarif.NewMultiformatMessageString("Read-write data race")).
		WithFullDescription(sarif.NewMultiformatMessageString("A warp or block reads bytes another writes with no barrier between the write and the read: what it reads depends on their timing.")).
		WithTextHelp("Put a barrier (__syncthreads) between the write and the read.")
	run.AddRule(RuleAtomicPlain).WithName("AtomicPlainRace").
		WithShortDescription(sarif.NewMultiformatMessageString("Race between a plain access and an atomic")).
		WithFullDescription(sarif.NewMultiformatMessageString("A warp or block reads or writes bytes with a plain access while another updates them atomically, with no barrier between: under the CUDA memory model this is a data race.")).
		WithTextHelp("Make the plain access atomic too (atomicAdd(p, 0) to read, atomicExch to write), or separate the two with a barrier.")
	run.AddInvocation(true)
	run.Properties = sarif.Properties{"kernel": d.Kernel.Name, "backend": d.Backend, "verdict": d.Verdict()}
	if d.NotChecked != "" {
		run.Properties["not_checked"] = d.NotChecked
	}
	for i := range d.Result.Races {
		run.AddResult(d.sarifResult(&d.Result.Races[i]))
	}
	log.AddRun(run)
	return log, nil
}

// WriteSARIF writes d as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, d *Doc) error {
	log, err := SARIFOf(d)
	if err != nil {
		return err
	}
	return log.PrettyWrite(w)
}

func (d *Doc) sarifResult(rc *gpuruntime.Race) *sarif.Result {
	rule := RuleReadWrite
	switch rc.Kind {
	case "write-write":
		rule = RuleWriteWrite
	case "atomic-plain":
		rule = RuleAtomicPlain
	}
	units := unitWord(rc)
	var us []string
	for _, u := range rc.Units {
		us = append(us, fmt.Sprint(u))
	}
	elem := rc.Element
	if elem == "" {
		elem = rc.Variable
	}
	msg := fmt.Sprintf("%s race on %s (%s, %s) in kernel %s, between %s %s", rc.Kind, elem, rc.Space, rc.Scope, d.Kernel.Name, units, strings.Join(us, ", "))
	if rc.Space == "local" {
		msg = fmt.Sprintf("read-write race whose effect stays in thread-local values (%s) in kernel %s, region lines %d-%d", rc.Scope, d.Kernel.Name, rc.Region.BeginLine, rc.Region.EndLine)
	}
	res := sarif.NewRuleResult(rule).WithLevel("error").WithMessage(sarif.NewTextMessage(msg))
	if len(rc.Accesses) == 2 {
		a, b := rc.Accesses[0], rc.Accesses[1]
		res.AddLocation(d.location(b.File, b.Line, b.Col, accessText(b, rc)))
		res.AddRelatedLocation(d.location(a.File, a.Line, a.Col, "conflicting "+accessText(a, rc)).WithId(1))
		for i, p := range rc.MorePairs {
			res.AddRelatedLocation(d.location(p[1].File, p[1].Line, p[1].Col, fmt.Sprintf("also: %s, against the %s at line %d", accessText(p[1], rc), accessText(p[0], rc), p[0].Line)).WithId(2 + i))
		}
	} else {
		res.AddLocation(d.location(d.KernelFile, rc.Region.BeginLine, 0, fmt.Sprintf("region lines %d-%d", rc.Region.BeginLine, rc.Region.EndLine)))
	}
	props := sarif.Properties{"space": rc.Space, "scope": string(rc.Scope), "units": rc.Units, "offset": rc.Offset, "racy_bytes": rc.Count}
	if rc.Element != "" {
		props["element"] = rc.Element
	}
	if rc.Scope != "inter-block" {
		props["block"] = rc.Block
	}
	if rc.Warp != nil {
		props["warp"] = *rc.Warp
	}
	if rc.SameValue {
		props["same_value"] = true
	}
	res.Properties = props
	return res
}

// location is a SARIF location: a line (and column, when known) of a
// file, relative to %SRCROOT% when it lies under Doc.BaseDir.
func (d *Doc) location(file string, line, col int, text string) *sarif.Location {
	al := sarif.NewArtifactLocation()
	if rel, ok := d.relative(file); ok {
		al.WithUri(rel).WithUriBaseId(srcRoot)
	} else {
		al.WithUri("file://" + filepath.ToSlash(file))
	}
	region := sarif.NewRegion().WithStartLine(max(line, 1))
	if col > 0 {
		region.WithStartColumn(col)
	}
	pl := sarif.NewPhysicalLocation().WithArtifactLocation(al).WithRegion(region)
	return sarif.NewLocationWithPhysicalLocation(pl).WithMessage(sarif.NewTextMessage(text))
}

func (d *Doc) relative(file string) (string, bool) {
	if d.BaseDir == "" || !filepath.IsAbs(file) {
		return filepath.ToSlash(file), !filepath.IsAbs(file)
	}
	rel, err := filepath.Rel(d.BaseDir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
