// Command gen writes the cluster labels of the ld_cocluster benchmarks into
// a folder, raw little-endian int32, the files the launch lines name as
// file:@INPUTS@/NAME.bin: rowlab.bin (a row cluster in [0, 16) for each of
// the m rows) and collab.bin (a column cluster in [0, 16) for each of the n
// columns). The matrix itself is the launch's random data.
//
//	go run ./benchmarks/ld_cocluster/gen -out DIR -size small|real
//
// small: m = 64, n = 1024; real: m = 32768, n = 4096. Labels are uniform
// random; the output is the same for the same size.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

const clusters = 16 // KR and KC of the kernel

func main() {
	out := flag.String("out", "", "folder to write the files into (made if missing)")
	size := flag.String("size", "small", "small (64 x 1024) or real (32768 x 4096)")
	flag.Parse()
	var m, n int
	switch *size {
	case "small":
		m, n = 64, 1024
	case "real":
		m, n = 32768, 4096
	default:
		fmt.Fprintf(os.Stderr, "gen: -size %q: want small or real\n", *size)
		os.Exit(2)
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out DIR is required")
		os.Exit(2)
	}
	if err := write(*out, m, n); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string, m, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(11, uint64(m)))
	labels := func(count int) []int32 {
		l := make([]int32, count)
		for i := range l {
			l[i] = int32(rng.IntN(clusters))
		}
		return l
	}
	if err := save(filepath.Join(dir, "rowlab.bin"), labels(m)); err != nil {
		return err
	}
	return save(filepath.Join(dir, "collab.bin"), labels(n))
}

// save writes data raw little-endian.
func save(path string, data []int32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := binary.Write(w, binary.LittleEndian, data); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
