// Command gen writes the inputs of ld_bfs and ld_bfs_racy: a random
// undirected graph in CSR form and the state of a breadth-first search from
// vertex 0 when it reaches its largest level, whose first F vertices (in
// queue order) the launch expands.
//
// The graph is made the way Rodinia's graph generator makes bfs's inputs:
// each of the V vertices picks 3 random partners (not itself), and every
// pick adds the edge in both directions, so there are exactly E = 6V
// adjacency entries (average degree 6; duplicates are kept, as there).
//
//	row.bin      int32[V+1]  CSR offsets
//	col.bin      int32[E]    neighbours
//	frontier.bin int32[F]    the first F vertices of the largest level L
//	cost.bin     int32[V]    BFS level of each vertex up to L, else -1
//	parent.bin   int32[V]    BFS parent up to L (-1 for vertex 0), else -1
//	visited.bin  uint8[V]    1 where cost >= 0 (ld_bfs_racy)
//
// -size small: V = 4096, F = 1024; -size real: V = 16777216, F = 4194304.
// Deterministic (fixed seed). It prints the level, its size and the
// largest degree among the F vertices.
//
//	go run ./benchmarks/ld_bfs/gen -out DIR -size small|real
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
)

type size struct{ v, f int }

var sizes = map[string]size{"small": {4096, 1024}, "real": {16777216, 4194304}}

const picks = 3

func main() {
	out := flag.String("out", "", "directory to write the .bin files into")
	sz := flag.String("size", "small", "small or real")
	flag.Parse()
	s, ok := sizes[*sz]
	if *out == "" || !ok {
		fmt.Fprintln(os.Stderr, "usage: gen -out DIR -size small|real")
		os.Exit(2)
	}
	if err := run(*out, s); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string, s size) error {
	V := s.v
	r := rand.New(rand.NewSource(282))
	src := make([]int32, 0, picks*V)
	dst := make([]int32, 0, picks*V)
	deg := make([]int32, V)
	for u := 0; u < V; u++ {
		for k := 0; k < picks; k++ {
			w := r.Intn(V - 1)
			if w >= u {
				w++
			}
			src = append(src, int32(u))
			dst = append(dst, int32(w))
			deg[u]++
			deg[w]++
		}
	}
	row := make([]int32, V+1)
	for v := 0; v < V; v++ {
		row[v+1] = row[v] + deg[v]
	}
	col := make([]int32, row[V])
	fill := append([]int32(nil), row[:V]...)
	for i := range src {
		u, w := src[i], dst[i]
		col[fill[u]] = w
		fill[u]++
		col[fill[w]] = u
		fill[w]++
	}

	// Breadth-first search from vertex 0, level by level.
	cost := make([]int32, V)
	parent := make([]int32, V)
	for v := range cost {
		cost[v], parent[v] = -1, -1
	}
	cost[0] = 0
	levels := [][]int32{{0}}
	for {
		var next []int32
		for _, v := range levels[len(levels)-1] {
			for e := row[v]; e < row[v+1]; e++ {
				if n := col[e]; cost[n] < 0 {
					cost[n], parent[n] = cost[v]+1, v
					next = append(next, n)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		levels = append(levels, next)
	}
	L := 0
	for l := range levels {
		if len(levels[l]) > len(levels[L]) {
			L = l
		}
	}
	if len(levels[L]) < s.f {
		return fmt.Errorf("the largest level (%d) has %d vertices, fewer than F = %d", L, len(levels[L]), s.f)
	}
	for v := range cost {
		if cost[v] > int32(L) {
			cost[v], parent[v] = -1, -1
		}
	}
	frontier := levels[L][:s.f]
	visited := make([]byte, V)
	for v := range cost {
		if cost[v] >= 0 {
			visited[v] = 1
		}
	}
	maxDeg := int32(0)
	for _, v := range frontier {
		maxDeg = max(maxDeg, row[v+1]-row[v])
	}
	fmt.Printf("V=%d E=%d: level %d of %d has %d vertices; frontier = its first %d, largest degree %d\n",
		V, len(col), L, len(levels)-1, len(levels[L]), s.f, maxDeg)

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]int32{"row.bin": row, "col.bin": col, "frontier.bin": frontier, "cost.bin": cost, "parent.bin": parent}
	for name, a := range files {
		b := make([]byte, 4*len(a))
		for i, x := range a {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "visited.bin"), visited, 0o644)
}
