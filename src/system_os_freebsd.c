/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The system generator on FreeBSD (src/system_os.h). Built, not run: no
 * FreeBSD machine runs the tests (docs/system.md). */
#if defined(__FreeBSD__)
#include <sys/types.h>
#include <sys/mman.h>

#include "system_os.h"

/* minherit(INHERIT_ZERO) (FreeBSD 12): a child gets the range as fresh
 * zeroed memory, Linux's MADV_WIPEONFORK. MADV_NOCORE: kept out of core
 * dumps. */
int shakerand_system_page_mark(void *p, size_t len, int wipe_on_fork)
{
    const int wiped = wipe_on_fork && minherit(p, len, INHERIT_ZERO) == 0;
    (void)madvise(p, len, MADV_NOCORE);
    return wiped;
}
#else
typedef int shakerand_not_freebsd; /* ISO C wants a declaration */
#endif
