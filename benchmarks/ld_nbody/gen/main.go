// Command gen writes the inputs of ld_nbody and ld_nbody_racy: pos.bin
// (x, y, z, mass per body) and vel.bin (vx, vy, vz, 0 per body), float32,
// for 512 bodies (-size small) or 65536 (-size real). Bodies are uniform
// in a ball of radius 1, masses uniform in [0.5, 1.5] / n (total mass about
// 1), velocities small and random. Deterministic (fixed seed).
//
//	go run ./benchmarks/ld_nbody/gen -out DIR -size small|real
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
)

var sizes = map[string]int{"small": 512, "real": 65536}

func main() {
	out := flag.String("out", "", "directory to write pos.bin and vel.bin into")
	size := flag.String("size", "small", "small or real")
	flag.Parse()
	n, ok := sizes[*size]
	if *out == "" || !ok {
		fmt.Fprintln(os.Stderr, "usage: gen -out DIR -size small|real")
		os.Exit(2)
	}
	r := rand.New(rand.NewSource(2365))
	pos := make([]float32, 4*n)
	vel := make([]float32, 4*n)
	for i := 0; i < n; i++ {
		var x, y, z float64
		for {
			x, y, z = 2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1
			if x*x+y*y+z*z <= 1 {
				break
			}
		}
		pos[4*i], pos[4*i+1], pos[4*i+2] = float32(x), float32(y), float32(z)
		pos[4*i+3] = float32((0.5 + r.Float64()) / float64(n))
		for k := 0; k < 3; k++ {
			vel[4*i+k] = float32(0.1 * (2*r.Float64() - 1))
		}
	}
	for name, v := range map[string][]float32{"pos.bin": pos, "vel.bin": vel} {
		if err := write(filepath.Join(*out, name), v); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

func write(path string, v []float32) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return os.WriteFile(path, b, 0o644)
}
