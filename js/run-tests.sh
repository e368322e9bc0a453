#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# make test-js: builds the WebAssembly modules, runs the suite and the
# snapshot tests (test/restore.test.mjs) under node --test with each module
# (SIMD128 by feature detection, then SHAKERAND_KERNEL=portable), in
# headless Chromium with each module and on examples/web/ (test/browser/run.mjs), under Deno and Bun (from npm,
# pinned) with each module (test/runtime.mjs), then packs the package and
# uses it as a user would (test/pack.sh). With --quick (make check's
# check-js), the Node runs only.
set -eu
cd "$(dirname "$0")"
# The C command line, when built, is an oracle for seeded big bounds: the
# one SHAKERAND_CLI names (make test-js names its build's), else build/'s.
[ -z "${SHAKERAND_CLI:-}" ] && [ -x ../build/shakerand ] && SHAKERAND_CLI=$(pwd)/../build/shakerand
[ -n "${SHAKERAND_CLI:-}" ] && export SHAKERAND_CLI
tools/build-wasm.sh
node --test test/node.test.mjs test/restore.test.mjs
SHAKERAND_KERNEL=portable node --test test/node.test.mjs test/restore.test.mjs
[ "${1:-}" = --quick ] && exit 0
node test/browser/run.mjs
runtimes=../build-js/runtimes
[ -x "$runtimes/node_modules/.bin/deno" ] && [ -x "$runtimes/node_modules/.bin/bun" ] ||
    npm install --silent --no-audit --no-fund --prefix "$runtimes" deno@2.9.6 bun@1.4.5
for kernel in simd128 portable; do
    for runtime in "deno run -A" bun; do
        # shellcheck disable=SC2086
        out=$(SHAKERAND_KERNEL=$kernel "$runtimes"/node_modules/.bin/$runtime test/runtime.mjs 2>&1) ||
            { echo "$out"; exit 1; }
        echo "$out" | tail -n 1
    done
done
test/pack.sh
