/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A mutex that a child process made anew when it finds it is not its
 * parent (private). fork() runs the owners' pthread_atfork handlers, which
 * leave the mutex free in the child; a raw fork or clone system call runs
 * none, and a mutex another thread held at that moment stays held in the
 * child, where that thread does not exist: the child's first lock would
 * wait for good. So the mutex is marked as this process's, as the system
 * generator's state is (src/system_os.h): by a word in a page of its own
 * that the kernel zeroes in any child, or, where the page cannot be so
 * marked, by the pid, compared at each lock (a system call). The first
 * thread of a child to lock it initialises it again and sets taken_over;
 * the owner reads and clears that flag under the lock, and makes what the
 * lock guards sound for this process (a child may take the lock over from
 * a parent's thread halfway through a critical section).
 *
 * Locking is not signal-safe, as pthread_mutex_lock is not: the owners
 * keep signal handlers away from it (their `holding` flags and the
 * system generator's in-use marker), and set their flag before calling
 * shakerand_process_lock, so a handler that forks while a thread
 * re-initialises finds it set.
 */
#ifndef SHAKERAND_PROCESS_LOCK_H
#define SHAKERAND_PROCESS_LOCK_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "internal.h"
#include "system_os.h"

struct shakerand_process_lock {
    pthread_mutex_t mutex;
    _Atomic long *mark; /* in a page a fork zeroes; NULL: the pid is compared */
    _Atomic long pid;   /* where there is no mark: the process the mutex is of */
    int taken_over;     /* made anew in this process; the owner clears it under the lock */
};

#define SHAKERAND_PROCESS_LOCK_INITIALIZER {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0}

/* The mark's values; 0 is a child's (a zeroed page). */
enum { PROCESS_LOCK_RENEWING = 1, PROCESS_LOCK_OURS = 2 };

/* Once, before the first lock (the owner's pthread_once): the page of the
 * mark. Where it cannot be mapped or marked, the pid is compared. */
static inline void shakerand_process_lock_setup(struct shakerand_process_lock *l)
{
#if SHAKERAND_HAVE_FORK
    const size_t size = shakerand_system_page_size();
    void *p = shakerand_system_pages_alloc(size);
    if (p != NULL && shakerand_system_page_mark(p, size, 1)) {
        atomic_store_explicit((_Atomic long *)p, PROCESS_LOCK_OURS, memory_order_relaxed);
        l->mark = p;
    } else {
        if (p != NULL)
            shakerand_system_pages_free(p, size);
        atomic_store_explicit(&l->pid, shakerand_system_process_id(), memory_order_relaxed);
    }
#else
    (void)l; /* no fork: the mutex is always this process's */
#endif
}

#if SHAKERAND_HAVE_FORK
/* The mutex made anew for this process, once, by whichever thread comes
 * first; the others wait for it (only in a new child, for the time a
 * pthread_mutex_init takes). 0, or pthread_mutex_init's error. */
__attribute__((cold, noinline)) static int
shakerand_process_lock_renew(struct shakerand_process_lock *l)
{
    _Atomic long *word;
    long ours, renewing;
    if (l->mark != NULL) {
        word = l->mark;
        ours = PROCESS_LOCK_OURS;
        renewing = PROCESS_LOCK_RENEWING;
    } else {
        word = &l->pid;
        ours = shakerand_system_process_id();
        renewing = -ours;
    }
    for (;;) {
        long seen = atomic_load_explicit(word, memory_order_acquire);
        if (seen == ours)
            return 0;
        if (seen == renewing) {
            sched_yield();
            continue;
        }
        if (atomic_compare_exchange_strong_explicit(word, &seen, renewing, memory_order_acquire,
                                                    memory_order_relaxed)) {
            SHAKERAND_TEST_STEP(); /* renewing: a fork here leaves the child to renew it */
            const int error = pthread_mutex_init(&l->mutex, NULL);
            l->taken_over = 1;
            atomic_store_explicit(word, error == 0 ? ours : seen, memory_order_release);
            return error;
        }
    }
}
#endif

/* pthread_mutex_lock, after making the mutex anew if this is a child that
 * has not yet: 0 or the error. The check costs one load where the page is
 * marked, a getpid system call where it is not. */
static inline int shakerand_process_lock(struct shakerand_process_lock *l)
{
#if SHAKERAND_HAVE_FORK
    const int ours =
        l->mark != NULL
            ? atomic_load_explicit(l->mark, memory_order_acquire) == PROCESS_LOCK_OURS
            : atomic_load_explicit(&l->pid, memory_order_acquire) == shakerand_system_process_id();
    if (!ours) {
        const int error = shakerand_process_lock_renew(l);
        if (error != 0)
            return error;
    }
#endif
    return pthread_mutex_lock(&l->mutex);
}

static inline int shakerand_process_unlock(struct shakerand_process_lock *l)
{
    return pthread_mutex_unlock(&l->mutex);
}

#endif
