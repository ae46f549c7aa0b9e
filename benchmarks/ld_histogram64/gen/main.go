// Command gen writes the input of ld_histogram64: data.bin, the bytes to
// histogram as little-endian 32-bit words (grid x passes x 192 x 63 words,
// the launch's n). The words are uniform random, except that every eighth
// pass-sized chunk (192 x 63 words, starting with the fourth) repeats one
// byte, so that its block's threads put all their 252 bytes of that pass in
// one bin: the largest count a thread's one-byte counter has to hold.
//
//	go run ./benchmarks/ld_histogram64/gen -out DIR -size small|real
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
)

// words per launch: grid x passes x 192 threads x 63 words (launch, launch-small).
var sizes = map[string]int{
	"small": 2 * 2 * 192 * 63,
	"real":  4096 * 4 * 192 * 63,
}

func main() {
	out := flag.String("out", "", "directory to write data.bin into")
	size := flag.String("size", "small", "small or real")
	flag.Parse()
	n, ok := sizes[*size]
	if *out == "" || !ok {
		fmt.Fprintln(os.Stderr, "usage: gen -out DIR -size small|real")
		os.Exit(2)
	}
	if err := write(filepath.Join(*out, "data.bin"), n); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(path string, n int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewSource(64))
	var b [4]byte
	const chunk = 192 * 63
	for i := 0; i < n; i++ {
		v := r.Uint32()
		if (i/chunk)%8 == 3 {
			c := uint32(byte(37*(i/chunk) + 5))
			v = c | c<<8 | c<<16 | c<<24
		}
		binary.LittleEndian.PutUint32(b[:], v)
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
