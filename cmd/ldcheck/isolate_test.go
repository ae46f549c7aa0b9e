package main

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// What the child of `ldcheck run` prints when it ends badly, and what the
// user is told: no Go stack trace, and the exit status of what happened.
func TestChildFailure(t *testing.T) {
	const trace = "\ngoroutine 1 gp=0x1 m=0 [running]:\nruntime.throw({0x4c5c35?, 0x9?})\n\t/usr/local/go/src/runtime/panic.go:1229 +0x48\n"
	bigArg := []string{"in=float[1500000000]:zero", "out=float[4]:zero"}
	for _, tc := range []struct {
		name   string
		stderr string
		args   []string
		code   int
		want   string // a regular expression
	}{
		{"panic", "ldcheck: a note\npanic: runtime error: index out of range [99] with length 3\n" + trace, nil, exitFailed,
			`^internal error: ldcheck run failed: panic: runtime error: index out of range \[99\] with length 3 \(the Go stack trace is in .*ldcheck-crash-.*\.txt\); please report it to the ldcheck maintainers with that file and the command line; no verdict$`},
		{"fatal error", "fatal error: concurrent map writes\n" + trace, nil, exitFailed,
			`^internal error: ldcheck run failed: fatal error: concurrent map writes \(the Go stack trace is in .*\); please report it`},
		{"out of memory, user's size", "runtime: out of memory: cannot allocate 6002049024-byte block (3801088 in use)\nfatal error: out of memory\n" + trace, bigArg, exitInput,
			`^the host ran out of memory: an allocation of 6002049024 bytes \(5724 MiB\) failed; --arg in=float\[1500000000\]:zero asks for 6000000000 bytes \(5722 MiB\), more than this process may use \(see ulimit -v and the free memory\): give a smaller COUNT; no verdict$`},
		{"out of memory, ldcheck's", "runtime: out of memory: cannot allocate 6002049024-byte block (3801088 in use)\nfatal error: out of memory\n" + trace, []string{"out=float[4]:zero"}, exitFailed,
			`^the host ran out of memory: an allocation of 6002049024 bytes \(5724 MiB\) failed, more than this process may use`},
		{"kernel crash", "fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation]\n" + trace, nil, exitInput,
			`^the kernel crashed on the CPU backend: most likely an out-of-bounds access`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var relayed strings.Builder
			f := &crashFilter{w: &relayed}
			f.Write([]byte(tc.stderr))
			err := f.failure(syscall.WaitStatus(2<<8), tc.args) // exit status 2, as the Go runtime's
			var ee *exitError
			if !errors.As(err, &ee) {
				t.Fatalf("failure: %v, want an exitError", err)
			}
			if ee.code != tc.code {
				t.Errorf("exit %d, want %d", ee.code, tc.code)
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("message %q\nwant %q", err, tc.want)
			}
			if strings.Contains(relayed.String(), "goroutine") || strings.Contains(relayed.String(), "out of memory") {
				t.Errorf("relayed the crash: %q", relayed.String())
			}
			if m := regexp.MustCompile(`in (\S+ldcheck-crash-\S+\.txt)`).FindStringSubmatch(err.Error()); m != nil {
				b, _ := os.ReadFile(m[1])
				if !strings.Contains(string(b), "goroutine 1") {
					t.Errorf("%s does not hold the trace: %q", m[1], b)
				}
				os.Remove(m[1])
			}
		})
	}
	// A child that ended by itself, having said why, is relayed as it is.
	var relayed strings.Builder
	f := &crashFilter{w: &relayed}
	f.Write([]byte("ldcheck: kernel k: out-of-bounds write\n"))
	if err := f.failure(syscall.WaitStatus(2<<8), nil); err != nil || relayed.String() != "ldcheck: kernel k: out-of-bounds write\n" {
		t.Errorf("failure %v, relayed %q", err, relayed.String())
	}
}

// What `ldcheck build` and `ldcheck analyze` say when their child dies:
// whatever crashed is ldcheck's (or libclang's) problem, exit 3, with the
// file named; never "the kernel crashed".
func TestFrontEndChildFailure(t *testing.T) {
	const trace = "\ngoroutine 1 gp=0x1 m=0 [running]:\nruntime.throw({0x4c5c35?, 0x9?})\n"
	for _, tc := range []struct {
		name   string
		stderr string
		status syscall.WaitStatus
		want   string
	}{
		{"libclang segfault", "fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation]\n" + trace, syscall.WaitStatus(2 << 8),
			`^internal error: the C front end \(libclang\) crashed \(a fatal signal\) while ldcheck build read k\.cu; please report it`},
		{"killed by a signal", "", syscall.WaitStatus(syscall.SIGSEGV),
			`^internal error: the C front end \(libclang\) crashed \(segmentation fault\) while ldcheck build read k\.cu; .*any earlier build directory is left as it was$`},
		{"panic", "panic: runtime error: index out of range [5] with length 2\n" + trace, syscall.WaitStatus(2 << 8),
			`^internal error: ldcheck build failed on k\.cu: panic: runtime error: index out of range \[5\] with length 2 \(the Go stack trace is in .*\); please report it`},
		{"out of memory", "fatal error: out of memory\n" + trace, syscall.WaitStatus(2 << 8),
			`^the host ran out of memory while ldcheck build read k\.cu; no build made$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var relayed strings.Builder
			f := &crashFilter{w: &relayed}
			f.Write([]byte(tc.stderr))
			err := f.frontEndFailure(tc.status, "build", "k.cu")
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitFailed {
				t.Fatalf("got %v, want exit %d", err, exitFailed)
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("message %q\nwant %q", err, tc.want)
			}
			if strings.Contains(relayed.String(), "goroutine") {
				t.Errorf("relayed the crash: %q", relayed.String())
			}
			if m := regexp.MustCompile(`in (\S+ldcheck-crash-\S+\.txt)`).FindStringSubmatch(err.Error()); m != nil {
				os.Remove(m[1])
			}
		})
	}
	// A build that failed by itself (exit 2, its message said) is relayed.
	var relayed strings.Builder
	f := &crashFilter{w: &relayed}
	f.Write([]byte("k.cu:3:1: error: expected ';'\n"))
	if err := f.frontEndFailure(syscall.WaitStatus(2<<8), "build", "k.cu"); err != nil || relayed.String() != "k.cu:3:1: error: expected ';'\n" {
		t.Errorf("failure %v, relayed %q", err, relayed.String())
	}
}

// A panic in the process itself (no child: --backend cuda, compile) is an
// internal error too.
func TestInternalError(t *testing.T) {
	var stderr strings.Builder
	if code := internalError(&stderr, "boom", []byte("goroutine 1 [running]:\n")); code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	m := regexp.MustCompile(`^ldcheck: internal error: boom \(the Go stack trace is in (\S+)\); please report it`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("stderr %q", stderr.String())
	}
	os.Remove(m[1])
}

// A reader that stops reading (ldcheck run ... | head) kills the child
// with SIGPIPE: that is no kernel crash, and nothing is said.
func TestChildBrokenPipe(t *testing.T) {
	f := &crashFilter{w: &strings.Builder{}}
	err := f.failure(syscall.WaitStatus(syscall.SIGPIPE), nil) // killed by the signal
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 128+int(syscall.SIGPIPE) || ee.err != nil {
		t.Fatalf("failure: %#v, want a quiet exit 141", err)
	}
}
