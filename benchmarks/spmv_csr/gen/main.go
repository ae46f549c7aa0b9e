// Command gen writes the CSR matrix of the spmv_csr benchmark into a folder:
// rowptr.bin (int32, rows+1), cols.bin (int32, nnz) and vals.bin (float32,
// nnz), raw little-endian, the files the launch lines name as
// file:@INPUTS@/NAME.bin.
//
//	go run ./benchmarks/spmv_csr/gen -out DIR -size small|real
//
// The matrix is square, rows x rows, with 64 nonzeros a row on average:
// rows 2k and 2k+1 hold 64+d and 64-d nonzeros (d random in 0..48), so nnz
// is exactly 64*rows whatever the seed. A row's columns are distinct,
// sorted, and drawn from a band of half-width 2048 around the diagonal (a
// finite-element-like matrix: x is read with some locality); values are
// uniform in [-1, 1). The output is the same for the same size.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
)

const (
	perRow    = 64   // average nonzeros a row
	maxSpread = 48   // rows hold perRow ± up to this
	halfBand  = 2048 // columns lie within this distance of the diagonal
)

func main() {
	out := flag.String("out", "", "folder to write the files into (made if missing)")
	size := flag.String("size", "small", "small (256 rows) or real (2097152 rows)")
	flag.Parse()
	rows := 0
	switch *size {
	case "small":
		rows = 256
	case "real":
		rows = 2097152
	default:
		fmt.Fprintf(os.Stderr, "gen: -size %q: want small or real\n", *size)
		os.Exit(2)
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out DIR is required")
		os.Exit(2)
	}
	if err := write(*out, rows); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string, rows int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(2024, uint64(rows)))
	rowptr := make([]int32, rows+1)
	for r := 0; r < rows; r += 2 {
		d := int32(rng.IntN(maxSpread + 1))
		rowptr[r+1] = rowptr[r] + perRow + d
		if r+2 <= rows {
			rowptr[r+2] = rowptr[r+1] + perRow - d
		}
	}
	nnz := int(rowptr[rows])
	if nnz != perRow*rows {
		return fmt.Errorf("nnz %d, want %d", nnz, perRow*rows)
	}
	cols := make([]int32, 0, nnz)
	vals := make([]float32, 0, nnz)
	seen := make([]int32, rows) // seen[c] == r+1: column c already taken in row r
	for r := 0; r < rows; r++ {
		n := int(rowptr[r+1] - rowptr[r])
		lo, hi := max(0, r-halfBand), min(rows, r+halfBand+1)
		row := make([]int32, 0, n)
		for len(row) < n {
			c := int32(lo + rng.IntN(hi-lo))
			if seen[c] != int32(r+1) {
				seen[c] = int32(r + 1)
				row = append(row, c)
			}
		}
		slices.Sort(row)
		cols = append(cols, row...)
		for range n {
			vals = append(vals, float32(rng.Float64()*2-1))
		}
	}
	if err := save(filepath.Join(dir, "rowptr.bin"), rowptr); err != nil {
		return err
	}
	if err := save(filepath.Join(dir, "cols.bin"), cols); err != nil {
		return err
	}
	fv := make([]uint32, len(vals))
	for i, v := range vals {
		fv[i] = math.Float32bits(v)
	}
	return save(filepath.Join(dir, "vals.bin"), fv)
}

// save writes data raw little-endian.
func save[T int32 | uint32](path string, data []T) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b [4]byte
	for _, v := range data {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
