#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the CLI for x86-64 Windows (MinGW-w64) in build-windows/cli and
# runs the CLI's pytest suites against it under Wine: the POSIX-only cases
# skip with their reason, tests/python/test_cli_windows.py adds the Windows
# ones. The Linux build ($SHAKERAND_BUILD_DIR, default build/) is the
# reference the outputs are compared with; it is built here if missing.
# Runs in its own Wine prefix (build-windows/cli/wineprefix, or
# $SHAKERAND_WINEPREFIX), so that its Wine server neither waits for nor
# disturbs another suite's. Safe to run again; ends with one summary line
# and a non-zero status if anything failed.
# Usage: tests/windows/cli.sh [PYTEST-ARGS...]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=build-windows/cli
linux=${SHAKERAND_BUILD_DIR:-build}
start=$(date +%s)

for tool in x86_64-w64-mingw32-gcc-posix cmake /usr/lib/wine/wine64; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "tests/windows/cli.sh: no $tool: run tools/install-deps.sh windows" >&2; exit 1; }
done
generator=
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"

# The reference: the Linux library and CLI.
if [ ! -f "$linux/libshakerand.so" ] || [ ! -x "$linux/shakerand" ]; then
    [ -f "$linux/CMakeCache.txt" ] || cmake -S . -B "$linux" $generator -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$linux" --target shakerand shakerand_cli >/dev/null
fi

# shellcheck disable=SC2086
# The -posix compiler, as every Windows build here (docs/system.md); no
# processor named (the kernels follow the compiler's target, src/arch.h:
# the test below asks for AVX2).
cmake -S . -B "$build" $generator -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Windows \
    -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc-posix \
    -DSHAKERAND_BUILD_EXAMPLES=OFF -DSHAKERAND_INSTALL=OFF >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log" >&2; echo "tests/windows/cli.sh: FAILED (configure)"; exit 1; }
cmake --build "$build" --target shakerand_cli -j 2 >"$build.build.log" 2>&1 ||
    { tail -30 "$build.build.log" >&2; echo "tests/windows/cli.sh: FAILED (build)"; exit 1; }

# The Wine server stays up between the tests (a cold start costs a second
# or more each) and leaves 30 s after the last one. A new prefix is made
# first, by a server Debian's wrapper starts with -p0, waited for; then a
# persistent one is started (or the last run's, still there, kept). The
# prefix's services start then, with no pipe of the tests' to hold open: a
# service that inherited a test's stdout would keep it from ever ending.
SHAKERAND_WINEPREFIX=${SHAKERAND_WINEPREFIX:-$root/$build/wineprefix}
export SHAKERAND_WINEPREFIX
if [ ! -f "$SHAKERAND_WINEPREFIX/system.reg" ]; then
    tests/windows/wine.sh wineboot </dev/null >/dev/null 2>&1 || true
    WINEPREFIX=$SHAKERAND_WINEPREFIX /usr/lib/wine/wineserver -w </dev/null >/dev/null 2>&1 || true
fi
WINEPREFIX=$SHAKERAND_WINEPREFIX /usr/lib/wine/wineserver -p30 </dev/null >/dev/null 2>&1 || true
tests/windows/wine.sh wineboot </dev/null >/dev/null 2>&1 || true

# The run-time kernel choice works on Windows too: with AVX2 here, the
# portable kernel would mean the dispatch was lost.
if grep -qw avx2 /proc/cpuinfo; then
    kernel=$(tests/windows/wine.sh "$build/shakerand.exe" --version </dev/null 2>&1 | tr -d '\r')
    case $kernel in
    *portable*) echo "tests/windows/cli.sh: FAILED: the Windows CLI picked the portable kernel on an AVX2 machine: $kernel"; exit 1 ;;
    esac
fi

# pytest from the tools environment (tools/install-deps.sh python).
python=${SHAKERAND_TOOLS_VENV:-$root/build-tools/venv}/bin/python
log=$build/pytest.log
status=0
rm -rf "$build/pytest-cache"
SHAKERAND_WINDOWS_CLI=$root/$build/shakerand.exe SHAKERAND_BUILD_DIR=$linux \
    "$python" -m pytest -q -o cache_dir="$root/$build/pytest-cache" -rfEs tests/python/test_cli*.py "$@" \
    >"$log" 2>&1 || status=$?
summary=$(grep -E '^=*.*[0-9]+ (passed|failed|error)' "$log" | tail -1 | tr -d '=' | sed 's/^ *//')
# Failed tests run once more, and both results are reported: once in about
# a thousand runs Wine 8 ended a run with status 1 and no output at all
# (the CLI always writes a line with a non-zero status; the same command
# passed every time again). A failure that is real fails again.
if [ "$status" -eq 1 ]; then
    cp "$log" "$log.first"
    first=$summary
    status=0
    SHAKERAND_WINDOWS_CLI=$root/$build/shakerand.exe SHAKERAND_BUILD_DIR=$linux \
        "$python" -m pytest -q -o cache_dir="$root/$build/pytest-cache" --lf -rfEs tests/python/test_cli*.py \
        "$@" >"$log" 2>&1 || status=$?
    again=$(grep -E '^=*.*[0-9]+ (passed|failed|error)' "$log" | tail -1 | tr -d '=' | sed 's/^ *//')
    grep -E '^(FAILED|ERROR) ' "$log.first" | sed 's/^/first run: /' >&2 || true
    summary="$first; the failed ones run again: $again"
fi
if [ "$status" -ne 0 ]; then
    grep -E '^(FAILED|ERROR) ' "$log" >&2 || tail -30 "$log" >&2
fi
echo "tests/windows/cli.sh: CLI for Windows under Wine: ${summary:-no result (see $log)}" \
    "($(($(date +%s) - start)) s in all)"
exit "$status"
