/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * An LD_PRELOAD shim that makes chosen libc calls fail, so that error paths
 * can be reached from outside a process: the CLI's (tests/python/test_cli.py)
 * and the Java front end's with the operating system's entropy source dead
 * under a running JVM (java/src/test/java/org/shakerand/DeadEntropyTest.java).
 * The one copy: both build it from here (cc -shared -fPIC -o fault_shim.so
 * fault_shim.c -ldl). Those programs call libc through the dynamic linker
 * (the CLI links the core statically, the JVM loads it), so these
 * definitions take the place of libc's.
 *
 * SHAKERAND_TEST_FAULTS lists the faults, comma separated:
 *   mmap     anonymous private mappings fail with ENOMEM (the system
 *            generator's state page)
 *   entropy  getrandom (the libc call and the raw system call) and
 *            getentropy fail with EPERM, as under a seccomp filter, the vDSO
 *            cannot be found (getauxval(AT_SYSINFO_EHDR) is 0) and opening
 *            /dev/urandom fails with EACCES: the operating system gives no
 *            entropy
 *   write    write(2) fails with EIO (stdio's own writes, e.g. to stderr,
 *            do not go through here)
 *   fchmod   fchmod fails with EPERM, as for a file of another user
 * If SHAKERAND_TEST_FAULTS_WHILE names a file, the faults act only while
 * that file exists: a process (a JVM) starts normally, and the test makes
 * the source die and "recover" by creating and deleting the file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static int fault(const char *name)
{
    const char *list = getenv("SHAKERAND_TEST_FAULTS");
    const size_t n = strlen(name);
    int listed = 0;
    for (const char *p = list; p != NULL && !listed; p = strchr(p, ',')) {
        p += *p == ',';
        listed = strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0');
    }
    if (!listed)
        return 0;
    const char *switch_file = getenv("SHAKERAND_TEST_FAULTS_WHILE");
    if (switch_file == NULL || switch_file[0] == '\0')
        return 1;
    const int saved = errno; /* a call that is not failed leaves errno alone */
    const int exists = access(switch_file, F_OK) == 0;
    errno = saved;
    return exists;
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
    if ((flags & MAP_ANONYMOUS) && (flags & MAP_PRIVATE) && fault("mmap")) {
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

/* /dev/urandom under the entropy fault. */
static int urandom_fails(const char *path)
{
    if (path != NULL && strcmp(path, "/dev/urandom") == 0 && fault("entropy")) {
        errno = EACCES;
        return 1;
    }
    return 0;
}

/* The mode argument exists only with O_CREAT or O_TMPFILE, as open(2) reads
 * it (O_TMPFILE includes O_DIRECTORY's bit, so it is matched whole). */
static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (urandom_fails(path))
        return -1;
    return ((open_fn)next("open"))(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (urandom_fails(path))
        return -1;
    return ((open_fn)next("open64"))(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (urandom_fails(path))
        return -1;
    return ((openat_fn)next("openat"))(dir, path, flags, mode);
}

int openat64(int dir, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (urandom_fails(path))
        return -1;
    return ((openat_fn)next("openat64"))(dir, path, flags, mode);
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
