#!/usr/bin/env bash
# The Go front end's checks: formatting, vet, the package tests under the
# race detector, and an outside consumer module built from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || { echo "run-tests.sh: go is not installed" >&2; exit 1; }
export CGO_ENABLED=1
unformatted=$(gofmt -l go)
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./go/...
go test -race -count=1 ./go/...
# Once more without -race: the race build changes sync.Pool's behaviour.
go test -count=1 ./go/...
go/consumer-test.sh
echo "run-tests.sh: Go front end passed"
