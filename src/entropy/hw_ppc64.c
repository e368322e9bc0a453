/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* POWER9 DARN, detected by the kernel's AT_HWCAP2. */
#if defined(__powerpc64__)
#include <sys/auxv.h>

#include "../entropy.h"

/* PPC_FEATURE2_DARN: POWER9 and later. */
static int darn_present(void) { return (getauxval(AT_HWCAP2) & 0x00200000UL) != 0; }

/* DARN L=1: a conditioned 64-bit random number; all-ones signals failure.
 * 10 tries, as for RDRAND. .machine lets a POWER8-targeted build assemble
 * it; it only runs where the kernel reports PPC_FEATURE2_DARN. */
static int darn64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        uint64_t v;
        __asm__ volatile(".machine push\n\t.machine power9\n\tdarn %0, 1\n\t.machine pop"
                         : "=r"(v));
        if (v != UINT64_MAX) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

const struct shakerand_hw_source shakerand_hw_darn = {"darn", darn_present, darn64};
#endif
