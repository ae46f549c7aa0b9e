package gpuruntime

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"os"
	"path/filepath"
)

//go:embed include/ldcheck_rt.h
var headers embed.FS

// RuntimeHeader is the device-side runtime the instrumented source includes.
const RuntimeHeader = "ldcheck_rt.h"

// RuntimeVersion identifies the device-side runtime (a hash of the
// header): the modules of a build and this ldcheck must agree on it.
func RuntimeVersion() string {
	b, _ := headers.ReadFile("include/" + RuntimeHeader)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// WriteHeaders writes the device-side runtime header into dir.
func WriteHeaders(dir string) error {
	b, err := headers.ReadFile("include/" + RuntimeHeader)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, RuntimeHeader), b, 0o644)
}
