#!/usr/bin/env bash
# Here (Go and libclang, no GPU): what benchmarks/profile/machine.sh and
# firstrun.sh unpack on the GPU machine, as .dev/pack.tgz: the tools
# (.dev/bin: ldcheck, realsize, cudasmoke; built with CGO_ENABLED=0, they
# need neither Go nor libclang there), the input generators (.dev/gen) and
# a build of every benchmark program (.dev/rs/NAME; or only the programs
# named). The GPU machine compiles the builds' device modules with nvcc
# (ldcheck compile --device-only), so what the build compiled here for the
# CPU and clang's PTX stay out of the pack (it must travel in 64 MiB).
#   benchmarks/profile/pack.sh ["P1 P2 ..."]
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .dev/bin .dev/gen .dev/rs
for t in ldcheck:cmd/ldcheck realsize:benchmarks/realsize cudasmoke:benchmarks/cudasmoke; do
  CGO_ENABLED=0 go build -o .dev/bin/${t%%:*} ./${t#*:}
done
P=${1:-$(for d in benchmarks/*/kernel.cu; do basename $(dirname $d); done)}
for p in $P; do
  g=$p; [ -f benchmarks/$p/gen-from ] && g=$(cat benchmarks/$p/gen-from) # (ld_nbody_racy's inputs are ld_nbody's)
  [ -d benchmarks/$g/gen ] && CGO_ENABLED=0 go build -o .dev/gen/$g ./benchmarks/$g/gen
done
# Two builds at a time: each is one core's work for most of its 20 s.
printf '%s\n' $P | xargs -P 2 -I{} sh -c 'rm -rf .dev/rs/{}; .dev/bin/ldcheck build -o .dev/rs/{} benchmarks/{}/kernel.cu >.dev/rs/{}.build.txt 2>&1 || echo BUILDFAIL {}'
tar czf .dev/pack.tgz --exclude='*.so' --exclude='*.ptx' .dev/bin .dev/gen $(printf '.dev/rs/%s ' $P)
ls -l .dev/pack.tgz
