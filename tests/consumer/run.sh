#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds a consumer project outside the tree against shakerand found through
# find_package (an install in a temporary prefix; shared, static and C++),
# pkg-config (shared and a static link), add_subdirectory and FetchContent.
# Every program must print the CLI's bytes for the same seed. Also checks
# that a subproject leaves its parent's build type and install set alone,
# and that a plain build and install need neither googletest nor
# nlohmann-json while a test build names them when they are missing.
# Usage: run.sh BUILD_DIR (a top-level build with the CLI)
set -eu
build="$1"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=""; command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
fail() { echo "consumer: $*" >&2; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
expected=$("$build/shakerand" bytes -n 8 --seed 616263 | od -An -tx1 | tr -d ' \n')
check() { # what got
    [ "$2" = "$expected" ] || fail "($1) printed $2, the CLI $expected"
}
cache_value() { # build-dir variable
    sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"
}

for f in LICENSE-MIT LICENSE-APACHE; do
    cmp -s "$root/$f" "$tmp/prefix/share/doc/shakerand/$f" || fail "$f not installed in share/doc/shakerand"
done
[ -z "$(find "$tmp/prefix" -name '*testing*')" ] || fail "the testing library was installed"

cmake -S "$root/tests/consumer" -B "$tmp/fp" $gen -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/fp" >/dev/null
libdir=$(dirname "$(find "$tmp/prefix" -name 'libshakerand.so' | head -1)")
check "find_package, shared" "$(LD_LIBRARY_PATH="$libdir" "$tmp/fp/consumer")"
check "find_package, static" "$("$tmp/fp/consumer_static")"
check "find_package, C++" "$(LD_LIBRARY_PATH="$libdir" "$tmp/fp/consumer_cpp")"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc "$root/tests/consumer/main.c" -o "$tmp/pc" $(pkg-config --cflags --libs shakerand)
check "pkg-config" "$(LD_LIBRARY_PATH="$libdir" "$tmp/pc")"
# A static link takes the archive's own dependencies from Libs.private.
pkg-config --static --libs shakerand | grep -q -- '-pthread' ||
    fail "pkg-config --static --libs shakerand gives no -pthread"
cc -static "$root/tests/consumer/main.c" -o "$tmp/pc_static" $(pkg-config --static --cflags --libs shakerand)
readelf -d "$tmp/pc_static" 2>/dev/null | grep -q NEEDED && fail "the static pkg-config link has shared dependencies"
check "pkg-config, static" "$("$tmp/pc_static")"
# The archive alone static, the C library shared: shakerand-static.pc names
# the archive (-lshakerand would take the shared object beside it).
cc "$root/tests/consumer/main.c" -o "$tmp/pc_archive" $(pkg-config --cflags --libs shakerand-static)
readelf -d "$tmp/pc_archive" | grep NEEDED | grep -q libshakerand &&
    fail "pkg-config --libs shakerand-static linked libshakerand.so"
check "pkg-config, the archive" "$("$tmp/pc_archive")"
unset PKG_CONFIG_PATH

# As a subproject: the parent's build type stays its own (Debug here), and
# a parent that installs nothing installs nothing of shakerand's either.
for how in add_subdirectory FetchContent; do
    cmake -S "$root/tests/consumer" -B "$tmp/$how" $gen -DHOW=$how -DSHAKERAND_SOURCE="$root" \
        -DCMAKE_BUILD_TYPE=Debug >/dev/null
    cmake --build "$tmp/$how" >/dev/null
    check "$how, static" "$("$tmp/$how/consumer_static")"
    check "$how, C++" "$(LD_LIBRARY_PATH="$tmp/$how/shakerand:$tmp/$how/_deps/shakerand-build" "$tmp/$how/consumer_cpp")"
    [ "$(cache_value "$tmp/$how" CMAKE_BUILD_TYPE)" = Debug ] || fail "$how changed the parent's build type"
    cmake --install "$tmp/$how" --prefix "$tmp/$how-prefix" >/dev/null
    [ -z "$(find "$tmp/$how-prefix" -type f 2>/dev/null)" ] ||
        fail "$how installed files its parent did not ask for: $(find "$tmp/$how-prefix" -type f)"
done
# A parent without a build type keeps none.
cmake -S "$root/tests/consumer" -B "$tmp/untyped" $gen -DHOW=add_subdirectory \
    -DSHAKERAND_SOURCE="$root" >/dev/null
[ -z "$(cache_value "$tmp/untyped" CMAKE_BUILD_TYPE)" ] ||
    fail "add_subdirectory set the parent's build type to $(cache_value "$tmp/untyped" CMAKE_BUILD_TYPE)"
# A parent that asks for the install rules gets the package.
cmake "$tmp/add_subdirectory" -DSHAKERAND_INSTALL=ON >/dev/null
cmake --install "$tmp/add_subdirectory" --prefix "$tmp/asked" >/dev/null
[ -f "$tmp/asked/share/doc/shakerand/LICENSE-MIT" ] && find "$tmp/asked" -name shakerandConfig.cmake | grep -q . ||
    fail "add_subdirectory with SHAKERAND_INSTALL=ON installed no package"

# A plain build and install with the test packages unavailable.
nopkg="-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON"
cmake -S "$root" -B "$tmp/plain" $gen $nopkg --no-warn-unused-cli >/dev/null
cmake --build "$tmp/plain" >/dev/null
cmake --install "$tmp/plain" --prefix "$tmp/plain-prefix" >/dev/null
for f in bin/shakerand include/shakerand.h share/doc/shakerand/LICENSE-APACHE; do
    [ -f "$tmp/plain-prefix/$f" ] || fail "the plain install has no $f"
done
[ "$(cache_value "$tmp/plain" SHAKERAND_BUILD_TESTS)" = OFF ] || fail "tests are on by default"
# Asked for, the tests name the packages they miss.
if cmake -S "$root" -B "$tmp/plain-tests" $gen $nopkg -DSHAKERAND_BUILD_TESTS=ON >"$tmp/plain-tests.log" 2>&1; then
    fail "a test build without googletest and nlohmann-json configured"
fi
grep -q libgtest-dev "$tmp/plain-tests.log" && grep -q nlohmann-json3-dev "$tmp/plain-tests.log" ||
    { cat "$tmp/plain-tests.log" >&2; fail "the missing test packages are not named"; }

echo "install: find_package (shared, static, C++), pkg-config (shared, static, the archive), add_subdirectory and FetchContent consumers OK;"
echo "install: a subproject keeps its parent's build type and install set; a plain build needs no test package"
