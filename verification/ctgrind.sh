#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the library with -DSHAKERAND_CTGRIND and runs verification/ctgrind.c
# under valgrind memcheck on the portable and AVX2 kernels (valgrind has no
# AVX-512). Prints markdown rows; exits 1 on an unexpected result:
#   xof, engines, system: no report at all;
#   samplers: reports only in src/samplers.c and src/uuid.c (rejection and
#             counter branches, documented in docs/samplers.md);
#   planted: three reports (the check can fail).
# Usage: ctgrind.sh BUILD_DIR
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-DSHAKERAND_CTGRIND \
    -DSHAKERAND_BUILD_TESTS=OFF -DSHAKERAND_BUILD_CLI=OFF -DSHAKERAND_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target shakerand_static -j "$(nproc)" >/dev/null
cc -std=c11 -O2 -g -I"$root/include" "$root/verification/ctgrind.c" "$build/libshakerand.a" \
    -pthread -o "$build/ctgrind"
status=0
echo "| constant-time check | kernel | valgrind reports | where | verdict |"
echo "|---|---|---|---|---|"
for kernel in portable avx2; do
    for check in xof engines system samplers planted; do
        log="$build/ctgrind-$check-$kernel.log"
        SHAKERAND_KERNEL=$kernel valgrind --tool=memcheck --error-exitcode=0 --num-callers=4 \
            "$build/ctgrind" "$check" >"$log" 2>&1
        errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
        # The innermost frame of each report: "at 0x...: function (file.c:line)".
        where=$(grep -A1 -E 'Conditional jump|Use of uninitialised|uninitialised byte|Invalid read' "$log" |
            sed -n 's/.*(\([a-z_0-9]*\.[ch]\):[0-9]*).*/\1/p' | sort | uniq -c | awk '{print $2" x"$1}' | paste -sd ' ')
        case $check in
        planted) [ "${errors:-0}" -ge 3 ] && verdict="all three reported, as they must be" || verdict=FAILED ;;
        samplers)
            verdict="only rejection/counter branches"
            echo "$where" | tr ' ' '\n' | grep -E '\.[ch]$' | grep -vqxE 'samplers\.c|uuid\.c' &&
                verdict="FAILED: reports outside the samplers" ;;
        *) [ "${errors:-1}" -eq 0 ] && verdict="clean" || verdict=FAILED ;;
        esac
        echo "| $check | $kernel | ${errors:-?} | ${where:--} | $verdict |"
        case $verdict in FAILED*) status=1; sed -n '1,60p' "$log" >&2 ;; esac
    done
done
exit $status
