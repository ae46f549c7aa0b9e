#!/usr/bin/env bash
# GPU machine: level 1's check kernels alone (gpuruntime's BenchmarkPageChecks
# and TestPageKernelsMatchModelCUDA), from a test binary built here:
#   CGO_ENABLED=0 go test -c -o .dev/t/gpuruntime.test ./gpuruntime   # carry .dev/t
#   OUT=dir benchmarks/profile/pagechecks.sh [benchtime, default 5x]
# Prints the model test's verdict, then one line a case and kernel: ms a
# launch, GB/s and %copy (ww: write-write, rw: read-write).
set -u
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
t=.dev/t/gpuruntime.test
$t -test.run 'PageKernelsMatchModelCUDA$' -test.v >"$OUT/pagemodel.txt" 2>&1
echo "model test on the GPU: rc $? ($(grep -E '^(--- |ok|FAIL|PASS)' "$OUT/pagemodel.txt" | head -2 | tr '\n' ' '))"
$t -test.run '^$' -test.bench 'PageChecks' -test.benchtime "${1:-5x}" -test.v >"$OUT/pagechecks.txt" 2>&1   # -v: the copy's line
echo "bench rc $?"
grep -E 'copy \(device|^BenchmarkPageChecks/' "$OUT/pagechecks.txt" | sed 's/BenchmarkPageChecks\///; s/  */ /g'
