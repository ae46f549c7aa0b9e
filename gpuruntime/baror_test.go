package gpuruntime

import (
	"encoding/binary"
	"os"
	"regexp"
	"strings"
	"testing"
)

// barOrKernel runs ldc_bar_or rounds times in every thread of a block,
// the even threads from one call site and the odd ones from another (as
// the lanes of a warp ending a region and those waiting in ldc_idle do),
// with the predicate held in round r by thread (7 * r) % n alone where r
// % 4 != 3, and by none where r % 4 == 3: so that each of the three
// words is set in some rounds and must read 0 in others. Every thread
// writes its results as bits of out[tid]. uniform: the thread's
// uniform_ends (1: the hardware's reduction, which the CPU backend runs
// from any place).
const barOrKernel = `
static __device__ LDC_ENGINE __noinline__ int ldct_or_odd(struct ldc_thread *t, int p) { return ldc_bar_or(t, ldc_block(), p); }
extern "C" __global__ LDC_ENGINE void ldct_bar_or(unsigned *out, int rounds, int uniform) {
  struct ldc_thread t;
  t.or_gen = 0;
  t.uniform_ends = uniform;
  unsigned tid = ldc_thread_linear(), n = ldc_block_threads(), bits = 0;
  for (int r = 0; r < rounds; r++) {
    int p = r % 4 != 3 && tid == (7u * (unsigned)r) % n;
    int got = tid % 2 ? ldct_or_odd(&t, p) : ldc_bar_or(&t, ldc_block(), p);
    bits |= (unsigned)(got != 0) << r;
  }
  out[tid] = bits;
}
extern "C" LDC_ENGINE void ldc_entry_ldct_bar_or(void **a) { ldct_bar_or(*(unsigned **)a[0], *(int *)a[1], *(int *)a[2]); }
`

func TestBarOr(t *testing.T) {
	b, _ := fusedBackendWith(t, barOrKernel)
	const threads, rounds = 96, 20
	var want uint32
	for r := 0; r < rounds; r++ {
		if r%4 != 3 {
			want |= 1 << r
		}
	}
	for _, uniform := range []uint32{0, 1} {
		raw := runOneBlock(t, b, "ldct_bar_or", threads, 4*threads, u32(rounds), u32(uniform))
		for i := 0; i < threads; i++ {
			if got := binary.LittleEndian.Uint32(raw[4*i:]); got != want {
				t.Errorf("uniform_ends %d, thread %d: rounds whose or held %020b, want %020b", uniform, i, got, want)
			}
		}
	}
}

// nameRegionKernel names regions as the threads of a block ending them
// would, some at a barrier and some at the exit, in both orders, and
// writes the barrier each record would name (ldc_region_to).
const nameRegionKernel = `
extern "C" __global__ LDC_ENGINE void ldct_name_region(int *out) {
  struct ldc_block_state *bs = ldc_block();
  struct ldc_thread a, b;
  a.start = b.start = 3;
  a.pred_op = b.pred_op = 0;
  bs->to_tag = 0;
  // Region 7: a ends it at barrier 4, then b at the exit.
  a.ap_epoch = b.ap_epoch = 7;
  ldc_name_region(&a, bs, 1, 4); ldc_name_region(&b, bs, 1, -1);
  out[0] = ldc_region_to(bs);
  // Region 8: b at the exit first, then a at barrier 5.
  a.ap_epoch = b.ap_epoch = 8;
  ldc_name_region(&b, bs, 1, -1); ldc_name_region(&a, bs, 1, 5);
  out[1] = ldc_region_to(bs);
  // Region 9: every thread at the exit.
  a.ap_epoch = b.ap_epoch = 9;
  ldc_name_region(&a, bs, 1, -1); ldc_name_region(&b, bs, 1, -1);
  out[2] = ldc_region_to(bs);
  out[3] = bs->from;
}
extern "C" LDC_ENGINE void ldc_entry_ldct_name_region(void **a) { ldct_name_region(*(int **)a[0]); }
`

func TestNameRegion(t *testing.T) {
	b, _ := fusedBackendWith(t, nameRegionKernel)
	raw := runOneBlock(t, b, "ldct_name_region", 1, 16)
	want := [4]int32{4, 5, -1, 3}
	for i, w := range want {
		if got := int32(binary.LittleEndian.Uint32(raw[4*i:])); got != w {
			t.Errorf("out[%d] = %d, want %d (regions 7, 8 and 9's end, then their start)", i, got, w)
		}
	}
}

// TestNoHardwareReductionInChecks keeps the runtime's own code off the
// hardware's barrier reductions (barrier.red, __syncthreads_and/or/count),
// which give a warp whose lanes reach them at two places (a region end,
// and ldc_idle for those that returned early) two results on the H100
// (ldc_bar_or's comment). Allowed: ldc_pool_stopped's, at a level-1
// block's start where no thread has left yet, and ldc_bar_or_hw's (one
// for each backend), whose every call must test the kernel's proof that
// no warp is split (uniform_ends) on its line.
func TestNoHardwareReductionInChecks(t *testing.T) {
	src, err := os.ReadFile("include/ldcheck_rt.h")
	if err != nil {
		t.Fatal(err)
	}
	red := regexp.MustCompile(`barrier\.red|\bbar\.red|__syncthreads_(and|or|count)\(`)
	var uses []string
	calls := 0
	for i, line := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(line, "//")
		if red.MatchString(code) {
			uses = append(uses, strings.TrimSpace(code))
			if !strings.Contains(code, "ldc_g.pool.counters") && !strings.Contains(code, "*(volatile unsigned long long *)flag") && !strings.Contains(code, "ldc_bar_or_hw(int p)") {
				t.Errorf("ldcheck_rt.h:%d uses a hardware barrier reduction: %s", i+1, strings.TrimSpace(code))
			}
		}
		if strings.Contains(code, "ldc_bar_or_hw(") && !strings.Contains(code, "ldc_bar_or_hw(int p)") {
			calls++
			if !strings.Contains(code, "uniform_ends") {
				t.Errorf("ldcheck_rt.h:%d calls ldc_bar_or_hw without testing uniform_ends: %s", i+1, strings.TrimSpace(code))
			}
		}
	}
	if len(uses) != 3 {
		t.Errorf("hardware barrier reductions: %q, want ldc_pool_stopped's and ldc_bar_or_hw's two", uses)
	}
	if calls == 0 {
		t.Errorf("no call of ldc_bar_or_hw: the test no longer looks at the right name")
	}
}
