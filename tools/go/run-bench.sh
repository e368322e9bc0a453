#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Go benchmarks: the seed's "bad random" table re-made beside math/rand/v2
# and this package, summarised with benchstat, written into BENCHMARKS.md
# (its Go section only). COUNT and BENCHTIME shorten or lengthen the run
# (defaults: 6 rounds of 0.5 s per benchmark, about 4 minutes).
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

out=$(cd "$out" && pwd)
# The cgo build and the pure-Go build (CGO_ENABLED=0) take turns: COUNT
# rounds, each one run of every benchmark of one build and then of the
# other, so a shared machine's load weighs on both builds alike, and each
# round holds a benchmark and its peers (math/rand/v2, crypto/rand) run
# within seconds of each other. bench_markdown.py takes each target's ratio
# round by round ("# round N" lines split them) and reports the median.
go test -c -o "$out/cgo.test" ./go
CGO_ENABLED=0 go test -c -o "$out/pure.test" ./go
: > "$out/raw.txt"
: > "$out/raw-pure.txt"
for round in $(seq "$count"); do
  echo "# round $round" | tee -a "$out/raw.txt" "$out/raw-pure.txt"
  (cd go && "$out/cgo.test" -test.run '^$' -test.bench . -test.benchtime "$benchtime") | tee -a "$out/raw.txt"
  (cd go && "$out/pure.test" -test.run '^$' -test.bench 'Uint64|Reader|ChaCha8$|PCG$|UUID' \
    -test.benchtime "$benchtime") | tee -a "$out/raw-pure.txt"
done
# google/uuid beside our UUID, from a module of its own (it fetches
# google/uuid once); the table is still written if that fails.
(cd bench/go-peer && go test -run '^$' -bench . -count "$count" -benchtime "$benchtime" .) |
  tee -a "$out/raw.txt" || echo "run-bench.sh: bench/go-peer failed; google/uuid left out" >&2
if [ -x "$gobin/benchstat" ]; then
  # From inside $out: benchstat heads its table with the file's name as
  # given, and BENCHMARKS.md names no path of the machine that ran it.
  (cd "$out" && "$gobin/benchstat" raw.txt) > "$out/benchstat.txt"
else
  : > "$out/benchstat.txt"
fi
python3 tools/go/bench_markdown.py "$out/raw.txt" "$out/benchstat.txt" "$out/go.md" "$out/raw-pure.txt"
python3 tools/bench_section.py go "$out/go.md" BENCHMARKS.md
echo "run-bench.sh: Go section of BENCHMARKS.md written ($out/go.md)"
