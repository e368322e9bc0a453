#!/bin/sh
# Installs the build into a temporary prefix and builds a consumer against it
# with find_package (shared and static) and with pkg-config; all three must
# print the CLI's bytes for the same seed.
set -eu
build="$1"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
expected=$("$build/shakerand" bytes -n 8 --seed 616263 | od -An -tx1 | tr -d ' \n')
cmake -S "$root/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
libdir=$(dirname "$(find "$tmp/prefix" -name 'libshakerand.so' | head -1)")
got_shared=$(LD_LIBRARY_PATH="$libdir" "$tmp/consumer/consumer")
got_static=$("$tmp/consumer/consumer_static")
PKG_CONFIG_PATH="$libdir/pkgconfig" cc "$root/tests/consumer/main.c" -o "$tmp/pc" \
    $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs shakerand)
got_pc=$(LD_LIBRARY_PATH="$libdir" "$tmp/pc")
for got in "$got_shared" "$got_static" "$got_pc"; do
    [ "$got" = "$expected" ] || { echo "consumer printed $got, CLI $expected" >&2; exit 1; }
done
echo "install: find_package (shared, static) and pkg-config consumers OK"
