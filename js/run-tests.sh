#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# make test-js: builds the WebAssembly modules, runs the suite under
# node --test with each module (SIMD128 by feature detection, then
# SHAKERAND_KERNEL=portable), in headless Chromium with each module and
# on examples/web/ (test/browser/run.mjs), then packs the package and uses
# it as a user would (test/pack.sh).
set -eu
cd "$(dirname "$0")"
# The C command line, when built, is an oracle for seeded big bounds.
[ -x ../build/shakerand ] && SHAKERAND_CLI=$(pwd)/../build/shakerand && export SHAKERAND_CLI
tools/build-wasm.sh
node --test test/node.test.mjs
SHAKERAND_KERNEL=portable node --test test/node.test.mjs
node test/browser/run.mjs
test/pack.sh
