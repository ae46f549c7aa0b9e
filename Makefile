# ldcheck: the two commands a fresh Debian/Ubuntu machine needs (see README.md).
#
#   make example   install what is missing, build ldcheck, check examples/reduce_racy.cu
#   make test      install what is missing, run the whole test suite
#
# The tests need libclang 15 (the front end), clang-15 (compiling instrumented
# kernels to PTX) and a C++ compiler (the CPU backend). No GPU, no CUDA toolkit.

GO      ?= go
BIN     := bin/ldcheck
APT_PKGS := libclang-15-dev clang-15 g++
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build example test vet clean

all: build

# deps installs the Debian packages that are not there yet (apt-get update
# only when something must be installed).
deps:
	@missing=""; for p in $(APT_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# The binary needs no cgo: libclang and libcuda are loaded at run time, so it
# also runs on GPU machines that have neither Go nor libclang.
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/ldcheck

# The example has a race: `ldcheck run` reports it and exits 1, which is
# what this target checks (any other status fails it).
example: deps build
	$(BIN) build -o examples/reduce_racy.ldcheck examples/reduce_racy.cu
	$(BIN) run --grid 64 --block 256 --arg in=float[16384]:rand --arg out=float[64]:zero examples/reduce_racy.ldcheck; test $$? -eq 1

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# The end-to-end packages build and run dozens of kernels on the CPU
# backend: minutes on a small machine, past go test's default 10-minute
# limit when the packages share two cores. cmd/ldcheck alone took 45-52
# minutes on such a machine (2026-11-24..28): 85 leaves room under CI's 90.
test: deps vet
	$(GO) test -timeout 85m ./...

clean:
	rm -rf bin examples/*.ldcheck
