package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"ldcheck/passes"
	"ldcheck/passes/clang"
)

// compilerFlags are the flags passed through to the C++ front end.
func compilerFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "I", Usage: "add `DIR` to the include path (repeatable)"},
		&cli.StringSliceFlag{Name: "D", Usage: "define `NAME[=VALUE]` for the preprocessor (repeatable)"},
		&cli.StringFlag{Name: "std", Value: "c++17", Usage: "C++ `STANDARD` the source is written in"},
	}
}

func parseOptions(c *cli.Context) passes.Options {
	return passes.Options{Includes: c.StringSlice("I"), Defines: c.StringSlice("D"), Std: c.String("std")}
}

// analyzeFile loads libclang, parses and analyses one file.
func analyzeFile(c *cli.Context) (*passes.Analysis, []passes.Diagnostic, error) {
	if c.NArg() != 1 {
		return nil, nil, inputErr("%s: expected one CUDA source file, got %d arguments (usage: ldcheck %s [flags] FILE.cu)", c.Command.Name, c.NArg(), c.Command.Name)
	}
	lib, err := clang.Load("")
	if err != nil {
		return nil, nil, err
	}
	u, warnings, err := passes.Parse(lib, c.Args().First(), parseOptions(c))
	if err != nil {
		return nil, warnings, err
	}
	a := passes.Analyze(u)
	if len(a.Kernels) == 0 {
		return nil, warnings, &passes.InputError{File: u.File, Msg: "no __global__ kernel defined in this file; nothing to check"}
	}
	return a, warnings, nil
}

func analyzeCommand() *cli.Command {
	return &cli.Command{
		Name:      "analyze",
		Usage:     "show what ldcheck would check in a CUDA file: kernels, barriers, regions, target variables",
		ArgsUsage: "FILE.cu",
		Description: `analyze parses FILE.cu as CUDA device code (no CUDA toolkit needed) and prints,
for each __global__ kernel:
  - its parameters;
  - its barriers (__syncthreads and friends) and where they sit (loop, conditional);
  - its AP regions: the code between consecutive barriers, as source lines; a
    barrier inside a loop gives a region that wraps around the loop's back edge;
  - its target variables: the shared and global variables (and pointer
    parameters) that are written and may be touched by more than one warp;
    these get private copies when the kernel is checked;
  - unchecked variables and why: read-only, provably private to one thread,
    or touched by atomics (which value-based checking cannot check);
  - constructs ldcheck cannot handle, as file:line:col warnings.

` + blindSpots,
		Flags: append(compilerFlags(),
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
		),
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if handled, err := runIsolated(c); handled {
				return err
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return inputErr("--format: unknown format %q (want text or json)", format)
			}
			a, warnings, err := analyzeFile(c)
			for _, w := range warnings {
				fmt.Fprintf(c.App.ErrWriter, "%s:%d:%d: %s: %s\n", w.File, w.Line, w.Col, w.Severity, w.Message)
			}
			if err != nil {
				return err
			}
			for _, d := range a.Diagnostics {
				fmt.Fprintf(c.App.ErrWriter, "%s:%d:%d: %s: %s\n", d.File, d.Line, d.Col, d.Severity, d.Message)
			}
			if format == "json" {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(a)
			}
			printAnalysis(c.App.Writer, a)
			return nil
		},
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// printAnalysis writes the human summary: one line per kernel, then its
// regions and variables.
func printAnalysis(w io.Writer, a *passes.Analysis) {
	file := filepath.Base(a.File)
	for i, k := range a.Kernels {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var params []string
		for _, p := range k.Params {
			sep := " "
			if strings.HasSuffix(p.Type, "*") {
				sep = ""
			}
			params = append(params, strings.TrimSpace(p.Type+sep+p.Name))
		}
		blockBarriers := 0
		for _, b := range k.Barriers {
			if !b.Warp {
				blockBarriers++
			}
		}
		tmpl := ""
		if k.Template {
			tmpl = "template "
		}
		fmt.Fprintf(w, "%s:%d: %skernel %s(%s): %s, %s, %s, %s\n", file, k.Pos.Line, tmpl, k.Name, strings.Join(params, ", "),
			plural(blockBarriers, "barrier"), plural(len(k.Regions), "region"), plural(len(k.Targets), "target"), plural(len(k.Unchecked), "unchecked variable"))
		for _, b := range k.Barriers {
			via := ""
			if b.Via != "" {
				via = " via " + b.Via
			}
			kind := "barrier"
			if b.Warp {
				kind = "warp barrier (does not end a region)"
			}
			fmt.Fprintf(w, "  %s %d: %s at line %d (%s%s)\n", kind, b.ID, b.Call, b.Pos.Line, b.Context, via)
		}
		for _, r := range k.Regions {
			lines := fmt.Sprintf("lines %d-%d", r.BeginLine, r.EndLine)
			if r.Wraps {
				lines = fmt.Sprintf("line %d around the loop to line %d", r.BeginLine, r.EndLine)
			}
			fmt.Fprintf(w, "  region %d: %s (%s -> %s)\n", r.ID, lines, endpoint(k, r.From, "kernel entry"), endpoint(k, r.To, "kernel exit"))
		}
		for _, t := range k.Targets {
			size := ""
			if t.Bytes > 0 {
				size = fmt.Sprintf(", %d bytes", t.Bytes)
			}
			fmt.Fprintf(w, "  target %s: %s %s%s: %s\n", t.Name, t.Space, t.Type, size, t.Reason)
		}
		for _, u := range k.Unchecked {
			fmt.Fprintf(w, "  unchecked %s: %s\n", u.Name, u.Reason)
		}
	}
}

func endpoint(k *passes.Kernel, id int, none string) string {
	if id < 0 {
		return none
	}
	for _, b := range k.Barriers {
		if b.ID == id {
			return fmt.Sprintf("barrier %d at line %d", id, b.Pos.Line)
		}
	}
	return none
}
