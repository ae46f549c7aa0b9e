#!/usr/bin/env bash
# GPU machine: warp-stall reasons and per-instruction samples of one launch
# of a benchmark program's checked run (the level-2 kernel is launch 3:
# pass 1, pass 2, level 2, so SKIP=2).
#
#   OUT=dir benchmarks/profile/stalls.sh PROGRAM SKIP
#
# Prints the twelve largest stall reasons; writes $OUT/PROGRAM-sass.csv
# (ncu's source page: samples and executions per SASS instruction).
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
LDCHECK=${LDCHECK:-$R/.dev/bin/ldcheck}
BUILDS=${BUILDS:-$R/.dev/rs}
p=$1
d=/tmp/stalls-$p
rm -rf "$d" && cp -r "$BUILDS/$p" "$d" || exit 1
# SKIPCOMPILE=1: the build was compiled there already (its cubins come along).
[ "${SKIPCOMPILE:-}" = 1 ] || "$LDCHECK" compile --device-only --arch sm_90 "$d" >/dev/null || exit 1
# Generated inputs (@INPUTS@): where suite.sh's realsize run left them.
L=$(sed "s#@INPUTS@#${INPUTS:-/tmp/inputs}/$p-real#g" "$R/benchmarks/$p/launch")
K=$(echo "$L" | sed 's/.*--kernel \([^ ]*\).*/\1/')
ncu --clock-control none -k regex:"^$K" --launch-skip "$2" --launch-count 1 --section WarpStateStats --section SourceCounters \
  --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' --import-source yes -o "$OUT/$p" \
  "$LDCHECK" run --backend cuda --format json $L "$d" >/dev/null
ncu --import "$OUT/$p.ncu-rep" --page raw --csv | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
head, vals = rows[0], rows[-1]
xs = []
for i, h in enumerate(head):
    v = vals[i].replace(",", "")
    if "issue_stalled" in h and v.replace(".", "").isdigit():
        xs.append((float(v), h))
for x, h in sorted(xs, reverse=True)[:12]:
    print("%12.3f %s" % (x, h))
'
ncu --import "$OUT/$p.ncu-rep" --page source --csv --print-source sass >"$OUT/$p-sass.csv"
rm -f "$OUT/$p.ncu-rep"
