/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The system generator's platform back end (private): one file per system
 * and concern, each guarding itself (#if), so every build compiles them all:
 *
 *   system_os_posix.c    every system but Windows: the state's pages
 *                        (mmap), the thread-exit hook (a pthread key's
 *                        destructor), the fork hook (pthread_atfork), the
 *                        pid, the clock
 *   system_os_windows.c  Windows: VirtualAlloc, a fiber-local storage
 *                        callback, a thread-local storage slot for the
 *                        thread's pointer and marker, no fork,
 *                        GetTickCount64; and the page marking (nothing to
 *                        mark)
 *   system_os_linux.c    page marking: MADV_WIPEONFORK, MADV_DONTDUMP
 *   system_os_freebsd.c  page marking: minherit(INHERIT_ZERO), MADV_NOCORE
 *   system_os_other.c    page marking on macOS and any other POSIX system:
 *                        nothing to mark (the pthread_atfork handler and
 *                        the pid check keep a child from repeating the
 *                        parent)
 *   system_os_vmclock.c  the hypervisor's VM generation counter (Linux's
 *                        vmclock device; none elsewhere)
 *
 * The generator's logic (system.c) is the same on every system; docs/
 * system.md says what each guarantee rests on, per system.
 */
#ifndef SHAKERAND_SYSTEM_OS_H
#define SHAKERAND_SYSTEM_OS_H

#include <stddef.h>
#include <stdint.h>

/* A thread's state lives in pages of its own, allocated zeroed: len (a
 * multiple of shakerand_system_page_size()) bytes, or NULL. */
size_t shakerand_system_page_size(void);
void *shakerand_system_pages_alloc(size_t len);
void shakerand_system_pages_free(void *p, size_t len);

/* Marks the new pages [p, p + len) that will hold a thread's state: zeroed
 * in a child process where the kernel can do that (asked only if
 * `wipe_on_fork`; the tests turn it off), and left out of core dumps where
 * the kernel can. 1 if no child can see the parent's state in them (the
 * kernel zeroes them there, or the system has no fork), 0 if one could:
 * the generator then compares the process id on every call. */
int shakerand_system_page_mark(void *p, size_t len, int wipe_on_fork);

/* Installs, once per process, the two hooks the generator needs: on_exit
 * runs on a thread as it exits, with the state that thread registered;
 * on_fork_child runs in the child of a fork (never on a system without
 * fork). SHAKERAND_OK, or SHAKERAND_ENOMEM when either cannot be installed. */
int shakerand_system_hooks_install(void (*on_exit)(void *state), void (*on_fork_child)(void));

/* Registers the calling thread's state for on_exit: 0; -1 on failure; 1
 * if a registration is already in place (Windows: the running fiber holds
 * one), which is left as it is. */
int shakerand_system_thread_register(void *state);

/* The calling thread's id where the thread-exit hook needs it to tell the
 * thread's own state from another's (Windows), else 0. */
unsigned long shakerand_system_thread_id(void);

/* The fiber running on the calling thread (Windows, on a thread converted
 * to fibers), else NULL. */
void *shakerand_system_fiber(void);

#if defined(_WIN32)
/* The calling thread's word in a TlsAlloc slot made by
 * shakerand_system_tls_setup: 0 before that, and on a new thread. It
 * outlives every thread-exit callback; GetLastError is left as it was.
 * Setting it before the slot exists does nothing. */
uintptr_t shakerand_system_tls_get(void);
void shakerand_system_tls_set(uintptr_t word);
/* Makes the slot if it does not exist yet (once per process, whichever
 * thread comes first); shakerand_system_hooks_install makes it too, and
 * fails if it cannot. */
void shakerand_system_tls_setup(void);
/* Whether the slot exists. */
int shakerand_system_tls_ready(void);
#endif

/* The hypervisor's VM generation counter, which changes each time the
 * machine is restored from a snapshot, mapped read-only: where the
 * hypervisor keeps none, a word of the same device that a restore changes
 * too (vmclock's disruption marker); NULL where there is no device.
 * `path` stands in for the device (tests), NULL for the
 * device itself. Mapped once per process; never unmapped. Its 8 bytes are
 * compared as a word, never interpreted; shakerand_system_vm_generation_read
 * reads them as the device's sequence count says (a value the hypervisor
 * finished writing), the hot path with one load. */
const volatile uint64_t *shakerand_system_vm_generation_map(const char *path);
uint64_t shakerand_system_vm_generation_read(const volatile uint64_t *counter);

/* The process's id, compared after a fork where the pages are not zeroed. */
long shakerand_system_process_id(void);

/* Nanoseconds on a clock that cannot be set and that counts time asleep. */
uint64_t shakerand_system_clock_ns(void);

#endif
