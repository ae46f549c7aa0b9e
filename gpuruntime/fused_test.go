package gpuruntime

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"ldcheck/gpuruntime/cpu"
	"ldcheck/privatize/manifest"
)

// fusedBackend compiles the device runtime alone (its check kernels have
// CPU entry points) and opens it on the CPU backend.
func fusedBackend(t *testing.T) (*CPUBackend, DevPtr) {
	t.Helper()
	dir := t.TempDir()
	if err := WriteRuntimeInclude(dir); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "rt.cu")
	os.WriteFile(src, []byte("#include \"ldcheck_rt.h\"\n"), 0o644)
	so := filepath.Join(dir, "rt.so")
	if err := cpu.Compile(context.Background(), src, so, cpu.CompileOptions{Flags: []string{"-DLDC_CPU", "-I" + dir}}); err != nil {
		t.Fatal(err)
	}
	b, err := OpenCPU(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	ctx, _, err := b.Symbol("ldc_g")
	if err != nil {
		t.Fatal(err)
	}
	return b, ctx
}

// devBytes allocates and fills device memory.
func devBytes(t *testing.T, b Backend, data []byte) DevPtr {
	t.Helper()
	p, err := b.Alloc(int64(max(len(data), 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write(p, data); err != nil {
		t.Fatal(err)
	}
	return p
}

func readDev(t *testing.T, b Backend, p DevPtr, n int) []byte {
	out := make([]byte, n)
	if err := b.Read(out, p); err != nil {
		t.Fatal(err)
	}
	return out
}

// recordsToRaces converts the device's records to the model's races.
func recordsToRaces(recs []Record) []ByteRace {
	var out []ByteRace
	for _, r := range recs {
		br := ByteRace{Offset: int(r.Offset)}
		if r.Kind == RecordWW {
			br.Kind = WriteWrite
			br.Units = [2]int{int(r.UnitA), int(r.UnitB)}
			br.Values = []byte{byte(r.Values), byte(r.Values >> 8), byte(r.Values >> 16)}
		} else {
			br.Kind = ReadWrite
			br.Units = [2]int{int(r.UnitA), -1}
			br.Values = []byte{byte(r.Values), byte(r.Values >> 8)}
		}
		out = append(out, br)
	}
	SortRaces(out)
	return out
}

// modelRaces sorts the model's races like recordsToRaces.
func modelRaces(races []ByteRace) []ByteRace {
	out := append([]ByteRace(nil), races...)
	SortRaces(out)
	return out
}

// TestFusedKernelsMatchModel runs the CUDA C check kernels on the CPU
// backend against the Go model on random data: unit counts that are not
// powers of two, sizes that are not multiples of the warp size, disjoint
// writes, writes of the original value, forced overlaps, pass-2 changes.
func TestFusedKernelsMatchModel(t *testing.T) {
	b, ctxAddr := fusedBackend(t)
	const maxRec = 1 << 14
	records := devBytes(t, b, make([]byte, maxRec*RecordSize))
	nrec := devBytes(t, b, make([]byte, 8))
	ctx := Ctx{Records: uint64(records), NRecords: uint64(nrec), MaxRecords: maxRec}
	if err := b.Write(ctxAddr, ctx.Bytes()); err != nil {
		t.Fatal(err)
	}
	readRecs := func() []Record {
		n := int(binary.LittleEndian.Uint32(readDev(t, b, nrec, 8)))
		b.Write(nrec, make([]byte, 8))
		if n > maxRec {
			t.Fatalf("%d records overflow the buffer", n)
		}
		return DecodeRecords(readDev(t, b, records, n*RecordSize), n)
	}
	rng := rand.New(rand.NewSource(7))
	flatten := func(p [][]byte) []byte {
		var out []byte
		for _, x := range p {
			out = append(out, x...)
		}
		return out
	}
	trials := 0
	for _, units := range []int{1, 2, 3, 5, 7, 13, 31, 33, 40} {
		for _, size := range []int{1, 31, 33, 100, 1000, 4099, 4100} {
			for _, overlap := range []bool{false, true} {
				s := make([]byte, size)
				rng.Read(s)
				p := make([][]byte, units)
				for i := range p {
					p[i] = bytes.Clone(s)
				}
				for j := 0; j < size; j++ {
					i := rng.Intn(units)
					switch rng.Intn(4) {
					case 0: // unit i writes byte j
						p[i][j] = s[j] + 1 + byte(rng.Intn(200))
					case 1: // unit i writes the value already there: invisible
						p[i][j] = s[j]
					}
				}
				if overlap && units > 1 {
					j := rng.Intn(size)
					p[0][j], p[units-1][j] = s[j]^0x5a, s[j]^0xa5
				}
				pass1 := flatten(p)
				wantU, wantWriter, wantWW := FusedWriteWrite(s, p) // p becomes the pass-2 states

				sp, cp := devBytes(t, b, s), devBytes(t, b, pass1)
				up, wp := devBytes(t, b, make([]byte, size)), devBytes(t, b, make([]byte, 4*size))
				ww, n := fusedKernel("ldc_fused_ww", int64(size)) // sizes 100 and 1000 take the word-wide kernels
				args := [][]byte{u64(uint64(sp)), u64(uint64(cp)), u64(uint64(n)), u32(uint32(units)), u64(uint64(up)), u64(uint64(wp)), u32(0)}
				if err := b.Launch(ww, fusedGrid(n), [3]uint32{256, 1, 1}, 0, args); err != nil {
					t.Fatal(err)
				}
				if got := readDev(t, b, up, size); !bytes.Equal(got, wantU) {
					t.Fatalf("units %d size %d: U differs from the model", units, size)
				}
				raw := readDev(t, b, wp, 4*size)
				for j := 0; j < size; j++ {
					if got := int(int32(binary.LittleEndian.Uint32(raw[4*j:]))); got != wantWriter[j] {
						t.Fatalf("units %d size %d: writer[%d] = %d, model %d", units, size, j, got, wantWriter[j])
					}
				}
				if got := readDev(t, b, cp, units*size); !bytes.Equal(got, flatten(p)) {
					t.Fatalf("units %d size %d: pass-2 copies differ from the model", units, size)
				}
				if d := cmp.Diff(modelRaces(wantWW), recordsToRaces(readRecs())); d != "" {
					t.Fatalf("units %d size %d: write-write races (-model +device):\n%s", units, size, d)
				}
				if overlap && units > 1 && len(wantWW) == 0 {
					t.Fatalf("forced overlap not reported by the model")
				}

				// Pass 2: some units now end differently.
				for k := 0; k < 3; k++ {
					i, j := rng.Intn(units), rng.Intn(size)
					p[i][j] ^= 0x33
				}
				if err := b.Write(cp, flatten(p)); err != nil {
					t.Fatal(err)
				}
				sModel := bytes.Clone(s)
				wantRW := FusedReadWrite(sModel, wantU, p)
				rw, _ := fusedKernel("ldc_fused_rw", int64(size))
				args = [][]byte{u64(uint64(sp)), u64(uint64(cp)), u64(uint64(n)), u32(uint32(units)), u64(uint64(up)), u32(0)}
				// Both launch shapes: one thread per word, and the units
				// of a word split between threads (as checkEach launches
				// the word-wide kernel).
				grid := fusedGrid(n)
				if rw == "ldc_fused_rw4" && trials%2 == 1 {
					grid = fusedGrid(n * int64(units))
				}
				if err := b.Launch(rw, grid, [3]uint32{256, 1, 1}, 0, args); err != nil {
					t.Fatal(err)
				}
				if got := readDev(t, b, sp, size); !bytes.Equal(got, wantU) {
					t.Fatalf("units %d size %d: S after the copy-back is not U", units, size)
				}
				if d := cmp.Diff(modelRaces(wantRW), recordsToRaces(readRecs())); d != "" {
					t.Fatalf("units %d size %d: read-write races (-model +device):\n%s", units, size, d)
				}
				for _, ptr := range []DevPtr{sp, cp, up, wp} {
					b.Free(ptr)
				}
				trials++
			}
		}
	}
	if trials != 9*7*2 {
		t.Fatalf("ran %d trials", trials)
	}
}

// tinyMemory is a CPU backend that says it has almost no memory free.
type tinyMemory struct{ *CPUBackend }

func (tinyMemory) FreeMemory() (int64, error) { return 1 << 20, nil }

// TestMemoryCheckBeforeAllocating: a run whose private copies do not fit
// fails before allocating them, naming the bytes needed and free.
func TestMemoryCheckBeforeAllocating(t *testing.T) {
	b, _ := fusedBackend(t)
	data := make([]byte, 4<<20)
	k := &manifest.Kernel{Name: "k", Instrumented: true,
		Params:  []manifest.Param{{Name: "out", Type: "int *", Size: 8, Pointer: true, Elem: "int", ElemSize: 4}},
		Targets: []manifest.Target{{Index: 0, Name: "out", Space: "global", Kind: "param", Param: 0, ElemSize: 4}}}
	_, err := Check(tinyMemory{b}, Launch{Kernel: k, Grid: [3]uint32{64, 1, 1}, Block: [3]uint32{32, 1, 1}, Args: []Arg{{Param: k.Params[0], Buffer: true, Data: data}}}, Options{})
	var me *MemoryError
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want a *MemoryError", err)
	}
	if me.Need != int64(len(data))*(64+5) || me.Free != 1<<20 || !strings.Contains(err.Error(), "276 MiB") {
		t.Errorf("error %q (need %d, free %d)", err, me.Need, me.Free)
	}
}
