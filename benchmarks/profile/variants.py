#!/usr/bin/env python3
"""Timing-only variants of ldcheck_rt.h, to find where level 2's time goes.

    variants.py HEADER LETTERS

rewrites HEADER in place, one change per letter. The results are NOT
correct checks: each letter removes a piece of the protocol so that the
level-2 kernel's time can be compared with and without it (ncu.sh).
  B  region-end checks do nothing but their barriers
  L  locals neither saved, restored nor compared
  G  level 2's global accesses go straight to the base (no page hooks)
  I  region-end functions force-inlined
  K  level-2 launches exit at once
  P  no second pass: every region runs once, checked as pass 1
  R  region ends are bare barriers (no check, no second pass; with G,
     or the segments fill up)
  S  the one-pass store hook (ldc_own_small) returns at once
  N  the one-pass store hook is not called at all (S less its call)
  E  a bare one-pass region end is its barrier's reduction only (no
     epoch: with S, or the stores in place void the launch)
Each pattern must match the header exactly; a stale one stops the script.
"""
import sys

path, letters = sys.argv[1], sys.argv[2]
src = open(path).read()


def rep(old, new):
    global src
    if old not in src:
        sys.exit("variants.py: pattern not in %s (header changed?): %s" % (path, old[:80]))
    src = src.replace(old, new, 1)


if "B" in letters:
    rep("  if (ldc_bar_and(t->done)) return 1;\n", "  if (ldc_bar_and(t->done)) return 1;\n  if (1) { ldc_bar(); return 0; }\n")
if "L" in letters:
    for m in ("PUT", "GET"):
        head = "#define LDC_%s(q, x) (__builtin_memcpy(" % m
        start = src.index(head)
        end = src.index("\n", start)
        src = src[:start] + "#define LDC_%s(q, x) ((q) += LDC_SLOT(sizeof(x)))" % m + src[end:]
    head = "#define LDC_CMP(q, d, x) ((d) |= ldc_differs"
    start = src.index(head)
    end = src.index("\n", start)
    src = src[:start] + "#define LDC_CMP(q, d, x) ((q) += LDC_SLOT(sizeof(x)))" + src[end:]
if "G" in letters:
    rep("  unsigned char *seg = ldc_block()->seg;\n  if (!seg) return (void *)p;", "  unsigned char *seg = ldc_block()->seg;\n  if (1) return (void *)p;")
if "I" in letters:
    for f in ["int ldc_check(", "int ldc_boundary(", "void ldc_idle(", "unsigned long long ldc_seg_check("]:
        rep("static __device__ LDC_ENGINE " + f, "static __device__ LDC_ENGINE __forceinline__ " + f)
if "K" in letters:
    rep("static __device__ LDC_ENGINE void ldc_begin(struct ldc_thread *t) {\n",
        "static __device__ LDC_ENGINE void ldc_begin(struct ldc_thread *t) {\n  if (ldc_g.mode == LDC_MODE_REPLAY) asm volatile(\"exit;\");\n")
if "P" in letters:
    rep("  if (p == 1 && !det) {\n    t->pass = 2;", "  if (0) {\n    t->pass = 2;")
    rep("  if (p != 2 && !LDC_DET_ON) return compared;", "  if (0) return compared;")
if "R" in letters:
    rep("  int det = LDC_DET_ON, p = det ? 1 : t->pass;\n", "  if (1) { ldc_bar(); return 0; }\n  int det = LDC_DET_ON, p = det ? 1 : t->pass;\n")
if "S" in letters:
    rep("template <unsigned n> static __device__ LDC_ENGINE __noinline__ void ldc_own_small(const void *p, unsigned epoch) {\n",
        "template <unsigned n> static __device__ LDC_ENGINE __noinline__ void ldc_own_small(const void *p, unsigned epoch) {\n  if (p) return;\n")
if "N" in letters:
    rep("      if (write) {\n        if (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4) ldc_own_small<sizeof(T)>((const void *)p, epoch);\n",
        "      if (0) {\n        if (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4) ldc_own_small<sizeof(T)>((const void *)p, epoch);\n")
if "E" in letters:
    rep("  unsigned sel = 0;\n  int busy = !one;\n",
        "  if (quiet == 2) { (void)ldc_bar_or(t, bs, 0); f->start = id; return 1; }\n  unsigned sel = 0;\n  int busy = !one;\n")
open(path, "w").write(src)
