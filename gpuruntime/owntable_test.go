package gpuruntime

import (
	"encoding/binary"
	"testing"
)

// ownTableKernel drives ldc_own_word_at, the table of stores in place
// (one 64-bit entry a word: epoch, key, owners), through the cases a
// region's stores meet, each on a fresh block state and table of 64
// entries, and writes per case whether the launch went void (own_void),
// which status word said so (2: two warps on a byte, 3: the table full)
// and whether the region was tagged dirty (dirty_any = epoch + 1).
const ownTableKernel = `
struct ldct_case { struct ldc_block_state bs; unsigned long long seg[2 + 64]; unsigned status[4]; };
static void ldct_reset(struct ldct_case *c, unsigned epoch) {
  memset(c, 0, sizeof *c);
  c->bs.epoch = epoch;
  ldc_g.segs.direct_mask = 63;
  ldc_g.segs.status = c->status;
}
static void ldct_put(unsigned *out, int i, struct ldct_case *c) {
  out[4 * i] = c->bs.own_void;
  out[4 * i + 1] = c->status[2];
  out[4 * i + 2] = c->status[3];
  out[4 * i + 3] = c->bs.dirty_any == c->bs.epoch + 1u;
}
extern "C" __global__ LDC_ENGINE void ldct_own_table(unsigned *out) {
  static struct ldct_case c;
  unsigned char *seg = (unsigned char *)c.seg;
  const unsigned long long a = 0x7f12345678ull, b = a + 1;
  // 0: warps 0 and 1 store byte 0 of one word: void.
  ldct_reset(&c, 5); ldc_own_word_at(&c.bs, seg, a, 1u, 1); ldc_own_word_at(&c.bs, seg, a, 1u, 2); ldct_put(out, 0, &c);
  // 1: they store bytes 0-1 and 2-3 of it: no void.
  ldct_reset(&c, 5); ldc_own_word_at(&c.bs, seg, a, 3u, 1); ldc_own_word_at(&c.bs, seg, a, 12u, 2); ldct_put(out, 1, &c);
  // 2: one warp stores byte 0 twice, and another word's: no void.
  ldct_reset(&c, 5); ldc_own_word_at(&c.bs, seg, a, 1u, 3); ldc_own_word_at(&c.bs, seg, a, 1u, 3); ldc_own_word_at(&c.bs, seg, b, 1u, 4); ldct_put(out, 2, &c);
  // 3: warp 0 stores byte 0 in region 5, warp 1 in region 6: the earlier
  // region's entry is free (no void); then warp 0 again in region 6: void.
  ldct_reset(&c, 5); ldc_own_word_at(&c.bs, seg, a, 1u, 1); c.bs.epoch = 6; ldc_own_word_at(&c.bs, seg, a, 1u, 2); ldct_put(out, 3, &c);
  ldc_own_word_at(&c.bs, seg, a, 1u, 1); ldct_put(out, 4, &c);
  // 5: 65 words in one region, one warp: the table (64 entries) is full.
  ldct_reset(&c, 5); for (unsigned i = 0; i < 65; i++) ldc_own_word_at(&c.bs, seg, a + 977 * i, 15u, 1); ldct_put(out, 5, &c);
  // 6: 64 words fill it exactly, and each is found again by its warp.
  ldct_reset(&c, 5); for (unsigned r = 0; r < 2; r++) for (unsigned i = 0; i < 64; i++) ldc_own_word_at(&c.bs, seg, a + 977 * i, 15u, 1); ldct_put(out, 6, &c);
  // 7: a second warp's store to the last of those 64 words: void.
  ldc_own_word_at(&c.bs, seg, a + 977 * 63, 8u, 9); ldct_put(out, 7, &c);
  // 8: region 65536, whose tag (its epoch's low 16 bits) is 0, as an
  // empty entry's: an entry without owners is empty, whatever its tag.
  ldct_reset(&c, 0x10000); ldc_own_word_at(&c.bs, seg, a, 1u, 1); ldc_own_word_at(&c.bs, seg, a, 2u, 2); ldct_put(out, 8, &c);
}
extern "C" LDC_ENGINE void ldc_entry_ldct_own_table(void **a) { ldct_own_table(*(unsigned **)a[0]); }
`

func TestOwnTable(t *testing.T) {
	b, _ := fusedBackendWith(t, ownTableKernel)
	const cases = 9
	raw := runOneBlock(t, b, "ldct_own_table", 1, 16*cases)
	// void, status[2] (two warps), status[3] (full), region tagged dirty
	want := [cases][4]uint32{
		{1, 1, 0, 1},
		{0, 0, 0, 0},
		{0, 0, 0, 0},
		{0, 0, 0, 0},
		{1, 1, 0, 1},
		{1, 0, 1, 1},
		{0, 0, 0, 0},
		{1, 1, 0, 1},
		{0, 0, 0, 0},
	}
	for i, w := range want {
		var got [4]uint32
		for j := range got {
			got[j] = binary.LittleEndian.Uint32(raw[16*i+4*j:])
		}
		if got != w {
			t.Errorf("case %d: void, two warps, full, dirty = %v, want %v", i, got, w)
		}
	}
}
