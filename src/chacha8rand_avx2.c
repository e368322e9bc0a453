/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* chacha8rand with AVX2: eight blocks a pass, word w of the eight in one
 * ymm register, two passes an iteration. The low 128-bit half of a
 * register holds word w of one group of four blocks and the high half of
 * the next group, exactly the interleaved layout, so the output is the
 * halves of each pair of words stored 32 bytes at a time. Compiled to
 * nothing outside x86-64; called only when dispatch has checked the CPU
 * and the OS. */
#include "arch.h"

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
#include <immintrin.h>

#include "chacha8rand.h"

#define TARGET_AVX2 __attribute__((target("avx2")))

TARGET_AVX2 static inline __m256i rotl(__m256i v, int n)
{
    return _mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - n));
}

#define QUARTER_ROUND(a, b, c, d)                               \
    do {                                                        \
        a = _mm256_add_epi32(a, b);                             \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot16); \
        c = _mm256_add_epi32(c, d);                             \
        b = rotl(_mm256_xor_si256(b, c), 12);                   \
        a = _mm256_add_epi32(a, b);                             \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot8);  \
        c = _mm256_add_epi32(c, d);                             \
        b = rotl(_mm256_xor_si256(b, c), 7);                    \
    } while (0)

TARGET_AVX2 void shakerand_chacha8rand_avx2(const uint64_t key[4], void *out, uint64_t next_key[4])
{
    const __m256i rot16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2,
                                           3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    const __m256i rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3,
                                          0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    __m256i k[8];
    for (int i = 0; i < 4; i++) {
        k[2 * i] = _mm256_set1_epi32((int)(uint32_t)key[i]);
        k[2 * i + 1] = _mm256_set1_epi32((int)(uint32_t)(key[i] >> 32));
    }
    unsigned char *o = out;
    for (int pass = 0; pass < 2; pass++) {
        __m256i x[16];
        x[0] = _mm256_set1_epi32((int)SHAKERAND_CHACHA_C0);
        x[1] = _mm256_set1_epi32((int)SHAKERAND_CHACHA_C1);
        x[2] = _mm256_set1_epi32((int)SHAKERAND_CHACHA_C2);
        x[3] = _mm256_set1_epi32((int)SHAKERAND_CHACHA_C3);
        for (int w = 0; w < 8; w++)
            x[4 + w] = k[w];
        x[12] = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                 _mm256_set1_epi32(8 * pass));
        x[13] = x[14] = x[15] = _mm256_setzero_si256();
        for (int r = 0; r < 4; r++) {
            SHAKERAND_CHACHA_DOUBLE_ROUND(x, QUARTER_ROUND);
        }
        for (int w = 0; w < 8; w++)
            x[4 + w] = _mm256_add_epi32(x[4 + w], k[w]);
        /* Groups 2 * pass and 2 * pass + 1, each 256 bytes: word w of a
         * group is 16 bytes at 16 w. */
        unsigned char *lo = o + 512 * pass, *hi = lo + 256;
        for (int w = 0; w < 16; w += 2) {
            _mm256_storeu_si256((__m256i *)(void *)(lo + 16 * w),
                                _mm256_permute2x128_si256(x[w], x[w + 1], 0x20));
            /* The last 32 bytes (group 3, words 14 and 15) are the next
             * key. */
            unsigned char *dst = pass == 1 && w == 14 ? (unsigned char *)next_key : hi + 16 * w;
            _mm256_storeu_si256((__m256i *)(void *)dst,
                                _mm256_permute2x128_si256(x[w], x[w + 1], 0x31));
        }
    }
}
#endif
