#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The OpenSSL section of BENCHMARKS.md (make bench-openssl): RAND_bytes and
# RAND_priv_bytes through the provider against OpenSSL's default DRBG in
# one process (bench/openssl_rand.c), then `openssl rand` of 1 GiB to
# /dev/null with and without openssl/shakerand.cnf, three runs each in
# turns, the median kept.
#   bench/openssl.sh BUILD   (BUILD/openssl/shakerand.so)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
[ -f "$build/openssl/shakerand.so" ] || { echo "bench-openssl: no $build/openssl/shakerand.so" >&2; exit 1; }
conf=$root/openssl/shakerand.cnf
export OPENSSL_MODULES="$build/openssl"
unset OPENSSL_CONF SHAKERAND_OPENSSL_TRACE
out=$build/openssl-bench.md
cc -std=c11 -O2 -Wall -Wextra -o "$build/openssl_rand_bench" "$root/bench/openssl_rand.c" -lcrypto

seconds() { # seconds for `openssl rand` of 1 GiB, CONF or none
    t0=$(date +%s.%N)
    if [ "$1" = none ]; then openssl rand -out /dev/null 1073741824; else
        OPENSSL_CONF=$1 openssl rand -out /dev/null 1073741824; fi
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}
median() { sort -n | sed -n 2p; }
: >"$build/rand-default" && : >"$build/rand-shakerand"
for i in 1 2 3; do
    seconds none >>"$build/rand-default"
    seconds "$conf" >>"$build/rand-shakerand"
done
d=$(median <"$build/rand-default")
s=$(median <"$build/rand-shakerand")

{
    echo "## OpenSSL provider (\`make bench-openssl\`)"
    echo
    echo "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores shared with other work"
    echo "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end of the run: the figures are noisy);"
    echo "$(openssl version), Debian 12. \`bench/openssl_rand.c\`: one process, two library contexts (one with"
    echo "\`openssl/shakerand.cnf\` loaded), the median of 7 rounds taken in turns, each round about 50 ms of calls"
    echo "on one thread; \`bench/openssl.sh\` times \`openssl rand\`."
    echo
    "$build/openssl_rand_bench" "$conf"
    echo
    echo "| \`openssl rand -out /dev/null 1073741824\` | seconds (median of 3) | GB/s |"
    echo "|---|---:|---:|"
    echo "$d" | awk '{ printf "| default DRBG | %.2f | %.2f |\n", $1, 1.073741824 / $1 }'
    echo "$s" | awk '{ printf "| OPENSSL_CONF=openssl/shakerand.cnf | %.2f | %.2f |\n", $1, 1.073741824 / $1 }'
} >"$out"
cat "$out"
python3 "$root/tools/bench_section.py" openssl "$out" "$root/BENCHMARKS.md"
