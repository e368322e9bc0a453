#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the library's portable sources with Debian's cross compilers and runs
# tests/cross/entropy_cross.c under qemu-user: DARN on POWER9 (and its
# absence on POWER8), RNDR on ARMv8.5 (absent on Cortex-A57), big-endian
# s390x, and x86-64 without RDRAND/RDSEED (qemu64); on ppc64le also
# tests/cross/registers_ppc64le.c (the registers after a refill).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hex=$(python3 -c "
import sys; sys.path.insert(0, '$root/tools'); import shakerand_ref as r
seed = bytes(range(40))
print(' '.join(r.engine_stream(k, seed, 2300).hex() for k in ('turboshake256', 'shake256', 'turboshake256x8')),
      r.engine_stream('chacha8rand', seed[:32], 2300).hex())")
# The core's one list (files for other architectures compile to nothing,
# and the x86-64 ones enable their instruction sets themselves), plus the
# testing back end: entropy_cross.c injects faults.
common="$(cd "$root" && grep -v '^#' src/sources.txt) src/entropy/fault_testing.c tests/cross/entropy_cross.c"
flags="-std=c11 -O2 -static -Iinclude -Isrc -pthread -DSHAKERAND_TESTING"

build() { # compiler output [extra-flags]
    (cd "$root" && $1 $flags ${3:-} $common -o "$2")
}
check() { # name command...
    name=$1; shift
    if out=$("$@" 2>&1); then
        echo "cross $name: $(echo "$out" | tail -1)"
    else
        echo "$out"; echo "cross $name: FAILED" >&2; exit 1
    fi
}

build powerpc64le-linux-gnu-gcc "$tmp/ppc64le"
check "ppc64le power9 (DARN)" qemu-ppc64le -cpu power9 "$tmp/ppc64le" darn present $hex
check "ppc64le power8 (no DARN)" qemu-ppc64le -cpu power8 "$tmp/ppc64le" darn absent $hex
# The registers after refills, every kernel (the vsx one is compiled for
# POWER8, the ABI's baseline: power8 proves it needs nothing later).
(cd "$root" && powerpc64le-linux-gnu-gcc $flags $(grep -v '^#' src/sources.txt) \
    src/entropy/fault_testing.c tests/cross/registers_ppc64le.c -o "$tmp/ppc64le_registers")
check "ppc64le power9 registers" qemu-ppc64le -cpu power9 "$tmp/ppc64le_registers"
check "ppc64le power8 registers" qemu-ppc64le -cpu power8 "$tmp/ppc64le_registers"

build aarch64-linux-gnu-gcc "$tmp/aarch64"
check "aarch64 max (RNDRRS)" qemu-aarch64 -cpu max "$tmp/aarch64" rndrrs present $hex
check "aarch64 max (RNDR)" qemu-aarch64 -cpu max "$tmp/aarch64" rndr present $hex
check "aarch64 cortex-a57 (no RNDR)" qemu-aarch64 -cpu cortex-a57 "$tmp/aarch64" rndr absent $hex

build s390x-linux-gnu-gcc "$tmp/s390x"
check "s390x (big-endian)" qemu-s390x "$tmp/s390x" rdrand absent $hex

# x86-64 with its own kernels and RDRAND/RDSEED code, on a CPU without them.
build gcc "$tmp/x86"
check "x86-64 qemu64 (no RDRAND)" qemu-x86_64 -cpu qemu64 "$tmp/x86" rdrand absent $hex
check "x86-64 qemu64 (no RDSEED)" qemu-x86_64 -cpu qemu64 "$tmp/x86" rdseed absent $hex
check "x86-64 native" "$tmp/x86" rdrand present $hex
# The Python extension as python/setup.py builds it, compiled and linked for
# each architecture against this machine's CPython headers (built, not run).
py_include=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
for triple in powerpc64le-linux-gnu aarch64-linux-gnu s390x-linux-gnu; do
    # shellcheck disable=SC2046 # one option a word
    (cd "$root" && $triple-gcc $(grep -v '^#' src/compile_options.txt) -fPIC -shared -Wall -Wextra -Werror \
        -pthread -Wl,-z,nodelete -Iinclude -Isrc -I"$py_include" \
        python/ext/*.c $(grep -v '^#' src/sources.txt) -o "$tmp/_core.$triple.so")
    echo "cross $triple: the Python extension compiles and links"
done
echo "cross: all passed"
