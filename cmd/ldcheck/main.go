package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"ldcheck/passes"
	"ldcheck/passes/clang"
)

// Exit statuses.
const (
	exitOK     = 0
	exitRace   = 1
	exitInput  = 2
	exitFailed = 3
	// exitUnchecked: the kernel ran but was not checked (not instrumented,
	// or something it writes is beyond ldcheck); --allow-unchecked makes
	// such a run exit 0.
	exitUnchecked = 4
)

// exitError carries an exit status up to main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func inputErr(format string, args ...any) error {
	return &exitError{exitInput, fmt.Errorf(format, args...)}
}

// classify maps an error to an exit status: the user's input (2) or the
// tool and its environment (3).
func classify(err error) int {
	var ee *exitError
	var ie *passes.InputError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ie):
		return exitInput
	case errors.Is(err, clang.ErrNotFound):
		return exitFailed
	}
	return exitFailed
}

const blindSpots = `What value-based checking cannot see (LDetector section 4.7):
  - a write of the value that is already there, or a warp that restores the
    original value before the barrier;
  - races between plain accesses of variables updated by atomics or
    protected by locks (listed as unchecked); a plain access racing with
    another warp's or block's atomic is reported (atomic-plain);
  - races between threads of the same warp (intra-warp) on launches of
    more than 65536 threads, unless --intra-warp is given (that check
    looks at the accesses' lanes and intervals, not at values, and is off
    there for its cost; a note says so); atomics of two lanes, and reads
    racing with another lane's atomic, are not intra-warp races here;
  - a read whose racing value happens to equal the value it would have read;
  - accesses of different blocks ordered as in the "last block" idiom (a
    store, __threadfence(), an atomic ticket; reads under a test of the
    ticket) are taken as ordered, by the code's shape: a note says so.
A report means two warps or blocks were seen to conflict; but values that
change between runs by themselves (clock(), %smid) look like read-write races.
A clean verdict holds for the inputs and launch you gave.`

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name: "ldcheck",
		// A repeated flag's value is one value: --arg 'p={n=5,s=1.5}' and
		// -D 'MAX(a,b)=...' hold commas.
		DisableSliceFlagSeparator: true,
		Usage:                     "find data races in CUDA kernels by running them twice and comparing bytes",
		Description: `ldcheck gives every warp (or block) a private copy of each variable that may
race, runs each region between barriers twice, and compares the bytes the
warps wrote: two warps changing the same byte is a write-write race; a warp
whose results change when it sees the others' writes is a read-write race.

Typical use:
   ldcheck analyze kernel.cu            # what would be checked, and why
   ldcheck build kernel.cu              # instrument and compile -> kernel.ldcheck/
   ldcheck run --grid 64 --block 256 kernel.ldcheck   # flags before DIR

Exit status: 0 no race, 1 races found, 2 bad input or usage, 3 the tool or
backend failed, 4 ran, not checked (the kernel could not be instrumented, or
something it writes is left unchecked; one line says why; ldcheck run
--allow-unchecked exits 0 instead).

` + blindSpots,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Commands:        []*cli.Command{analyzeCommand(), buildCommand(), compileCommand(), runCommand()},
		OnUsageError:    usageError,
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(stderr, "ldcheck: unknown command %q (see ldcheck --help)\n", name)
		},
	}
}

func usageError(c *cli.Context, err error, _ bool) error {
	name := "ldcheck"
	if c.Command != nil && c.Command.Name != "" {
		name += " " + c.Command.Name
	}
	return &exitError{exitInput, fmt.Errorf("%w (see %s --help)", err, name)}
}

func run(args []string, stdout, stderr io.Writer) int {
	return runApp(args, stdout, stderr, false)
}

func runApp(args []string, stdout, stderr io.Writer, isolate bool) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = internalError(stderr, r, debug.Stack())
		}
	}()
	app := newApp(stdout, stderr)
	app.Metadata = map[string]any{"isolate": isolate}
	unknown := false
	app.CommandNotFound = func(c *cli.Context, name string) {
		fmt.Fprintf(stderr, "ldcheck: unknown command %q (see ldcheck --help)\n", name)
		unknown = true
	}
	err := app.Run(args)
	if unknown {
		return exitInput
	}
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.err == nil {
		return ee.code // already reported
	}
	fmt.Fprintf(stderr, "ldcheck: %v\n", err)
	return classify(err)
}

// internalError reports a Go panic in ldcheck as what it is: ldcheck's bug,
// exit 3, with the stack trace kept for the report.
func internalError(stderr io.Writer, r any, stack []byte) int {
	where := "the Go stack trace could not be saved"
	if path, err := saveTrace(append([]byte(fmt.Sprintf("panic: %v\n\n", r)), stack...)); err == nil {
		where = "the Go stack trace is in " + path
	}
	fmt.Fprintf(stderr, "ldcheck: internal error: %v (%s); please report it to the ldcheck maintainers with that file and the command line\n", r, where)
	return exitFailed
}

func main() {
	os.Exit(runMain(os.Args, os.Stdout, os.Stderr))
}

// runMain is run for the real binary: `ldcheck run` does its work in a
// child process (see runIsolated).
func runMain(args []string, stdout, stderr io.Writer) int {
	return runApp(args, stdout, stderr, true)
}
