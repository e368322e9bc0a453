/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Any system without a back end of its own (os_call_*.c): no kernel call,
 * so the chain goes on to getentropy(3) and the checked /dev/urandom, and
 * the signal-safe read to /dev/urandom. */
#if !defined(__linux__) && !defined(__FreeBSD__) && !defined(__APPLE__) && !defined(_WIN32)
#include <errno.h>

#include "../entropy.h"

static int no_call(unsigned char *out, size_t len)
{
    (void)out;
    (void)len;
    return ENOSYS;
}

const struct shakerand_os_call shakerand_os_call = {
    .name = "none",
    .failed = "no kernel call", /* never: the call answers ENOSYS */
    .fill = no_call,
};
#else
typedef int shakerand_has_os_call; /* ISO C wants a declaration */
#endif
