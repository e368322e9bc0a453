#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# `make demo`: what shakerand is for, in a few lines. A die roll, a token, a
# UUID, a seeded stream printed twice (it reproduces); then 1 GiB from the
# CLI, from `openssl rand` and from /dev/urandom, each measured the same way
# in this run: the program writes to /dev/null through its own standard
# output, timed by the wall clock. A few seconds, most of them /dev/urandom's.
# Usage: tools/demo.sh [path/to/shakerand]
set -eu
cli=${1:-build/shakerand}
[ -x "$cli" ] || { echo "demo: no CLI at $cli (run make first)" >&2; exit 1; }

# The CPU's name: Linux (x86 /proc/cpuinfo, else lscpu), macOS, FreeBSD.
cpu_name() {
    name=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
    [ -n "$name" ] || name=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
    [ -n "$name" ] || name=$(sysctl -n machdep.cpu.brand_string 2>/dev/null || true)
    [ -n "$name" ] || name=$(sysctl -n hw.model 2>/dev/null || true)
    echo "${name:-unknown} ($(uname -m))"
}

# Seconds since the epoch with a fraction (GNU date; python3 where date has no %N).
now() {
    t=$(date +%s.%N)
    case $t in
        *N) python3 -c 'import time; print(f"{time.time():.6f}")' ;;
        *) echo "$t" ;;
    esac
}

version=$("$cli" --version)                               # shakerand 0.1.0 (kernel avx2)
kernel=$(echo "$version" | sed -n 's/.*(kernel \(.*\)).*/\1/p')
echo "${version%% (*}, kernel: ${kernel:-unknown}, CPU: $(cpu_name)"
echo

seed=5eed
row() { printf '  %-32s %s\n' "$1" "$2"; }
echo "shakerand COMMAND                  prints"
row "int 1 6" "$("$cli" int 1 6)  (a die roll: 1 to 6, unbiased)"
row "token" "$("$cli" token)"
row "uuid" "$("$cli" uuid)"
first=$("$cli" bytes -n 16 --hex --seed "$seed")
again=$("$cli" bytes -n 16 --hex --seed "$seed")
[ "$first" = "$again" ] || { echo "demo: the seeded stream did not reproduce" >&2; exit 1; }
row "bytes -n 16 --hex --seed $seed" "$first"
row "the same command again" "$again  reproduced"
echo

# run LABEL COMMAND...: times COMMAND writing 1 GiB to /dev/null; prints MB/s.
# Its standard error is kept aside (no progress bar on a terminal) and shown
# if it fails.
size=1073741824
err=$(mktemp)
trap 'rm -f "$err"' EXIT
run() {
    label=$1
    shift
    start=$(now)
    "$@" >/dev/null 2>"$err" || { cat "$err" >&2; echo "demo: $label failed" >&2; exit 1; }
    end=$(now)
    awk -v l="$label" -v s="$start" -v e="$end" -v b="$size" \
        'BEGIN { printf "  %-32s %6.0f MB/s  (%.2f s)\n", l, b / (e - s) / 1e6, e - s }'
}
echo "1 GiB of random bytes written to /dev/null, one program after another:"
run "shakerand bytes -n 1G" "$cli" bytes -n 1G
if command -v openssl >/dev/null 2>&1; then
    run "openssl rand $size" openssl rand "$size"
else
    printf '  %-32s %s\n' "openssl rand" "skipped: openssl is not installed"
fi
run "head -c 1G /dev/urandom" head -c "$size" /dev/urandom
echo
echo "Next: README.md, \"Use it from a checkout\", for C, C++, Python, Go and Java."
