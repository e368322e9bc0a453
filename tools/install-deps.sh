#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs what building and testing shakerand needs, only what is missing:
# Debian packages with apt-get, Python tools with pip into virtual
# environments of the checkout, never into a system Python (Debian's
# python3 is externally managed, PEP 668).
# Usage: install-deps.sh [test|python|bench|cross|verify|platforms|windows|format|demo|js|rust]
# The tools environment (pytest, scipy, pycryptodome; matplotlib for bench,
# zig for platforms) is SHAKERAND_TOOLS_VENV, default build-tools/venv; the
# formatters' is SHAKERAND_FORMAT_TOOLS, default build-format/venv. `python`
# makes or completes the tools environment alone.
set -eu
mode=${1:-test}
root=$(cd "$(dirname "$0")/.." && pwd)
tools_venv=${SHAKERAND_TOOLS_VENV:-$root/build-tools/venv}
format_venv=${SHAKERAND_FORMAT_TOOLS:-$root/build-format/venv}
want="cmake ninja-build g++ clang pkg-config libgtest-dev nlohmann-json3-dev"
[ "$mode" = bench ] && want="$want libssl-dev libsodium-dev libbenchmark-dev openssl"
# make demo: the CLI's build, and openssl rand beside it.
[ "$mode" = demo ] && want="cmake ninja-build g++ openssl"
[ "$mode" = cross ] && want="qemu-user gcc-powerpc64le-linux-gnu gcc-aarch64-linux-gnu g++-powerpc64le-linux-gnu g++-aarch64-linux-gnu g++-s390x-linux-gnu
    gcc-s390x-linux-gnu libc6-dev-ppc64el-cross libc6-dev-arm64-cross libc6-dev-s390x-cross"
# rust/run-tests.sh runs the crate's tests under valgrind (no Miri for C).
[ "$mode" = rust ] && want="$want valgrind"
# Windows: MinGW-w64 (GCC 12) cross-builds, Wine 8 runs (tests/windows/).
[ "$mode" = windows ] && want="$want mingw-w64 wine64 libgnutls30"
# JavaScript: clang 14 with wasm-ld and wasi-libc for the WebAssembly
# modules, Chromium for the browser suite (js/), Node and npm where missing.
[ "$mode" = js ] && want="clang lld-14 wasi-libc libclang-rt-14-dev-wasm32 chromium
    $(command -v node >/dev/null 2>&1 || echo nodejs) $(command -v npm >/dev/null 2>&1 || echo npm)"
[ "$mode" = verify ] && want="$want ent dieharder rng-tools5 clang-16 libclang-rt-16-dev
    valgrind cppcheck clang-tidy llvm"
[ "$mode" = python ] && want=""
case $mode in
test | python | bench | platforms | format)
    # A virtual environment needs python3's venv and ensurepip, which
    # Debian ships apart (python3-venv).
    command -v python3 >/dev/null 2>&1 || want="$want python3"
    python3 -c "import ensurepip, venv" 2>/dev/null || want="$want python3-venv"
    ;;
esac
# python/run-tests.sh and the cross builds compile the Python extension
# against python3's headers.
[ "$mode" = test ] && ! python3 -c "import os, sysconfig
assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))" 2>/dev/null &&
    want="$want python3-dev"
missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    # Waits for another apt-get or dpkg to finish instead of failing.
    lock="-o DPkg::Lock::Timeout=600"
    $SUDO apt-get $lock update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get $lock install -y -qq --no-install-recommends $missing >/dev/null
fi

# venv DIR REQUIREMENT...: the virtual environment DIR holding each
# REQUIREMENT (pip's NAME, NAME==VERSION or NAME>=VERSION). Nothing runs
# but one look at its metadata when all are there; it is made with
# python3 -m venv when its own python does not run (absent, or its base
# Python gone).
venv() {
    dir=$1
    shift
    "$dir/bin/python" - "$@" 2>/dev/null <<'PY' && return 0
import importlib.metadata as m, re, sys
number = lambda v: [int(x) for x in re.findall(r"\d+", v)]
for requirement in sys.argv[1:]:
    name, op, version = re.fullmatch(r"([\w.-]+)(==|>=)?(.*)", requirement).groups()
    have = m.version(name)
    assert not op or (have == version if op == "==" else number(have) >= number(version))
PY
    "$dir/bin/python" -c "" 2>/dev/null || python3 -m venv --clear "$dir"
    echo "installing into $dir: $*"
    "$dir/bin/python" -m pip install -q --disable-pip-version-check "$@"
}
case $mode in
test | python)
    # pytest; scipy, whose chi-square the CLI statistics tests check their
    # critical values against; pycryptodome, the oracle's TurboSHAKE.
    venv "$tools_venv" pytest scipy "pycryptodome>=3.21"
    ;;
platforms)
    # zig cc: the macOS and FreeBSD cross builds (tests/platforms/build.sh).
    # Pinned: a newer clang brings new warnings, and the builds use -Werror.
    venv "$tools_venv" "ziglang==0.17.1"
    ;;
bench)
    # The charts of BENCHMARKS.md (tools/bench_charts.py).
    venv "$tools_venv" matplotlib
    ;;
format)
    # tools/check-format.sh's formatters, pinned (another version formats
    # differently), in an environment of their own.
    venv "$format_venv" "clang-format==23.1.5" "ruff==0.17.6"
    ;;
verify)
    # TestU01 (non-commercial licence: a test tool, never shipped) from crates.io.
    PATH="$HOME/.cargo/bin:$PATH"
    command -v TestU01Drv >/dev/null 2>&1 || cargo install -q --locked TestU01Drv
    ;;
esac
exit 0
