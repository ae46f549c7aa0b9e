package main

import (
	"errors"
	"strings"
	"testing"

	"ldcheck/gpuruntime"
	"ldcheck/gpuruntime/cuda"
	"ldcheck/gpuruntime/cuda/cudatest"
	"ldcheck/gpuruntime/launch"
	"ldcheck/privatize/manifest"
)

// TestCheckTextures: on the CUDA backend (here over the fake driver), a
// texture argument the backend cannot make is bad input, exit 2, naming
// the argument and what to give instead, before anything runs; one it
// can make passes.
func TestCheckTextures(t *testing.T) {
	t.Setenv(cuda.LibraryEnv, cudatest.Build(t))
	b, err := gpuruntime.OpenCUDA("", nil)
	if err != nil {
		t.Fatalf("OpenCUDA over the fake driver: %v", err)
	}
	defer b.Close()
	tex := func(typ, texel string) launch.Value {
		return launch.Value{Param: manifest.Param{Name: "tex", Type: "cudaTextureObject_t", Texel: texel}, Buffer: true, Texture: true, Type: typ}
	}
	if err := checkTextures(b, []launch.Value{tex("float", "float4"), tex("int", "")}); err != nil {
		t.Errorf("float4 and int textures: %v", err)
	}
	for _, v := range []launch.Value{tex("double", ""), tex("float", "float3")} {
		err := checkTextures(b, []launch.Value{v})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitInput || !strings.Contains(err.Error(), "--arg tex") {
			t.Errorf("texture of %s fetched as %q: %v; want exit %d naming --arg tex", v.Type, v.Param.Texel, err, exitInput)
		}
	}
}
