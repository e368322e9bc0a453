/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* chacha8rand with AVX-512F: the whole iteration in one pass, word w of all
 * sixteen blocks in one zmm register (32 registers hold the state and the
 * key without spilling), vprold for every rotation. Register w's four
 * 128-bit lanes are word w of the four groups of four blocks; a 4x4
 * transpose of 128-bit lanes across words w..w+3 turns them into 64
 * contiguous output bytes per group. Compiled to nothing outside x86-64;
 * called only when dispatch has checked the CPU and the OS. */
#include "arch.h"

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
#include <immintrin.h>

#include "chacha8rand.h"

#define TARGET_AVX512 __attribute__((target("avx512f")))

#define QUARTER_ROUND(a, b, c, d)                         \
    do {                                                  \
        a = _mm512_add_epi32(a, b);                       \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16); \
        c = _mm512_add_epi32(c, d);                       \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12); \
        a = _mm512_add_epi32(a, b);                       \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);  \
        c = _mm512_add_epi32(c, d);                       \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);  \
    } while (0)

TARGET_AVX512 void shakerand_chacha8rand_avx512(const uint64_t key[4], void *out,
                                                uint64_t next_key[4])
{
    __m512i k[8], x[16];
    for (int i = 0; i < 4; i++) {
        k[2 * i] = _mm512_set1_epi32((int)(uint32_t)key[i]);
        k[2 * i + 1] = _mm512_set1_epi32((int)(uint32_t)(key[i] >> 32));
    }
    x[0] = _mm512_set1_epi32((int)SHAKERAND_CHACHA_C0);
    x[1] = _mm512_set1_epi32((int)SHAKERAND_CHACHA_C1);
    x[2] = _mm512_set1_epi32((int)SHAKERAND_CHACHA_C2);
    x[3] = _mm512_set1_epi32((int)SHAKERAND_CHACHA_C3);
    for (int w = 0; w < 8; w++)
        x[4 + w] = k[w];
    x[12] = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    x[13] = x[14] = x[15] = _mm512_setzero_si512();
    for (int r = 0; r < 4; r++) {
        SHAKERAND_CHACHA_DOUBLE_ROUND(x, QUARTER_ROUND);
    }
#pragma GCC unroll 8
    for (int w = 0; w < 8; w++)
        x[4 + w] = _mm512_add_epi32(x[4 + w], k[w]);
    unsigned char *o = out;
    /* Unrolled, so GCC keeps x in registers here instead of storing all
     * of it to the stack to index it (4 % faster per iteration). */
#pragma GCC unroll 4
    for (int w = 0; w < 16; w += 4) {
        /* t0 = [w.0 w.1 w+1.0 w+1.1], t1 = [w.2 w.3 w+1.2 w+1.3], t2 and
         * t3 the same for w+2 and w+3 (lane g of a word is group g). */
        const __m512i t0 = _mm512_shuffle_i32x4(x[w], x[w + 1], 0x44);
        const __m512i t1 = _mm512_shuffle_i32x4(x[w], x[w + 1], 0xEE);
        const __m512i t2 = _mm512_shuffle_i32x4(x[w + 2], x[w + 3], 0x44);
        const __m512i t3 = _mm512_shuffle_i32x4(x[w + 2], x[w + 3], 0xEE);
        _mm512_storeu_si512(o + 0 * 256 + 16 * w, _mm512_shuffle_i32x4(t0, t2, 0x88));
        _mm512_storeu_si512(o + 1 * 256 + 16 * w, _mm512_shuffle_i32x4(t0, t2, 0xDD));
        _mm512_storeu_si512(o + 2 * 256 + 16 * w, _mm512_shuffle_i32x4(t1, t3, 0x88));
        const __m512i g3 = _mm512_shuffle_i32x4(t1, t3, 0xDD);
        if (w < 12) {
            _mm512_storeu_si512(o + 3 * 256 + 16 * w, g3);
        } else { /* group 3's words 14 and 15 are the next key */
            _mm256_storeu_si256((__m256i *)(void *)(o + 3 * 256 + 16 * w),
                                _mm512_castsi512_si256(g3));
            _mm256_storeu_si256((__m256i *)(void *)next_key, _mm512_extracti64x4_epi64(g3, 1));
        }
    }
}
#endif
