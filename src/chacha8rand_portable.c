/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The portable chacha8rand kernel: plain C, any byte order, one block at a
 * time. It is the reference the vector kernels are tested against. */
#include <string.h>

#include "chacha8rand.h"
#include "internal.h"

static inline uint32_t rotl32(uint32_t v, unsigned n) { return v << n | v >> (32 - n); }

#define QUARTER_ROUND(a, b, c, d) \
    do {                          \
        a += b;                   \
        d = rotl32(d ^ a, 16);    \
        c += d;                   \
        b = rotl32(b ^ c, 12);    \
        a += b;                   \
        d = rotl32(d ^ a, 8);     \
        c += d;                   \
        b = rotl32(b ^ c, 7);     \
    } while (0)

void shakerand_chacha8rand_portable(const uint64_t key[4], void *out, uint64_t next_key[4])
{
    uint32_t k[8], words[256]; /* the iteration as 32-bit stream words */
    for (unsigned i = 0; i < 4; i++) {
        k[2 * i] = (uint32_t)key[i];
        k[2 * i + 1] = (uint32_t)(key[i] >> 32);
    }
    for (uint32_t block = 0; block < 16; block++) {
        uint32_t x[16] = {SHAKERAND_CHACHA_C0,
                          SHAKERAND_CHACHA_C1,
                          SHAKERAND_CHACHA_C2,
                          SHAKERAND_CHACHA_C3,
                          k[0],
                          k[1],
                          k[2],
                          k[3],
                          k[4],
                          k[5],
                          k[6],
                          k[7],
                          block,
                          0,
                          0,
                          0};
        for (unsigned r = 0; r < 4; r++) {
            SHAKERAND_CHACHA_DOUBLE_ROUND(x, QUARTER_ROUND);
        }
        for (unsigned w = 4; w < 12; w++)
            x[w] += k[w - 4];
        uint32_t *group = words + 64 * (block / 4);
        for (unsigned w = 0; w < 16; w++)
            group[4 * w + block % 4] = x[w];
        shakerand_memzero(x, sizeof x);
    }
    /* Stream word i is 32-bit words 2i (low half) and 2i + 1. */
    for (unsigned i = 0; i < 128; i++) {
        const uint64_t v = (uint64_t)words[2 * i] | (uint64_t)words[2 * i + 1] << 32;
        if (i < 124)
            memcpy((unsigned char *)out + 8 * i, &v, 8);
        else
            next_key[i - 124] = v;
    }
    shakerand_memzero(words, sizeof words);
    shakerand_memzero(k, sizeof k);
}
