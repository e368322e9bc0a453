#!/bin/bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs the verification suite and writes its report.
#   run.sh short  the short forms, from `make test`; report in build-verify/RESULTS.md
#   run.sh full   everything, from `make verify` (about 40 minutes on 2 cores);
#                 report in verification/RESULTS.md
#   run.sh long   full + BigCrush (hours), from `make verify-long`
# Every step runs even when one fails; the exit status says whether all passed.
set -uo pipefail
mode=${1:?usage: run.sh short|full|long}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build-verify
mkdir -p "$work"
if [ "$mode" = short ]; then report=$work/RESULTS.md; else report=$root/verification/RESULTS.md; fi
fuzz_seconds=$([ "$mode" = short ] && echo 20 || echo 120)
failed=""
body=$work/body.md
: >"$body"

section() { printf '\n## %s\n\n' "$1" >>"$body"; echo "verify: $1" >&2; }
# step NAME COMMAND...: runs it, appends its stdout to the report.
step() {
    local name=$1 t0=$SECONDS
    shift
    if "$@" >>"$body" 2>"$work/step.err"; then
        printf '\n_%s: passed in %d s._\n\n' "$name" $((SECONDS - t0)) >>"$body"
    else
        failed="$failed $name"
        printf '\n**%s: FAILED** (after %d s):\n\n```\n%s\n```\n' "$name" $((SECONDS - t0)) \
            "$(tail -20 "$work/step.err")" >>"$body"
    fi
}
# A make target's outcome as one line (its output stays in the log).
make_step() { # target
    if make -C "$root" "$1" >"$work/make-$1.log" 2>&1; then
        local entries
        entries=$(grep -cE '^ *[0-9]+/[0-9]+ Test' "$work/make-$1.log")
        if [ "$entries" -gt 0 ]; then
            echo "\`make $1\`: passed ($entries ctest entries; log in build-verify/make-$1.log)."
        else
            echo "\`make $1\`: passed (log in build-verify/make-$1.log)."
        fi
    else
        tail -30 "$work/make-$1.log" >&2
        return 1
    fi
}

# The release CLI the batteries read from, and the suites valgrind runs.
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=ON >/dev/null &&
    cmake --build "$root/build" -j "$(nproc)" >/dev/null || exit 1
cli=$root/build/shakerand

# The long batteries (Crush, dieharder -a; about 35 minutes, one core each)
# run beside everything else; their rows join the report at the end.
if [ "$mode" != short ]; then
    mkdir -p "$work/heavy"
    "$root/verification/batteries.sh" heavy "$cli" "$work/heavy" >"$work/heavy.md" 2>"$work/heavy.err" &
    heavy=$!
fi
heavy_result() {
    wait "$heavy"
    local rc=$?
    cat "$work/heavy.md"
    cat "$work/heavy.err" >&2
    return $rc
}

if [ "$mode" != short ]; then
    section "Sanitizers: the C and C++ suites under ASan+UBSan and TSan"
    step asan make_step test-asan
    step tsan make_step test-tsan
    section "valgrind memcheck"
    step valgrind "$root/verification/valgrind.sh" "$root/build"
    section "Static analysis"
    step cppcheck "$root/verification/static.sh" cppcheck
    step clang-tidy "$root/verification/static.sh" clang-tidy
    section "Other architectures: the C suites under qemu-user"
    step cross-suites "$root/tests/cross/suites.sh" "$work/cross"
    step cross-sources make_step test-cross
else
    section "valgrind memcheck (quick)"
    step valgrind "$root/verification/valgrind.sh" "$root/build" quick
fi
section "Constant time (ctgrind: valgrind memcheck with secrets undefined)"
step ctgrind "$root/verification/ctgrind.sh" "$work/ctgrind"
section "Fuzzing (libFuzzer, ASan+UBSan), ${fuzz_seconds} s a target"
step fuzz "$root/tests/fuzz/run.sh" "$fuzz_seconds" "$work/fuzz"
section "Statistical batteries"
step batteries "$root/verification/batteries.sh" "$([ "$mode" = short ] && echo short || echo full)" \
    "$cli" "$work/batteries"
if [ "$mode" != short ]; then
    section "Crush and every dieharder test on the system generator"
    step heavy-batteries heavy_result
fi
if [ "$mode" = long ]; then
    section "BigCrush on the system generator"
    step bigcrush "$root/verification/batteries.sh" bigcrush "$cli" "$work/bigcrush"
fi

{
    echo "# shakerand verification results ($mode)"
    echo
    echo "Written by \`verification/run.sh $mode\` on $(date -u '+%Y-%m-%d %H:%M UTC'),"
    echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)."
    echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(uname -sr)."
    echo "What each check covers and how to run it: docs/verification.md."
    echo
    if [ -z "$failed" ]; then echo "**All checks passed.**"; else echo "**FAILED:$failed**"; fi
    cat "$body"
} >"$report"
echo "verify: report in $report" >&2
[ -z "$failed" ]
