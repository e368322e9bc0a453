#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The C core's suites for x86-64 Windows: cross-built with MinGW-w64 GCC
# (the -posix compilers: the suites use std::thread), warnings as errors in
# the core, googletest built from Debian's sources, every program linked
# statically (no MinGW runtime DLLs needed), then run by ctest under Wine
# (tests/windows/wine.sh). The CLI is not built here. Idempotent: a second
# run reconfigures nothing and rebuilds only what changed.
#
# Wine 8 has no bcryptprimitives.dll (ProcessPrng). The suites run twice
# over: all of them in a prefix holding a test-only stand-in of that DLL
# (ProcessPrng over RtlGenRandom: tests/windows/standin.sh), so the
# library's run-time lookup and call of ProcessPrng run; and the entropy
# suite again in a prefix without it, where the lookup fails and
# BCryptGenRandom answers. Both prefixes live in the work directory.
# Usage: c.sh [WORK_DIR] (default build-windows/); prints one summary line
# and exits non-zero if anything failed.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-windows}
mkdir -p "$work"
work=$(cd "$work" && pwd)
jobs=${JOBS:-2}
cc=x86_64-w64-mingw32-gcc-posix
cxx=x86_64-w64-mingw32-g++-posix
for tool in $cc $cxx cmake ninja; do
    command -v $tool >/dev/null 2>&1 || { echo "no $tool: run tools/install-deps.sh windows" >&2; exit 1; }
done
[ -d /usr/src/googletest ] || { echo "no /usr/src/googletest: run tools/install-deps.sh test" >&2; exit 1; }
[ -f /usr/include/nlohmann/json.hpp ] || { echo "no nlohmann/json.hpp: run tools/install-deps.sh test" >&2; exit 1; }

# json.hpp from a directory of its own, so no host include directory
# reaches the target's compiler.
if [ ! -f "$work/json/nlohmann/json.hpp" ]; then
    mkdir -p "$work/json"
    cp -r /usr/include/nlohmann "$work/json/"
fi
wine=$root/tests/windows/wine.sh

build=$work/build
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja \
        -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=AMD64 \
        -DCMAKE_C_COMPILER=$cc -DCMAKE_CXX_COMPILER=$cxx \
        -DCMAKE_CROSSCOMPILING_EMULATOR="$root/tests/windows/wine.sh" \
        -DCMAKE_C_FLAGS=-Werror \
        -DSHAKERAND_BUILD_TESTS=ON -DSHAKERAND_BUILD_CLI=OFF \
        -DSHAKERAND_GTEST_SOURCE=/usr/src/googletest \
        -DSHAKERAND_JSON_INCLUDE="$work/json" >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log" >&2; echo "windows C suites: configure failed" >&2; exit 1; }
fi
if ! ninja -C "$build" -j "$jobs" >"$work/build.log" 2>&1; then
    grep -E "error|FAILED" "$work/build.log" | head -40 >&2
    echo "windows C suites: build failed (log: $work/build.log)" >&2
    exit 1
fi
# Each prefix is made by a first program run alone (wine.sh makes a
# missing prefix, and two first runs at once would both make it).
plain=$work/wineprefix-plain
SHAKERAND_WINEPREFIX=$plain "$wine" "$build/tests/test_keccak.exe" --gtest_list_tests >/dev/null 2>&1 || true
prefix=$work/wineprefix
SHAKERAND_WINEPREFIX=$prefix "$wine" "$build/tests/test_keccak.exe" --gtest_list_tests >/dev/null 2>&1 || true
SHAKERAND_WINEPREFIX=$prefix "$root/tests/windows/standin.sh" install >/dev/null
SHAKERAND_WINEPREFIX=$plain "$root/tests/windows/standin.sh" remove >/dev/null

status=0
(cd "$build" && SHAKERAND_WINEPREFIX=$prefix ctest -j "$jobs" --output-on-failure \
    >"$work/ctest.log" 2>&1) || status=$?
grep -E "\*\*\*|Timeout" "$work/ctest.log" | sed -n '1,40p' >&2 || true
summary=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$work/ctest.log" | tail -1)
# The entropy suite where ProcessPrng is missing: BCryptGenRandom answers.
plain_status=0
SHAKERAND_WINEPREFIX=$plain "$wine" "$build/tests/test_entropy.exe" >"$work/entropy-plain.log" 2>&1 ||
    plain_status=$?
[ $plain_status = 0 ] || { tail -30 "$work/entropy-plain.log" >&2; status=1; }
grep -q "source here: BCryptGenRandom" "$work/entropy-plain.log" ||
    { echo "without ProcessPrng the source was not BCryptGenRandom" >&2; status=1; }
SHAKERAND_WINEPREFIX=$prefix "$wine" "$build/tests/test_entropy.exe" \
    --gtest_filter=Entropy.WindowsReportNamesTheCallThatAnswered 2>&1 |
    grep -q "source here: ProcessPrng" ||
    { echo "with the stand-in the source was not ProcessPrng" >&2; status=1; }
plain_result=passed
[ $plain_status = 0 ] || plain_result=FAILED
echo "windows C suites under Wine: ${summary:-no result (log: $work/ctest.log)}; entropy suite without ProcessPrng: $plain_result"
exit $status
