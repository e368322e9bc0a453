#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs what building and testing shakerand needs, only what is missing.
# Usage: install-deps.sh [test|bench|cross|verify|platforms|windows|format|demo|js]
set -eu
want="cmake ninja-build g++ clang pkg-config libgtest-dev nlohmann-json3-dev"
[ "${1:-test}" = bench ] && want="$want libssl-dev libsodium-dev libbenchmark-dev openssl"
# make demo: the CLI's build, and openssl rand beside it.
[ "${1:-test}" = demo ] && want="cmake ninja-build g++ openssl"
[ "${1:-test}" = cross ] && want="qemu-user gcc-powerpc64le-linux-gnu gcc-aarch64-linux-gnu g++-powerpc64le-linux-gnu g++-aarch64-linux-gnu g++-s390x-linux-gnu
    gcc-s390x-linux-gnu libc6-dev-ppc64el-cross libc6-dev-arm64-cross libc6-dev-s390x-cross"
# Windows: MinGW-w64 (GCC 12) cross-builds, Wine 8 runs (tests/windows/).
[ "${1:-test}" = windows ] && want="$want mingw-w64 wine64 libgnutls30"
# JavaScript: clang 14 with wasm-ld and wasi-libc for the WebAssembly
# modules, Chromium for the browser suite (js/), Node and npm where missing.
[ "${1:-test}" = js ] && want="clang lld-14 wasi-libc libclang-rt-14-dev-wasm32 chromium
    $(command -v node >/dev/null 2>&1 || echo nodejs) $(command -v npm >/dev/null 2>&1 || echo npm)"
[ "${1:-test}" = verify ] && want="$want ent dieharder rng-tools5 clang-16 libclang-rt-16-dev
    valgrind cppcheck clang-tidy llvm"
missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ "${1:-test}" = test ]; then
    python3 -c "import pytest" 2>/dev/null || python3 -m pip install -q pytest
    # The CLI statistics tests check their critical values against scipy.
    python3 -c "import scipy.stats" 2>/dev/null || python3 -m pip install -q scipy
    python3 -c "from Crypto.Hash import TurboSHAKE256" 2>/dev/null ||
        python3 -m pip install -q "pycryptodome>=3.21"
fi
if [ "${1:-test}" = platforms ]; then
    # zig cc: the macOS and FreeBSD cross builds (tests/platforms/build.sh).
    # Pinned: a newer clang brings new warnings, and the builds use -Werror.
    python3 -c "import importlib.metadata as m; assert m.version('ziglang') == '0.17.1'" \
        2>/dev/null || python3 -m pip install -q "ziglang==0.17.1"
fi
if [ "${1:-test}" = format ]; then
    # tools/check-format.sh's formatters, pinned (another version formats
    # differently), in a virtual environment of their own.
    venv=${SHAKERAND_FORMAT_TOOLS:-$(cd "$(dirname "$0")/.." && pwd)/build-format/venv}
    if ! "$venv/bin/python" -c "import importlib.metadata as m
assert m.version('clang-format') == '23.1.5' and m.version('ruff') == '0.17.6'" 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q --disable-pip-version-check "clang-format==23.1.5" "ruff==0.17.6"
    fi
fi
if [ "${1:-test}" = bench ]; then
    # The charts of BENCHMARKS.md (tools/bench_charts.py).
    python3 -c "import matplotlib" 2>/dev/null || python3 -m pip install -q matplotlib
fi
if [ "${1:-test}" = verify ]; then
    # TestU01 (non-commercial licence: a test tool, never shipped) from crates.io.
    PATH="$HOME/.cargo/bin:$PATH"
    command -v TestU01Drv >/dev/null 2>&1 || cargo install -q --locked TestU01Drv
fi
exit 0
