/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * An LD_PRELOAD shim for test_cli.py: makes chosen libc calls fail so that
 * the CLI's error paths can be reached from outside. The CLI links the core
 * statically but calls libc through the dynamic linker, so these definitions
 * take the place of libc's. SHAKERAND_TEST_FAULTS lists the faults, comma
 * separated:
 *   mmap     anonymous private mappings fail with ENOMEM (the system
 *            generator's state page)
 *   entropy  getrandom and getentropy fail with EPERM, the vDSO is hidden
 *            (getauxval(AT_SYSINFO_EHDR) is 0) and /dev/urandom cannot be
 *            opened: the operating system gives no entropy
 *   write    write(2) fails with EIO (stdio's own writes, e.g. to stderr,
 *            do not go through here)
 *   fchmod   fchmod fails with EPERM, as for a file of another user
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int fault(const char *name)
{
    const char *list = getenv("SHAKERAND_TEST_FAULTS");
    const size_t n = strlen(name);
    for (const char *p = list; p != NULL; p = strchr(p, ',')) {
        p += *p == ',';
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

static void *next(const char *symbol)
{
    void *f = dlsym(RTLD_NEXT, symbol);
    if (f == NULL)
        abort();
    return f;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (fault("mmap") && (flags & MAP_ANONYMOUS) && (flags & MAP_PRIVATE)) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    void *(*real)(void *, size_t, int, int, int, off_t) = next("mmap");
    return real(addr, len, prot, flags, fd, off);
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    if (fault("entropy")) {
        errno = EPERM;
        return -1;
    }
    ssize_t (*real)(void *, size_t, unsigned) = next("getrandom");
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
    if (number == SYS_getrandom && fault("entropy")) {
        errno = EPERM;
        return -1;
    }
    long (*real)(long, ...) = next("syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int getentropy(void *buf, size_t len)
{
    if (fault("entropy")) {
        errno = EPERM;
        return -1;
    }
    int (*real)(void *, size_t) = next("getentropy");
    return real(buf, len);
}

unsigned long getauxval(unsigned long type)
{
    if (type == AT_SYSINFO_EHDR && fault("entropy"))
        return 0;
    unsigned long (*real)(unsigned long) = next("getauxval");
    return real(type);
}

static int open_with(const char *symbol, const char *path, int flags, va_list ap)
{
    if (fault("entropy") && strcmp(path, "/dev/urandom") == 0) {
        errno = EACCES;
        return -1;
    }
    const mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
    int (*real)(const char *, int, ...) = next(symbol);
    return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const int fd = open_with("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const int fd = open_with("open64", path, flags, ap);
    va_end(ap);
    return fd;
}

ssize_t write(int fd, const void *buf, size_t len)
{
    if (fault("write")) {
        errno = EIO;
        return -1;
    }
    ssize_t (*real)(int, const void *, size_t) = next("write");
    return real(fd, buf, len);
}

int fchmod(int fd, mode_t mode)
{
    if (fault("fchmod")) {
        errno = EPERM;
        return -1;
    }
    int (*real)(int, mode_t) = next("fchmod");
    return real(fd, mode);
}
