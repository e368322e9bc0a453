#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Streams 1 GiB from the CLI through a pipe and reports the throughput.
set -eu
cli="$1"
bytes=$((1024 * 1024 * 1024))
start=$(date +%s.%N)
got=$("$cli" bytes -n 1G | wc -c)
end=$(date +%s.%N)
[ "$got" -eq "$bytes" ] || { echo "demo: expected $bytes bytes, got $got" >&2; exit 1; }
awk -v s="$start" -v e="$end" -v b="$bytes" 'BEGIN {
    t = e - s
    printf "streamed 1 GiB of secure random bytes through a pipe in %.2f s: %.0f MB/s\n", t, b / t / 1e6
}'
