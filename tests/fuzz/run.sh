#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the libFuzzer targets (clang-16, ASan + UBSan), replays every
# regression input, then fuzzes each target for SECONDS from the seed corpus.
# Usage: tests/fuzz/run.sh SECONDS [BUILD_DIR]
set -eu
seconds=${1:?usage: run.sh SECONDS [BUILD_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$root/build-fuzz}
CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSHAKERAND_BUILD_TESTS=OFF -DSHAKERAND_BUILD_CLI=OFF -DSHAKERAND_BUILD_EXAMPLES=OFF \
    -DSHAKERAND_BUILD_FUZZ=ON -DSHAKERAND_SANITIZE=address,undefined >/dev/null
cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1 || { cat "$build/build.log" >&2; exit 1; }
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer || true)}
mkdir -p "$build/artifacts"

# Self-checks, from an empty corpus within the time given: the engine
# harness with a wrong stream must fail its comparison, and the big-range
# harness with a planted heap overflow must be stopped by AddressSanitizer.
for check in "engine:deadly signal:a wrong stream" "below:heap-buffer-overflow:a heap overflow"; do
    target=${check%%:*} rest=${check#*:}
    expect=${rest%%:*} what=${rest#*:}
    planted=$(mktemp -d)
    (cd "$planted" && "$build/tests/fuzz/fuzz_${target}_planted" -max_total_time="$seconds" \
        -close_fd_mask=2 -artifact_prefix="$planted/" >"$planted/log" 2>&1) || true
    if ! grep -q "$expect" "$planted/log"; then
        echo "fuzz self-check: $what planted in fuzz_$target was NOT found in ${seconds}s" >&2
        exit 1
    fi
    echo "fuzz self-check: $what planted in fuzz_$target found ($expect, after $(grep -o '#[0-9]*' "$planted/log" | tail -1 | tr -d '#') inputs)"
    rm -rf "$planted"
done
# One target: replay its regressions, then fuzz; prints its line, or its
# log's tail and fails.
fuzz_one() { # target
    target=$1
    fuzzer="$build/tests/fuzz/fuzz_$target"
    work=$(mktemp -d) # new corpus entries and the CLI's -o files land here
    regressions="$root/tests/fuzz/regressions/$target"
    if [ -d "$regressions" ]; then
        (cd "$work" && "$fuzzer" "$regressions"/* >"$work/replay.log" 2>&1) ||
            { cat "$work/replay.log"; echo "fuzz $target: a regression input fails" >&2; return 1; }
    fi
    mkdir "$work/corpus"
    if (cd "$work" && "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
            "$work/corpus" "$root/tests/fuzz/corpus/$target" >"$work/log" 2>&1); then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
        cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -1)
        echo "fuzz $target: ${seconds}s, $runs inputs, $cov, no failure"
        rm -rf "$work"
    else
        tail -40 "$work/log"
        echo "fuzz $target: FAILED, input saved under $build/artifacts/ (add it to tests/fuzz/regressions/$target/)" >&2
        return 1
    fi
}
# As many targets at once as there are cores (each fuzzer is one process),
# each with its output kept apart and printed in order.
jobs=$(nproc 2>/dev/null || echo 1)
status=0
set -- xof engine below cli
while [ $# -gt 0 ]; do
    batch=""
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$jobs" ]; do
        fuzz_one "$1" >"$build/fuzz-$1.out" 2>&1 &
        batch="$batch $1:$!"
        shift
        i=$((i + 1))
    done
    for entry in $batch; do
        wait "${entry#*:}" || status=1
        cat "$build/fuzz-${entry%%:*}.out"
    done
done
exit $status
