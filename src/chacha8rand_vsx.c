/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* chacha8rand with VSX/AltiVec on little-endian POWER: four blocks a pass,
 * word w of the four in one vector register, which is exactly the
 * interleaved layout: each register is stored as is (element j, block
 * 4g + j, at the lowest address first), 16 bytes at 16 w of its group.
 * One group at a time: its 16 words and the rotation counts fill 20 of the
 * 32 AltiVec registers, and the four quarter rounds of each half round are
 * already independent; two groups side by side would need 32 for the words
 * alone and spill.
 *
 * Little-endian ppc64 means the ELFv2 ABI, whose baseline is Power ISA
 * 2.07 (POWER8), VSX included; compilers for it target POWER8 by default
 * (__VSX__), so this file needs no target attribute and dispatch selects
 * it without asking the CPU. A build that turns VSX off gets nothing
 * here. Compiled to nothing elsewhere (big-endian ppc64 too). */
#include "chacha8rand.h"

#if defined(SHAKERAND_HAVE_PPC64LE_KERNELS)
#include <altivec.h>

typedef __vector unsigned int u32x4;

/* vrlw rotates each word left by the low 5 bits of the matching word of
 * its second operand. */
#define QUARTER_ROUND(a, b, c, d)         \
    do {                                  \
        a = vec_add(a, b);                \
        d = vec_rl(vec_xor(d, a), rot16); \
        c = vec_add(c, d);                \
        b = vec_rl(vec_xor(b, c), rot12); \
        a = vec_add(a, b);                \
        d = vec_rl(vec_xor(d, a), rot8);  \
        c = vec_add(c, d);                \
        b = vec_rl(vec_xor(b, c), rot7);  \
    } while (0)

/* Element 0 at the lowest address; through a character type, which may
 * alias the caller's uint64_t words. */
static inline void store(u32x4 v, unsigned char *p) { vec_xst((__vector unsigned char)v, 0, p); }

void shakerand_chacha8rand_vsx(const uint64_t key[4], void *out, uint64_t next_key[4])
{
    /* vspltisw takes -16..15: -16 is 0xfffffff0, whose low 5 bits are 16. */
    const u32x4 rot16 = (u32x4)vec_splat_s32(-16);
    const u32x4 rot12 = vec_splat_u32(12), rot8 = vec_splat_u32(8), rot7 = vec_splat_u32(7);
    /* Key word 2i is the low half of key[i], 2i + 1 the high half. */
    const u32x4 k0 = vec_splats((unsigned int)key[0]),
                k1 = vec_splats((unsigned int)(key[0] >> 32)),
                k2 = vec_splats((unsigned int)key[1]),
                k3 = vec_splats((unsigned int)(key[1] >> 32)),
                k4 = vec_splats((unsigned int)key[2]),
                k5 = vec_splats((unsigned int)(key[2] >> 32)),
                k6 = vec_splats((unsigned int)key[3]),
                k7 = vec_splats((unsigned int)(key[3] >> 32));
    const u32x4 counters = {0, 1, 2, 3};
    unsigned char *o = out;
    for (unsigned g = 0; g < 4; g++) {
        u32x4 x[16] = {vec_splats(SHAKERAND_CHACHA_C0),
                       vec_splats(SHAKERAND_CHACHA_C1),
                       vec_splats(SHAKERAND_CHACHA_C2),
                       vec_splats(SHAKERAND_CHACHA_C3),
                       k0,
                       k1,
                       k2,
                       k3,
                       k4,
                       k5,
                       k6,
                       k7,
                       vec_add(counters, vec_splats(4 * g)),
                       vec_splats(0u),
                       vec_splats(0u),
                       vec_splats(0u)};
        for (int r = 0; r < 4; r++) {
            SHAKERAND_CHACHA_DOUBLE_ROUND(x, QUARTER_ROUND);
        }
        x[4] = vec_add(x[4], k0);
        x[5] = vec_add(x[5], k1);
        x[6] = vec_add(x[6], k2);
        x[7] = vec_add(x[7], k3);
        x[8] = vec_add(x[8], k4);
        x[9] = vec_add(x[9], k5);
        x[10] = vec_add(x[10], k6);
        x[11] = vec_add(x[11], k7);
        unsigned char *group = o + 256 * g;
        store(x[0], group + 0);
        store(x[1], group + 16);
        store(x[2], group + 32);
        store(x[3], group + 48);
        store(x[4], group + 64);
        store(x[5], group + 80);
        store(x[6], group + 96);
        store(x[7], group + 112);
        store(x[8], group + 128);
        store(x[9], group + 144);
        store(x[10], group + 160);
        store(x[11], group + 176);
        store(x[12], group + 192);
        store(x[13], group + 208);
        /* Words 14 and 15 of the last group are the next key: 992 bytes of
         * output end there. */
        unsigned char *tail = g == 3 ? (unsigned char *)next_key : group + 224;
        store(x[14], tail);
        store(x[15], tail + 16);
    }
}
#endif
