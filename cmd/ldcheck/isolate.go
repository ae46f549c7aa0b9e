package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"ldcheck/gpuruntime"
	"ldcheck/gpuruntime/launch"
)

// childEnv marks the child process that does a run's work; progressEnv
// tells it that the person's terminal is behind its stderr pipe.
const (
	childEnv    = "LDCHECK_RUN_CHILD"
	progressEnv = "LDCHECK_RUN_PROGRESS"
)

// runIsolated runs this `ldcheck run` (or build, or analyze) again as a
// child process and relays its output and exit status. A kernel on the CPU
// backend runs inside the process: an out-of-bounds access there is a
// segmentation fault, which must end in a clear message, not in a Go stack
// dump of ldcheck. build and analyze run libclang, C code that may crash
// on a source nobody tried: that is an internal error naming the file,
// and a build directory is left as it was (builds are swapped in whole).
// It returns handled=false in the child itself (or where isolation is off:
// tests call commands in-process).
func runIsolated(c *cli.Context) (handled bool, err error) {
	if os.Getenv(childEnv) != "" || c.App.Metadata["isolate"] != true {
		return false, nil
	}
	// No kernel runs on the CPU with --backend cuda, and tools that watch
	// the process (compute-sanitizer) must see the CUDA calls in it.
	if c.Command.Name == "run" && c.String("backend") == "cuda" {
		return false, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return false, nil
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Args[0] = os.Args[0] // the name it was called by (test harnesses dispatch on it)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	if isTerminal(c.App.ErrWriter) {
		// The child's stderr is a pipe through crashFilter; progress is
		// still for a person at a terminal.
		cmd.Env = append(cmd.Env, progressEnv+"=1")
	}
	cmd.Stdin = os.Stdin
	cmd.Stdout = c.App.Writer
	filter := &crashFilter{w: c.App.ErrWriter}
	cmd.Stderr = filter
	err = cmd.Run()
	var ee *exec.ExitError
	if err == nil {
		return true, nil
	}
	if !errors.As(err, &ee) {
		return true, &exitError{exitFailed, fmt.Errorf("run: %w", err)}
	}
	st, _ := ee.Sys().(syscall.WaitStatus)
	if c.Command.Name != "run" {
		if err := filter.frontEndFailure(st, c.Command.Name, c.Args().First()); err != nil {
			return true, err
		}
		return true, &exitError{ee.ExitCode(), nil}
	}
	if err := filter.failure(st, c.StringSlice("arg")); err != nil {
		return true, err
	}
	return true, &exitError{ee.ExitCode(), nil}
}

// kernelCrash is what a crash of the kernel's own code says.
const kernelCrash = "most likely an out-of-bounds access, a buffer smaller than the kernel touches (give a larger --arg COUNT), or an invalid pointer; no verdict"

// failure turns the way the child ended into the user's message: the
// kernel crashing on the CPU backend (the user's kernel or input, exit 2),
// the host running out of memory (exit 2 when an --arg asked for that much,
// else 3), or a Go panic or fatal error in ldcheck itself (exit 3, an
// internal error with the trace kept for a report). nil when the child
// ended by itself, having said why.
func (f *crashFilter) failure(st syscall.WaitStatus, args []string) error {
	switch {
	case f.crash == crashOOM:
		return hostMemory(f.oomBytes, args)
	case f.crash == crashPanic || f.crash == crashFatal:
		where := "the Go stack trace could not be saved"
		if path, err := saveTrace(f.trace.Bytes()); err == nil {
			where = "the Go stack trace is in " + path
		}
		return &exitError{exitFailed, fmt.Errorf("internal error: ldcheck run failed: %s (%s); please report it to the ldcheck maintainers with that file and the command line; no verdict", f.first, where)}
	case st.Signaled() && st.Signal() == syscall.SIGPIPE:
		// Whoever read the output stopped reading (ldcheck run ... | head):
		// not the kernel's fault, and nobody is left to tell. Quiet, with
		// the status a shell gives a command killed by SIGPIPE.
		return &exitError{128 + int(syscall.SIGPIPE), nil}
	case st.Signaled():
		return &exitError{exitInput, fmt.Errorf("the kernel crashed (%s) on the CPU backend: %s", st.Signal(), kernelCrash)}
	case f.crash == crashSignal:
		return &exitError{exitInput, fmt.Errorf("the kernel crashed on the CPU backend: %s", kernelCrash)}
	}
	return nil
}

