/* SPDX-License-Identifier: MIT OR Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "keccakp1600.h"

const char *shakerand_version(void) { return SHAKERAND_VERSION_STRING; }

const char *shakerand_strerror(int status)
{
    switch (status) {
        case SHAKERAND_OK: return "success";
        case SHAKERAND_EINVAL: return "invalid argument";
        case SHAKERAND_ESTATE: return "operation not valid in the object's current state";
        case SHAKERAND_EENTROPY: return "the operating system's entropy source failed";
        case SHAKERAND_ENOMEM: return "out of memory (or of thread-specific data keys)";
        default: return "unknown status";
    }
}

const char *shakerand_kernel_name(void) { return shakerand_kernel_get()->name; }

void shakerand_memzero(void *p, size_t len)
{
    if (p == NULL || len == 0)
        return;
    memset(p, 0, len);
#if defined(__GNUC__)
    /* The empty asm may read the memory, so the memset is not a dead store. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (len--)
        *v++ = 0;
#endif
}

static _Atomic(shakerand_fatal_handler) fatal_handler;

void shakerand_set_fatal_handler(shakerand_fatal_handler handler)
{
    atomic_store(&fatal_handler, handler);
}

void shakerand_fatal(const char *message)
{
    const shakerand_fatal_handler handler = atomic_load(&fatal_handler);
    if (handler != NULL)
        handler(message);
#if defined(__wasm__)
    /* No standard error: the trap is a RuntimeError thrown in the host, and
     * the module is not used again (js/lib/core.js). */
    (void)message;
    __builtin_trap();
#else
    /* write(2), not stdio: this may run in a signal handler, or with the
     * stderr lock held by the code it interrupted. */
    static const char prefix[] = "shakerand: fatal: ";
    ssize_t ignored = write(STDERR_FILENO, prefix, sizeof prefix - 1);
    ignored = write(STDERR_FILENO, message, strlen(message));
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
    abort();
#endif
}
