package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// -results FILE keeps the launches already measured, one JSON object a
// line, appended as each launch ends. A run split over several calls (the
// GPU machine allows 10 minutes a command, and the suite with racecheck
// takes longer) or cut short goes on where it stopped, and each call ends
// with one table over every launch measured so far. To measure a launch
// again, delete its line.

// savedRow is a row as -results stores it.
type savedRow struct {
	Name       string        `json:"name"`
	Expect     string        `json:"expect"`
	Native     float64       `json:"native_seconds"`
	NativeWall time.Duration `json:"native_wall_ns"`
	// CopyGBps is the copy bandwidth measured by the call that ran the
	// launch: its %copy is against that one.
	CopyGBps  float64        `json:"copy_gbps"`
	Checked   savedResult    `json:"checked"`
	Racecheck savedRacecheck `json:"racecheck"`
	Notes     []string       `json:"notes,omitempty"`
	Outputs   string         `json:"outputs,omitempty"`
}

type savedResult struct {
	Report *report       `json:"report"`
	Code   int           `json:"code"`
	Wall   time.Duration `json:"wall_ns"`
	Phases []phase       `json:"phases"`
	Total  float64       `json:"total_seconds"`
	Err    string        `json:"error,omitempty"`
}

type savedRacecheck struct {
	Ran     bool          `json:"ran"`
	Hazards int           `json:"hazards"`
	Wall    time.Duration `json:"wall_ns"`
	Note    string        `json:"note,omitempty"`
}

func saveRow(r *row) savedRow {
	return savedRow{
		Name: r.name, Expect: r.expect, Native: r.native, NativeWall: r.nativeWall, CopyGBps: r.copyGBps,
		Checked:   savedResult{Report: r.checked.rep, Code: r.checked.code, Wall: r.checked.wall, Phases: r.checked.phases, Total: r.checked.total, Err: r.checked.errMsg},
		Racecheck: savedRacecheck{Ran: r.rc.ran, Hazards: r.rc.hazards, Wall: r.rc.wall, Note: r.rc.note},
		Notes:     r.notes,
		Outputs:   r.outputs,
	}
}

func (s savedRow) row() *row {
	return &row{
		name: s.Name, expect: s.Expect, native: s.Native, nativeWall: s.NativeWall, copyGBps: s.CopyGBps,
		checked: result{rep: s.Checked.Report, code: s.Checked.Code, wall: s.Checked.Wall, phases: s.Checked.Phases, total: s.Checked.Total, errMsg: s.Checked.Err},
		rc:      racecheck{ran: s.Racecheck.Ran, hazards: s.Racecheck.Hazards, wall: s.Racecheck.Wall, note: s.Racecheck.Note},
		notes:   s.Notes,
		outputs: s.Outputs,
	}
}

// loadRows reads a -results file: the rows by launch name (a later line
// wins). A file that does not exist yet holds none.
func loadRows(path string) (map[string]*row, error) {
	rows := map[string]*row{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rows, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var s savedRow
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Name == "" {
			if err == nil {
				err = errors.New("no launch name")
			}
			return nil, fmt.Errorf("%s:%d: not a row realsize wrote (%v); delete the line, or the file to start over", path, n, err)
		}
		rows[s.Name] = s.row()
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// appendRow adds a finished launch to a -results file.
func appendRow(path string, r *row) error {
	line, err := json.Marshal(saveRow(r))
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
