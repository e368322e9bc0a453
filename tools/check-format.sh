#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The formatters' verdicts on the files they cover (CONTRIBUTING.md, "Style"):
# C: clang-format (.clang-format) on the core, the public headers, the
# command line, the Python extension and the WebAssembly glue; Go: gofmt; Python: ruff's
# lint (ruff.toml); every tracked text file: no trailing blanks, a final
# newline (.editorconfig). Not covered: Java (no formatter matches its
# style yet), JavaScript, shell, CMake.
# Exits non-zero naming each file that differs; changes nothing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tools=${SHAKERAND_FORMAT_TOOLS:-$root/build-format/venv}
status=0
fail() { echo "check-format: $*" >&2; status=1; }
for tool in "$tools/bin/ruff" "$tools/bin/clang-format" gofmt; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "check-format: no $tool (tools/install-deps.sh format; Go for gofmt)" >&2; exit 1; }
done

"$tools/bin/ruff" check --quiet . || fail "ruff: the Python files above (ruff check --fix fixes some)"

unformatted=$(gofmt -l go examples/go bench/go-peer) || fail "gofmt failed"
[ -z "$unformatted" ] || fail "gofmt -l lists: $unformatted (gofmt -w fixes them)"

c_files=$(git ls-files 'src/*.c' 'src/*.h' 'src/entropy/*.c' 'include/*.h' 'cli/*.c' 'cli/*.h' 'openssl/*.c' 'python/ext/*.c' 'python/ext/*.h' 'js/wasm/*.c')
# shellcheck disable=SC2086
if ! report=$("$tools/bin/clang-format" --dry-run -Werror $c_files 2>&1); then
    differ=$(echo "$report" | sed -n 's/^\([^: ]*\):[0-9]*:[0-9]*: error:.*/\1/p' | sort -u)
    fail "clang-format would change:" ${differ:-"(it failed: $report)"} "($tools/bin/clang-format -i FILE does it)"
fi

# Generated or foreign bytes are left alone: vectors, known answers, corpora.
text=$(git ls-files | grep -vE '\.(json|png|svg|bin)$|^tests/fuzz/(corpus|regressions)/|^tests/kat/')
# shellcheck disable=SC2086
blanks=$(grep -lE '[[:blank:]]+$' $text 2>/dev/null | grep -v '\.md$' || true)
[ -z "$blanks" ] || fail "trailing blanks in: $blanks"
for f in $text; do
    [ ! -s "$f" ] || [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || fail "no final newline: $f"
done
[ $status = 0 ] && echo "check-format: C (clang-format), Go (gofmt), Python (ruff) and whitespace as configured"
exit $status
