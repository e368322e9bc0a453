#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# macOS (arm64, x86-64) and FreeBSD (x86-64): the libraries, the CLI and
# the C test suites cross-built by CMake with zig cc (PyPI's ziglang, a
# clang with those systems' libc headers and libc++) and warnings as errors;
# googletest is built from Debian's sources for each target, as
# tests/cross/suites.sh does. Then the two C++ headers compiled for
# arm64 macOS against libc++, and the Python extension for each target.
# Nothing here can run these binaries: built, not run (README,
# docs/system.md).
# Usage: build.sh [--all|--cli] [WORK_DIR] [TARGET...]; TARGET: aarch64-macos
# x86_64-macos x86_64-freebsd (default: all three). Without --all (make
# test): each target links the static and shared libraries and the CLI,
# and compiles every C test suite without linking them, so no target's
# libc++ is built (zig builds it, about a minute a target, the first time
# a C++ program links). With --all (make test-platforms-all): every suite
# of every target compiled and linked. With --cli (make dist): the CLI
# alone, at WORK_DIR/TARGET/shakerand. Prints a line per target.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
all=0
case ${1:-} in
--all) all=1 && shift ;;
--cli) all=cli && shift ;;
esac
work=${1:-$root/build-platforms}
mkdir -p "$work"
work=$(cd "$work" && pwd) # absolute: compilers and linkers run elsewhere
[ $# -gt 0 ] && shift
targets=${*:-aarch64-macos x86_64-macos x86_64-freebsd}
jobs=${JOBS:-2}
# zig from the tools environment (tools/install-deps.sh platforms).
zig=$("${SHAKERAND_TOOLS_VENV:-$root/build-tools/venv}/bin/python" -c \
      'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))' \
      2>/dev/null) || { echo "no ziglang: run tools/install-deps.sh platforms" >&2; exit 1; }
command -v ninja >/dev/null 2>&1 || { echo "no ninja: run tools/install-deps.sh test" >&2; exit 1; }
mkdir -p "$work/json"
cp -r /usr/include/nlohmann "$work/json/"

# zig's libc++ float.h wrapper has an include guard while clang's float.h
# is meant to be included twice (once for FLT_MAX and the rest, once for
# INFINITY): on macOS whichever comes second is lost, and googletest uses
# FLT_MAX without <cfloat>. Every C++ file gets both parts first.
cat > "$work/float_fix.h" <<'EOS'
#include <__float_float.h>
#include <__float_infinity_nan.h>
EOS

# CMake is told the compiler instead of identifying it: identifying links
# a C++ program, which has zig build the target's libc++ (a minute each).
clang_version=$("$zig" cc --version | sed -n 's/.*clang version \([0-9.]*\).*/\1/p')

# What to build in a configured tree: see the usage above.
targets_for() { # build library
    if [ $all = 1 ]; then
        echo all
    elif [ $all = cli ]; then
        echo shakerand_cli
    else
        echo "shakerand_static $2 shakerand_cli"
        ninja -C "$1" -t targets all | sed -n 's|^\(tests/CMakeFiles/[a-z0-9_]*\.dir/[^:]*\.o\):.*|\1|p' | sort -u
    fi
}
describe() {
    if [ $all = 1 ]; then
        echo "the libraries, the CLI and every C suite, linked"
    elif [ $all = cli ]; then
        echo "the CLI"
    else
        echo "the libraries and the CLI, linked; every C suite compiled"
    fi
}

status=0
for target in $targets; do
    case $target in
    aarch64-macos) system=Darwin processor=arm64 format=MACHO library=libshakerand.dylib ;;
    x86_64-macos) system=Darwin processor=x86_64 format=MACHO library=libshakerand.dylib ;;
    x86_64-freebsd) system=FreeBSD processor=amd64 format=ELF library=libshakerand.so ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
    esac
    build=$work/$target
    bin=$build/bin
    mkdir -p "$bin"
    # CMake wants one executable per tool: a wrapper each.
    for tool in cc c++ ar ranlib; do
        case $tool in cc | c++) args="$tool -target $target" ;; *) args=$tool ;; esac
        printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$zig" "$args" > "$bin/$tool"
        chmod +x "$bin/$tool"
    done
    # CMake insists on finding it for Darwin; only an install would run it.
    printf '#!/bin/sh\necho "install_name_tool: not here (cross build)" >&2\nexit 1\n' \
        > "$bin/install_name_tool"
    chmod +x "$bin/install_name_tool"
    cxx_flags=""
    [ "$system" = Darwin ] && cxx_flags="-include $work/float_fix.h"
    log=$build.log
    start=$(date +%s)
    # Darwin's rules run "ranlib -no_warning_for_no_symbols -c", which
    # llvm-ranlib does not take: a plain ranlib instead. The C++ (the test
    # suites, never run here) at -O0: optimizing it took a third of the
    # time; the library and the CLI stay as Release builds them.
    if cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_SYSTEM_NAME=$system -DCMAKE_SYSTEM_PROCESSOR=$processor \
            -DCMAKE_C_COMPILER="$bin/cc" -DCMAKE_CXX_COMPILER="$bin/c++" \
            -DCMAKE_AR="$bin/ar" -DCMAKE_RANLIB="$bin/ranlib" \
            -DCMAKE_INSTALL_NAME_TOOL="$bin/install_name_tool" \
            -DCMAKE_C_ARCHIVE_FINISH="<CMAKE_RANLIB> <TARGET>" \
            -DCMAKE_CXX_ARCHIVE_FINISH="<CMAKE_RANLIB> <TARGET>" \
            -DCMAKE_CXX_FLAGS="$cxx_flags" -DCMAKE_CXX_FLAGS_RELEASE="-O0" -DCMAKE_COMPILE_WARNING_AS_ERROR=ON \
            -DCMAKE_C_COMPILER_ID_RUN=1 -DCMAKE_C_COMPILER_ID=Clang \
            -DCMAKE_C_COMPILER_VERSION=$clang_version -DCMAKE_C_STANDARD_COMPUTED_DEFAULT=17 \
            -DCMAKE_CXX_COMPILER_ID_RUN=1 -DCMAKE_CXX_COMPILER_ID=Clang \
            -DCMAKE_CXX_COMPILER_VERSION=$clang_version -DCMAKE_CXX_STANDARD_COMPUTED_DEFAULT=17 \
            -DCMAKE_EXECUTABLE_FORMAT=$format -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
            -DSHAKERAND_BUILD_TESTS=ON \
            -DSHAKERAND_GTEST_SOURCE=/usr/src/googletest -DSHAKERAND_JSON_INCLUDE="$work/json" \
            >"$log" 2>&1 &&
        ninja_targets=$(targets_for "$build" "$library") &&
        cmake --build "$build" -j "$jobs" --target $ninja_targets >>"$log" 2>&1; then
        echo "platform $target: built, not run: $(describe) ($(($(date +%s) - start)) s)"
    else
        status=1
        tail -40 "$log" >&2
        echo "platform $target: FAILED ($(($(date +%s) - start)) s; $log)"
    fi
