/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The system generator on every system but Windows (src/system_os.h):
 * pages from mmap, the thread-exit hook a pthread key's destructor, the
 * fork hook pthread_atfork. */
#if !defined(_WIN32)
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/mman.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "system_os.h"

static pthread_key_t exit_key;

size_t shakerand_system_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

void *shakerand_system_pages_alloc(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void shakerand_system_pages_free(void *p, size_t len) { munmap(p, len); }

int shakerand_system_hooks_install(void (*on_exit)(void *state), void (*on_fork_child)(void))
{
    if (pthread_key_create(&exit_key, on_exit) != 0)
        return SHAKERAND_ENOMEM;
    if (pthread_atfork(NULL, NULL, on_fork_child) != 0) {
        pthread_key_delete(exit_key);
        return SHAKERAND_ENOMEM;
    }
    return SHAKERAND_OK;
}

int shakerand_system_thread_register(void *state)
{
    return pthread_setspecific(exit_key, state) == 0 ? 0 : -1;
}

/* A key's destructor runs only on the thread that set the value. */
unsigned long shakerand_system_thread_id(void) { return 0; }

void *shakerand_system_fiber(void) { return NULL; }

/* The kernel's answer, not a C library's copy: glibc before 2.25 cached
 * the pid and kept the parent's in a child made by a raw clone, which is
 * the case this comparison is for. */
long shakerand_system_process_id(void)
{
#if defined(__linux__) && defined(SYS_getpid)
    return syscall(SYS_getpid);
#else
    return (long)getpid();
#endif
}

/* CLOCK_BOOTTIME on Linux (CLOCK_MONOTONIC stops in suspend there), an
 * alias of CLOCK_MONOTONIC on FreeBSD; macOS's CLOCK_MONOTONIC counts
 * sleep too (clock_gettime(3); CLOCK_UPTIME_RAW is the one that stops). */
uint64_t shakerand_system_clock_ns(void)
{
    struct timespec ts;
#if defined(CLOCK_BOOTTIME)
    clock_gettime(CLOCK_BOOTTIME, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#else
typedef int shakerand_not_posix; /* ISO C wants a declaration */
#endif
