#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# An outside program that imports the package builds and runs with nothing
# but Go and a C compiler, two ways:
#   1. a `replace` directive pointing at this checkout;
#   2. as `go get` would see it: a module zip of the tree git would commit served
#      from a file:// proxy, so the build runs from the read-only module
#      cache (this is what proves src/ and include/ travel with the module).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
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
	fmt.Println("consumer ok", r.IntN(6) < 6, shakerand.UUID().String()[14] == '4',
		shakerand.Int(big.NewInt(1000)).Cmp(big.NewInt(1000)) < 0, len(shakerand.Text()))
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
echo "consumer-test: both ways build and run"
