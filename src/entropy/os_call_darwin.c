/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * macOS: getentropy(2), macOS 10.12 and later, at most 256 bytes a call.
 *
 * getentropy rather than CCRandomGenerateBytes: it is the system call
 * itself (section 2 of the manual, a libc stub with no lock and no
 * allocation), so the async-signal-safe read can use it too, and it reads
 * the kernel's generator directly; CCRandomGenerateBytes is a user-space
 * generator in corecrypto, seeded from the same kernel source and not
 * documented as safe in a signal handler, so it would add a generator in
 * front of ours and no entropy. getentropy also works in the App Sandbox
 * and in a chroot, and cannot fail for want of a file descriptor.
 */
#if defined(__APPLE__)
#include <errno.h>
#include <sys/random.h>

#include "../entropy.h"

enum { GETENTROPY_MAX = 256 }; /* larger requests fail with EIO */

/* getentropy in 256-byte pieces: 0, or the errno that stopped it. It
 * either fills its piece or fails; it is not interrupted by signals. */
static int getentropy_fill(unsigned char *out, size_t len)
{
    while (len > 0) {
        const size_t piece = len < GETENTROPY_MAX ? len : GETENTROPY_MAX;
        if (getentropy(out, piece) != 0)
            return errno != 0 ? errno : EIO;
        out += piece;
        len -= piece;
    }
    return 0;
}

const struct shakerand_os_call shakerand_os_call = {
    .name = "getentropy",
    .failed = "getentropy failed",
    .fill = getentropy_fill,
};
#else
typedef int shakerand_not_darwin; /* ISO C wants a declaration */
#endif
