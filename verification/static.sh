#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Static analysis of the C sources; prints a markdown line, exits 1 on any
# finding. Findings are fixed, or annotated in place with the reason
# (NOLINT(check): why); the checks' selection is in .clang-tidy.
# Usage: static.sh cppcheck|clang-tidy
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
out=$(mktemp)
case $1 in
cppcheck)
    cppcheck --std=c11 --enable=warning,performance,portability --inline-suppr --quiet \
        --error-exitcode=0 -Iinclude -Isrc -DSHAKERAND_HAVE_X86_64_KERNELS -D__x86_64__ -D__GNUC__ \
        src cli verification tests/fuzz >"$out" 2>&1 ;;
clang-tidy)
    cmake -S . -B build-tidy -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DSHAKERAND_BUILD_TESTS=OFF \
        -DSHAKERAND_BUILD_EXAMPLES=OFF >/dev/null
    clang-tidy -p build-tidy --quiet $(grep -v "^#" src/sources.txt) cli/shakerand.c $(grep -v "^#" cli/sources.txt) cli/platform_posix.c 2>/dev/null | grep -E 'warning:|error:' >"$out" ;;
*) echo "usage: static.sh cppcheck|clang-tidy" >&2; exit 2 ;;
esac
n=$(grep -cE 'warning:|error:|style:|portability:|performance:' "$out")
if [ "$n" -eq 0 ]; then
    case $1 in
    cppcheck) echo "cppcheck: no findings (src/, cli/, verification/, tests/fuzz/)." ;;
    *) echo "clang-tidy: no findings (src/, cli/; the checks are listed in .clang-tidy)." ;;
    esac
    rm -f "$out"
else
    cat "$out" >&2
    echo "$1: $n findings."
    rm -f "$out"
    exit 1
fi
