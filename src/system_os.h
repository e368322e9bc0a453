/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The system generator's platform back end (private): one file per system,
 * each guarding itself (#if), so every build compiles them all:
 *
 *   system_os_linux.c    MADV_WIPEONFORK, MADV_DONTDUMP
 *   system_os_freebsd.c  minherit(INHERIT_ZERO), MADV_NOCORE
 *   system_os_other.c    macOS and any other system: nothing to mark (the
 *                        pthread_atfork handler and the pid check keep a
 *                        child from repeating the parent)
 *
 * docs/system.md says what each guarantee rests on, per system.
 */
#ifndef SHAKERAND_SYSTEM_OS_H
#define SHAKERAND_SYSTEM_OS_H

#include <stddef.h>

/* Marks the new anonymous mapping [p, p + len) that will hold a thread's
 * state: zeroed in a child process where the kernel can do that (asked
 * only if `wipe_on_fork`; the tests turn it off), and left out of core
 * dumps where the kernel can. 1 if a child will see the page zeroed, 0 if
 * not: the generator then compares the pid on every call. */
int shakerand_system_page_mark(void *p, size_t len, int wipe_on_fork);

#endif
