/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The state page's marking on macOS and on any other POSIX system without
 * a file of its own (src/system_os.h). Built for macOS, not run
 * (docs/system.md).
 *
 * macOS has no way to have a page zeroed in a child: minherit() offers
 * share, copy and none (an unmapped page would crash the child, not
 * reseed it), and madvise() has no WIPEONFORK. So the page is not marked,
 * and the generator compares the pid on every call besides its
 * pthread_atfork handler; a child made without fork handlers (a raw
 * system call) is caught by the pid alone. Nor has macOS a madvise() that
 * keeps a page out of core dumps.
 */
#if !defined(__linux__) && !defined(__FreeBSD__) && !defined(_WIN32)
#include "system_os.h"

int shakerand_system_page_mark(void *p, size_t len, int wipe_on_fork)
{
    (void)p;
    (void)len;
    (void)wipe_on_fork;
    return 0;
}
#else
typedef int shakerand_has_system_os; /* ISO C wants a declaration */
#endif
