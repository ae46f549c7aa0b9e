package gpuruntime

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"os"
	"path/filepath"

	"ldcheck/privatize/manifest"
)

//go:embed include/ldcheck_rt.h
var headers embed.FS

// RuntimeVersion identifies the device-side runtime (a hash of the
// header): the modules of a build and this ldcheck must agree on it.
func RuntimeVersion() string {
	b, _ := headers.ReadFile("include/" + manifest.RuntimeHeader)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// WriteHeaders writes the device-side runtime header into dir.
func WriteHeaders(dir string) error {
	b, err := headers.ReadFile("include/" + manifest.RuntimeHeader)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, manifest.RuntimeHeader), b, 0o644)
}
