#!/usr/bin/env bash
# GPU machine: level 1's check kernels (BenchmarkPageChecks) compiled with
# each of some nvcc flag sets (LDCHECK_BENCH_NVCC: -D of the header's
# knobs), on some of the bench's cases, one line a case, kernel and flags,
# then the cases side by side (a column a flag set).
#   CGO_ENABLED=0 go test -c -o .dev/t/gpuruntime.test ./gpuruntime   # here; carry .dev/t
#   OUT=dir [CASES=regexp] benchmarks/profile/checkvars.sh "FLAGS1" "FLAGS2" ...   # "" = as built
# Knobs: LDC_CHECK_MIN_BLOCKS, LDC_CHECK_EXACT, LDC_LISTED_BATCH, LDC_RW_PREFETCH,
# LDC_SLOT_WW_MIN_BLOCKS, LDC_SLOT_RW_MIN_BLOCKS (RESULTS.md
# has what each measured).
set -u
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
C=${CASES:-'PageChecks/(128B-1copy|128B-1to19copies|128B-2copies-racy)/(ww|rw|ww\+index|ww\+final|ww\+index\+final)$'}
i=0
for f in "$@"; do
  i=$((i + 1))
  LDCHECK_BENCH_NVCC="$f" .dev/t/gpuruntime.test -test.run '^$' -test.bench "$C" -test.benchtime 5x >"$OUT/vars-$i.txt" 2>&1
  echo "== [$f] rc $?"
  grep -E '^BenchmarkPageChecks/' "$OUT/vars-$i.txt" | sed 's/BenchmarkPageChecks\///; s/-16 //; s/  */ /g' | awk '{print "  " $1, $(NF-5), $(NF-4), $(NF-1), $NF}'
done
# The cases side by side, a column a variant: ms (%copy).
python3 - "$OUT" "$@" <<'PY'
import re, sys
out, flags = sys.argv[1], sys.argv[2:]
cols = []
for i in range(1, len(flags) + 1):
    got = {}
    for l in open("%s/vars-%d.txt" % (out, i)):
        m = re.match(r"BenchmarkPageChecks/(\S+?)(-\d+)?\s.*?([\d.]+) %copy.*?([\d.]+) ms/kernel", l)
        if m:
            got[m.group(1)] = (float(m.group(4)), float(m.group(3)))
    cols.append(got)
cases = [c for c in cols[0]] if cols else []
print("\n%-34s" % "case/kernel: ms (%copy)" + "".join("  V%-11d" % (i + 1) for i in range(len(flags))))
for c in cases:
    print("%-34s" % c + "".join("  %6.3f (%2.0f%%)" % col[c] if c in col else "  %-13s" % "-" for col in cols))
for i, f in enumerate(flags):
    print("V%d: [%s]" % (i + 1, f))
PY
