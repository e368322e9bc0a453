/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The operating system's chain, the same on every system: the kernel's
 * call without a system call where it has one (Linux's vDSO getrandom);
 * else the kernel's call (shakerand_os_call: getrandom on Linux and
 * FreeBSD, getentropy on macOS); where the kernel lacks it (ENOSYS),
 * getentropy(3), which a libc may implement otherwise; then /dev/urandom,
 * accepted only if it is a character device (on Linux, the kernel's random
 * driver). Windows has neither of the last two: its calls (ProcessPrng,
 * then BCryptGenRandom) never answer ENOSYS, so the chain ends with them.
 */
#define _GNU_SOURCE
#include <errno.h>
#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif
#if defined(__APPLE__)
#include <sys/random.h> /* getentropy; <unistd.h> declares it elsewhere */
#endif

#include "../entropy.h"
#include "../internal.h"

int shakerand_entropy_read_all(long (*read_some)(unsigned char *out, size_t len),
                               unsigned char *out, size_t len)
{
    int interrupted = 0;
    while (len > 0) {
        const long n = read_some(out, len);
        if (n < 0 && errno == EINTR && ++interrupted < SHAKERAND_EINTR_RETRIES)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return EIO;
        out += n;
        len -= (size_t)n;
        interrupted = 0;
    }
    return 0;
}

#if !defined(_WIN32)
/* Linux's random driver is character device 1:9 (mem, urandom). A regular
 * file, a FIFO or another device mounted or linked over /dev/urandom in a
 * container or a chroot is not a source of entropy. */
static int is_urandom(const struct stat *st)
{
    if (!S_ISCHR(st->st_mode))
        return 0;
#if defined(__linux__)
    return major(st->st_rdev) == 1 && minor(st->st_rdev) == 9;
#else
    return 1;
#endif
}

/* /dev/urandom, checked on the descriptor it is read from: 0 or -1. Only
 * open, fstat, read and close, all async-signal-safe. No O_NOFOLLOW: some
 * containers make /dev/urandom a symbolic link to the real node, and
 * fstat on the opened descriptor checks what is read whatever the path
 * went through. O_NOCTTY: a terminal put in its place must not become the
 * controlling one. */
static int urandom_fill(unsigned char *out, size_t len)
{
    const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && is_urandom(&st);
    int interrupted = 0;
    while (ok && len > 0) {
        const ssize_t n = read(fd, out, len);
        if (n < 0 && errno == EINTR && ++interrupted < SHAKERAND_EINTR_RETRIES)
            continue;
        if (n <= 0) {
            ok = 0;
            break;
        }
        out += n;
        len -= (size_t)n;
        interrupted = 0;
    }
    close(fd);
    return ok ? 0 : -1;
}

/* The C library's getentropy in 256-byte pieces (its limit): 0 or -1. */
static int libc_getentropy_fill(unsigned char *out, size_t len)
{
    for (size_t off = 0; off < len; off += 256)
        if (getentropy(out + off, len - off < 256 ? len - off : 256) != 0)
            return -1;
    return 0;
}
#else
/* Neither exists on Windows; reached only by a test that starts the chain
 * past the system's calls. */
static int urandom_fill(unsigned char *out, size_t len)
{
    (void)out;
    (void)len;
    return -1;
}

static int libc_getentropy_fill(unsigned char *out, size_t len)
{
    (void)out;
    (void)len;
    return -1;
}
#endif

int shakerand_entropy_os_read(enum shakerand_os_step first, unsigned char *out, size_t len,
                              const char **method, const char **reason)
{
    switch (first) {
        case SHAKERAND_OS_VDSO:
            if (shakerand_os_call.fast_fill != NULL && shakerand_os_call.fast_fill(out, len) == 0) {
                *method = shakerand_os_call.fast_name;
                return 0;
            }
            /* fall through */
        case SHAKERAND_OS_GETRANDOM: {
            const int error = shakerand_os_call.fill(out, len);
            if (error == 0) {
                *method = shakerand_os_call.name;
                return 0;
            }
            /* Any answer but "no such call" from a kernel that has the call
         * is a failure, not a reason to try a weaker path. */
            if (error != ENOSYS) {
                *reason = shakerand_os_call.failed;
                return -1;
            }
        }
            /* fall through */
        case SHAKERAND_OS_GETENTROPY:
            if (libc_getentropy_fill(out, len) == 0) {
                *method = "getentropy";
                return 0;
            }
            /* fall through */
        case SHAKERAND_OS_URANDOM:
            if (urandom_fill(out, len) == 0) {
                *method = "/dev/urandom";
                return 0;
            }
    }
    *reason = "the kernel's call, getentropy and /dev/urandom all failed";
    return -1;
}

int shakerand_entropy_os_signal_safe(void *out, size_t len)
{
    const int saved_errno = errno;
    int error = shakerand_os_call.fill(out, len);
    if (error == ENOSYS)
        error = urandom_fill(out, len);
    errno = saved_errno;
    return error == 0 ? SHAKERAND_OK : SHAKERAND_EENTROPY;
}
