#!/usr/bin/env bash
# Does ldcheck's CPU backend draw the numbers real cuRAND draws?
#
#   here (libclang):  benchmarks/curand/compare.sh build [OUTDIR]
#   GPU (nvcc):       benchmarks/curand/compare.sh run [OUTDIR]
#
# `build` builds testdata/e2e/curand_xorwow_ok.cu and curand_philox_ok.cu
# (and the math API kernel, whose outputs are compared the same
# way) into OUTDIR (default benchmarks/curand/builds). `run`, on the GPU
# machine, recompiles them with nvcc (`ldcheck compile`: the toolkit's own
# <curand_kernel.h> and math library), runs each kernel once with
# --unchecked on --backend cuda and on --backend cpu (ldcheck's cuRAND and
# math), writes every buffer and prints one line per buffer: `identical`,
# or how many elements differ and the largest difference.
#
# What should hold (see README, "cuRAND"): bits (raw curand/curand4 draws),
# uni (curand_uniform), pois for lambda < 64 identical; nrm and dbl
# (Box-Muller through the GPU's __sincosf / sincospi) within a few ulp.
# LDCHECK names the binary (default bin/ldcheck).
set -u
cd "$(dirname "$0")/../.."
mode=${1:?usage: $0 build|run [OUTDIR]}
outdir=${2:-benchmarks/curand/builds}
ldcheck=${LDCHECK:-bin/ldcheck}
kernels="curand_xorwow_ok curand_philox_ok"
for extra in math_api_ok; do
  [ -f testdata/e2e/$extra.cu ] && kernels="$kernels $extra"
done
mkdir -p "$outdir"
if [ "$mode" = build ]; then
  for k in $kernels; do
    "$ldcheck" build -o "$outdir/$k.ldcheck" testdata/e2e/$k.cu || exit 3
  done
  exit 0
fi
res=${OUT:-/tmp}/curand-compare
mkdir -p "$res"
table="$res/table.txt"
: >"$table"
status=0
for k in $kernels; do
  dir="$outdir/$k.ldcheck"
  "$ldcheck" compile "$dir" >"$res/$k.compile.log" 2>&1 || { echo "$k: ldcheck compile failed (see $res/$k.compile.log)" >>"$table"; status=3; continue; }
  launch=$(sed -n 's|^// launch: ||p' testdata/e2e/$k.cu)
  # --arg NAME=TYPE[COUNT]:... buffers, written back with --out
  outs=()
  types=()
  for a in $launch; do
    case "$a" in
      *=*\[*\]:*) n=${a%%=*}; t=${a#*=}; t=${t%%[*}; outs+=("$n"); types+=("$t") ;;
    esac
  done
  for be in cuda cpu; do
    args=()
    for n in "${outs[@]}"; do args+=(--out "$n=$res/$k.$n.$be.bin"); done
    # shellcheck disable=SC2086
    "$ldcheck" run --backend "$be" --unchecked $launch "${args[@]}" "$dir" >"$res/$k.$be.log" 2>&1 || { echo "$k: run on $be failed (see $res/$k.$be.log)" >>"$table"; status=3; }
  done
  for i in "${!outs[@]}"; do
    n=${outs[$i]}
    a="$res/$k.$n.cuda.bin" b="$res/$k.$n.cpu.bin"
    [ -f "$a" ] && [ -f "$b" ] || continue
    if cmp -s "$a" "$b"; then
      printf '%-20s %-8s identical\n' "$k" "$n" >>"$table"
      continue
    fi
    case "${types[$i]}" in
      float) fmt=f4 ;; double) fmt=f8 ;; *) fmt=u4 ;;
    esac
    paste <(od -An -v -t$fmt -w${fmt#?} "$a") <(od -An -v -t$fmt -w${fmt#?} "$b") | awk -v k="$k" -v n="$n" '
      { d = $1 - $2; if (d < 0) d = -d; r = d; m = ($1 < 0 ? -$1 : $1); if (m > 0) r = d / m
        if ($1 != $2) { diff++; if (first == "") first = NR - 1 " (" $1 " vs " $2 ")" }
        if (r > maxr) maxr = r; if (d > maxd) maxd = d }
      END { printf "%-20s %-8s %d of %d differ, max abs %g, max rel %g, first at %s\n", k, n, diff, NR, maxd, maxr, first }' >>"$table"
  done
done
cat "$table"
exit $status
