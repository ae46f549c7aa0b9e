#!/usr/bin/env bash
# GPU machine, one call: for each program and header variant, the
# instrumented kernel's register count (ptxas -v) and the phases of a
# checked run (ldcheck run -v), under each register cap in $CAPS
# (LDCHECK_MAX_REGISTERS; default "0", none). What decides occupancy, and
# so most of level 2's time, is the register count: run this before and
# after a change to the device runtime.
#
#   OUT=dir [CAPS="0 128"] benchmarks/profile/regs.sh "P1 P2 ..." "V1 V2 ..."
#
# A variant V is a folder $VARS/V (default .dev/var/V) holding the header
# ldcheck_rt.h to compile the build's instrumented source with; it may
# also hold `builds` (a folder of builds made by another ldcheck, e.g. the
# previous commit's, used instead of $BUILDS) and `ldcheck` (that
# ldcheck). Builds in $BUILDS (default .dev/rs), generators in .dev/gen,
# ldcheck in .dev/bin (see RESULTS.md). Logs go to $OUT/regs.tgz.
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
VARS=${VARS:-$R/.dev/var}
BUILDS=${BUILDS:-$R/.dev/rs}
INPUTS=${INPUTS:-/tmp/inputs}
OUT=${OUT:-/tmp/regs}
L=$OUT/regs-logs
mkdir -p "$L"
export PATH=/usr/local/cuda/bin:$PATH
builds() { if [ -d "$VARS/$1/builds" ]; then echo "$VARS/$1/builds"; else echo "$BUILDS"; fi; }
binary() { if [ -x "$VARS/$1/ldcheck" ]; then echo "$VARS/$1/ldcheck"; else echo "$R/.dev/bin/ldcheck"; fi; }
for p in $1; do
  g=$p
  [ -f "$R/benchmarks/$p/gen-from" ] && g=$(cat "$R/benchmarks/$p/gen-from")
  if [ -x "$R/.dev/gen/$g" ] && [ ! -d "$INPUTS/$p-real" ]; then
    "$R/.dev/gen/$g" -out "$INPUTS/$p-real" -size real >/dev/null || echo "$p: generator failed"
  fi
done
# Every module of each build the variants use (the runs need the native
# and other modules too), then each variant's checked module.
for p in $1; do for v in $2; do echo "$(binary $v) $(builds $v)/$p"; done; done | sort -u |
  xargs -P 12 -L1 sh -c '$0 compile --device-only --arch sm_90 $1 >/dev/null 2>&1 || echo "COMPILEFAIL $1"'
for p in $1; do for v in $2; do echo "$p $v $(builds $v)"; done; done | xargs -P 12 -L1 sh -c '
  d=/tmp/regs-$0-$1; rm -rf $d && cp -r $2/$0 $d &&
  (cd $d && nvcc -ptx -arch=sm_90 -std=c++17 -lineinfo --fmad=false -I '"$VARS"'/$1 -o kernel.ldcheck.ptx kernel.ldcheck.cu 2>'"$L"'/nvcc-$0-$1.txt) || echo "NVCCFAIL $0 $1"
  ptxas -v -arch=sm_90 $d/kernel.ldcheck.ptx -o /dev/null >'"$L"'/ptxas-$0-$1.txt 2>&1'
for p in $1; do
  launch=$(sed "s#@INPUTS@#$INPUTS/$p-real#g" "$R/benchmarks/$p/launch" | head -1)
  for v in $2; do
    regs=$(grep -A4 "Compiling entry function '_Z" "$L/ptxas-$p-$v.txt" | grep -o 'Used [0-9]* registers' | head -1 | tr -dc 0-9)
    for cap in ${CAPS:-0}; do
      f=$L/run-$p-$v-$cap.txt
      # shellcheck disable=SC2086
      LDCHECK_MAX_REGISTERS=$cap "$(binary $v)" run --backend cuda --warmup -v $launch "/tmp/regs-$p-$v" >"$f" 2>&1
      rc=$?
      l1=$(grep 'kernel pass 1 (block' "$f" | grep -o '[0-9.]* ms' | tr -d ' ms')
      l2=$(grep 'warp level' "$f" | grep -o '[0-9.]* ms' | tr -d ' ms' | paste -sd+)
      all=$(grep -o '[0-9.]* ms' "$f" | tr -d ' ms' | awk '{s+=$1} END {printf "%.1f", s}')
      printf '%-16s %-4s cap %-4s rc %d  registers %-4s level-1 pass 1 %-9s level 2 %-10s all phases %s ms\n' "$p" "$v" "$cap" "$rc" "${regs:-?}" "${l1:--}" "${l2:--}" "$all"
    done
  done
done | tee "$OUT/regs.txt"
tar czf "$OUT/regs.tgz" -C "$OUT" regs-logs && rm -rf "$L"
