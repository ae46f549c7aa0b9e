#!/usr/bin/env bash
# The checked launches of some script tests (cmd/ldcheck/testdata/script)
# on the GPU: each `exec ldcheck run --backend cpu` line of a script
# (--unchecked ones aside) run with --backend cuda and with --backend cpu
# on the GPU machine, against the script's own build of its k.cu, with the
# exit status the script expects ("!": not 0, and the same on both) beside
# both.
#
# Here (libclang): benchmarks/profile/scripts.sh pack "kept_stores stores_in_place ..."
#                  (.dev/sk: the builds, CPU libraries included, and the lines)
# GPU machine:     OUT=dir benchmarks/profile/scripts.sh run     (carry .dev/sk)
set -u
cd "$(dirname "$0")/../.."
case "${1:-}" in
pack)
  rm -rf .dev/sk && mkdir -p .dev/sk
  # (No cgo: libclang is loaded at run time here, and the GPU machine,
  # which has none, runs the same binary.)
  CGO_ENABLED=0 go build -o .dev/sk/ldcheck ./cmd/ldcheck || exit 1
  for s in $2; do
    f=cmd/ldcheck/testdata/script/$s.txtar
    mkdir -p .dev/sk/$s
    # k.cu: the archive's file of that name, to the next file marker.
    awk '/^-- /{on = ($2 == "k.cu"); next} on' "$f" >.dev/sk/$s/k.cu
    (cd .dev/sk/$s && ../ldcheck build k.cu >build.txt 2>&1) || echo "BUILDFAIL $s"
    # A line under an `env X=Y` of the script keeps it, as its first word.
    awk '/^-- /{exit} /^env [A-Z_]+=$/{e = ""; next} /^env /{e = $2; next} /^!? *exec ldcheck run --backend cpu/{print (e == "" ? "-" : e), $0}' "$f" |
      grep -v -- '--unchecked' | sed 's/ --out [^ ]*//g' >.dev/sk/$s/lines
  done
  ls .dev/sk
  ;;
run)
  bad=0 n=0
  printf '%-16s %-4s %-7s %-7s %s\n' script want cuda cpu launch
  for d in .dev/sk/*/; do
    s=$(basename "$d")
    while read -r e l; do
      [ "$e" = - ] && e=LDC_NONE=
      want=0
      case "$l" in '!'*) want='!0' ;; esac
      args=$(echo "$l" | sed 's/^! *//; s/^exec ldcheck run --backend cpu //')
      (cd "$d" && env "$e" timeout 120 ../ldcheck run --backend cuda $args >"$OUT/$s-$n-cuda.txt" 2>&1)
      rc=$?
      (cd "$d" && env "$e" timeout 120 ../ldcheck run --backend cpu $args >"$OUT/$s-$n-cpu.txt" 2>&1)
      rcc=$?
      ok=ok
      if [ "$want" = 0 ]; then [ "$rc" = 0 ] && [ "$rcc" = 0 ] || ok=DIFFER; else [ "$rc" != 0 ] && [ "$rc" = "$rcc" ] || ok=DIFFER; fi
      [ $ok = ok ] || bad=$((bad + 1))
      printf '%-16s %-4s %-7s %-7s %s %s\n' "$s" "$want" "$rc" "$rcc" "$ok" "$(echo "$args" | grep -o -- '--kernel [^ ]*' ) $(echo "$args" | grep -o -- '--arg [a-z0-9]*=[-0-9]*$\|--block [0-9]*' | tr '\n' ' ')"
      n=$((n + 1))
    done <"$d/lines"
  done
  echo "$n launches, $bad not as the scripts expect"
  ;;
*)
  echo "usage: scripts.sh pack \"S1 S2 ...\" | scripts.sh run" >&2
  exit 2
  ;;
esac
