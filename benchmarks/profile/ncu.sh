#!/usr/bin/env bash
# GPU machine: time every launch of a benchmark program's checked run with
# Nsight Compute, once per header variant (variants.py; A = as built).
#
#   benchmarks/profile/ncu.sh PROGRAM "A B L" [LAUNCH-SUFFIX]
#
# PROGRAM's build is $BUILDS/PROGRAM (default .dev/rs, made by ldcheck build
# where libclang is); the launch line is benchmarks/PROGRAM/launch$SUFFIX.
# ldcheck compile writes the header embedded in the binary, so each
# variant is compiled here with nvcc against its own patched copy.
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
LDCHECK=${LDCHECK:-$R/.dev/bin/ldcheck}
BUILDS=${BUILDS:-$R/.dev/rs}
p=$1
# A launch with generated inputs (@INPUTS@) reads them where realsize left
# them (suite.sh runs it with -inputs /tmp/inputs): run suite.sh for the
# program first, in the same device call.
L=$(sed "s#@INPUTS@#${INPUTS:-/tmp/inputs}/$p-real#g" "$R/benchmarks/$p/launch${3:-}")
case "$L" in *"${INPUTS:-/tmp/inputs}/$p-real"*) [ -d "${INPUTS:-/tmp/inputs}/$p-real" ] || { echo "$p: no inputs in ${INPUTS:-/tmp/inputs}/$p-real (run suite.sh $p first, in the same call)"; exit 1; } ;; esac
for v in $2; do
  d=/tmp/ncu-$p-$v
  rm -rf "$d" && cp -r "$BUILDS/$p" "$d" && "$LDCHECK" compile --device-only --arch sm_90 "$d" >/dev/null 2>&1
  mkdir -p "$d/rtinc" && cp "$R/gpuruntime/include/ldcheck_rt.h" "$d/rtinc/"
  python3 "$(dirname "$0")/variants.py" "$d/rtinc/ldcheck_rt.h" "$v" || continue
  (cd "$d" && nvcc -ptx -arch=sm_90 -std=c++17 -lineinfo --fmad=false -I rtinc -o kernel.ldcheck.ptx kernel.ldcheck.cu 2>/dev/null) || { echo "$p $v: nvcc failed"; continue; }
  # Register counts only with REGS=yes: ptxas -v on an instrumented
  # source takes minutes.
  regs=""
  [ "${REGS:-no}" = yes ] && regs=$(cd "$d" && nvcc -cubin -arch=sm_90 -std=c++17 --fmad=false -I rtinc -Xptxas -v -o /dev/null kernel.ldcheck.cu 2>&1 | grep -A1 "entry function '_Z" | grep -o "Used [0-9]* registers")
  echo "== $p $v: $regs"
  ncu --clock-control none --metrics gpu__time_duration.sum "$LDCHECK" run --backend cuda --format json $L "$d" 2>&1 |
    grep -E "^  [a-zA-Z_]+.*\(|gpu__time" | sed 's/  */ /g' | cut -c1-60 | paste - - | grep -v "ldc_pages\|memset"
done
