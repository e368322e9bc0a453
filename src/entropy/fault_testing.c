/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Injected faults, the test-only back end: built into the testing library
 * (SHAKERAND_TESTING) alone, where the first fault set puts its reads in
 * place of the back ends' (shakerand_entropy_reads_for_testing, which the
 * conditioner owns). Every
 * fault is a replacement answer for one source's read, so the shipped
 * back ends carry no test branch. Empty in other builds (the Go package's
 * build compiles every C file of this directory).
 */
#if defined(SHAKERAND_TESTING)
#include <stdatomic.h>
#include <string.h>

#include "../entropy.h"
#include "../testing.h"

enum { MAX_HW = 8 }; /* more than any architecture has */

static _Atomic int os_fault;
static _Atomic int hw_fault[MAX_HW];

static int faulty_hw_read(size_t i, int at_startup, uint64_t *out)
{
    const int fault = i < MAX_HW ? atomic_load(&hw_fault[i]) : SHAKERAND_FAULT_NONE;
    switch (fault) {
        case SHAKERAND_FAULT_FAIL: return -1;
        case SHAKERAND_FAULT_STUCK: *out = 0x0123456789ABCDEFULL; return 0;
        case SHAKERAND_FAULT_ALL_ONES: *out = UINT64_MAX; return 0;
        case SHAKERAND_FAULT_ALL_ZEROS: *out = 0; return 0;
        case SHAKERAND_FAULT_LATER_ALL_ONES:
            if (!at_startup) {
                *out = UINT64_MAX;
                return 0;
            }
            break;
        default: break;
    }
    return shakerand_hw_sources[i]->read64(out);
}

/* NO_VDSO, NO_GETRANDOM and NO_GETENTROPY start the chain one, two or
 * three steps later, so the tests run every step. */
static int faulty_os_read(unsigned char *out, size_t len, const char **method, const char **reason)
{
    enum shakerand_os_step first = SHAKERAND_OS_VDSO;
    switch (atomic_load(&os_fault)) {
        case SHAKERAND_FAULT_FAIL: *reason = "failed (injected fault)"; return -1;
        case SHAKERAND_FAULT_FIXED:
            for (size_t i = 0; i < len; i++)
                out[i] = (unsigned char)(0xA5 ^ i);
            return 0;
        case SHAKERAND_FAULT_NO_VDSO: first = SHAKERAND_OS_GETRANDOM; break;
        case SHAKERAND_FAULT_NO_GETRANDOM: first = SHAKERAND_OS_GETENTROPY; break;
        case SHAKERAND_FAULT_NO_GETENTROPY: first = SHAKERAND_OS_URANDOM; break;
        default: break;
    }
    return shakerand_entropy_os_read(first, out, len, method, reason);
}

int shakerand_entropy_fault_for_testing(const char *name, enum shakerand_fault fault)
{
    shakerand_entropy_reads_for_testing(faulty_hw_read, faulty_os_read);
    int found = -1;
    if (strcmp(name, "os") == 0) {
        atomic_store(&os_fault, (int)fault);
        found = 0;
    }
    for (size_t i = 0; i < shakerand_hw_source_count && i < MAX_HW; i++) {
        if (strcmp(name, shakerand_hw_sources[i]->name) == 0) {
            atomic_store(&hw_fault[i], (int)fault);
            found = 0;
        }
    }
    if (shakerand_entropy_recheck_for_testing() != 0)
        return -1;
    return found;
}

#else
typedef int shakerand_no_fault_testing; /* ISO C wants a declaration */
#endif /* SHAKERAND_TESTING */
