/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Linux: the getrandom system call, and the vDSO's (os_vdso_linux.c). */
#if defined(__linux__)
#define _GNU_SOURCE
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../entropy.h"

/* The getrandom system call, flags 0. Raw syscall() rather than libc's
 * getrandom(), so the signal-safe read can use it and a libc without the
 * wrapper still gets the call. */
static long getrandom_some(unsigned char *out, size_t len)
{
#if defined(SYS_getrandom)
    return syscall(SYS_getrandom, out, len, 0);
#else
    (void)out;
    (void)len;
    errno = ENOSYS; /* the build lacks it */
    return -1;
#endif
}

static int getrandom_fill(unsigned char *out, size_t len)
{
    return shakerand_entropy_read_all(getrandom_some, out, len);
}

const struct shakerand_os_call shakerand_os_call = {
    .name = "getrandom",
    .failed = "getrandom failed",
    .fill = getrandom_fill,
    .fast_fill = shakerand_entropy_vdso_read,
    .fast_name = "getrandom (vDSO)",
};
#else
typedef int shakerand_not_linux; /* ISO C wants a declaration */
#endif
