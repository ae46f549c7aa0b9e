#!/usr/bin/env bash
# Here (Go and libclang, no GPU): what benchmarks/profile/machine.sh and
# firstrun.sh unpack on the GPU machine, as .dev/pack.tgz: the tools
# (.dev/bin: ldcheck, realsize, cudasmoke; built with CGO_ENABLED=0, they
# need neither Go nor libclang there), the input generators (.dev/gen) and
# a build of every benchmark program (.dev/rs/NAME; or only the programs
# named). The GPU machine compiles the builds' device modules with nvcc
# (ldcheck compile --device-only), so what the build compiled here for the
# CPU and clang's PTX stay out of the pack (it must travel in 64 MiB).
# With GSEL="K1 K2 ..." (test kernels of testdata/acceptance and
# testdata/e2e), also their builds, CPU libraries included, as
# .dev/gsel.tgz, for machine.sh's gpucheck.
#   [GSEL="K1 K2 ..."] benchmarks/profile/pack.sh ["P1 P2 ..."]
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .dev/bin .dev/gen .dev/rs
for t in ldcheck:cmd/ldcheck realsize:benchmarks/realsize cudasmoke:benchmarks/cudasmoke gpucheck:benchmarks/gpucheck; do
  CGO_ENABLED=0 go build -o .dev/bin/${t%%:*} ./${t#*:}
done
P=${1:-$(for d in benchmarks/*/kernel.cu; do basename $(dirname $d); done)}
for p in $P; do
  g=$p; [ -f benchmarks/$p/gen-from ] && g=$(cat benchmarks/$p/gen-from) # (ld_nbody_racy's inputs are ld_nbody's)
  [ -d benchmarks/$g/gen ] && CGO_ENABLED=0 go build -o .dev/gen/$g ./benchmarks/$g/gen
done
# Two builds at a time: each runs up to four compilers at once (about 11 s on two cores).
printf '%s\n' $P | xargs -P 2 -I{} sh -c 'rm -rf .dev/rs/{}; .dev/bin/ldcheck build -o .dev/rs/{} benchmarks/{}/kernel.cu >.dev/rs/{}.build.txt 2>&1 || echo BUILDFAIL {}'
tar czf .dev/pack.tgz --exclude='*.so' --exclude='*.ptx' .dev/bin .dev/gen $(printf '.dev/rs/%s ' $P)
ls -l .dev/pack.tgz
if [ -n "${GSEL:-}" ]; then
  rm -rf .dev/gsel && mkdir -p .dev/gsel
  for k in $GSEL; do f=$(ls testdata/acceptance/$k.cu testdata/e2e/$k.cu 2>/dev/null | head -1); [ -n "$f" ] && echo "$f" || echo "no test kernel $k" >&2; done |
    xargs -P 2 -I{} sh -c 'n=$(basename {} .cu); .dev/bin/ldcheck build -o .dev/gsel/$n {} >/tmp/gsel-build-$n.txt 2>&1 || echo BUILDFAIL $n'
  tar czf .dev/gsel.tgz --exclude='*.ptx' .dev/gsel
  ls -l .dev/gsel.tgz
fi
