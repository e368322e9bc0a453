#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Go module on x86-64 Windows, run under Wine 8 (wine.sh): the test
# binaries of ./go, pure Go (CGO_ENABLED=0) and cgo (the
# C core compiled by MinGW-w64 GCC, the compiler cgo uses on Windows), and
# of ./go/internal/purego (no cgo in it: run once, in the pure build),
# each run in its package's folder (the tests read ../vectors). The cgo
# build's vectors and chacha8rand oracle (math/rand/v2) run once more
# under each x86-64 kernel, as tools/go/run-tests.sh does on Linux.
# Runs in its own Wine prefix (build-windows/go/wineprefix, or
# $SHAKERAND_WINEPREFIX), so that the C suites' prefix keeps or lacks the
# stand-in as they choose and neither suite waits for the other's Wine
# server. First the stand-in bcryptprimitives.dll goes into it (standin.sh
# install): without it Go's runtime stops at start-up under Wine 8. Test
# set-up only; it stays installed.
# Prints each run with its counts, every skip with its reason, and a
# summary line; non-zero if anything fails.
# Usage: go.sh [pure] [cgo] (default both). Work folder: build-windows/go,
# or $SHAKERAND_GO_WINDOWS_WORK.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${SHAKERAND_GO_WINDOWS_WORK:-$root/build-windows/go}
builds=${*:-pure cgo}
for b in $builds; do
    case $b in pure | cgo) ;; *) echo "usage: $0 [pure] [cgo]" >&2; exit 2 ;; esac
done
# Go 1.24 or later (go.mod), from go.dev's archive: Debian 12's golang-go is 1.19, so no apt
# package will do. /usr/local/go is where that archive goes, whether or not it is on PATH.
command -v go >/dev/null 2>&1 || [ ! -x /usr/local/go/bin/go ] || PATH=/usr/local/go/bin:$PATH
command -v go >/dev/null 2>&1 || {
    echo "go.sh: Go 1.24 or later is not installed (Debian 12's golang-go is too old); as root:" \
        "curl -fsSL https://go.dev/dl/go1.26.8.linux-amd64.tar.gz | tar -C /usr/local -xz" >&2
    exit 1
}
command -v x86_64-w64-mingw32-gcc-posix >/dev/null 2>&1 ||
    { echo "go.sh: no x86_64-w64-mingw32-gcc-posix: run tools/install-deps.sh windows" >&2; exit 1; }
export GOTOOLCHAIN=local GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc-posix
unset SHAKERAND_KERNEL # the plain runs take the kernel the CPU gets
mkdir -p "$work"
begin=$(date +%s)
SHAKERAND_WINEPREFIX=${SHAKERAND_WINEPREFIX:-$work/wineprefix}
export SHAKERAND_WINEPREFIX
"$here/standin.sh" install
# The Wine server stays up between the runs and leaves 30 s after the last.
WINEPREFIX=$SHAKERAND_WINEPREFIX /usr/lib/wine/wineserver -p30 </dev/null >/dev/null 2>&1 || true

status=0
summary=""

# run LABEL PACKAGE_DIR EXE [ARG...]: runs a test binary under Wine in its
# package's folder, with the variables in $run_env, and prints its counts
# (top-level tests and examples) and skips; all of its output if it fails.
run_env=
run() {
    label=$1 dir=$2 exe=$3
    shift 3
    log=$work/$(echo "$label" | tr ' =/' '___').log
    start=$(date +%s)
    rc=0
    (cd "$root/$dir" && env $run_env "$here/wine.sh" "$exe" -test.count=1 -test.v "$@") >"$log" 2>&1 || rc=$?
    pass=$(grep -c '^--- PASS' "$log" || true)
    skip=$(grep -c '^--- SKIP' "$log" || true)
    fail=$(grep -c '^--- FAIL' "$log" || true)
    kernel=$(grep -o 'kernel [a-z0-9]* ([A-Z_a-z]*)' "$log" | sort -u | paste -sd, - || true)
    # go test -v prints a skip's reason just above its "--- SKIP" line.
    grep -B1 -- '^--- SKIP' "$log" | grep -v -e '^--$' -e '^--- ' -e '^=== ' | sed 's/^ */  skip: /' || true
    if [ $rc -ne 0 ] || [ "$fail" -ne 0 ] || ! grep -q '^PASS$' "$log"; then
        cat "$log"
        echo "windows go $label: FAILED (exit $rc; $pass passed, $skip skipped, $fail failed; $log)"
        status=1
        summary="$summary $label FAILED;"
    else
        echo "windows go $label: $pass passed, $skip skipped${kernel:+ ($kernel)} ($(($(date +%s) - start)) s)"
        summary="$summary $label $pass passed $skip skipped;"
    fi
}

# step LABEL COMMAND...: go vet or go test -c, a failure reported like a
# run's.
step() {
    label=$1
    shift
    if ! "$@" >"$work/build.log" 2>&1; then
        cat "$work/build.log"
        echo "windows go $label: FAILED: $*"
        status=1
        summary="$summary $label build FAILED;"
        return 1
    fi
}

cd "$root"
for b in $builds; do
    start=$(date +%s)
    case $b in
    pure)
        export CGO_ENABLED=0
        if step pure go vet ./go/... && step pure go test -c -o "$work/pure.exe" ./go &&
            step pure go test -c -o "$work/purego.exe" ./go/internal/purego; then
            echo "windows go pure: vet and test binaries built ($(($(date +%s) - start)) s)"
            run pure go "$work/pure.exe"
            run "pure internal/purego" go/internal/purego "$work/purego.exe"
        fi
        ;;
    cgo)
        export CGO_ENABLED=1
        if step cgo go vet ./go/... && step cgo go test -c -o "$work/cgo.exe" ./go; then
            echo "windows go cgo: vet and test binary built ($(($(date +%s) - start)) s)"
            run cgo go "$work/cgo.exe"
            # SHAKERAND_KERNEL forces a kernel; the oracle tests skip,
            # saying so, if the CPU lacks it.
            for kernel in portable avx2 avx512; do
                run_env=SHAKERAND_KERNEL=$kernel
                run "cgo SHAKERAND_KERNEL=$kernel" go "$work/cgo.exe" -test.run 'Vectors|Samplers|ChaCha8Oracle'
            done
            run_env=
        fi
        ;;
    esac
done
if [ $status -eq 0 ]; then
    echo "windows go: passed under Wine:$summary $(($(date +%s) - begin)) s"
else
    echo "windows go: FAILED:$summary $(($(date +%s) - begin)) s"
fi
exit $status
