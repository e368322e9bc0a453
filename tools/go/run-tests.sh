#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Go front end's checks: formatting, vet, the package tests under the
# race detector, the vectors and the chacha8rand oracle under every kernel
# (on arm64 under qemu-user), and an outside consumer module built from this
# checkout.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v go >/dev/null || { echo "run-tests.sh: go is not installed" >&2; exit 1; }
export CGO_ENABLED=1
# The C files cgo compiles (src/, src/entropy/) are exactly src/sources.txt.
cmake -DROOT="$PWD" -P cmake/check_core_sources.cmake
unformatted=$(gofmt -l go bench/go-peer examples/go)
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./go/...
# The google/uuid peer module of the benchmarks (it fetches google/uuid).
(cd bench/go-peer && go vet ./...)
go test -race -count=1 ./go/...
# Once more without -race: the race build changes sync.Pool's behaviour.
go test -count=1 ./go/...
# The pure-Go build (CGO_ENABLED=0): vet and the whole suite (the shared
# vectors, the API, the system generator in Go).
CGO_ENABLED=0 go vet ./go/... ./src/... ./include
CGO_ENABLED=0 go test -count=1 ./go/...
# Its chacha8rand kernel: internal/purego's tests run the portable and the
# assembly kernel (AVX2 on amd64, NEON on arm64) side by side in every run;
# here they run again with the assembly left out (the purego build tag).
CGO_ENABLED=0 go test -count=1 -tags purego ./go/internal/purego
CGO_ENABLED=0 go vet -tags purego ./go/...
CGO_ENABLED=0 GOARCH=arm64 go vet ./go/internal/purego
# The pure-Go build for GOOS=js in Node (Go's own wasm runner), where the
# seed comes from crypto.getRandomValues: the whole package suite, the
# host entropy check with a stub in its place included.
if command -v node >/dev/null; then
  PATH="$PATH:$(go env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm CGO_ENABLED=0 go test -count=1 ./go
fi
echo "pure-Go build: passed"
# verdict CMD...: runs a verbose test command and prints the kernel its
# tests saw, every skip with its reason and the verdict; all of its output
# if it fails.
verdict() {
  local log rc=0
  log=$(mktemp)
  "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    cat "$log"
    rm -f "$log"
    return "$rc"
  fi
  grep -o 'kernel [a-z0-9]* ([A-Z_a-z]*)' "$log" | sort -u | sed 's/^/  /' || true
  # go test -v prints a test's skip reason just before its "--- SKIP" line.
  grep -B1 -- '--- SKIP' "$log" | grep -v -e '^--$' -e '^=== ' | sed 's/^ */  /' || true
  grep -E '^(ok|PASS)' "$log" | tail -1 | sed 's/^/  /'
  rm -f "$log"
}
# The shared vectors and the chacha8rand oracle (math/rand/v2) under each
# kernel of this architecture: SHAKERAND_KERNEL forces one, and the oracle
# tests fail if another runs, or skip, saying so, if the CPU lacks it.
case $(go env GOARCH) in
  amd64) kernels="portable avx2 avx512" ;;
  arm64) kernels="portable neon" ;;
  *) kernels=portable ;;
esac
for kernel in $kernels; do
  echo "SHAKERAND_KERNEL=$kernel:"
  SHAKERAND_KERNEL=$kernel verdict go test -count=1 -v -run 'Vectors|Samplers|ChaCha8Oracle' ./go
done
# The package built by clang as well as gcc.
if command -v clang >/dev/null; then
  CC=clang go test -count=1 ./go
fi
tools/go/consumer-test.sh
# examples/go: its own module on this checkout through a replace (README,
# "Use it from a checkout"), with cgo and in pure Go; it checks a seeded
# value itself and prints that line only if it matched.
(cd examples/go && GOPROXY=off go vet . &&
  GOPROXY=off go run . | grep -qx 'seeded  db9c412e11a2fdadddfe0e8df43bb39a' &&
  CGO_ENABLED=0 GOPROXY=off go run . | grep -qx 'kernel  purego') ||
  { echo "examples/go failed" >&2; exit 1; }
echo "examples/go: cgo and pure-Go builds ran"
# arm64 (little-endian, the NEON and portable kernels) and s390x
# (big-endian, the portable kernels and word path) through cgo cross builds
# under qemu-user, when the cross compilers are installed
# (tools/install-deps.sh cross); on arm64 the vectors and the chacha8rand
# oracle run once more under each kernel.
for pair in arm64:aarch64 s390x:s390x; do
  goarch=${pair%%:*} triple=${pair##*:}-linux-gnu
  if command -v "$triple-gcc" >/dev/null && command -v "qemu-${pair##*:}" >/dev/null; then
    bin=$(mktemp)
    CGO_ENABLED=1 GOARCH=$goarch CC=$triple-gcc go test -c -o "$bin" ./go
    (cd go && "qemu-${pair##*:}" -L "/usr/$triple" "$bin" -test.count=1)
    if [ "$goarch" = arm64 ]; then
      for kernel in neon portable; do
        echo "cross $goarch, SHAKERAND_KERNEL=$kernel:"
        (cd go && SHAKERAND_KERNEL=$kernel verdict qemu-aarch64 -L "/usr/$triple" "$bin" \
          -test.count=1 -test.v -test.run 'Vectors|ChaCha8Oracle')
      done
    fi
    rm -f "$bin"
    # The pure-Go build's suite on the same architecture (big-endian on
    # s390x: the Go engines' byte order).
    CGO_ENABLED=0 GOARCH=$goarch go test -c -o "$bin" ./go
    (cd go && "qemu-${pair##*:}" "$bin" -test.count=1)
    # internal/purego runs its assembly kernel (NEON on arm64) beside the
    # portable one.
    CGO_ENABLED=0 GOARCH=$goarch go test -c -o "$bin" ./go/internal/purego
    echo "cross $goarch, pure-Go build, internal/purego:"
    (cd go/internal/purego && verdict "qemu-${pair##*:}" "$bin" -test.count=1 -test.v)
    rm -f "$bin"
    echo "cross $goarch: passed"
  else
    echo "cross $goarch: skipped (no $triple-gcc or qemu-${pair##*:})"
  fi
done
echo "run-tests.sh: Go front end passed"
