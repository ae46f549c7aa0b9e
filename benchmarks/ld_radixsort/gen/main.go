// Command gen writes the input of ld_radixsort: keys.bin, uniform random
// 32-bit unsigned keys, little-endian, 2048 of them (-size small: 2 tiles
// of 1024) or 16777216 (-size real: 16384 tiles). Deterministic (fixed
// seed). Every 16th tile holds keys of only 4 distinct values, so that
// ties (which the stable sort must keep in input order) are common there.
//
//	go run ./benchmarks/ld_radixsort/gen -out DIR -size small|real
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
)

var sizes = map[string]int{"small": 2 * 1024, "real": 16384 * 1024}

func main() {
	out := flag.String("out", "", "directory to write keys.bin into")
	size := flag.String("size", "small", "small or real")
	flag.Parse()
	n, ok := sizes[*size]
	if *out == "" || !ok {
		fmt.Fprintln(os.Stderr, "usage: gen -out DIR -size small|real")
		os.Exit(2)
	}
	r := rand.New(rand.NewSource(2368))
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		v := r.Uint32()
		if (i/1024)%16 == 1 {
			v = [4]uint32{7, 0x80000000, 7 << 20, 0xffffffff}[v%4]
		}
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(*out, "keys.bin"), b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
