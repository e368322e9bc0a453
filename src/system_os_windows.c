/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The system generator on Windows (src/system_os.h). Tested under Wine 8
 * (docs/system.md says what rests on Microsoft's documentation alone).
 *
 * The thread-exit wipe is a fiber-local storage callback (FlsAlloc), not a
 * winpthreads key destructor: the callback is the system's own, which
 * Windows runs as a thread exits however the thread was made
 * (CreateThread, the thread pool, a runtime other than MinGW's), so the
 * wipe depends on no threading library, and the core can be linked into
 * programs that do not use winpthreads at all. Fiber-local storage is per
 * fiber, though: at exit Windows calls the callback with the value of the
 * fiber running then only, and whenever a fiber is deleted it calls it
 * with that fiber's value, on the deleting thread; system.c's hook sorts
 * those cases out
 * (docs/system.md, "Other systems", says what each leaves). A thread ended
 * by TerminateThread runs no callback: its state stays mapped, unwiped,
 * until the process ends. The module holding the callback is pinned, so
 * it cannot be unloaded while a thread's exit would still call it (what
 * -z nodelete does on ELF systems).
 *
 * The thread's pointer to its state and its in-use marker are one word in
 * a thread-local storage slot (TlsAlloc), which lives as long as the thread
 * does, not in _Thread_local variables: MinGW's GCC emulates those, and
 * the C runtime frees them during thread exit while callbacks that may
 * still draw (winpthreads' key destructors) are yet to run.
 *
 * Windows has no fork: a process never starts as a copy of another, so no
 * page needs marking and the fork hook is never called.
 */
#if defined(_WIN32)
#include <stdatomic.h>
#include <windows.h>

#include "internal.h"
#include "system_os.h"

static DWORD exit_slot = FLS_OUT_OF_INDEXES;
static _Atomic DWORD word_slot = TLS_OUT_OF_INDEXES;
static void (*exit_hook)(void *state);

size_t shakerand_system_page_size(void)
{
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwPageSize;
}

/* Committed pages come zeroed. A reservation takes 64 KiB of address
 * space (the allocation granularity) for the one page used: address space,
 * not memory. */
void *shakerand_system_pages_alloc(size_t len)
{
    return VirtualAlloc(NULL, len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void shakerand_system_pages_free(void *p, size_t len)
{
    (void)len; /* MEM_RELEASE frees the whole reservation, and wants 0 */
    VirtualFree(p, 0, MEM_RELEASE);
}

/* No fork on Windows: no child can hold a copy of the page. Nor has
 * Windows a way to keep a page out of a crash dump (docs/system.md). */
int shakerand_system_page_mark(void *p, size_t len, int wipe_on_fork)
{
    (void)p;
    (void)len;
    (void)wipe_on_fork;
    return 1;
}

/* Runs on the exiting thread with the value of the fiber running then; on
 * the deleting thread with a deleted fiber's value; also for every value
 * at FlsFree, which is never called here. */
static void WINAPI on_fls_exit(void *state)
{
    if (state != NULL)
        exit_hook(state);
}

int shakerand_system_hooks_install(void (*on_exit)(void *state), void (*on_fork_child)(void))
{
    (void)on_fork_child;
    HMODULE self;
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                            (LPCWSTR)&exit_slot, &self))
        return SHAKERAND_ENOMEM;
    exit_hook = on_exit;
    shakerand_system_tls_setup();
    if (!shakerand_system_tls_ready())
        return SHAKERAND_ENOMEM;
    exit_slot = FlsAlloc(on_fls_exit);
    return exit_slot == FLS_OUT_OF_INDEXES ? SHAKERAND_ENOMEM : SHAKERAND_OK;
}

/* A fiber that first drew on one thread and runs on another already holds
 * that thread's state: its registration stays, for its callback to wipe. */
int shakerand_system_thread_register(void *state)
{
    const void *held = FlsGetValue(exit_slot);
    if (held != NULL)
        return held == state ? 0 : 1;
    return FlsSetValue(exit_slot, state) ? 0 : -1;
}

/* The callback also runs when a fiber is deleted, perhaps by another
 * thread than the one whose state it holds. */
unsigned long shakerand_system_thread_id(void) { return GetCurrentThreadId(); }

/* GetCurrentFiber reads the thread's environment block through the gs
 * segment, which GCC's bounds analysis takes for an access to address
 * 0x20 (a false -Warray-bounds). */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
void *shakerand_system_fiber(void) { return IsThreadAFiber() ? GetCurrentFiber() : NULL; }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* TlsGetValue clears the thread's last error when it succeeds: a draw must
 * not change what GetLastError tells the caller. */
uintptr_t shakerand_system_tls_get(void)
{
    const DWORD slot = atomic_load_explicit(&word_slot, memory_order_acquire);
    if (slot == TLS_OUT_OF_INDEXES)
        return 0;
    const DWORD error = GetLastError();
    const uintptr_t word = (uintptr_t)TlsGetValue(slot);
    SetLastError(error);
    return word;
}

void shakerand_system_tls_set(uintptr_t word)
{
    const DWORD slot = atomic_load_explicit(&word_slot, memory_order_acquire);
    if (slot != TLS_OUT_OF_INDEXES)
        TlsSetValue(slot, (void *)word);
}

/* Lock-free: of two threads that make a slot at once, the second frees
 * its own. */
void shakerand_system_tls_setup(void)
{
    if (shakerand_system_tls_ready())
        return;
    const DWORD word = TlsAlloc();
    if (word == TLS_OUT_OF_INDEXES)
        return;
    DWORD none = TLS_OUT_OF_INDEXES;
    if (!atomic_compare_exchange_strong_explicit(&word_slot, &none, word, memory_order_acq_rel,
                                                 memory_order_acquire))
        TlsFree(word);
}

int shakerand_system_tls_ready(void)
{
    return atomic_load_explicit(&word_slot, memory_order_acquire) != TLS_OUT_OF_INDEXES;
}

long shakerand_system_process_id(void) { return (long)GetCurrentProcessId(); }

/* GetTickCount64 counts time asleep and hibernated (it is the interrupt
 * time, which QueryUnbiasedInterruptTime is without those), cannot be set,
 * and exists from Vista on, Wine included; its resolution of 10-16 ms is
 * plenty for the time budget (src/policy.h). */
uint64_t shakerand_system_clock_ns(void) { return (uint64_t)GetTickCount64() * 1000000u; }
#else
typedef int shakerand_not_windows; /* ISO C wants a declaration */
#endif
