#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Loads a musllinux wheel's extension with musl's own dynamic linker
# (Debian's musl and musl-tools: no musl CPython can be had here): a musl
# program opens a stub library that defines every symbol the extension
# takes from CPython, then the extension with RTLD_NOW, so every relocation
# is made, its TLS ones included (musl refuses initial-exec TLS in a
# library loaded later). Its module init is not run: the stubs are not
# CPython. Prints what dlopen said.
#   tools/dist/musl-load.sh WHEEL SCRATCH
set -eu
wheel=$1 scratch=$2
command -v musl-gcc >/dev/null 2>&1 || {
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends musl musl-tools >/dev/null
}
rm -rf "$scratch"
mkdir -p "$scratch"
(cd "$scratch" && unzip -q "$wheel" 'shakerand/_core*.so')
ext=$(ls "$scratch"/shakerand/_core*.so)
# Everything undefined that the C library does not define: CPython's.
nm -D --undefined-only "$ext" | awk '{print $2}' | sed 's/@.*//' | sort -u >"$scratch/undefined"
: >"$scratch/stub.c"
while read -r name; do
    case $name in Py* | _Py*) echo "char $name[256];" >>"$scratch/stub.c" ;; esac
done <"$scratch/undefined"
musl-gcc -shared -fPIC -o "$scratch/libstub.so" "$scratch/stub.c"
cat >"$scratch/load.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argc;
    if (dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) == NULL) {
        printf("stub: %s\n", dlerror());
        return 1;
    }
    if (dlopen(argv[2], RTLD_NOW) == NULL) {
        printf("%s\n", dlerror());
        return 1;
    }
    printf("loaded by musl's dynamic linker, every relocation made\n");
    return 0;
}
EOF
musl-gcc -o "$scratch/load" "$scratch/load.c"
"$scratch/load" "$scratch/libstub.so" "$ext"
