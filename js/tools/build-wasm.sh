#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the two WebAssembly modules of the package into lib/: the C core
# (the files below, from src/) and js/wasm/shakerand_wasm.c, with and
# without SIMD128, by Debian's clang 14 and wasm-ld against wasi-libc (for
# memset, memcpy and malloc only: the modules import nothing but `entropy`,
# which test/node.test.mjs checks). The stack comes first in memory, so
# that running off its end traps (an address below zero) instead of
# overwriting the module's data. The chacha8rand kernels and the engines
# are optimised for speed (-O2); the Keccak permutation and sponge, which
# the TurboSHAKE engines run, for size (-Os: 3 KB less a module, and no
# slower in V8, which compiles the module again itself; -Oz took 52 bytes
# off there); the rest for the least size (-Oz: 5.4 KB less than -Os over
# the two modules, nearly all of it samplers.c's big bounds). Against -Os,
# each export called from Node 20 on AMD EPYC (Zen 3), the two builds in
# one process, rounds alternated: the refill (shakerand_js_system_fill) and
# shakerand_js_engine_double, _range and _u32 took the same time (medians
# within 1.5 %), shakerand_below 5 to 7 % longer (about 14 ns a call).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
CC=${WASM_CC:-clang-14}
command -v "$CC" >/dev/null 2>&1 || CC=clang
fast="src/chacha8rand_portable.c src/chacha8rand_simd128.c src/engine.c"
sponge="src/xof.c src/keccakp1600_portable.c"
small="src/samplers.c src/dispatch.c src/util.c js/wasm/shakerand_wasm.c"
exports="shakerand_js_alloc shakerand_js_free shakerand_js_system_fill shakerand_js_system_reseed shakerand_js_system_restore
    shakerand_js_derive_key shakerand_js_engine_range shakerand_js_engine_double shakerand_js_engine_u32
    shakerand_engine_size shakerand_engine_init shakerand_engine_fill shakerand_below
    shakerand_kind_count shakerand_kind_at shakerand_kind_name shakerand_kind_seed_size
    shakerand_kind_block_size shakerand_kernel_name shakerand_version"
export_flags=""
for e in $exports; do export_flags="$export_flags -Wl,--export=$e"; done
objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT
for kernel in portable simd128; do
    flags="--target=wasm32-wasi --sysroot=/usr -mbulk-memory -std=c11 -Wall -Wextra -Werror -DSHAKERAND_BUILDING -I$root/include"
    [ "$kernel" = simd128 ] && flags="$flags -msimd128"
    rm -f "$objects"/*.o
    for f in $fast $sponge $small; do
        case " $fast " in *" $f "*) opt=-O2 ;; *) case " $sponge " in *" $f "*) opt=-Os ;; *) opt=-Oz ;; esac ;; esac
        # shellcheck disable=SC2086
        "$CC" $flags $opt -c "$root/$f" -o "$objects/$(basename "$f" .c).o"
    done
    # shellcheck disable=SC2086
    "$CC" $flags -nostartfiles -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=65536 -Wl,--stack-first \
        $export_flags -o "$here/lib/shakerand-$kernel.wasm" "$objects"/*.o
done
# The declarations for require (index.d.cts), from index.d.ts.
node "$here/tools/build-types.mjs"
