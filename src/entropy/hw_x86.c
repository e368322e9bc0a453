/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* x86-64 RDSEED and RDRAND, with their CPUID detection. The instruction
 * sets are enabled per function by target attributes, so no build states
 * -mrdrnd -mrdseed; the conditioner calls read64 only after present(). */
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#include "../entropy.h"

#define SHAKERAND_TARGET_RNG __attribute__((target("rdrnd,rdseed")))

/* RDRAND is CPUID.1:ECX bit 30, RDSEED CPUID.(7,0):EBX bit 18, on every
 * vendor that has them (AMD included). Neither uses state the OS must
 * save, so no XGETBV check is needed. */
static int rdrand_present(void)
{
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && ((ecx >> 30) & 1);
}

static int rdseed_present(void)
{
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx >> 18) & 1;
}

/* RDSEED draws from the conditioner directly and may run dry under load:
 * Intel's guidance is to retry with a pause. 100 tries bound the wait to
 * a few microseconds; past that the source is skipped for this seed. */
SHAKERAND_TARGET_RNG static int rdseed64(uint64_t *out)
{
    for (int i = 0; i < 100; i++) {
        unsigned long long v;
        if (_rdseed64_step(&v)) {
            *out = v;
            return 0;
        }
        _mm_pause();
    }
    return -1;
}

/* RDRAND failing 10 times in a row means the hardware is broken (Intel's
 * DRNG guide, section 5.2.1). */
SHAKERAND_TARGET_RNG static int rdrand64(uint64_t *out)
{
    for (int i = 0; i < 10; i++) {
        unsigned long long v;
        if (_rdrand64_step(&v)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

const struct shakerand_hw_source shakerand_hw_rdseed = {"rdseed", rdseed_present, rdseed64};
const struct shakerand_hw_source shakerand_hw_rdrand = {"rdrand", rdrand_present, rdrand64};
#endif
