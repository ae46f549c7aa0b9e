// Command gen writes the B+ tree and the queries of the ld_btree benchmarks
// into a folder, raw little-endian int32, the files the launch lines name as
// file:@INPUTS@/NAME.bin:
//
//	keys.bin     nodes x 128: node n's slot s at n*128+s
//	ptrs.bin     nodes x 128: an inner node's child, a leaf's record
//	queries.bin  the keys to look up
//	records.bin  the answer for every query (the record, or -1): a reference
//	             for checking the kernel's ans, not an input of the kernel
//
//	go run ./benchmarks/ld_btree/gen -out DIR -size small|real
//
// The tree holds distinct random keys in [0, 2^30), sorted, 96 to a leaf
// (three quarters of the 128 slots); the record of the key of rank i is
// i*3+1. Each inner level holds up to 96 children a node; an inner slot's
// key is the smallest key under its child (0 for the leftmost child of a
// level, so that every query k >= 0 finds a child). Unused slots hold key
// 2^31-1 and pointer -1. Nodes are numbered leaves first, then each level up
// to the root, which is the last node. Half the queries are keys of the tree,
// the other half random (mostly absent). gen prints the node count, root and
// inner height that the launch lines use; the output is the same for the
// same size.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
)

const (
	order  = 128 // slots a node
	fill   = 96  // slots used in a full node
	maxKey = 1 << 30
	noKey  = 1<<31 - 1
)

func main() {
	out := flag.String("out", "", "folder to write the files into (made if missing)")
	size := flag.String("size", "small", "small (12000 keys, 256 queries) or real (4000000 keys, 2097152 queries)")
	flag.Parse()
	var nkeys, nq int
	switch *size {
	case "small":
		nkeys, nq = 12000, 256
	case "real":
		nkeys, nq = 4000000, 2097152
	default:
		fmt.Fprintf(os.Stderr, "gen: -size %q: want small or real\n", *size)
		os.Exit(2)
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out DIR is required")
		os.Exit(2)
	}
	if err := write(*out, nkeys, nq); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string, nkeys, nq int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(7, uint64(nkeys)))
	taken := map[int32]bool{}
	data := make([]int32, 0, nkeys)
	for len(data) < nkeys {
		k := int32(rng.IntN(maxKey))
		if !taken[k] {
			taken[k] = true
			data = append(data, k)
		}
	}
	slices.Sort(data)

	var keys, ptrs []int32
	newNode := func() int {
		for range order {
			keys = append(keys, noKey)
			ptrs = append(ptrs, -1)
		}
		return len(keys)/order - 1
	}
	// Leaves: level 0; first[n] is the smallest key under node n.
	var level, first []int32
	for i := 0; i < nkeys; i += fill {
		n := newNode()
		for s := 0; s < fill && i+s < nkeys; s++ {
			keys[n*order+s] = data[i+s]
			ptrs[n*order+s] = int32((i+s)*3 + 1)
		}
		level = append(level, int32(n))
		first = append(first, data[i])
	}
	height := 0 // inner levels above the leaves
	for len(level) > 1 || height == 0 {
		var up, upFirst []int32
		for i := 0; i < len(level); i += fill {
			n := newNode()
			for s := 0; s < fill && i+s < len(level); s++ {
				keys[n*order+s] = first[i+s]
				ptrs[n*order+s] = level[i+s]
			}
			if i == 0 {
				keys[n*order] = 0 // the leftmost child takes every key below the next one
			}
			up = append(up, int32(n))
			upFirst = append(upFirst, first[i])
		}
		level, first = up, upFirst
		height++
	}
	root := level[0]
	nodes := len(keys) / order

	queries := make([]int32, nq)
	answers := make([]int32, nq)
	for q := range queries {
		if q%2 == 0 {
			i := rng.IntN(nkeys)
			queries[q], answers[q] = data[i], int32(i*3+1)
		} else {
			k := int32(rng.IntN(maxKey))
			queries[q], answers[q] = k, -1
			if i, ok := slices.BinarySearch(data, k); ok {
				answers[q] = int32(i*3 + 1)
			}
		}
	}
	for name, d := range map[string][]int32{"keys": keys, "ptrs": ptrs, "queries": queries, "records": answers} {
		if err := save(filepath.Join(dir, name+".bin"), d); err != nil {
			return err
		}
	}
	fmt.Printf("nodes=%d (keys, ptrs int[%d]) root=%d height=%d queries=%d\n", nodes, nodes*order, root, height, nq)
	return nil
}

// save writes data raw little-endian.
func save(path string, data []int32) error {
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
