package gpuruntime

import "testing"

// TestSetQuietEnds: a one-pass level 2 has quiet region ends (one barrier
// where no thread stored to a copy) unless a check notes accesses between
// region ends or a shared target's stores are not tracked; other levels
// never do. They are bare (2: nothing read before the barrier) where no
// store, global or shared, goes to a copy.
func TestSetQuietEnds(t *testing.T) {
	onePass := func(f func(*Ctx)) Ctx {
		c := Ctx{Mode: ModeReplay, OnePass: 1}
		if f != nil {
			f(&c)
		}
		return c
	}
	for _, tc := range []struct {
		name string
		c    Ctx
		want int32
	}{
		{"one pass", onePass(nil), 2},
		{"tracked shared targets, copied", onePass(func(c *Ctx) { c.NShared, c.SharedTracked = 2, 1 }), 1},
		{"tracked shared targets, in place", onePass(func(c *Ctx) { c.NShared, c.SharedTracked, c.SharedOwn = 2, 1, 3 }), 2},
		{"one in place, one uncopied", onePass(func(c *Ctx) { c.NShared, c.SharedTracked, c.SharedOwn, c.SharedDirect = 2, 1, 1, 2 }), 2},
		{"one uncopied, one copied", onePass(func(c *Ctx) { c.NShared, c.SharedTracked, c.SharedDirect = 2, 1, 2 }), 1},
		{"global stores in place", onePass(func(c *Ctx) { c.NAllocs, c.Segs.NSeg, c.Segs.DirectMask = 1, 64, 1023 }), 2},
		{"global copies", onePass(func(c *Ctx) { c.NAllocs, c.Segs.NSeg = 1, 64 }), 1},
		{"global targets untracked", onePass(func(c *Ctx) { c.NAllocs = 1 }), 2},
		{"untracked shared targets", onePass(func(c *Ctx) { c.NShared = 2 }), 0},
		{"atomic-plain check", onePass(func(c *Ctx) { c.Ap.Mask = 1023 }), 0},
		{"intra-warp check", onePass(func(c *Ctx) { c.Iw.On = 1 }), 0},
		{"deterministic", onePass(func(c *Ctx) { c.Det.On = 1 }), 0},
		{"trace", onePass(func(c *Ctx) { c.Trace = 1 }), 0},
		{"both passes", Ctx{Mode: ModeReplay}, 0},
		{"level 1", Ctx{Mode: ModeBlock, OnePass: 1}, 0},
		{"stale flag, level 1", Ctx{Mode: ModeBlock, QuietEnds: 2}, 0},
	} {
		c := tc.c
		c.setQuietEnds()
		if c.QuietEnds != tc.want {
			t.Errorf("%s: QuietEnds %d, want %d", tc.name, c.QuietEnds, tc.want)
		}
	}
}
