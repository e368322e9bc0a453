#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the C core with the repository's CMake (shakerand_static, -fPIC) and links the JNI
# glue against it into target/classes/native/PLATFORM/libshakerand_jni.so, from which the jar
# and the tests pick it up. Run by Maven (exec-maven-plugin, phase process-classes).
# The core's sources (src/sources.txt) and their instruction sets (target attributes in the
# sources) come with CMake's shakerand_static, so this script names neither; that library
# carries no test hook (those are in shakerand_testing only).
# Usage: build.sh REPO_ROOT TARGET_DIR JAVA_HOME PLATFORM
set -eu
root=$1 target=$2 jhome=$3 platform=$4
here=$(cd "$(dirname "$0")" && pwd)
build="$target/native-build"
out="$target/classes/native/$platform"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=OFF \
    -DSHAKERAND_BUILD_CLI=OFF -DSHAKERAND_BUILD_EXAMPLES=OFF -DSHAKERAND_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target shakerand_static -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p "$out"
jinc="$jhome/include"
[ -d "$jinc" ] || jinc="$jhome/../include" # a JRE inside a JDK (Java 8 layout)
${CC:-cc} -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror -fvisibility=hidden \
    -I "$root/include" -I "$target/jni-include" -I "$jinc" -I "$jinc/linux" \
    -o "$out/libshakerand_jni.so" "$here/shakerand_jni.c" "$build/libshakerand.a" \
    -pthread -Wl,--no-undefined -Wl,-z,noexecstack -Wl,-z,nodelete # nodelete: the C core's
    # thread-exit destructor must stay mapped if the JDK unloads the library with its class loader
echo "built $out/libshakerand_jni.so"
