package gpuruntime

import (
	"embed"
	"os"
	"path/filepath"
)

//go:embed include/ldcheck_rt.h
var headers embed.FS

// RuntimeHeader is the device-side runtime the instrumented source includes.
const RuntimeHeader = "ldcheck_rt.h"

// WriteHeaders writes the device-side runtime header into dir.
func WriteHeaders(dir string) error {
	b, err := headers.ReadFile("include/" + RuntimeHeader)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, RuntimeHeader), b, 0o644)
}
