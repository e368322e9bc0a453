#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# An outside program that imports the package builds and runs:
#   1. through a `replace` directive pointing at this checkout: with cgo
#      (Go and a C compiler), with CGO_ENABLED=0 (Go alone), and from
#      `go mod vendor` both ways; cross-compiled with CGO_ENABLED=0 for
#      linux/arm64, linux/s390x, darwin/arm64 and windows/amd64, the two
#      Linux ones run under qemu-user when it is installed;
#   2. as `go get` would see it: a module zip of the tree git would commit served
#      from a file:// proxy, so the build runs from the read-only module
#      cache (this is what proves src/ and include/ travel with the module).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOFLAGS=-mod=mod GOSUMDB=off GOTOOLCHAIN=local CGO_ENABLED=1

write_main() {
  cat > "$1/main.go" <<'GO'
package main

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	shakerand "github.com/shakerand/shakerand/go"
)

func main() {
	r := rand.New(shakerand.NewSource())
	s := shakerand.NewSeeded(shakerand.TurboSHAKE256, nil)
	// The first word of TurboSHAKE256 with an empty seed (vectors/shakerand.json).
	if w := s.Uint64(); w != 0x1c87eaaf9d327a36 {
		panic(fmt.Sprintf("seeded stream: %x", w))
	}
	fmt.Println("consumer ok", shakerand.Kernel(), r.IntN(6) < 6, shakerand.NewUUID().String()[14] == '4',
		shakerand.BigIntN(big.NewInt(1000)).Cmp(big.NewInt(1000)) < 0, len(shakerand.Text()))
}
GO
}

# 1. replace
mkdir -p "$work/replace"
cd "$work/replace"
cat > go.mod <<EOF2
module example.com/consumer

go 1.24

require github.com/shakerand/shakerand v0.0.0

replace github.com/shakerand/shakerand => $root
EOF2
write_main .
GOPROXY=off go build -o consumer . && ./consumer
GOPROXY=off CGO_ENABLED=0 go build -o consumer-pure . && ./consumer-pure | grep -q "consumer ok purego"
./consumer-pure
for target in linux/arm64 linux/s390x linux/ppc64le darwin/arm64 windows/amd64 freebsd/amd64; do
  GOPROXY=off CGO_ENABLED=0 GOOS=${target%/*} GOARCH=${target#*/} go build -o "consumer-${target/\//-}" .
done
for pair in arm64:aarch64 s390x:s390x; do
  if command -v "qemu-${pair#*:}" >/dev/null; then
    echo -n "linux/${pair%:*} under qemu: "
    "qemu-${pair#*:}" "./consumer-linux-${pair%:*}"
  fi
done
echo "cross builds (CGO_ENABLED=0): linux/arm64 linux/s390x linux/ppc64le darwin/arm64 windows/amd64 freebsd/amd64"
# go mod vendor: the C core's directories are Go packages, so they are copied.
GOPROXY=off go mod vendor
test -f vendor/github.com/shakerand/shakerand/src/engine.c
test -f vendor/github.com/shakerand/shakerand/src/entropy/os.c
test -f vendor/github.com/shakerand/shakerand/include/shakerand.h
GOPROXY=off go build -mod=vendor -o consumer-vendored . && ./consumer-vendored
GOPROXY=off CGO_ENABLED=0 go build -mod=vendor -o consumer-vendored-pure . && ./consumer-vendored-pure
echo "vendored: cgo and pure-Go builds run"

# 2. module zip through a file:// proxy
ver=v0.0.0-20000101000000-000000000000
mod=github.com/shakerand/shakerand
proxy="$work/proxy/$mod/@v"
mkdir -p "$proxy" "$work/zip"
# The files git would commit (tracked and new, minus ignored ones).
mkdir -p "$work/zip/$mod@$ver"
(cd "$root" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
  tar -x -C "$work/zip/$mod@$ver"
# Like the go command, leave out directories that are modules of their own
# (bench/go-peer); src/ and include/ must stay in.
(cd "$work/zip/$mod@$ver" &&
  find . -mindepth 2 -name go.mod -printf '%h\n' | xargs -r rm -rf &&
  test -f src/engine.c && test -f include/shakerand.h)
(cd "$work/zip" && zip -qr "$proxy/$ver.zip" "$mod@$ver")
cp "$root/go.mod" "$proxy/$ver.mod"
echo "{\"Version\":\"$ver\",\"Time\":\"2000-01-01T00:00:00Z\"}" > "$proxy/$ver.info"
echo "$ver" > "$proxy/list"
mkdir -p "$work/proxied"
cd "$work/proxied"
cat > go.mod <<EOF2
module example.com/consumer

go 1.24

require github.com/shakerand/shakerand $ver
EOF2
write_main .
GOPROXY="file://$work/proxy" GOMODCACHE="$work/modcache" GOFLAGS=-mod=mod go build -o consumer . && ./consumer
echo "consumer-test: every way builds and runs"
