#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The CMake install for x86-64 Windows, as a user would do it: configure
# with cmake/mingw-w64-x86_64.cmake, build, `cmake --install` into a
# prefix; then a consumer project (tests/consumer) finds it with
# find_package (shared, static, C++) and pkg-config, and each program,
# run under Wine, must print the Linux CLI's bytes for the same seed.
# Usage: tests/windows/install.sh [WORK_DIR] (default build-windows/install)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-windows/install}
mkdir -p "$work"
work=$(cd "$work" && pwd)
linux=${SHAKERAND_BUILD_DIR:-$root/build}
toolchain=$root/cmake/mingw-w64-x86_64.cmake
wine=$root/tests/windows/wine.sh
fail() { echo "windows install: FAILED: $*" >&2; exit 1; }
for tool in x86_64-w64-mingw32-gcc-posix cmake ninja pkg-config; do
    command -v $tool >/dev/null 2>&1 || fail "no $tool: run tools/install-deps.sh windows"
done
[ -x "$linux/shakerand" ] || fail "no $linux/shakerand (the reference): make test-c first"
expected=$("$linux/shakerand" bytes -n 8 --seed 616263 | od -An -tx1 | tr -d ' \n')

build=$work/build prefix=$work/prefix consumer=$work/consumer
rm -rf "$prefix" "$consumer"
{ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
      -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_EXAMPLES=OFF &&
  cmake --build "$build" -j "${JOBS:-2}" &&
  cmake --install "$build" --prefix "$prefix"; } >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; fail "build or install (log: $work/build.log)"; }
for f in bin/libshakerand.dll bin/shakerand.exe lib/libshakerand.dll.a lib/libshakerand.a \
         lib/cmake/shakerand/shakerandConfig.cmake lib/pkgconfig/shakerand.pc \
         include/shakerand.h include/shakerand.hpp include/randomshake/randomshake.hpp; do
    [ -f "$prefix/$f" ] || fail "$f not installed"
done
[ ! -d "$prefix/share/man" ] || fail "the POSIX man page was installed on Windows"
# The DLL exports the header's API and nothing else: no internal function,
# none of the winpthreads linked into it.
api=$(sed -n 's/^SHAKERAND_API .*\(shakerand_[a-z0-9_]*\)(.*/\1/p' "$root/include/shakerand.h" | sort)
exports=$(x86_64-w64-mingw32-objdump -p "$prefix/bin/libshakerand.dll" |
    sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/s/^[[:space:]]*\[ *[0-9]*\] //p' | sort)
[ -n "$api" ] && [ "$exports" = "$api" ] ||
    fail "libshakerand.dll exports other than the API: $(echo "$exports" | grep -vxF "$api" | head -5 | tr '\n' ' ')"

cmake -S "$root/tests/consumer" -B "$consumer" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_FIND_ROOT_PATH="$prefix" >"$work/consumer.log" 2>&1 &&
    cmake --build "$consumer" >>"$work/consumer.log" 2>&1 ||
    { tail -30 "$work/consumer.log" >&2; fail "the find_package consumer (log: $work/consumer.log)"; }
PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR= \
    x86_64-w64-mingw32-gcc-posix "$root/tests/consumer/main.c" -o "$consumer/pc.exe" \
    $(PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig pkg-config --cflags --libs shakerand) ||
    fail "the pkg-config consumer does not build"
# The DLL beside the programs, as a Windows user would ship it; the MinGW
# runtime DLLs the consumers need (built without -static, they import
# libwinpthread-1.dll, and the C++ one libstdc++) on Wine's PATH.
cp "$prefix/bin/libshakerand.dll" "$consumer/"
runtime="$(dirname "$(x86_64-w64-mingw32-g++-posix -print-file-name=libstdc++-6.dll)")"
runtime="$runtime;$(dirname "$(x86_64-w64-mingw32-gcc-posix -print-file-name=libwinpthread-1.dll)")"
for program in consumer consumer_static consumer_cpp pc; do
    got=$(WINEPATH=$runtime "$wine" "$consumer/$program.exe" | tr -d '\r') ||
        fail "$program.exe failed under Wine"
    [ "$got" = "$expected" ] || fail "$program.exe printed $got, the Linux CLI $expected"
done
got=$("$wine" "$prefix/bin/shakerand.exe" bytes -n 8 --seed 616263 | od -An -tx1 | tr -d ' \n')
[ "$got" = "$expected" ] || fail "the installed shakerand.exe printed $got, the Linux CLI $expected"
echo "windows install: cmake --install with the MinGW-w64 toolchain file; find_package (shared, static, C++), pkg-config and the installed CLI agree with Linux under Wine"
