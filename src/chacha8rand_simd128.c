/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* chacha8rand with WebAssembly SIMD128: four blocks a pass, word w of the
 * four in one v128, which is exactly the interleaved layout: each vector
 * is stored as is (lane j, block 4g + j, at the lowest address first), 16
 * bytes at 16 w of its group. One group at a time, as the VSX kernel does:
 * engines map v128 onto 16 registers (SSE on x86-64, NEON's 32 on arm64),
 * and 16 words plus temporaries already fill x86-64's.
 *
 * A module holding SIMD instructions does not load on an engine without
 * them, so the JavaScript package ships two modules (js/README.md) and
 * picks one by feature detection; this file compiles to nothing unless the
 * build enables SIMD128 (__wasm_simd128__). */
#include "chacha8rand.h"

#if defined(SHAKERAND_HAVE_WASM_SIMD128_KERNELS)
#include <wasm_simd128.h>

/* Rotations by 16 and 8 move whole bytes: one shuffle each (pshufb on
 * x86-64, tbl or rev on arm64); 12 and 7 take two shifts and an or. */
#define ROTL16(v) wasm_i8x16_shuffle(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define ROTL8(v) wasm_i8x16_shuffle(v, v, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)
#define ROTL(v, n) wasm_v128_or(wasm_i32x4_shl(v, n), wasm_u32x4_shr(v, 32 - (n)))

#define QUARTER_ROUND(a, b, c, d)          \
    do {                                   \
        a = wasm_i32x4_add(a, b);          \
        d = ROTL16(wasm_v128_xor(d, a));   \
        c = wasm_i32x4_add(c, d);          \
        b = ROTL(wasm_v128_xor(b, c), 12); \
        a = wasm_i32x4_add(a, b);          \
        d = ROTL8(wasm_v128_xor(d, a));    \
        c = wasm_i32x4_add(c, d);          \
        b = ROTL(wasm_v128_xor(b, c), 7);  \
    } while (0)

void shakerand_chacha8rand_simd128(const uint64_t key[4], void *out, uint64_t next_key[4])
{
    /* Key word 2i is the low half of key[i], 2i + 1 the high half. */
    const v128_t k0 = wasm_i32x4_splat((int32_t)(uint32_t)key[0]),
                 k1 = wasm_i32x4_splat((int32_t)(uint32_t)(key[0] >> 32)),
                 k2 = wasm_i32x4_splat((int32_t)(uint32_t)key[1]),
                 k3 = wasm_i32x4_splat((int32_t)(uint32_t)(key[1] >> 32)),
                 k4 = wasm_i32x4_splat((int32_t)(uint32_t)key[2]),
                 k5 = wasm_i32x4_splat((int32_t)(uint32_t)(key[2] >> 32)),
                 k6 = wasm_i32x4_splat((int32_t)(uint32_t)key[3]),
                 k7 = wasm_i32x4_splat((int32_t)(uint32_t)(key[3] >> 32));
    unsigned char *o = out;
    for (unsigned g = 0; g < 4; g++) {
        const int32_t c = (int32_t)(4 * g);
        v128_t x[16] = {wasm_i32x4_splat((int32_t)SHAKERAND_CHACHA_C0),
                        wasm_i32x4_splat((int32_t)SHAKERAND_CHACHA_C1),
                        wasm_i32x4_splat((int32_t)SHAKERAND_CHACHA_C2),
                        wasm_i32x4_splat((int32_t)SHAKERAND_CHACHA_C3),
                        k0,
                        k1,
                        k2,
                        k3,
                        k4,
                        k5,
                        k6,
                        k7,
                        wasm_i32x4_make(c, c + 1, c + 2, c + 3),
                        wasm_i32x4_splat(0),
                        wasm_i32x4_splat(0),
                        wasm_i32x4_splat(0)};
        /* Unrolled: V8 puts an interrupt check and the loop's register
         * moves on every back edge, which cost about 8% here (V8 11.3, Node 20). */
#pragma clang loop unroll(full)
        for (int r = 0; r < 4; r++) {
            SHAKERAND_CHACHA_DOUBLE_ROUND(x, QUARTER_ROUND);
        }
        x[4] = wasm_i32x4_add(x[4], k0);
        x[5] = wasm_i32x4_add(x[5], k1);
        x[6] = wasm_i32x4_add(x[6], k2);
        x[7] = wasm_i32x4_add(x[7], k3);
        x[8] = wasm_i32x4_add(x[8], k4);
        x[9] = wasm_i32x4_add(x[9], k5);
        x[10] = wasm_i32x4_add(x[10], k6);
        x[11] = wasm_i32x4_add(x[11], k7);
        unsigned char *group = o + 256 * g;
        for (unsigned w = 0; w < 14; w++)
            wasm_v128_store(group + 16 * w, x[w]);
        /* Words 14 and 15 of the last group are the next key: 992 bytes of
         * output end there. */
        unsigned char *tail = g == 3 ? (unsigned char *)next_key : group + 224;
        wasm_v128_store(tail, x[14]);
        wasm_v128_store(tail + 16, x[15]);
    }
}
#endif
