#!/usr/bin/env bash
# GPU machine, one call: realsize over some benchmark programs (race-free
# timings, no racecheck), then the cuda-versus-cpu table of every test
# kernel. Builds in $BUILDS (default .dev/rs) and .dev/builds, tools in
# .dev/bin, generators in .dev/gen (see RESULTS.md for how they are made).
#
#   OUT=dir benchmarks/profile/suite.sh "P1,P2,..." [gpucheck]
set -u
cd "$(dirname "$0")/../.."
P=$1
BUILDS=${BUILDS:-.dev/rs}
for n in ${P//,/ }; do echo "${n%%/*}"; done | sort -u |
  xargs -P 12 -I{} sh -c ".dev/bin/ldcheck compile --device-only --arch sm_90 $BUILDS/{} >/dev/null 2>&1 || echo COMPILEFAIL {}"
if [ -n "$P" ]; then
  .dev/bin/realsize -only "$P" -arch '' -n 3 -racecheck=false -copy-gbps 2974 -timeout 150s -ldcheck .dev/bin/ldcheck \
    -gen .dev/gen -inputs /tmp/inputs -log "$OUT/rs.log" "$BUILDS" benchmarks >"$OUT/rs.txt" 2>&1
  grep -h "^#" "$OUT/rs.log" | grep -v '^# *\$ \|(exit' >"$OUT/phases.txt"
fi
if [ "${2:-}" = gpucheck ]; then
  .dev/bin/gpucheck -j 12 -ldcheck .dev/bin/ldcheck -log "$OUT/g.log" .dev/builds testdata/acceptance testdata/e2e >"$OUT/g.txt" 2>&1
  echo "gpucheck rc $?"; tail -4 "$OUT/g.txt" | cut -c1-200
fi
if [ -n "$P" ]; then grep -A40 "^program" "$OUT/rs.txt" | cut -c1-125; fi
