package manifest

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the manifest reader: it must never
// panic, every error must tell the user to rebuild, and a manifest it
// accepts must survive being written and read again (what Write does).
func FuzzParse(f *testing.F) {
	b, err := json.Marshal(good())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`{"version": 1, "kernels": [{"name": "k", "params": [], "targets": [{"param": 99}]}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse("manifest.json", b)
		if err != nil {
			if !strings.Contains(err.Error(), "ldcheck build") {
				t.Fatalf("error %q does not say to rebuild", err)
			}
			return
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("an accepted manifest does not encode: %v", err)
		}
		if _, err := Parse("manifest.json", again); err != nil {
			t.Fatalf("an accepted manifest is refused once written again: %v\n%s", err, again)
		}
	})
}
