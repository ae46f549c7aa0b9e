#!/usr/bin/env bash
# GPU machine, one call: the time of every phase of a checked run, under
# header variants (variants.py; A = as built), for several programs.
# Faster than ncu.sh for a survey: the variants compile in parallel and
# the times are ldcheck run -v's.
#
#   OUT=dir benchmarks/profile/vartime.sh "P1 P2 ..." "A B G ..."
#
# Builds in $BUILDS (default .dev/rs), ldcheck in .dev/bin, generators in
# .dev/gen (see RESULTS.md for how they are made). Prints one line per
# program and variant: the warp-level (level 2) time, then the whole run.
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
LDCHECK=${LDCHECK:-$R/.dev/bin/ldcheck}
BUILDS=${BUILDS:-$R/.dev/rs}
INPUTS=${INPUTS:-/tmp/inputs}
OUT=${OUT:-/tmp/vartime}
mkdir -p "$OUT"
t0=$(date +%s)
for p in $1; do
  if [ -d "$R/benchmarks/$p/gen" ] && [ ! -d "$INPUTS/$p-real" ]; then
    "$R/.dev/gen/$p" -out "$INPUTS/$p-real" -size real >/dev/null || echo "$p: generator failed"
  fi
done
echo "inputs $(( $(date +%s) - t0 ))s"
for p in $1; do echo "$p"; done | xargs -P 8 -I{} sh -c "rm -rf /tmp/vt-{} && cp -r $BUILDS/{} /tmp/vt-{} && $LDCHECK compile --device-only --arch sm_90 /tmp/vt-{} >/dev/null 2>&1 || echo COMPILEFAIL {}"
echo "compiled $(( $(date +%s) - t0 ))s"
for p in $1; do for v in $2; do echo "$p $v"; done; done | xargs -P 14 -L1 sh -c '
  d=/tmp/vt-$0-$1; rm -rf $d && cp -r /tmp/vt-$0 $d && mkdir -p $d/rtinc && cp '"$R"'/gpuruntime/include/ldcheck_rt.h $d/rtinc/ &&
  python3 '"$R"'/benchmarks/profile/variants.py $d/rtinc/ldcheck_rt.h $1 &&
  cd $d && nvcc -ptx -arch=sm_90 -std=c++17 -lineinfo --fmad=false -I rtinc -o kernel.ldcheck.ptx kernel.ldcheck.cu 2>/dev/null || echo "NVCCFAIL $0 $1"'
echo "variants compiled $(( $(date +%s) - t0 ))s"
for p in $1; do
  L=$(sed "s#@INPUTS@#$INPUTS/$p-real#g" "$R/benchmarks/$p/launch")
  for v in $2; do
    "$LDCHECK" run --backend cuda -v $L "/tmp/vt-$p-$v" >"$OUT/$p-$v.txt" 2>&1
    rc=$?
    # Phase lines: "  NAME   12.345 ms[  GB/s]".
    l2=$(grep "warp level" "$OUT/$p-$v.txt" | grep -o '[0-9.]* ms' | tr -d ' ms' | paste -sd+)
    all=$(grep -o '[0-9.]* ms' "$OUT/$p-$v.txt" | tr -d ' ms' | awk '{s+=$1} END {printf "%.3f", s}')
    printf '%-16s %-5s rc %d  level2 %-24s all phases %s ms\n' "$p" "$v" "$rc" "${l2:-?}" "${all:-?}"
  done
done | tee "$OUT/vartime.txt"
echo "all done $(( $(date +%s) - t0 ))s"
