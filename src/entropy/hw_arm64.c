/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* ARMv8.5 RNDRRS and RNDR, detected by the kernel's AT_HWCAP2. */
#if defined(__aarch64__)
#include <sys/auxv.h>

#include "../entropy.h"

/* HWCAP2_RNG: both instructions. */
static int rng_present(void)
{
    return (getauxval(AT_HWCAP2) & (1UL << 16)) != 0;
}

/* RNDRRS (reseeded before the read, preferred for seeding) and RNDR; the
 * flags say whether a value was returned (Z clear on success). Written as
 * system registers so no -march=armv8.5-a+rng is needed to assemble. 10
 * tries, as for RDRAND. */
static int rndrrs64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        uint64_t v;
        int ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_1\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc");
        if (ok) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

static int rndr64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        uint64_t v;
        int ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc");
        if (ok) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

const struct shakerand_hw_source shakerand_hw_rndrrs = {"rndrrs", rng_present, rndrrs64};
const struct shakerand_hw_source shakerand_hw_rndr = {"rndr", rng_present, rndr64};
#endif
