#!/usr/bin/env bash
# GPU machine: the checked runs of some programs with the instrumented
# kernels' registers capped (LDCHECK_MAX_REGISTERS), to see what occupancy
# buys. Builds in .dev/rs already compiled for the GPU (suite.sh does it).
#
#   OUT=dir benchmarks/profile/regcap.sh "P1,P2,..." "0 64 48"
set -u
cd "$(dirname "$0")/../.."
P=$1
for cap in $2; do
  LDCHECK_MAX_REGISTERS=$cap .dev/bin/realsize -only "$P" -arch '' -n 1 -racecheck=false -copy-gbps 2974 -timeout 150s -ldcheck .dev/bin/ldcheck \
    -gen .dev/gen -inputs /tmp/inputs -log "$OUT/cap$cap.log" .dev/rs benchmarks >"$OUT/cap$cap.txt" 2>&1
  echo "== cap $cap"
  grep -A30 "^program" "$OUT/cap$cap.txt" | awk 'NF>8 && $1!="program" {printf "%-16s %s %10s %10s\n", $1, $4, $7, $8}'
done
