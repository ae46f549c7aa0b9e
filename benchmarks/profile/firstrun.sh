#!/usr/bin/env bash
# GPU machine: compile the named builds at once (ldcheck compile --device-only
# --arch sm_90, timing each), generate their inputs, then realsize over them:
# the checked wall of a first run (JIT or cubins) and the slowdowns.
#   OUT=dir benchmarks/profile/firstrun.sh "P1 P2 ..."
set -u
cd "$(dirname "$0")/../.."
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
P=$1; shift
t=$(date +%s%N)
[ -f .dev/pack.tgz ] && tar xzf .dev/pack.tgz
for p in $P; do o=/tmp/inputs/$p-real
  [ -f $o/.done ] || { mkdir -p $o; (.dev/gen/$p -out $o -size real >/dev/null 2>&1 && touch $o/.done) & }
done
for p in $P; do ( s=$(date +%s%N); .dev/bin/ldcheck compile --device-only --arch sm_90 .dev/rs/$p >.dev/rs/$p.compile.txt 2>&1 || echo COMPILEFAIL $p; echo "compile $p $(ms $s) ms" ) & done
wait
first=${P%% *}
echo "prep $(ms $t) ms; cubins of $first: $(ls .dev/rs/$first/ | grep cubin | tr '\n' ' ')"
t=$(date +%s%N)
.dev/bin/realsize -only "$(echo $P | tr ' ' ',')" -arch '' -n 3 -racecheck=false -timeout 150s -ldcheck .dev/bin/ldcheck \
  -gen .dev/gen -inputs /tmp/inputs -log "$OUT/rs.log" "$@" .dev/rs benchmarks >"$OUT/rs.txt" 2>&1
echo "realsize rc $? wall $(ms $t) ms"
grep -h "^#" "$OUT/rs.log" | grep -v '^# *\$ \|(exit' >"$OUT/phases.txt"
grep -A45 "^program" "$OUT/rs.txt" | cut -c1-24,98-125,190-232
