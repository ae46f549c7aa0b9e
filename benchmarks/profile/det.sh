#!/usr/bin/env bash
# GPU machine, one call: the GPU proof of `ldcheck run --deterministic`
# (issue 11). For every build in $BUILDS (default .dev/builds: the kernels
# of testdata/acceptance and testdata/e2e, made where libclang is with
#   for f in testdata/acceptance/*.cu testdata/e2e/*.cu; do n=$(basename $f .cu);
#     [ $n = bad_syntax ] || .dev/bin/ldcheck build -o .dev/builds/$n $f; done
# ) it recompiles the device module with nvcc, then, with the launch line of
# the kernel's source (its "// launch:" line), writes every pointer argument
# (--out) of
#   - 5 runs --deterministic --backend cuda (must be the same bytes),
#   - 1 run  --deterministic --backend cpu  (the same as cuda, unless the
#     kernel calls a math function: they may round differently),
#   - 5 runs --unchecked --backend cuda     (racy kernels may differ: the
#     proof that --deterministic fixes something; last_block_wins_racy does),
# and prints one line per kernel as it ends (JOBS kernels at a time,
# default 8), then the sorted table; it exits 1 when a kernel's
# deterministic cuda runs differ or (no math function) cuda differs from cpu.
#
#   OUT=dir benchmarks/profile/det.sh [BENCH...]
#
# A kernel whose atomics depend on the order threads run them (float
# atomicAdd, atomicExch, atomicCAS, a used return value) runs with
# --allow-atomics, and its runs may differ (column "atomics": not a
# failure); nor is a kernel whose "// expect:" names an atomic-plain race
# (column "atomic-plain": a plain store lands before or after the others'
# atomics as the threads run, which a deterministic run does not order),
# nor one whose "// expect:" names an intra-warp race (column "intra-warp":
# which lane's store wins is the hardware's; the H200 and the CPU backend
# pick other lanes on warp_global_word_racy).
# BACKEND=cpu (and COMPILE=no) runs the whole script on the CPU
# backend, to try it where there is no GPU.
#
# BENCH names benchmark programs (e.g. saxpy64m matmul2048 stencil4096)
# whose builds are in $RS (default .dev/rs, see RESULTS.md): each runs
# --unchecked and --deterministic on cuda with --warmup -v, and the kernel
# times and their ratio are printed (the cost of a deterministic run).
set -u
cd "$(dirname "$0")/../.."
LDCHECK=${LDCHECK:-.dev/bin/ldcheck}
BUILDS=${BUILDS:-.dev/builds}
RS=${RS:-.dev/rs}
OUT=${OUT:-/tmp/det}
BACKEND=${BACKEND:-cuda}
mkdir -p "$OUT"
W=$(mktemp -d)
RUNS=${RUNS:-5}
# Math functions whose results may differ between the GPU and the CPU
# backend in the last bit.
MATH='\b(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|exp|exp2|exp10|expm1|log|log2|log10|log1p|pow|sqrt|rsqrt|cbrt|erf|erfc|hypot|fmod|lgamma|tgamma)f?\s*\(|\b__(sinf|cosf|tanf|sincosf|expf|exp10f|logf|log2f|log10f|powf|fdividef|saturatef|[fd](add|sub|mul|div|rcp|sqrt|rsqrt|ma)_r[nzud])\s*\('

[ "${COMPILE:-yes}" = no ] || ls "$BUILDS" | xargs -P 12 -I{} sh -c "$LDCHECK compile --device-only --arch sm_90 $BUILDS/{} >/dev/null 2>&1 || echo COMPILEFAIL {}"

