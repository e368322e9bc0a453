#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the C core with the repository's CMake (shakerand_static, -fPIC) and links the JNI
# glue against it into target/classes/native/PLATFORM/libshakerand_jni.so, from which the jar
# and the tests pick it up: for this machine's platform, and for every other Linux platform
# the jar carries (x86_64, aarch64, ppc64le, s390x) whose Debian cross compiler is installed,
# and beside each, in target/test-native/PLATFORM/, the tests' library of C samplers
# (gcc-aarch64-linux-gnu and the like; `tools/install-deps.sh cross` installs them). With
# PLATFORMS "available" a missing cross compiler leaves that platform out with a warning; with
# "all" (mvn -Prelease, make test) it is an error; "host" builds this machine's alone (the VM
# harness, tests/vm/run.sh). Run by Maven (exec-maven-plugin, phase
# process-classes).
# The core's sources (src/sources.txt) and their instruction sets (target attributes in the
# sources) come with CMake's shakerand_static, so this script names neither; that library
# carries no test hook (those are in shakerand_testing only). The JNI headers are
# architecture-neutral on Linux (jni_md.h: int is 32 bits, long 64, on every platform here).
# windows-x86_64 is built and tested under Wine by tests/windows/java.sh (build-windows.sh);
# this script puts that DLL in the jar only while its record of the test matches both the DLL
# and the digest of its sources, so the jar never carries a Windows library no test loaded.
# With WINDOWS "required" (mvn -Prelease) a missing or stale record is an error.
# Usage: build.sh REPO_ROOT TARGET_DIR JAVA_HOME [available|all|host] [if-tested|required]
set -eu
root=$1 target=$2 jhome=$3 platforms=${4:-available} windows=${5:-if-tested}
here=$(cd "$(dirname "$0")" && pwd)
jinc="$jhome/include"
[ -d "$jinc" ] || jinc="$jhome/../include" # a JRE inside a JDK (Java 8 layout)

# build PLATFORM CMAKE_PROCESSOR CC: one platform's library (CC empty: this machine's).
build() {
    platform=$1 processor=$2 cc=$3
    dir="$target/native-build/$platform"
    out="$target/classes/native/$platform"
    set -- -DCMAKE_BUILD_TYPE=Release -DSHAKERAND_BUILD_TESTS=OFF -DSHAKERAND_BUILD_CLI=OFF \
        -DSHAKERAND_BUILD_EXAMPLES=OFF -DSHAKERAND_BUILD_BENCH=OFF
    if [ -n "$cc" ]; then
        set -- "$@" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$processor" \
            -DCMAKE_C_COMPILER="$cc"
    fi
    cmake -S "$root" -B "$dir" "$@" >/dev/null
    cmake --build "$dir" --target shakerand_static -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    mkdir -p "$out"
    ${cc:-${CC:-cc}} -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror -fvisibility=hidden \
        -I "$root/include" -I "$target/jni-include" -I "$jinc" -I "$jinc/linux" \
        -o "$out/libshakerand_jni.so" "$here/shakerand_jni.c" "$dir/libshakerand.a" \
        -pthread -Wl,--no-undefined -Wl,-z,noexecstack -Wl,--exclude-libs,ALL -Wl,-z,nodelete \
        -Wl,-z,now -Wl,-z,relro
    # exclude-libs: only the JNI entry points are exported, so no other library's symbols can
    # bind to the C core's (or it to theirs). nodelete: the C core's thread-exit destructor must
    # stay mapped if the JDK unloads the library with its class loader. now and relro: every
    # symbol bound at load, the table read-only after (ElfTest checks both in what the jar
    # carries): a lazily bound PLT call runs glibc's resolver, which saves the whole XSAVE area
    # on the stack below the library's frame (about 2.7 KiB more with AVX-512), outside what the
    # library's stack wipe covers.
    echo "built $out/libshakerand_jni.so"
    # The tests' own library (the C samplers, for CrossCheckTest), outside the jar's classes.
    tests="$target/test-native/$platform"
    mkdir -p "$tests"
    ${cc:-${CC:-cc}} -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror -fvisibility=hidden \
        -I "$root/include" -I "$jinc" -I "$jinc/linux" \
        -o "$tests/libshakerand_samplers_jni.so" "$here/../../test/c/samplers_jni.c" \
        "$dir/libshakerand.a" -pthread -Wl,--no-undefined -Wl,-z,noexecstack
}

host=$(uname -m)
missing=""
for p in x86_64:x86_64-linux-gnu-gcc aarch64:aarch64-linux-gnu-gcc \
         ppc64le:powerpc64le-linux-gnu-gcc s390x:s390x-linux-gnu-gcc; do
    arch=${p%%:*} cc=${p#*:}
    if [ "$arch" = "$host" ]; then
        build "linux-$arch" "$arch" ""
    elif [ "$platforms" != host ] && command -v "$cc" >/dev/null 2>&1; then
        build "linux-$arch" "$arch" "$cc"
    else
        missing="$missing linux-$arch"
        # no stale library from an earlier build may ride along in this jar
        rm -rf "$target/classes/native/linux-$arch" "$target/test-native/linux-$arch"
    fi
done
if [ -n "$missing" ] && [ "$platforms" != host ]; then
    if [ "$platforms" = all ]; then
        echo "[ERROR] no cross compiler for:$missing (run tools/install-deps.sh cross)" >&2
        exit 1
    fi
    echo "[WARNING] this jar carries no native library for:$missing (no cross compiler);" \
        "there it runs in pure Java. mvn -Prelease requires all four."
fi

# windows-x86_64: the very DLL tests/windows/java.sh ran, if its sources have not changed since.
win="$target/windows-native"
dll="$win/native/windows-x86_64/shakerand_jni.dll"
rm -rf "$target/classes/native/windows-x86_64"
why=""
if [ ! -f "$win/tested" ] || [ ! -f "$dll" ]; then
    why="not tested under Wine (tests/windows/java.sh)"
elif [ "$(cat "$win/tested")" != "$(sha256sum "$dll" | cut -d' ' -f1) $(sh "$here/build-windows.sh" --digest "$root")" ]; then
    why="it or its sources changed since tests/windows/java.sh tested it"
fi
if [ -z "$why" ]; then
    mkdir -p "$target/classes/native/windows-x86_64"
    cp "$dll" "$target/classes/native/windows-x86_64/shakerand_jni.dll"
    echo "included $dll (tested under Wine)"
elif [ "$windows" = required ]; then
    echo "[ERROR] no windows-x86_64 library for the jar: $why" >&2
    exit 1
else
    echo "[WARNING] this jar carries no windows-x86_64 library: $why; there it runs in pure Java."
fi
