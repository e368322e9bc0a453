/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* ARMv8.5 RNDRRS and RNDR, detected by what the kernel reports: AT_HWCAP2
 * (getauxval on Linux, elf_aux_info on FreeBSD) or the sysctl
 * hw.optional.arm.FEAT_RNG (macOS). */
#if defined(__aarch64__)
#if defined(__APPLE__)
#include <sys/types.h>
#include <sys/sysctl.h>
#else
#include <sys/auxv.h>
#endif

#include "../entropy.h"

/* Both instructions, or neither. HWCAP2_RNG is bit 16 on Linux and
 * FreeBSD alike. */
static int rng_present(void)
{
#if defined(__APPLE__)
    int value = 0;
    size_t size = sizeof value;
    /* Fails (ENOENT) on a system older than the name: not present. */
    return sysctlbyname("hw.optional.arm.FEAT_RNG", &value, &size, NULL, 0) == 0 &&
           size == sizeof value && value != 0;
#elif defined(__FreeBSD__)
    unsigned long hwcap2 = 0;
    return elf_aux_info(AT_HWCAP2, &hwcap2, (int)sizeof hwcap2) == 0 && (hwcap2 & (1UL << 16)) != 0;
#else
    return (getauxval(AT_HWCAP2) & (1UL << 16)) != 0;
#endif
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
