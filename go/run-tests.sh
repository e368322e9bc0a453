#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Go front end's checks: formatting, vet, the package tests under the
# race detector, and an outside consumer module built from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || { echo "run-tests.sh: go is not installed" >&2; exit 1; }
export CGO_ENABLED=1
# Go's build cache hashes only the package directory, not the ../src and
# ../include files its C wrappers include: key the cache on them too, or an
# edit of the C core would be tested through stale objects.
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} -DSHAKERAND_CORE_HASH=$(find src include -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)"
# The wrappers go/core_*.c are exactly the core's list, src/sources.txt.
cmake -DROOT="$PWD" -P cmake/check_go_wrappers.cmake
unformatted=$(gofmt -l go bench/go-peer)
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./go/...
go test -race -count=1 ./go/...
# Once more without -race: the race build changes sync.Pool's behaviour.
go test -count=1 ./go/...
# The shared vectors under each Keccak kernel (SHAKERAND_KERNEL forces one
# the CPU supports), and the package built by clang as well as gcc.
for kernel in portable avx2 avx512; do
  SHAKERAND_KERNEL=$kernel go test -count=1 -run 'Vectors|Samplers' ./go
done
if command -v clang >/dev/null; then
  CC=clang go test -count=1 ./go
fi
go/consumer-test.sh
# arm64 (little-endian, the generic kernels) and s390x (big-endian, the
# portable word path) through cgo cross builds under qemu-user, when the
# cross compilers are installed (tools/install-deps.sh cross).
for pair in arm64:aarch64 s390x:s390x; do
  goarch=${pair%%:*} triple=${pair##*:}-linux-gnu
  if command -v "$triple-gcc" >/dev/null && command -v "qemu-${pair##*:}" >/dev/null; then
    bin=$(mktemp)
    CGO_ENABLED=1 GOARCH=$goarch CC=$triple-gcc go test -c -o "$bin" ./go
    (cd go && "qemu-${pair##*:}" -L "/usr/$triple" "$bin" -test.count=1)
    rm -f "$bin"
    echo "cross $goarch: passed"
  else
    echo "cross $goarch: skipped (no $triple-gcc or qemu-${pair##*:})"
  fi
done
echo "run-tests.sh: Go front end passed"
