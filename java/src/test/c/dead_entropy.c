/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* LD_PRELOAD shim for DeadEntropyTest: while the file named by SHAKERAND_TEST_DEAD_ENTROPY
 * exists, the operating system's entropy source is dead for every caller in the process:
 * getrandom (the libc call and the raw system call) and getentropy fail with EPERM (as under a seccomp filter), the vDSO cannot be found
 * (getauxval(AT_SYSINFO_EHDR) is 0) and opening /dev/urandom fails with EACCES. The switch is a
 * file, not a fixed state, so the JVM starts normally and the child can make the OS "recover".
 * Built by the test: cc -shared -fPIC -o dead_entropy.so dead_entropy.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static int dead(void)
{
    const char *flag = getenv("SHAKERAND_TEST_DEAD_ENTROPY");
    return flag != NULL && access(flag, F_OK) == 0;
}

static int urandom(const char *path)
{
    return path != NULL && strcmp(path, "/dev/urandom") == 0 && dead();
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    if (dead()) {
        errno = EPERM;
        return -1;
    }
    ssize_t (*real)(void *, size_t, unsigned) =
        (ssize_t (*)(void *, size_t, unsigned))dlsym(RTLD_NEXT, "getrandom");
    return real(buf, len, flags);
}

/* The C core calls getrandom through syscall(2), so that is where it fails too. */
long syscall(long number, ...)
{
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == SYS_getrandom && dead()) {
        errno = EPERM;
        return -1;
    }
    long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int getentropy(void *buf, size_t len)
{
    if (dead()) {
        errno = EPERM;
        return -1;
    }
    int (*real)(void *, size_t) = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "getentropy");
    return real(buf, len);
}

unsigned long getauxval(unsigned long type)
{
    if (type == AT_SYSINFO_EHDR && dead())
        return 0;
    unsigned long (*real)(unsigned long) =
        (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
    return real(type);
}

/* The mode argument exists only with O_CREAT or O_TMPFILE, as open(2) reads it. */
#define MODE_ARG(flags, mode)                                                                  \
    do {                                                                                       \
        va_list ap;                                                                            \
        va_start(ap, flags);                                                                   \
        mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0; \
        va_end(ap);                                                                            \
    } while (0)

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

int open(const char *path, int flags, ...)
{
    mode_t mode;
    MODE_ARG(flags, mode);
    if (urandom(path)) {
        errno = EACCES;
        return -1;
    }
    return ((open_fn)dlsym(RTLD_NEXT, "open"))(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    mode_t mode;
    MODE_ARG(flags, mode);
    if (urandom(path)) {
        errno = EACCES;
        return -1;
    }
    return ((open_fn)dlsym(RTLD_NEXT, "open64"))(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...)
{
    mode_t mode;
    MODE_ARG(flags, mode);
    if (urandom(path)) {
        errno = EACCES;
        return -1;
    }
    return ((openat_fn)dlsym(RTLD_NEXT, "openat"))(dir, path, flags, mode);
}

int openat64(int dir, const char *path, int flags, ...)
{
    mode_t mode;
    MODE_ARG(flags, mode);
    if (urandom(path)) {
        errno = EACCES;
        return -1;
    }
    return ((openat_fn)dlsym(RTLD_NEXT, "openat64"))(dir, path, flags, mode);
}