# one BUILD: the runs of one kernel; prints its table row, and FAIL on a
# line of its own when the kernel fails the check. Kernels run in parallel
# (JOBS at a time: the GPU takes several processes), so a call that runs
# out of time still prints the rows it finished.
one() {
  d=$1
  n=$(basename "$d")
  src=""
  for s in testdata/acceptance/$n.cu testdata/e2e/$n.cu; do [ -f "$s" ] && src=$s; done
  [ -n "$src" ] || return 0
  launch=$(sed -n 's#^// launch: ##p' "$src" | head -1)
  expect=$(sed -n 's#^// expect: ##p' "$src" | head -1 | cut -d' ' -f1)
  # An atomic-plain race: a plain store lands before or after the others'
  # atomics as the threads run; a deterministic run does not order it.
  plain=no
  sed -n 's#^// expect: ##p' "$src" | head -1 | grep -q atomic-plain && plain=yes
  # An intra-warp race: which lane of one store wins is the hardware's
  # choice (lane 0 on the H200, another on the CPU backend), outside what
  # a deterministic run orders (README).
  lanes=no
  sed -n 's#^// expect: ##p' "$src" | head -1 | grep -q intra-warp && lanes=yes
  [ -n "$launch" ] || return 0
  kernel=$(echo "$launch" | sed -n 's/.*--kernel \([^ ]*\).*/\1/p')
  # The pointer arguments, and whether an atomic depends on the order.
  info=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
ks = [k for k in m["kernels"] if k["name"] == sys.argv[2] or (not sys.argv[2] and len(m["kernels"]) == 1)]
ordered = any(a["class"] != "commutative" for k in ks for a in k.get("atomic_ops", []))
print("yes" if ordered else "no", " ".join(p["name"] for k in ks for p in k["params"] if p["pointer"]))' "$d" "$kernel")
  atomics=${info%% *}
  outs=${info#* }
  allow=""
  [ "$atomics" = yes ] && allow=--allow-atomics
  math=no
  grep -Eq "$MATH" "$src" && math=yes
  # run MODE TAG: one run, its --out files under $W/$n.TAG.NAME; prints the exit status.
  run() {
    local flags=""
    for o in $outs; do flags="$flags --out $o=$W/$n.$2.$o"; done
    $LDCHECK run $1 --timeout 5m $launch $flags "$d" >"$W/$n.$2.log" 2>&1
    echo $?
  }
  # same A B: every output of runs A and B is the same bytes.
  same() {
    for o in $outs; do cmp -s "$W/$n.$1.$o" "$W/$n.$2.$o" || return 1; done
    return 0
  }
  exits=""
  for i in $(seq 1 $RUNS); do exits="$exits$(run "--backend $BACKEND --deterministic $allow" det$i) "; done
  first=$(echo $exits | cut -d' ' -f1)
  if [ "$first" = 2 ] || [ "$first" = 3 ]; then
    printf '%-34s %-9s %-12s %s\n' "$n" "$expect" "exit $first" "$(head -c 100 "$W/$n.det1.log" | tr '\n' ' ')"
    return 0
  fi
  stable=yes
  for i in $(seq 2 $RUNS); do same det1 det$i || stable=no; done
  run "--backend cpu --deterministic $allow" cpu >/dev/null
  cpu=yes
  same det1 cpu || cpu=no
  native=""
  for i in $(seq 1 $RUNS); do run "--backend $BACKEND --unchecked" nat$i >/dev/null; done
  varies=no
  for i in $(seq 2 $RUNS); do same nat1 nat$i || varies=yes; done
  # Race-free: the deterministic bytes against the native module's (built
  # as a user would: nvcc's default --fmad=true, so floats may differ in
  # the last bit where the kernel multiplies and adds).
  [ "$expect" = none ] && { same det1 nat1 && native=yes || native=no; }
  bad=""
  if [ "$atomics" = yes ]; then
    stable="$stable,atomics"
  elif [ "$plain" = yes ]; then
    stable="$stable,atomic-plain"
  elif [ "$lanes" = yes ]; then
    stable="$stable,intra-warp"
  else
    [ "$stable" = no ] && bad=FAIL
    [ "$cpu" = no ] && [ "$math" = no ] && bad=FAIL
  fi
  printf '%-34s %-9s %-12s %-12s %-6s %-6s %-9s %s %s\n' "$n" "$expect" "$(echo $exits | tr ' ' ,)" "$stable" "$cpu" "$math" "$varies" "${native:--}" "$bad"
}
export -f one
export LDCHECK W RUNS BACKEND MATH

ls -d "$BUILDS"/*/ | xargs -P "${JOBS:-8}" -I{} bash -c 'one {}' | tee "$W/rows"
fail=0
grep -q ' FAIL$' "$W/rows" && fail=1

echo
echo "deterministic runs on $BACKEND ($RUNS each) against cpu and against --unchecked $BACKEND runs (nat):"
printf '%-34s %-9s %-12s %-12s %-6s %-6s %-9s %s\n' kernel expect "det exits" "${RUNS}x same" "=cpu" "math" "nat vary" "det=native (race-free)"
sort "$W/rows"

if [ $# -gt 0 ]; then
  echo
  echo "cost of a deterministic run (kernel time, $BACKEND, after a warm-up):"
  printf '%-14s %12s %16s %8s\n' program "native ms" "deterministic ms" ratio
  for p in "$@"; do
    [ "${COMPILE:-yes}" = no ] || $LDCHECK compile --device-only --arch sm_90 "$RS/$p" >/dev/null 2>&1 || { echo "$p: compile failed"; continue; }
    L=$(cat "benchmarks/$p/launch")
    nat=$($LDCHECK run --backend $BACKEND --unchecked --warmup -v $L "$RS/$p" 2>&1 | awk '/ ms/ && /kernel/ {print $(NF-1); exit}')
    det=$($LDCHECK run --backend $BACKEND --deterministic --allow-atomics --warmup -v --timeout 10m $L "$RS/$p" 2>&1 | tee "$OUT/$p-det.log" | awk '/ ms/ && /deterministic/ {print $(NF-1); exit}')
    printf '%-14s %12s %16s %8s\n' "$p" "$nat" "$det" "$(awk -v a="$nat" -v b="$det" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", b / a; else print "-" }')"
  done
fi
[ "${KEEP_LOGS:-no}" = yes ] && cp "$W"/*.log "$OUT"/ 2>/dev/null
rm -rf "$W"
exit $fail
