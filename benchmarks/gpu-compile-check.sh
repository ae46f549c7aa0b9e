#!/usr/bin/env bash
# GPU machine: compile every instrumented source built by `ldcheck build`
# with nvcc for sm_90, and assemble the clang-made PTX with ptxas, printing
# a table. Usage: benchmarks/gpu-compile-check.sh BUILDS_DIR [ARCH]
# (BUILDS_DIR holds one build directory per kernel file.)
set -u
builds=${1:?usage: $0 BUILDS_DIR [sm_XX]}
arch=${2:-sm_90}
out=${OUT:-/tmp}
printf '%-22s %-10s %-10s\n' file nvcc ptxas >"$out/compile-table.txt"
fail=0
for d in "$builds"/*/; do
  name=$(basename "$d")
  src=$(ls "$d"/*.ldcheck.cu)
  log="$out/$name.log"
  if nvcc -ptx -arch="$arch" -std=c++17 -I"$d/include/rt" -o "/tmp/$name.ptx" "$src" >"$log" 2>&1; then n=ok; else n=FAIL; fail=1; fi
  p=none
  if ls "$d"/*.ptx >/dev/null 2>&1; then
    if ptxas -arch="$arch" -o /dev/null "$d"/*.ptx >>"$log" 2>&1; then p=ok; else p=FAIL; fail=1; fi
  fi
  printf '%-22s %-10s %-10s\n' "$name" "$n" "$p" >>"$out/compile-table.txt"
done
nvcc --version | tail -2
cat "$out/compile-table.txt"
exit $fail
