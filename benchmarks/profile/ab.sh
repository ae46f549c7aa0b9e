#!/usr/bin/env bash
# A against B: the checked runs of some programs with an earlier revision's
# ldcheck and builds (A) and the working tree's (B, benchmarks/profile/pack.sh),
# alternating, so that both see the same machine in the same minutes. Each
# revision needs its own ldcheck: a build carries the runtime header's hash
# and another ldcheck refuses it.
#
# Here (Go, libclang): .dev/oldbin/ldcheck and .dev/old/P for each program,
# carried as .dev/packold.tgz:
#   benchmarks/profile/ab.sh pack REV "P1 P2 ..."
# GPU machine (after pack.sh's .dev/pack.tgz is unpacked, e.g. by
# machine.sh prep, or for these programs only: tar xzf .dev/pack.tgz):
#   OUT=dir benchmarks/profile/ab.sh run "P1 P2 ..." [RUNS]
# Prints, per program and run, the phases of `ldcheck run --backend cuda
# --warmup -v` for A, then B. Extra environment (LDCHECK_MAX_REGISTERS...)
# applies to both.
set -u
cd "$(dirname "$0")/../.."
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# gensrc: the program whose generator makes P's inputs (its gen-from, as
# realsize reads it; ld_nbody_racy's are ld_nbody's).
gensrc() { if [ -f benchmarks/$1/gen-from ]; then cat benchmarks/$1/gen-from; else echo $1; fi; }
case "${1:-}" in
pack)
  rev=$2
  rm -rf /tmp/ab-wt .dev/old .dev/oldbin && mkdir -p .dev/old .dev/oldbin
  git worktree add -f /tmp/ab-wt "$rev" >/dev/null || exit 1
  (cd /tmp/ab-wt && CGO_ENABLED=0 go build -o "$OLDPWD/.dev/oldbin/ldcheck" ./cmd/ldcheck) || exit 1
  git worktree remove --force /tmp/ab-wt
  for p in $3; do .dev/oldbin/ldcheck build -o .dev/old/$p benchmarks/$p/kernel.cu >/tmp/ab-$p.txt 2>&1 || echo "BUILDFAIL $p (/tmp/ab-$p.txt)"; done
  tar czf .dev/packold.tgz --exclude='*.so' --exclude='*.ptx' .dev/oldbin .dev/old
  ls -l .dev/packold.tgz
  ;;
run)
  t=$(date +%s%N)
  tar xzf .dev/packold.tgz
  for p in $2; do
    g=$(gensrc $p)
    o=/tmp/inputs/$g-real
    [ -d benchmarks/$g/gen ] && [ ! -f $o/.done ] && { mkdir -p $o; (.dev/gen/$g -out $o -size real >/dev/null 2>&1 && touch $o/.done) & }
    (.dev/oldbin/ldcheck compile --device-only --arch sm_90 .dev/old/$p >"$OUT/old-$p.compile.txt" 2>&1 || echo "COMPILEFAIL old $p") &
    ls .dev/rs/$p/*.cubin >/dev/null 2>&1 || (.dev/bin/ldcheck compile --device-only --arch sm_90 .dev/rs/$p >"$OUT/new-$p.compile.txt" 2>&1 || echo "COMPILEFAIL new $p") &
  done
  wait
  echo "prep $(ms $t) ms"
  for k in $(seq 1 "${3:-2}"); do
    for p in $2; do
      L=$(sed "s#@INPUTS@#/tmp/inputs/$(gensrc $p)-real#g" benchmarks/$p/launch)
      for v in old:.dev/oldbin/ldcheck:.dev/old new:.dev/bin/ldcheck:.dev/rs; do
        IFS=: read -r name bin dir <<<"$v"
        "$bin" run --backend cuda --warmup -v $L "$dir/$p" >"$OUT/$name-$p-$k.txt" 2>&1
        echo "$p $name $k (rc $?): $(grep ' ms' "$OUT/$name-$p-$k.txt" | tr -s ' ' | tr '\n' '|' | cut -c1-300)"
      done
    done
  done
  ;;
*)
  echo "usage: ab.sh pack REV \"P1 P2 ...\" | ab.sh run \"P1 P2 ...\" [RUNS]" >&2
  exit 2
  ;;
esac
