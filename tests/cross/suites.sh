#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The whole C and C++ test suite (ctest) cross-built with Debian's compilers
# and run under qemu-user: ppc64le on POWER9 (DARN; then the VSX kernel's
# suites on POWER8), aarch64 on "max" (RNDR), and big-endian s390x. The
# known-answer tests there prove every stream's byte order on big-endian.
# Left out under qemu-user, which shows its own mappings in /proc/self/smaps:
# the smaps flag test (run natively). The tests that need what qemu-user
# does not do (WIPEONFORK, RLIMIT_AS, a dlopen from a dynamically linked
# program) find that out and skip themselves, saying why.
# With --stack (make test): only the stack-residue suite (test_stack.cpp,
# every kernel set of each architecture), which must hold where frame
# layouts differ from x86-64's, and the CLI built (not run).
# Usage: suites.sh [--stack] WORK_DIR; prints markdown rows.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
targets=all
tests=.
cli=OFF
if [ "${1:-}" = --stack ]; then
    targets="test_stack shakerand_cli" # the CLI built only
    tests='^stack_'
    cli=ON
    shift
fi
work=${1:?usage: suites.sh [--stack] WORK_DIR}
"$root/tools/install-deps.sh" cross >/dev/null || exit 1
mkdir -p "$work/json/nlohmann"
cp /usr/include/nlohmann/json.hpp "$work/json/nlohmann/"
export GTEST_FILTER="-System.StatePageIsExcludedFromCoreDumpsAndWipedOnFork"
status=0
echo "| architecture | qemu CPU | ctest | verdict |"
echo "|---|---|---|---|"
for spec in powerpc64le-linux-gnu:ppc64le:power9:ppc64le aarch64-linux-gnu:aarch64:max:aarch64 \
            s390x-linux-gnu:s390x:max:s390x; do
    IFS=: read -r triple qemu cpu processor <<EOS
$spec
EOS
    build=$work/$qemu
    log=$build.log
    if cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$processor" \
            -DCMAKE_C_COMPILER="$triple-gcc" -DCMAKE_CXX_COMPILER="$triple-g++" \
            -DCMAKE_EXE_LINKER_FLAGS=-static -DCMAKE_CROSSCOMPILING_EMULATOR="qemu-$qemu;-cpu;$cpu" \
            -DSHAKERAND_BUILD_TESTS=ON -DSHAKERAND_BUILD_CLI=$cli \
            -DSHAKERAND_GTEST_SOURCE=/usr/src/googletest -DSHAKERAND_JSON_INCLUDE="$work/json" \
            >"$log" 2>&1 &&
        cmake --build "$build" -j "$(nproc)" --target $targets >>"$log" 2>&1 &&
        ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -R "$tests" >>"$log" 2>&1; then
        echo "| $qemu | $cpu | $(grep -o '[0-9]*% tests passed.*' "$log" | tail -1) | passed |"
    else
        status=1
        tail -40 "$log" >&2
        echo "| $qemu | $cpu | $(grep -o '[0-9]*% tests passed.*' "$log" | tail -1) | FAILED |"
    fi
done
# The VSX kernel is compiled for POWER8, the ABI's baseline: its suites
# again on power8, from the ppc64le build (test_stack only with --stack).
build=$work/ppc64le
p8_tests=""
for t in test_stack test_keccak test_engine; do
    [ -x "$build/tests/$t" ] && p8_tests="$p8_tests $t"
done
p8_status=passed
: >"$build.power8.log"
for t in $p8_tests; do
    if ! SHAKERAND_KERNEL=vsx EXPECT_KERNEL=vsx qemu-ppc64le -cpu power8 "$build/tests/$t" \
            >>"$build.power8.log" 2>&1; then
        p8_status=FAILED
        status=1
        tail -40 "$build.power8.log" >&2
    fi
done
[ -n "$p8_tests" ] && echo "| ppc64le | power8 | the vsx kernel:$p8_tests | $p8_status |"
exit $status
