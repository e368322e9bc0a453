/* x86-64 RDSEED and RDRAND. Built with -mrdrnd -mrdseed; called only when
 * dispatch has seen the CPUID bits. */
#include <immintrin.h>

#include "entropy.h"

/* RDSEED draws from the conditioner directly and may run dry under load:
 * Intel's guidance is to retry with a pause. 100 tries bound the wait to
 * a few microseconds; past that the source is skipped for this seed. */
int shakerand_rdseed64(uint64_t *out)
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
int shakerand_rdrand64(uint64_t *out)
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
