package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI is tested end to end with txtar scripts in testdata/script, run
// against this binary acting as the ldcheck command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ldcheck": func() { os.Exit(runMain(os.Args, os.Stdout, os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	acceptance, err := filepath.Abs("../../testdata/acceptance")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ACCEPTANCE", acceptance)
			// txtar holds text only, so the non-UTF-8 input is made here.
			return os.WriteFile(filepath.Join(env.WorkDir, "binary.cu"), []byte("__global__ void k() {}\n\xff\xfe\x00\n"), 0o644)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// copy-bytes-within LIMIT: the JSON report on stdout says the
			// private copies took at most LIMIT bytes.
			"copy-bytes-within": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: copy-bytes-within LIMIT")
				}
				limit, err := strconv.ParseInt(args[0], 10, 64)
				ts.Check(err)
				var rep struct {
					Summary struct {
						CopyBytes *int64 `json:"copy_bytes"`
					}
				}
				ts.Check(json.Unmarshal([]byte(ts.ReadFile("stdout")), &rep))
				if rep.Summary.CopyBytes == nil {
					ts.Fatalf("no summary.copy_bytes in the report")
				}
				if got := *rep.Summary.CopyBytes; (got <= limit) == neg || got == 0 {
					ts.Fatalf("copy_bytes %d, limit %d", got, limit)
				}
			},
		},
	})
}

// TestExitCodes checks the exit statuses the scripts cannot tell apart.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.cu")
	os.WriteFile(bad, []byte("__global__ void k() { int x = ; }\n"), 0o644)
	good := filepath.Join(dir, "good.cu")
	os.WriteFile(good, []byte("__global__ void k(int *a) { a[0] = 1; }\n"), 0o644)
	tests := []struct {
		name string
		args []string
		env  string
		want int
	}{
		{"ok", []string{"analyze", good}, "", exitOK},
		{"syntax error", []string{"analyze", bad}, "", exitInput},
		{"missing file", []string{"analyze", filepath.Join(dir, "nope.cu")}, "", exitInput},
		{"bad flag", []string{"analyze", "--nope", good}, "", exitInput},
		{"unknown command", []string{"nope"}, "", exitInput},
		{"no libclang", []string{"analyze", good}, "/nonexistent/libclang.so", exitFailed},
		{"device function without a body", []string{"build", "-o", filepath.Join(dir, "u"), "../../testdata/e2e/undefined_device_fn.cu"}, "", exitInput},
		{"compiler failure", []string{"build", "-o", filepath.Join(dir, "b"), "--nvcc", "/bin/false", good}, "", exitFailed},
		{"run on a missing build", []string{"run", "--grid", "1", "--block", "32", filepath.Join(dir, "nobuild")}, "", exitInput},
		{"run without --grid", []string{"run", "--block", "32", filepath.Join(dir, "nobuild")}, "", exitInput},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("LDCHECK_LIBCLANG", tc.env)
			}
			var out, errb strings.Builder
			if got := run(append([]string{"ldcheck"}, tc.args...), &out, &errb); got != tc.want {
				t.Errorf("exit %d, want %d; stderr:\n%s", got, tc.want, errb.String())
			}
		})
	}
}
