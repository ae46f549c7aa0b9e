package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// listDir is dir's entries and their contents.
func listDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			got[e.Name()+"/"] = ""
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		got[e.Name()] = string(b)
	}
	return got
}

func TestWriteOutputs(t *testing.T) {
	data := map[string][]byte{"x": []byte("xxxx"), "y": []byte("yyyyyyyy"), "big": make([]byte, 1<<20)}
	get := func(name string) []byte { return data[name] }
	for _, tc := range []struct {
		name     string
		before   map[string]string // files there before
		outs     func(dir string) []Out
		wantErr  bool
		wantDir  map[string]string
		wantMode os.FileMode
	}{
		{
			name:    "two files",
			outs:    func(dir string) []Out { return []Out{{"x", dir + "/x.bin"}, {"y", dir + "/y.bin"}} },
			wantDir: map[string]string{"x.bin": "xxxx", "y.bin": "yyyyyyyy"},
		},
		{
			name:    "replaces an old file",
			before:  map[string]string{"x.bin": "old contents, longer than xxxx"},
			outs:    func(dir string) []Out { return []Out{{"x", dir + "/x.bin"}} },
			wantDir: map[string]string{"x.bin": "xxxx"},
		},
		{
			name:    "one buffer to two files",
			outs:    func(dir string) []Out { return []Out{{"x", dir + "/a.bin"}, {"x", dir + "/b.bin"}} },
			wantDir: map[string]string{"a.bin": "xxxx", "b.bin": "xxxx"},
		},
		{
			name:    "none",
			outs:    func(dir string) []Out { return nil },
			wantDir: map[string]string{},
		},
		{
			// The second buffer cannot be had: the first file must not
			// appear, and no temporary file may be left.
			name: "later get fails",
			outs: func(dir string) []Out {
				return []Out{{"x", dir + "/x.bin"}, {"big", dir + "/big.bin"}, {"nope", dir + "/nope.bin"}}
			},
			wantErr: true,
			wantDir: map[string]string{},
		},
		{
			name:    "later write fails",
			outs:    func(dir string) []Out { return []Out{{"x", dir + "/x.bin"}, {"y", dir + "/gone/y.bin"}} },
			wantErr: true,
			wantDir: map[string]string{},
		},
		{
			// Old files are untouched when the run's outputs fail.
			name:   "failure keeps old files",
			before: map[string]string{"x.bin": "old x", "y.bin": "old y"},
			outs: func(dir string) []Out {
				return []Out{{"x", dir + "/x.bin"}, {"y", dir + "/y.bin"}, {"nope", dir + "/nope.bin"}}
			},
			wantErr: true,
			wantDir: map[string]string{"x.bin": "old x", "y.bin": "old y"},
		},
		{
			// A rename onto a directory fails after the others succeeded:
			// what was renamed is complete, no temporary file is left.
			name:    "rename fails",
			before:  map[string]string{"d/": ""},
			outs:    func(dir string) []Out { return []Out{{"x", dir + "/x.bin"}, {"y", dir + "/d"}} },
			wantErr: true,
			wantDir: map[string]string{"x.bin": "xxxx", "d/": ""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.before {
				var err error
				if name[len(name)-1] == '/' {
					err = os.Mkdir(filepath.Join(dir, name), 0o755)
				} else {
					err = os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			err := WriteOutputs(tc.outs(dir), get)
			if (err != nil) != tc.wantErr {
				t.Fatalf("WriteOutputs: %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.wantDir, listDir(t, dir)); diff != "" {
				t.Errorf("directory after (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			for _, o := range tc.outs(dir) {
				fi, err := os.Stat(o.Path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != 0o644 {
					t.Errorf("%s: mode %v, want 0644", o.Path, fi.Mode().Perm())
				}
			}
		})
	}
}

// TestWriteOutputsErrors: messages name the --out and the cause.
func TestWriteOutputsErrors(t *testing.T) {
	dir := t.TempDir()
	get := func(name string) []byte {
		if name == "y" {
			return nil
		}
		return []byte{1}
	}
	var msgs []string
	if err := os.Mkdir(dir+"/d", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, outs := range [][]Out{
		{{"x", dir + "/x.bin"}, {"y", dir + "/y.bin"}},
		{{"x", dir + "/none/x.bin"}},
		{{"x", dir + "/d"}},
	} {
		err := WriteOutputs(outs, get)
		if err == nil {
			t.Fatalf("WriteOutputs(%v) succeeded", outs)
		}
		msgs = append(msgs, err.Error())
	}
	want := []string{
		"--out y=" + dir + "/y.bin: no buffer y after the run",
		"--out x=" + dir + "/none/x.bin: cannot create a file in " + dir + "/none: no such file or directory",
		"--out x=" + dir + "/d: cannot replace " + dir + "/d: file exists",
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
