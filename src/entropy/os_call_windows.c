/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Windows: ProcessPrng (bcryptprimitives.dll, Windows 10 and later), else
 * BCryptGenRandom with the system-preferred generator (Vista and later).
 *
 * ProcessPrng is what BCryptGenRandom itself ends in on Windows 10: the
 * per-processor generators seeded by the kernel's, answered in the process
 * without a system call, documented always to return TRUE. It is looked up
 * at run time, not linked: Windows 8.1 and earlier, and Wine 8, have no
 * bcryptprimitives.dll, and a program linked to it would not start there.
 * LOAD_LIBRARY_SEARCH_SYSTEM32: only System32's copy, never a DLL of that
 * name planted beside the program or in the current directory.
 *
 * Both calls are fast_fill and fill of the chain (os.c): ProcessPrng when
 * it is there, BCryptGenRandom otherwise or if it failed; the sources
 * report names the one that answered. Windows has no getentropy and no
 * /dev/urandom, so a failure of both is the chain's failure, and the read
 * a reentrant call makes (there are no asynchronous signals on Windows)
 * is BCryptGenRandom.
 */
#if defined(_WIN32)
#include <windows.h>
#include <bcrypt.h>
#include <errno.h>
#include <string.h>

#include "../entropy.h"

typedef BOOL(WINAPI *process_prng_fn)(PBYTE out, SIZE_T len);

/* The lookup's answer, once: the function, or NULL when there is none. */
static INIT_ONCE prng_once = INIT_ONCE_STATIC_INIT;
static process_prng_fn process_prng;

static BOOL CALLBACK find_process_prng(PINIT_ONCE once, PVOID param, PVOID *context)
{
    (void)once;
    (void)param;
    (void)context;
    HMODULE dll = LoadLibraryExW(L"bcryptprimitives.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
    if (dll != NULL) {
        /* Through a data pointer: ISO C has no cast between the two
         * function types, and GetProcAddress's is not this one. */
        FARPROC found = GetProcAddress(dll, "ProcessPrng");
        void *address;
        _Static_assert(sizeof found == sizeof address, "function and data pointers differ");
        memcpy(&address, &found, sizeof address);
        memcpy(&process_prng, &address, sizeof process_prng);
        /* The DLL stays loaded for the process's life: process_prng points into it. */
    }
    return TRUE;
}

static int process_prng_fill(unsigned char *out, size_t len)
{
    if (!InitOnceExecuteOnce(&prng_once, find_process_prng, NULL, NULL) || process_prng == NULL)
        return -1;
    return process_prng(out, len) ? 0 : -1;
}

/* BCryptGenRandom takes a ULONG length (32 bits on Windows): larger
 * requests in pieces. Any failure is EIO, never ENOSYS: the chain has no
 * weaker step to go on to. */
static int bcrypt_fill(unsigned char *out, size_t len)
{
    while (len > 0) {
        const ULONG piece = len < 0x40000000u ? (ULONG)len : 0x40000000u;
        if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, out, piece, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
            return EIO;
        out += piece;
        len -= piece;
    }
    return 0;
}

const struct shakerand_os_call shakerand_os_call = {
    .name = "BCryptGenRandom",
    .failed = "BCryptGenRandom failed",
    .fill = bcrypt_fill,
    .fast_fill = process_prng_fill,
    .fast_name = "ProcessPrng",
};
#else
typedef int shakerand_not_windows; /* ISO C wants a declaration */
#endif
