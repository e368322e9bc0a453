#!/bin/sh
# Builds a consumer project outside the tree against shakerand found through
# find_package (an install in a temporary prefix; shared, static and C++),
# pkg-config, add_subdirectory and FetchContent. Every program must print
# the CLI's bytes for the same seed.
set -eu
build="$1"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=""; command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
expected=$("$build/shakerand" bytes -n 8 --seed 616263 | od -An -tx1 | tr -d ' \n')
check() { # what got
    [ "$2" = "$expected" ] || { echo "consumer ($1) printed $2, the CLI $expected" >&2; exit 1; }
}

cmake -S "$root/tests/consumer" -B "$tmp/fp" $gen -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/fp" >/dev/null
libdir=$(dirname "$(find "$tmp/prefix" -name 'libshakerand.so' | head -1)")
check "find_package, shared" "$(LD_LIBRARY_PATH="$libdir" "$tmp/fp/consumer")"
check "find_package, static" "$("$tmp/fp/consumer_static")"
check "find_package, C++" "$(LD_LIBRARY_PATH="$libdir" "$tmp/fp/consumer_cpp")"

PKG_CONFIG_PATH="$libdir/pkgconfig" cc "$root/tests/consumer/main.c" -o "$tmp/pc" \
    $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs shakerand)
check "pkg-config" "$(LD_LIBRARY_PATH="$libdir" "$tmp/pc")"

for how in add_subdirectory FetchContent; do
    cmake -S "$root/tests/consumer" -B "$tmp/$how" $gen -DHOW=$how -DSHAKERAND_SOURCE="$root" >/dev/null
    cmake --build "$tmp/$how" >/dev/null
    check "$how, static" "$("$tmp/$how/consumer_static")"
    check "$how, C++" "$(LD_LIBRARY_PATH="$tmp/$how/shakerand:$tmp/$how/_deps/shakerand-build" "$tmp/$how/consumer_cpp")"
done
echo "install: find_package (shared, static, C++), pkg-config, add_subdirectory and FetchContent consumers OK"
