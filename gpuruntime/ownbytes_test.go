package gpuruntime

import (
	"encoding/binary"
	"testing"
)

// ownBytesKernel compares ldc_own_bytes, the owner-field arithmetic of
// the stores in place (global: ldc_own_word; shared: ldc_own_shared),
// with a byte-at-a-time model of what it must do, over owner fields from
// {none, the storing warp, other warps, the largest warp number} and every
// byte mask, for small and large warp numbers. out: the mismatches, then
// the first one's owners, mask and warp + 1.
const ownBytesKernel = `
static unsigned ldct_own_model(unsigned cur, unsigned m, unsigned w1, unsigned *next) {
  unsigned n = cur, ok = 1;
  for (unsigned b = 0; b < 4; b++) {
    if (!(m >> b & 1u)) continue;
    unsigned o = cur >> (6 * b) & 63u;
    if (o != 0 && o != w1) ok = 0;
    n = (n & ~(63u << (6 * b))) | (w1 << (6 * b));
  }
  *next = n;
  return ok;
}
extern "C" __global__ LDC_ENGINE void ldct_own_bytes(unsigned *out) {
  const unsigned ws[] = {1, 2, 17, 31, 32, 33}, vals[] = {0, 1, 2, 17, 31, 32, 33, 63};
  unsigned bad = 0;
  for (unsigned wi = 0; wi < 6; wi++)
    for (unsigned f = 0; f < 8 * 8 * 8 * 8; f++)
      for (unsigned m = 0; m < 16; m++) {
        unsigned w1 = ws[wi], cur = vals[f & 7] | vals[f >> 3 & 7] << 6 | vals[f >> 6 & 7] << 12 | vals[f >> 9 & 7] << 18;
        unsigned got, want;
        int ok = ldc_own_bytes(cur, m, w1, &got), wok = ldct_own_model(cur, m, w1, &want);
        if ((ok != 0) != (wok != 0) || (ok && got != want)) {
          if (bad == 0) { out[1] = cur; out[2] = m; out[3] = w1; }
          bad++;
        }
      }
  out[0] = bad;
}
extern "C" LDC_ENGINE void ldc_entry_ldct_own_bytes(void **a) { ldct_own_bytes(*(unsigned **)a[0]); }
`

func TestOwnBytesMatchesModel(t *testing.T) {
	b, _ := fusedBackendWith(t, ownBytesKernel)
	raw := runOneBlock(t, b, "ldct_own_bytes", 1, 16)
	w := func(i int) uint32 { return binary.LittleEndian.Uint32(raw[4*i:]) }
	if w(0) != 0 {
		t.Errorf("ldc_own_bytes differs from the model in %d cases, the first: owners %#06x, bytes %#x, warp+1 %d", w(0), w(1), w(2), w(3))
	}
}
