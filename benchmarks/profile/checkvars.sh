#!/usr/bin/env bash
# GPU machine: level 1's check kernels (BenchmarkPageChecks) compiled with
# each of some nvcc flag sets (LDCHECK_BENCH_NVCC: -D of the header's
# knobs), on some of the bench's cases, one line a case, kernel and flags.
#   CGO_ENABLED=0 go test -c -o .dev/t/gpuruntime.test ./gpuruntime   # here; carry .dev/t
#   OUT=dir [CASES=regexp] benchmarks/profile/checkvars.sh "FLAGS1" "FLAGS2" ...   # "" = as built
# Knobs: LDC_CHECK_MIN_BLOCKS, LDC_CHECK_EXACT, LDC_LISTED_BATCH (RESULTS.md
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
