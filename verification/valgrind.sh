#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The C test suites under valgrind memcheck (leaks counted as errors when
# definitely lost). Left out, for speed under valgrind's ~50x slowdown: the
# million-draw statistical tests (they run natively and under ASan) and the
# fork-while-seeding test, whose deadline is for native speed; and the test
# that reads the stack kernels left behind (reading uninitialised memory is
# its point, and exactly what memcheck reports). Fork children
# are not checked (--child-silent-after-fork): they _exit with the parent's
# threads' stacks still allocated.
# Usage: valgrind.sh BUILD_DIR [quick]; prints markdown rows, exits 1 on errors.
set -u
build=$1
suites="keccak xof engine"
[ "${2:-}" = quick ] || suites="$suites system samplers cpp"
status=0
echo "| valgrind memcheck | tests run | errors | verdict |"
echo "|---|---|---|---|"
filter="-PaperTable.*:ChiSquare.*:*ForkWhileAnotherThreadSeedsDoesNotDeadlock*:Uuid.Version*Uniqueness*:Engine.KernelsLeaveNoKeyOrOutputOnTheStack"
for suite in $suites; do
    log="$build/valgrind-$suite.log"
    GTEST_DEATH_TEST_STYLE=threadsafe valgrind --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --child-silent-after-fork=yes \
        "$build/tests/test_$suite" --gtest_filter="$filter" >"$log" 2>&1
    rc=$?
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
    passed=$(sed -n 's/.*PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
    verdict=clean
    [ "$rc" -eq 0 ] || { verdict="FAILED (exit $rc)"; status=1; tail -30 "$log" >&2; }
    echo "| test_$suite | ${passed:-0} | ${errors:-?} | $verdict |"
done
exit $status
