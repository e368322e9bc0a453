/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The system generator on Linux (src/system_os.h). */
#if defined(__linux__)
#define _GNU_SOURCE
#include <sys/mman.h>

#include "system_os.h"

/* MADV_WIPEONFORK (Linux 4.14): a child sees the page zeroed, even after a
 * raw clone that skips fork handlers; older kernels refuse it (EINVAL).
 * MADV_DONTDUMP (3.4): kept out of core dumps. */
int shakerand_system_page_mark(void *p, size_t len, int wipe_on_fork)
{
    int wiped = 0;
#if defined(MADV_WIPEONFORK)
    wiped = wipe_on_fork && madvise(p, len, MADV_WIPEONFORK) == 0;
#else
    (void)wipe_on_fork;
#endif
#if defined(MADV_DONTDUMP)
    (void)madvise(p, len, MADV_DONTDUMP);
#endif
    return wiped;
}
#else
typedef int shakerand_not_linux; /* ISO C wants a declaration */
#endif
