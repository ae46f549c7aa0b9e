#!/usr/bin/env python3
"""Reads the SASS page stalls.sh writes (ncu --page source --csv
--print-source sass) and says where a launch's instructions go.

  sasshot.py FILE.csv blocks [N]      the N runs of instructions executed
                                      equally often (basic blocks, roughly)
                                      that executed the most
  sasshot.py FILE.csv ops             executions and stall samples by opcode
  sasshot.py FILE.csv show FROM TO    the instructions between two offsets
                                      (hex, from the kernel's start)

Offsets are from the first instruction, so that two profiles of one build
line up."""
import collections
import csv
import re
import sys


def load(path):
    rows = list(csv.reader(open(path)))
    head = rows[1]
    col = {name: head.index(name) for name in ("Address", "Source", "Instructions Executed", "Warp Stall Sampling (All Samples)")}
    out = []
    for r in rows[2:]:
        try:
            out.append((int(r[col["Address"]], 16), r[col["Source"]].strip(), int(r[col["Instructions Executed"]]), int(r[col["Warp Stall Sampling (All Samples)"]])))
        except ValueError:
            continue
    base = out[0][0]
    return [(a - base, src, e, s) for a, src, e, s in out]


def blocks(ins, n):
    total = sum(e for _, _, e, _ in ins) or 1
    samples = sum(s for _, _, _, s in ins) or 1
    runs, cur = [], None
    for a, src, e, s in ins:
        if cur and cur["e"] == e and e > 0:
            cur["n"] += 1
            cur["s"] += s
            cur["end"] = a
            cur["last"] = src
        else:
            cur = {"start": a, "end": a, "e": e, "n": 1, "s": s, "first": src, "last": src}
            runs.append(cur)
    print("warp instructions %d, stall samples %d" % (total, samples))
    for b in sorted(runs, key=lambda b: -b["e"] * b["n"])[:n]:
        print("%6x-%6x %3d instr x %10d = %5.1f%%, samples %5.1f%% | %s ... %s" % (
            b["start"], b["end"], b["n"], b["e"], 100.0 * b["e"] * b["n"] / total, 100.0 * b["s"] / samples, b["first"][:36], b["last"][:36]))


def ops(ins):
    ex, st = collections.Counter(), collections.Counter()
    for _, src, e, s in ins:
        op = re.sub(r"^@!?U?P\w+\s+", "", src).split()[0].split(".")[0] if src else "?"
        ex[op] += e
        st[op] += s
    total = sum(ex.values()) or 1
    for op, e in ex.most_common(25):
        print("%-10s %14d %5.1f%%  samples %8d" % (op, e, 100.0 * e / total, st[op]))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    ins = load(argv[1])
    if argv[2] == "blocks":
        blocks(ins, int(argv[3]) if len(argv) > 3 else 25)
    elif argv[2] == "ops":
        ops(ins)
    elif argv[2] == "show" and len(argv) == 5:
        lo, hi = int(argv[3], 16), int(argv[4], 16)
        for a, src, e, s in ins:
            if lo <= a <= hi:
                print("%6x %12d %7d  %s" % (a, e, s, src))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
