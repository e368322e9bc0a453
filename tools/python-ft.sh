#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# A free-threaded CPython 3.13 (--disable-gil), which Debian does not ship:
# built once from Debian 13's python3.13 source package (its upstream
# tarball, Debian's patches left out) into a cache outside the work tree,
# then reused. Prints the interpreter's path.
#   tools/python-ft.sh [--if-built]   (SHAKERAND_FT_PYTHON_DIR: the cache,
#                                      default ~/.cache/shakerand-python-ft)
# --if-built: print the path if it is built, nothing if not; build nothing.
# Two runs at once (two make dist) share the cache: the second waits on the
# cache's lock (flock) while the first builds, then finds it built.
set -eu
cache=${SHAKERAND_FT_PYTHON_DIR:-$HOME/.cache/shakerand-python-ft}
prefix=$cache/3.13t
python=$prefix/bin/python3.13t
mkdir -p "$cache"
exec 9>>"$cache/lock"
if ! flock -n 9; then
    echo "python-ft: waiting for another run building $prefix ($cache/lock)" >&2
    flock 9
fi
if [ -x "$python" ] && "$python" -c "import sys, ssl, zlib; sys.exit(sys._is_gil_enabled())" 2>/dev/null; then
    echo "$python"
    exit 0
fi
[ "${1:-}" = --if-built ] && exit 0
log() { echo "python-ft: $*" >&2; }
# What CPython's configure needs for the modules pip and the tests use.
want=""
for pkg in libssl-dev zlib1g-dev libffi-dev libbz2-dev liblzma-dev libsqlite3-dev make gcc; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || want="$want $pkg"
done
if [ -n "$want" ]; then
    log "apt-get install$want"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $want >/dev/null
fi
src=$cache/src
rm -rf "$src" "$prefix"
mkdir -p "$src/dl"
apt_private=$(cd "$(dirname "$0")" && pwd)/private-apt.sh
apt() { "$apt_private" "$src/apt" "$(dpkg --print-architecture)" "deb-src trixie" "$@"; }
apt apt-get update -qq >/dev/null
(cd "$src/dl" && apt apt-get source --download-only -qq python3.13 >/dev/null)
orig=$(ls "$src"/dl/python3.13_*.orig.tar.xz)
log "building $(basename "$orig") with --disable-gil into $prefix (a few minutes, once)"
tar -xJf "$orig" -C "$src"
cd "$src"/Python-3.13*/
./configure --disable-gil --prefix="$prefix" --with-ensurepip=install >"$src/configure.log" 2>&1 ||
    { tail -20 "$src/configure.log" >&2; exit 1; }
make -j"${JOBS:-2}" >"$src/make.log" 2>&1 || { tail -30 "$src/make.log" >&2; exit 1; }
make install >"$src/install.log" 2>&1 || { tail -30 "$src/install.log" >&2; exit 1; }
rm -rf "$src"
"$python" -c "import sys, ssl, zlib; sys.exit(sys._is_gil_enabled())" ||
    { log "$python is not free-threaded"; exit 1; }
echo "$python"
