package gpuruntime

import (
	"encoding/binary"
	"testing"
)

// barOrKernel runs ldc_bar_or rounds times in every thread of a block,
// the even threads from one call site and the odd ones from another (as
// the lanes of a warp ending a region and those waiting in ldc_idle do),
// with the predicate held in round r by thread (7 * r) % n alone where r
// % 4 != 3, and by none where r % 4 == 3: so that each of the three
// words is set in some rounds and must read 0 in others. Every thread
// writes its results as bits of out[tid].
const barOrKernel = `
static __device__ LDC_ENGINE __noinline__ int ldct_or_odd(struct ldc_thread *t, int p) { return ldc_bar_or(t, ldc_block(), p); }
extern "C" __global__ LDC_ENGINE void ldct_bar_or(unsigned *out, int rounds) {
  struct ldc_thread t;
  t.or_gen = 0;
  unsigned tid = ldc_thread_linear(), n = ldc_block_threads(), bits = 0;
  for (int r = 0; r < rounds; r++) {
    int p = r % 4 != 3 && tid == (7u * (unsigned)r) % n;
    int got = tid % 2 ? ldct_or_odd(&t, p) : ldc_bar_or(&t, ldc_block(), p);
    bits |= (unsigned)(got != 0) << r;
  }
  out[tid] = bits;
}
extern "C" LDC_ENGINE void ldc_entry_ldct_bar_or(void **a) { ldct_bar_or(*(unsigned **)a[0], *(int *)a[1]); }
`

func TestBarOr(t *testing.T) {
	b, _ := fusedBackendWith(t, barOrKernel)
	const threads, rounds = 96, 20
	out := devBytes(t, b, make([]byte, 4*threads))
	if err := b.Launch("ldct_bar_or", [3]uint32{1, 1, 1}, [3]uint32{threads, 1, 1}, 0, [][]byte{u64(uint64(out)), u32(rounds)}); err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 4*threads)
	if err := b.Read(raw, out); err != nil {
		t.Fatal(err)
	}
	var want uint32
	for r := 0; r < rounds; r++ {
		if r%4 != 3 {
			want |= 1 << r
		}
	}
	for i := 0; i < threads; i++ {
		if got := binary.LittleEndian.Uint32(raw[4*i:]); got != want {
			t.Errorf("thread %d: rounds whose or held %020b, want %020b", i, got, want)
		}
	}
}
