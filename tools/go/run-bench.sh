#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Go benchmarks: the seed's "bad random" table re-made beside math/rand/v2
# and this package, summarised with benchstat, written into BENCHMARKS.md
# (its Go section only). COUNT and BENCHTIME shorten or lengthen the run
# (defaults: 6 runs of 0.5 s per benchmark, about 3 minutes).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
count=${COUNT:-6}
benchtime=${BENCHTIME:-0.5s}
out=${OUT:-build-bench-go}
mkdir -p "$out"
export CGO_ENABLED=1

gobin=$(go env GOPATH)/bin
if [ ! -x "$gobin/benchstat" ]; then
  go install golang.org/x/perf/cmd/benchstat@latest ||
    echo "run-bench.sh: benchstat could not be installed; the summary is left out" >&2
fi

go test -run '^$' -bench . -count "$count" -benchtime "$benchtime" ./go | tee "$out/raw.txt"
# google/uuid beside our UUID, from a module of its own (it fetches
# google/uuid once); the table is still written if that fails.
(cd bench/go-peer && go test -run '^$' -bench . -count "$count" -benchtime "$benchtime" .) |
  tee -a "$out/raw.txt" || echo "run-bench.sh: bench/go-peer failed; google/uuid left out" >&2
if [ -x "$gobin/benchstat" ]; then
  "$gobin/benchstat" "$out/raw.txt" > "$out/benchstat.txt"
else
  : > "$out/benchstat.txt"
fi
# The pure-Go build's figures, same session.
CGO_ENABLED=0 go test -run '^$' -bench 'Uint64|Reader|ChaCha8$|PCG$|UUID' -count "$count" \
  -benchtime "$benchtime" ./go | tee "$out/raw-pure.txt"
python3 tools/go/bench_markdown.py "$out/raw.txt" "$out/benchstat.txt" "$out/go.md" "$out/raw-pure.txt"
python3 tools/bench_section.py go "$out/go.md" BENCHMARKS.md
echo "run-bench.sh: Go section of BENCHMARKS.md written ($out/go.md)"