// frontEndFailure is failure for `ldcheck build` and `ldcheck analyze` of
// file: whatever crashed there (libclang, the compilers' driver, ldcheck
// itself) is ldcheck's problem, exit 3, never the user's kernel.
func (f *crashFilter) frontEndFailure(st syscall.WaitStatus, cmd, file string) error {
	switch {
	case f.crash == crashOOM:
		return &exitError{exitFailed, fmt.Errorf("the host ran out of memory while ldcheck %s read %s; no build made", cmd, file)}
	case f.crash == crashPanic || f.crash == crashFatal:
		where := "the Go stack trace could not be saved"
		if path, err := saveTrace(f.trace.Bytes()); err == nil {
			where = "the Go stack trace is in " + path
		}
		return &exitError{exitFailed, fmt.Errorf("internal error: ldcheck %s failed on %s: %s (%s); please report it to the ldcheck maintainers with that file and the source", cmd, file, f.first, where)}
	case st.Signaled() && st.Signal() == syscall.SIGPIPE:
		return &exitError{128 + int(syscall.SIGPIPE), nil}
	case st.Signaled() || f.crash == crashSignal:
		sig := "a fatal signal"
		if st.Signaled() {
			sig = st.Signal().String()
		}
		return &exitError{exitFailed, fmt.Errorf("internal error: the C front end (libclang) crashed (%s) while ldcheck %s read %s; please report it to the ldcheck maintainers with the source; any earlier build directory is left as it was", sig, cmd, file)}
	}
	return nil
}

// hostMemory reports the host running out of memory for an allocation of
// asked bytes (0: not known). An --arg buffer at least a quarter of that
// size is what asked for it (ldcheck keeps a few copies of each buffer):
// the user's input, exit 2.
func hostMemory(asked uint64, args []string) error {
	what := "the host ran out of memory"
	if asked > 0 {
		what = fmt.Sprintf("the host ran out of memory: an allocation of %d bytes (%s) failed", asked, gpuruntime.FormatBytes(int64(min(asked, 1<<62))))
	}
	var big launch.Arg
	var bigBytes uint64
	for _, raw := range args {
		a, err := launch.ParseArg(raw)
		if err != nil {
			continue
		}
		if n, ok := a.Bytes(); ok && n > bigBytes {
			big, bigBytes = a, n
		}
	}
	if bigBytes > 0 && (asked == 0 || bigBytes >= asked/4) {
		return &exitError{exitInput, fmt.Errorf("%s; --arg %s asks for %d bytes (%s), more than this process may use (see ulimit -v and the free memory): give a smaller COUNT; no verdict",
			what, big.Raw, bigBytes, gpuruntime.FormatBytes(int64(min(bigBytes, 1<<62))))}
	}
	return &exitError{exitFailed, fmt.Errorf("%s, more than this process may use (see ulimit -v and the free memory); no verdict", what)}
}

// saveTrace keeps a crash's Go stack trace for a bug report.
func saveTrace(trace []byte) (string, error) {
	f, err := os.CreateTemp("", "ldcheck-crash-*.txt")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Write(trace); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// How the child's stderr says it ended.
type crashKind int

const (
	crashNone   crashKind = iota
	crashSignal           // a fatal signal in the kernel's (non-Go) code
	crashOOM              // the Go runtime could not allocate host memory
	crashPanic            // a Go panic: ldcheck's bug
	crashFatal            // another fatal error of the Go runtime: ldcheck's bug
)

// crashFilter passes the child's messages through until the Go runtime
// starts reporting a crash, and swallows the stack dump that follows
// (keeping it in trace for a report).
type crashFilter struct {
	w        io.Writer
	crash    crashKind
	first    string // the crash's first line
	oomBytes uint64 // the allocation that failed, for crashOOM
	line     bytes.Buffer
	trace    bytes.Buffer
}

// oomLine is the Go runtime's line before "fatal error: out of memory".
var oomLine = regexp.MustCompile(`^runtime: out of memory: cannot allocate (\d+)-byte block`)

func (f *crashFilter) Write(p []byte) (int, error) {
	for _, b := range p {
		f.line.WriteByte(b)
		if b != '\n' {
			continue
		}
		s := f.line.String()
		f.line.Reset()
		if f.crash == crashNone {
			f.classify(strings.TrimSuffix(s, "\n"))
		}
		if f.crash == crashNone {
			io.WriteString(f.w, s)
		} else if f.trace.Len() < 1<<20 {
			f.trace.WriteString(s)
		}
	}
	return len(p), nil
}

// classify notes a crash that line begins.
func (f *crashFilter) classify(line string) {
	kind := crashNone
	switch {
	case oomLine.MatchString(line):
		kind = crashOOM
		f.oomBytes, _ = strconv.ParseUint(oomLine.FindStringSubmatch(line)[1], 10, 64)
	case line == "fatal error: out of memory" || line == "fatal error: runtime: out of memory":
		kind = crashOOM
	case strings.HasPrefix(line, "SIGSEGV") || strings.HasPrefix(line, "SIGBUS") || strings.HasPrefix(line, "unexpected signal") ||
		strings.HasPrefix(line, "signal arrived") || strings.HasPrefix(line, "fatal error: unexpected signal"):
		kind = crashSignal
	case strings.HasPrefix(line, "panic: "):
		kind = crashPanic
	case strings.HasPrefix(line, "fatal error: "):
		kind = crashFatal
	}
	if kind != crashNone {
		f.crash, f.first = kind, line
	}
}
