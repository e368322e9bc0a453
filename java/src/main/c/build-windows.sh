#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The windows-x86_64 native: the C core (the repository's CMake, shakerand_static, cross-built
# with MinGW-w64) and the JNI glue linked into one DLL that needs nothing beside Windows' own
# DLLs (libgcc and winpthreads linked in), in TARGET_DIR/windows-native/native/windows-x86_64/;
# and the tests' C samplers in TARGET_DIR/test-native/windows-x86_64/. The JNI headers are a
# Windows JDK's (include/win32: jint is long there). tests/windows/java.sh runs this, loads the
# DLL in a Windows JVM under Wine, and only then records it as tested (TARGET_DIR/windows-native/
# tested); build.sh puts it in the jar only while that record matches the DLL and its sources.
# Usage: build-windows.sh REPO_ROOT TARGET_DIR WINDOWS_JAVA_HOME
#        build-windows.sh --digest REPO_ROOT   (prints the digest of the DLL's sources)
set -eu

# The DLL's inputs: the core, its headers and build files, the glue, the compiler, and
# NativeLib.java, whose native methods the glue implements (its JNI header is made from it).
digest() {
    (cd "$1" && find src include cmake CMakeLists.txt java/src/main/c/shakerand_jni.c java/src/main/c/engine_alloc.h \
        java/src/main/c/build-windows.sh java/src/main/java/org/shakerand/NativeLib.java \
        -type f 2>/dev/null |
        LC_ALL=C sort | xargs sha256sum
     x86_64-w64-mingw32-gcc-posix --version 2>/dev/null | head -n 1) | sha256sum | cut -d' ' -f1
}
if [ "${1:-}" = --digest ]; then
    digest "$2"
    exit 0
fi

root=$1 target=$2 jhome=$3
here=$(cd "$(dirname "$0")" && pwd)
cc=x86_64-w64-mingw32-gcc-posix
command -v "$cc" >/dev/null 2>&1 || { echo "no $cc: run tools/install-deps.sh windows" >&2; exit 1; }
jinc="$jhome/include"
[ -f "$jinc/win32/jni_md.h" ] || { echo "no $jinc/win32/jni_md.h (a Windows JDK)" >&2; exit 1; }
[ -f "$target/jni-include/org_shakerand_NativeLib.h" ] ||
    { echo "no JNI header in $target/jni-include: compile the Java classes first" >&2; exit 1; }

dir="$target/native-build/windows-x86_64"
out="$target/windows-native/native/windows-x86_64"
tests="$target/test-native/windows-x86_64"
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=OFF \
    -DSHAKERAND_BUILD_CLI=OFF -DSHAKERAND_BUILD_EXAMPLES=OFF -DSHAKERAND_BUILD_BENCH=OFF \
    -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=x86_64 -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$dir" --target shakerand_static -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
# A record from an earlier DLL must not vouch for this one.
rm -f "$target/windows-native/tested"
mkdir -p "$out" "$tests"
# -static: winpthreads and libgcc inside, so no MinGW DLL has to travel beside it.
# --no-insert-timestamp: no build time in the header. --disable-auto-image-base: ld would derive
# the preferred base from the output's path, and make dist builds in a new directory each time
# and compares its DLL byte for byte with another run's (Windows relocates it anyway:
# --dynamicbase). JNIEXPORT is dllexport on Windows and nothing else is exported (java.sh checks
# the export table). The jar takes the very bytes java.sh tested (build.sh compares hashes).
# No -z now or relro as on Linux (build.sh): Windows binds a DLL's imports when it loads it, so
# no resolver runs on the stack at a call's first use.
set -- -std=c11 -O2 -shared -Wall -Wextra -Werror -I "$root/include" -I "$jinc" -I "$jinc/win32" \
    -pthread -static -static-libgcc -Wl,--no-insert-timestamp -Wl,--disable-auto-image-base \
    -Wl,--dynamicbase -Wl,--nxcompat -Wl,--high-entropy-va -Wl,--exclude-all-symbols
umask 077
# bcrypt: the core's OS source (CMake's SHAKERAND_SYSTEM_LIBS on Windows).
"$cc" "$@" -I "$target/jni-include" -o "$out/shakerand_jni.dll" "$here/shakerand_jni.c" \
    "$dir/libshakerand.a" -lbcrypt
"$cc" "$@" -o "$tests/shakerand_samplers_jni.dll" "$here/../../test/c/samplers_jni.c" \
    "$dir/libshakerand.a" -lbcrypt
echo "built $out/shakerand_jni.dll"
