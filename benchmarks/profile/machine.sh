#!/usr/bin/env bash
# Builds in .dev/rs, tools in .dev/bin, generators in .dev/gen, carried as .dev/pack.tgz (see RESULTS.md).
# GPU machine. prep: unpack, compile every build (nvcc + ptxas SASS, 12 at once),
# generate every real-size input; then time a checked run of ld_btree (cold JIT cache).
# run: the whole suite (or "P1,P2") in one realsize run, builds already compiled.
# With RESULTS=file, realsize keeps each finished launch there (-results) and
# skips those already in it: the same call, repeated, goes on where the last
# one stopped (realsize is cut at LIMIT seconds, default 570, inside the
# 10-minute limit of a call), and each prints the table of all so far.
# With GSEL=dir (test kernels' builds, e.g. .dev/gsel from a .dev/gsel.tgz
# beside the pack, CPU libraries included), prep also compiles those, in
# the background at low priority, for `gpucheck`: the test kernels on
# both backends with -compile=false (level 2 in one pass where proved),
# after the suite, on the same machine.
#   OUT=dir [GSEL=.dev/gsel] benchmarks/profile/machine.sh prep
#   OUT=dir [RESULTS=/tmp/rows.jsonl] benchmarks/profile/machine.sh run [P1,P2,...] [extra realsize flags]
#   OUT=dir [LIMIT=s] benchmarks/profile/machine.sh gpucheck [dir]
set -u
cd "$(dirname "$0")/../.."
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
if [ "$1" = gpucheck ]; then
  d=${2:-.dev/gsel}
  cat /tmp/gsel.log 2>/dev/null
  # Builds the prep's background compiles left without a device module
  # (they end with the call that started them: forty-fifth session, two
  # kernels cut), compiled now, before the table.
  for b in "$d"/*/; do ls "$b"*.ptx >/dev/null 2>&1 || echo "$b"; done |
    xargs -r -P 12 -I{} sh -c ".dev/bin/ldcheck compile --device-only --arch sm_90 {} >/dev/null 2>&1 || echo GSELFAIL {}"
  set -o pipefail
  timeout ${LIMIT:-300} .dev/bin/gpucheck -compile=false -j 12 -ldcheck .dev/bin/ldcheck -run-flags "--intra-warp=false" -log "$OUT/gpucheck.log" "$d" testdata/acceptance testdata/e2e 2>&1 | tail -30
  exit # (gpucheck's status: 1 where the backends disagree, 124 cut at LIMIT)
fi
if [ "$1" = prep ]; then
  t=$(date +%s%N)
  [ -f .dev/pack.tgz ] && tar xzf .dev/pack.tgz
  if [ -n "${GSEL:-}" ]; then
    [ -f .dev/gsel.tgz ] && tar xzf .dev/gsel.tgz
    (ls "$GSEL" | xargs -P 3 -I{} sh -c "nice -n 19 .dev/bin/ldcheck compile --device-only --arch sm_90 $GSEL/{} >/tmp/gsel-{}.txt 2>&1 || echo GSELFAIL {}"; echo "gsel compiled") >/tmp/gsel.log 2>&1 &
  fi
  echo "unpack $(ms $t) ms"; t=$(date +%s%N)
  gens=""
  for d in benchmarks/*/gen; do p=$(basename $(dirname $d)); o=/tmp/inputs/$p-real
    [ -f $o/.done ] || { mkdir -p $o; (.dev/gen/$p -out $o -size real >/dev/null 2>&1 && touch $o/.done) & gens="$gens $!"; }
  done
  ls .dev/rs | xargs -P 12 -I{} sh -c ".dev/bin/ldcheck compile --device-only --arch sm_90 .dev/rs/{} >.dev/rs/{}.compile.txt 2>&1 || echo COMPILEFAIL {}"
  # The generators only: a bare wait also waited for GSEL's compiles, in
  # the background at low priority, and took the whole call (thirty-ninth
  # session: cut at 600 s).
  [ -z "$gens" ] || wait $gens
  echo "compile+gen $(ms $t) ms; cubins: $(ls .dev/rs/*/*.cubin | wc -l); builds: $(ls -d .dev/rs/*/ | wc -l)"
  grep -h "SASS" .dev/rs/*.compile.txt | sort | uniq -c | sort -rn | head -5 | cut -c1-200
  cp .dev/rs/ld_btree.compile.txt $OUT/ 2>/dev/null
  p=ld_btree; L=$(sed "s#@INPUTS@#/tmp/inputs/$p-real#g" benchmarks/$p/launch)
  for k in 1 2; do t=$(date +%s%N); .dev/bin/ldcheck run --backend cuda -v $L .dev/rs/$p >$OUT/btree-$k.txt 2>&1; echo "btree checked run $k: rc $? wall $(ms $t) ms; $(grep ' ms' $OUT/btree-$k.txt | sed 's/  */ /g' | tr '\n' '|')"; done
  exit 0
fi
P=${2:-$(ls .dev/rs | grep -v '\.' | tr '\n' ',' | sed 's/,$//')}
shift; shift
t=$(date +%s%N)
timeout ${LIMIT:-570} .dev/bin/realsize -only "$P" -arch '' -n 3 -racecheck=false -timeout 150s -ldcheck .dev/bin/ldcheck ${RESULTS:+-results "$RESULTS"} \
  -gen .dev/gen -inputs /tmp/inputs -log "$OUT/rs.log" "$@" .dev/rs benchmarks >"$OUT/rs.txt" 2>&1
echo "realsize rc $? wall $(ms $t) ms (124: cut at ${LIMIT:-570} s; with RESULTS, the same call again goes on)"
[ -n "${RESULTS:-}" ] && cp "$RESULTS" "$OUT/" 2>/dev/null
grep -h "^#" "$OUT/rs.log" | grep -v '^# *\$ \|(exit' >"$OUT/phases.txt"
grep -A45 "^program" "$OUT/rs.txt" | cut -c1-125