done
[ $all = cli ] && exit $status

# Each C++ header alone, as a user's file would include it, against libc++
# with the C++ tests' warnings.
for header in shakerand.hpp randomshake/randomshake.hpp; do
    printf '#include <%s>\nint main() { return 0; }\n' "$header" > "$work/header.cpp"
    if "$zig" c++ -target aarch64-macos -std=c++20 -Wall -Wextra -Wpedantic -Wconversion -Werror \
            -I "$root/include" -c "$work/header.cpp" -o "$work/header.o"; then
        echo "platform aarch64-macos: $header compiles (libc++, C++20)"
    else
        status=1
        echo "platform aarch64-macos: $header FAILED"
    fi
done
# The Python extension as setup.py builds it (python/ext/*.c and the core,
# with its flags), for both macOS architectures and FreeBSD, linked so that
# it finds CPython's symbols at load time; against this machine's CPython
# headers (a Linux pyconfig.h: the same sizes as on those 64-bit systems).
py_include=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
for target in aarch64-macos x86_64-macos x86_64-freebsd; do
    flags="-undefined dynamic_lookup" # macOS: CPython's symbols are looked up at load time
    case $target in
    x86_64-freebsd) flags="-fPIC -pthread -Wl,-z,nodelete" ;;
    esac
    # shellcheck disable=SC2046 # setup.py's options (src/compile_options.txt), one a word
    if "$zig" cc -target $target $flags $(grep -v '^#' "$root/src/compile_options.txt") -Wall -Wextra -Werror \
            -I "$root/include" -I "$root/src" -I "$py_include" \
            -shared -o "$work/_core.$target.so" "$root"/python/ext/*.c \
            $(sed -n "s|^\(src/.*\.c\)$|$root/\1|p" "$root/src/sources.txt"); then
        echo "platform $target: the Python extension compiles and links (CPython $(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])') headers)"
    else
        status=1
        echo "platform $target: the Python extension FAILED"
    fi
done
exit $status
