package launch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteOutputs writes each --out's buffer, as get returns it, to its path
// (raw little-endian bytes); get returns nil for a buffer it does not have,
// which is an error. It is all or nothing: every file is first
// written in full to a temporary file beside its path, and only when all
// are written are they renamed into place; on any failure the temporary
// files are removed and no path is created or changed. (Should a rename
// fail after others succeeded, which needs the directory to change under
// us, the files renamed are complete and the rest untouched.)
func WriteOutputs(outs []Out, get func(name string) []byte) error {
	temps := make([]string, 0, len(outs))
	defer func() {
		for _, t := range temps {
			if t != "" {
				os.Remove(t)
			}
		}
	}()
	for _, o := range outs {
		data := get(o.Name)
		if data == nil {
			return fmt.Errorf("--out %s=%s: no buffer %s after the run", o.Name, o.Path, o.Name)
		}
		t, err := writeTemp(o.Path, data)
		if err != nil {
			return fmt.Errorf("--out %s=%s: %w", o.Name, o.Path, err)
		}
		temps = append(temps, t)
	}
	for i, o := range outs {
		if err := os.Rename(temps[i], o.Path); err != nil {
			return fmt.Errorf("--out %s=%s: %w", o.Name, o.Path, cause("cannot replace "+o.Path, err))
		}
		temps[i] = ""
	}
	return nil
}

// writeTemp writes data to a new temporary file in path's directory and
// returns its name; on failure it leaves nothing behind.
func writeTemp(path string, data []byte) (name string, err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", cause("cannot create a file in "+dir, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	writing := fmt.Sprintf("writing %d bytes in %s", len(data), dir)
	if _, err := f.Write(data); err != nil {
		return "", cause(writing, err)
	}
	if err := f.Sync(); err != nil {
		return "", cause(writing, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return "", cause(writing, err)
	}
	if err := f.Close(); err != nil {
		return "", cause(writing, err)
	}
	return f.Name(), nil
}

// cause says what failed with the system's reason, without the temporary
// file's name, which would mean nothing to the user.
func cause(what string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("%s: %w", what, err)
}
