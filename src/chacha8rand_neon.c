/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* chacha8rand with NEON (Advanced SIMD, part of every AArch64 CPU): four
 * blocks a pass, word w of the four in one q register, which is exactly the
 * interleaved layout: each register is stored as is, 16 bytes at 16 w of
 * its group. Two groups run side by side for instruction-level
 * parallelism. Compiled to nothing outside AArch64. */
#include <stddef.h>

#include "chacha8rand.h"

#if defined(SHAKERAND_HAVE_AARCH64_KERNELS)
#include <arm_neon.h>

#define ROTL(v, n) vsriq_n_u32(vshlq_n_u32((v), (n)), (v), 32 - (n))
#define ROTL16(v) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))

#define QUARTER_ROUND(a, b, c, d)      \
    do {                               \
        a = vaddq_u32(a, b);           \
        d = ROTL16(veorq_u32(d, a));   \
        c = vaddq_u32(c, d);           \
        b = ROTL(veorq_u32(b, c), 12); \
        a = vaddq_u32(a, b);           \
        d = ROTL(veorq_u32(d, a), 8);  \
        c = vaddq_u32(c, d);           \
        b = ROTL(veorq_u32(b, c), 7);  \
    } while (0)

static void start(uint32x4_t x[16], const uint32x4_t k[8], uint32_t first_block)
{
    x[0] = vdupq_n_u32(SHAKERAND_CHACHA_C0);
    x[1] = vdupq_n_u32(SHAKERAND_CHACHA_C1);
    x[2] = vdupq_n_u32(SHAKERAND_CHACHA_C2);
    x[3] = vdupq_n_u32(SHAKERAND_CHACHA_C3);
    for (int w = 0; w < 8; w++)
        x[4 + w] = k[w];
    const uint32_t counters[4] = {first_block, first_block + 1, first_block + 2, first_block + 3};
    x[12] = vld1q_u32(counters);
    x[13] = x[14] = x[15] = vdupq_n_u32(0);
}

/* Words 14 and 15 of the last group are the next key: to next_key when
 * it is given. */
static void finish(uint32x4_t x[16], const uint32x4_t k[8], unsigned char *group,
                   uint64_t *next_key)
{
    for (int w = 0; w < 8; w++)
        x[4 + w] = vaddq_u32(x[4 + w], k[w]);
    for (int w = 0; w < 16; w++) {
        unsigned char *dst = next_key != NULL && w >= 14 ? (unsigned char *)next_key + 16 * (w - 14)
                                                         : group + 16 * w;
        vst1q_u8(dst, vreinterpretq_u8_u32(x[w]));
    }
}

void shakerand_chacha8rand_neon(const uint64_t key[4], void *out, uint64_t next_key[4])
{
    uint32x4_t k[8];
    for (int i = 0; i < 4; i++) {
        k[2 * i] = vdupq_n_u32((uint32_t)key[i]);
        k[2 * i + 1] = vdupq_n_u32((uint32_t)(key[i] >> 32));
    }
    unsigned char *o = out;
    for (uint32_t g = 0; g < 4; g += 2) {
        uint32x4_t x[16], y[16];
        start(x, k, 4 * g);
        start(y, k, 4 * g + 4);
        for (int r = 0; r < 4; r++) {
            SHAKERAND_CHACHA_DOUBLE_ROUND(x, QUARTER_ROUND);
            SHAKERAND_CHACHA_DOUBLE_ROUND(y, QUARTER_ROUND);
        }
        finish(x, k, o + 256 * g, NULL);
        finish(y, k, o + 256 * (g + 1), g + 1 == 3 ? next_key : NULL);
    }
}
#endif
