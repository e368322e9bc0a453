/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* FreeBSD: getrandom(2), FreeBSD 12 and later. */
#if defined(__FreeBSD__)
#include <errno.h>
#include <sys/random.h>
#include <sys/types.h>

#include "../entropy.h"

/* getrandom(2), flags 0: a system call (libc's stub, no lock, no
 * allocation), so the signal-safe read uses it too. Flags 0 blocks only
 * until the kernel's generator is seeded, as on Linux. */
static long getrandom_some(unsigned char *out, size_t len) { return getrandom(out, len, 0); }

static int getrandom_fill(unsigned char *out, size_t len)
{
    return shakerand_entropy_read_all(getrandom_some, out, len);
}

const struct shakerand_os_call shakerand_os_call = {
    .name = "getrandom",
    .failed = "getrandom failed",
    .fill = getrandom_fill,
};
#else
typedef int shakerand_not_freebsd; /* ISO C wants a declaration */
#endif
