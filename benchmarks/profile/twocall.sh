#!/usr/bin/env bash
# GPU machine: the whole suite with racecheck in two calls on one machine
# (the second must start within the machine's idle release, so issue it
# at once), and timing-only header variants of one program (variants.py)
# beside it, compiled during the prep. What the forty-fifth session ran.
#
# Here: GSEL="K1 K2 ..." benchmarks/profile/pack.sh   (.dev/pack.tgz, .dev/gsel.tgz)
# There, call 1: BUDGET=585 OUT=$OUT benchmarks/profile/twocall.sh S1
#        call 2: BUDGET=470 OUT=$OUT benchmarks/profile/twocall.sh S2
# (carry .dev/pack.tgz and .dev/gsel.tgz in call 1; BUDGET: the seconds
# the call may take, under the device time left). S1: prep (compiles,
# inputs) and the first launches; S2: the rest, the table, gpucheck, then
# VARPROG's checked run as built (A), with LDCHECK_MAX_REGISTERS=$CAP
# (A$CAP, if CAP is set) and with each variant of VARS ("S": letters
# of variants.py), ROUNDS rounds. Each call leaves its files in $OUT as
# one tarball (a call brings back few files).
set -u
cd "$(dirname "$0")/../.."
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
B=${BUDGET:-585}
RC=${RCFLAGS:-"-racecheck=true -racecheck-timeout 5s"}
VP=${VARPROG:-ld_btree}
VARS=${VARS:-"S"}
pack() { (cd "$OUT" && tar czf /tmp/all-$1.tgz . && find . -mindepth 1 -delete && mv /tmp/all-$1.tgz .); }
case "${1:-}" in
S1)
  OUT=$OUT GSEL=.dev/gsel benchmarks/profile/machine.sh prep &
  prep=$!
  sleep 5 # (the pack unpacked)
  mkdir -p /tmp/v
  for v in $VARS; do
    (rm -rf /tmp/v/$v && cp -r .dev/rs/$VP /tmp/v/$v &&
      python3 benchmarks/profile/variants.py /tmp/v/$v/include/rt/ldcheck_rt.h $v &&
      nice -n 10 .dev/bin/ldcheck compile --device-only --arch sm_90 /tmp/v/$v >/tmp/v/$v.compile.txt 2>&1 || echo "VARFAIL $v") &
  done
  wait $prep
  wait # (the variants: compiled before this call ends, which would cut them)
  echo "prep done $(el) s"
  RESULTS=/tmp/rows.jsonl LIMIT=$((B - $(el) - 15)) OUT=$OUT benchmarks/profile/machine.sh run "" $RC 2>&1 | tail -50
  ;;
S2)
  RESULTS=/tmp/rows.jsonl LIMIT=$((B - ${GPUCHECK:-100} - ${AB:-50} - 15)) OUT=$OUT benchmarks/profile/machine.sh run "" $RC 2>&1 | tail -50
  echo "suite done $(el) s"
  LIMIT=${GPUCHECK:-100} OUT=$OUT benchmarks/profile/machine.sh gpucheck 2>&1 | tail -32
  echo "gpucheck done $(el) s"
  L=$(sed "s#@INPUTS@#/tmp/inputs/$VP-real#g" benchmarks/$VP/launch)
  for k in $(seq 1 "${ROUNDS:-2}"); do
    for v in A ${CAP:+A$CAP} $VARS; do
      [ "$(el)" -gt $((B - 15)) ] && break 2
      d=/tmp/v/$v env=""
      case $v in A) d=.dev/rs/$VP ;; A[0-9]*) d=.dev/rs/$VP env=LDCHECK_MAX_REGISTERS=$CAP ;; esac
      env $env .dev/bin/ldcheck run --backend cuda --warmup -v $L $d >"$OUT/var-$v-$k.txt" 2>&1
      echo "$VP $v $k rc $?: $(grep ' ms' "$OUT/var-$v-$k.txt" | tr -s ' ' | tr '\n' '|' | cut -c1-200)"
    done
  done
  ;;
*)
  echo "usage: twocall.sh S1|S2 (see the head of this file)" >&2
  exit 2
  ;;
esac
echo "$1 all $(el) s"
pack "$1"
