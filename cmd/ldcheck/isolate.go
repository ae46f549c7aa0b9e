package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// childEnv marks the child process that does a run's work; progressEnv
// tells it that the person's terminal is behind its stderr pipe.
const (
	childEnv    = "LDCHECK_RUN_CHILD"
	progressEnv = "LDCHECK_RUN_PROGRESS"
)

// runIsolated runs this `ldcheck run` again as a child process and relays
// its output and exit status. A kernel on the CPU backend runs inside the
// process: an out-of-bounds access there is a segmentation fault, which
// must end in a clear message, not in a Go stack dump of ldcheck.
// It returns handled=false in the child itself (or where isolation is off:
// tests call run in-process).
func runIsolated(c *cli.Context) (handled bool, err error) {
	if os.Getenv(childEnv) != "" || c.App.Metadata["isolate"] != true {
		return false, nil
	}
	// No kernel runs on the CPU with --backend cuda, and tools that watch
	// the process (compute-sanitizer) must see the CUDA calls in it.
	if c.String("backend") == "cuda" {
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
	if st, ok := ee.Sys().(syscall.WaitStatus); ok && (st.Signaled() || filter.crashed) {
		what := "crashed"
		if st.Signaled() {
			what = "crashed (" + st.Signal().String() + ")"
		}
		return true, &exitError{exitInput, fmt.Errorf("the kernel %s on the CPU backend: most likely an out-of-bounds access, a buffer smaller than the kernel touches (give a larger --arg COUNT), or an invalid pointer; no verdict", what)}
	}
	if filter.crashed {
		return true, &exitError{exitInput, errors.New("the kernel crashed on the CPU backend: most likely an out-of-bounds access, a buffer smaller than the kernel touches (give a larger --arg COUNT); no verdict")}
	}
	return true, &exitError{ee.ExitCode(), nil}
}

// crashFilter passes the child's messages through until the Go runtime
// starts reporting a fatal signal, and swallows the stack dump that follows.
type crashFilter struct {
	w       io.Writer
	crashed bool
	line    bytes.Buffer
}

func (f *crashFilter) Write(p []byte) (int, error) {
	for _, b := range p {
		f.line.WriteByte(b)
		if b != '\n' {
			continue
		}
		s := f.line.String()
		f.line.Reset()
		if strings.HasPrefix(s, "SIGSEGV") || strings.HasPrefix(s, "SIGBUS") || strings.HasPrefix(s, "fatal error:") ||
			strings.HasPrefix(s, "unexpected signal") || strings.HasPrefix(s, "signal arrived") {
			f.crashed = true
		}
		if !f.crashed {
			io.WriteString(f.w, s)
		}
	}
	return len(p), nil
}
