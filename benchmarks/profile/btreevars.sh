#!/usr/bin/env bash
# GPU machine, one call: ld_btree's checked run as built (A), with timing-only
# header variants (variants.py letters, e.g. "S N NE"), and with register
# caps set at run time (A40: LDCHECK_MAX_REGISTERS=40), ROUNDS rounds
# alternating, beside its native run; then, unless PAGECHECKS=0, the model
# test of level 1's check kernels on the GPU and BenchmarkPageChecks (the
# check kernels' % of the copy bandwidth) on CASES.
#
# Here:  benchmarks/profile/pack.sh ld_btree                     (.dev/pack.tgz)
#        CGO_ENABLED=0 go test -c -o .dev/t/gpuruntime.test ./gpuruntime
# There: OUT=$OUT [VARS="S N"] [CAPS="40"] [ROUNDS=3] benchmarks/profile/btreevars.sh
#        (carry .dev/pack.tgz .dev/t)
set -u
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
VARS=${VARS:-"S N"}
CAPS=${CAPS:-"40"}
P=ld_btree
tar xzf .dev/pack.tgz
mkdir -p /tmp/inputs/$P-real
[ -f /tmp/inputs/$P-real/.done ] || { .dev/gen/$P -out /tmp/inputs/$P-real -size real >/dev/null && touch /tmp/inputs/$P-real/.done; }
.dev/bin/ldcheck compile --device-only --arch sm_90 .dev/rs/$P >"$OUT/compile-A.txt" 2>&1 || echo "COMPILEFAIL A"
for v in $VARS; do
  (rm -rf /tmp/v/$v && mkdir -p /tmp/v && cp -r .dev/rs/$P /tmp/v/$v &&
    python3 benchmarks/profile/variants.py /tmp/v/$v/include/rt/ldcheck_rt.h $v &&
    .dev/bin/ldcheck compile --device-only --arch sm_90 /tmp/v/$v >"$OUT/compile-$v.txt" 2>&1 || echo "VARFAIL $v") &
done
wait
echo "compiled $(el) s"
L=$(sed "s#@INPUTS@#/tmp/inputs/$P-real#g" benchmarks/$P/launch)
for k in $(seq 1 "${ROUNDS:-3}"); do
  .dev/bin/ldcheck run --backend cuda --warmup --unchecked -v $L .dev/rs/$P >"$OUT/native-$k.txt" 2>&1
  echo "$P native $k rc $?: $(grep ' ms' "$OUT/native-$k.txt" | tr -s ' ' | tr '\n' '|' | cut -c1-160)"
  for v in A $(for c in $CAPS; do echo A$c; done) $VARS; do
    d=/tmp/v/$v env=""
    case $v in A) d=.dev/rs/$P ;; A[0-9]*) d=.dev/rs/$P env=LDCHECK_MAX_REGISTERS=${v#A} ;; esac
    env $env .dev/bin/ldcheck run --backend cuda --warmup -v $L $d >"$OUT/var-$v-$k.txt" 2>&1
    echo "$P $v $k rc $?: $(grep ' ms' "$OUT/var-$v-$k.txt" | tr -s ' ' | tr '\n' '|' | cut -c1-160)"
  done
done
echo "variants done $(el) s"
if [ "${PAGECHECKS:-1}" != 0 ]; then
  .dev/t/gpuruntime.test -test.run 'TestPageKernelsMatchModelCUDA' -test.v >"$OUT/model.txt" 2>&1
  echo "TestPageKernelsMatchModelCUDA rc $?: $(grep -E '^(--- |ok|FAIL|PASS)' "$OUT/model.txt" | tr '\n' ' ' | cut -c1-200)"
  CASES=${CASES:-'PageChecks/(128B-1copy|120B-1copy|128B-2copies|128B-2copies-racy|128B-1to6copies|128B-1to19copies)/(ww|rw|ww\+final|slots-ww|slots-rw|slots-ww\+final)$'} \
    OUT=$OUT benchmarks/profile/checkvars.sh "" 2>&1 | tail -40
  grep -h "copy (device to device" "$OUT"/vars-1.txt | head -1
fi
echo "all $(el) s"
