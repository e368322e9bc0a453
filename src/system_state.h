/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The system generator's per-thread state (private): its layout and the
 * checks on it, shared by the files of the generator (docs/system.md):
 *
 *   thread.c       the thread's words: the state's address, the in-use marker
 *   epoch.c        the process's epoch and the VM generation word
 *   system.c       the process's setup, a thread's state from its first
 *                  draw to its exit wipe, the fast path and the entry
 *                  points that fill (system.h)
 *   system_seed.c  seeding and reseeding: the engine, the budgets
 *   system_view.c  what the core shares with inlined takes and front ends
 *                  (shakerand_system_view_get, the epoch words)
 *   system_os_*.c  what each operating system gives (system_os.h)
 */
#ifndef SHAKERAND_SYSTEM_STATE_H
#define SHAKERAND_SYSTEM_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "epoch.h"
#include "system_os.h"

enum {
    /* Output made ahead for small requests: about three refills, so the
     * stack wipe after the kernels (some 6 KiB zeroed) is paid once per
     * three of them; with the state's other fields it fits two pages. */
    AHEAD_BYTES = 3072,
    /* A request up to this size (a quarter of AHEAD_BYTES) is served from
     * the output made ahead; a larger one straight from the engine. */
    AHEAD_MAX_REQUEST = SHAKERAND_SYSTEM_VIEW_TAKE_MAX,
};
#define STATE_MAGIC 0x73686b7273797374ULL    /* "shkrsyst" */
#define STATE_UNSEEDED 0x73686b72756e7364ULL /* "shkrunsd": mapped, to be seeded */
#define STATE_CANARY 0x73686b7263616c6cULL   /* "shkrcall" */

/* What the fast path reads comes first, in one cache line. */
struct system_state {
    uint64_t epoch;         /* the process's epoch the engine was seeded in;
                              0, never an epoch, in a page a fork wiped */
    uint64_t vm_generation; /* the VM generation counter then, if watched */
    size_t cursor;          /* bytes of `ahead` handed out (and zeroed) */
    size_t fast_end;        /* the fast path serves a take that ends at or
                              below this: AHEAD_BYTES, or 0 (every call
                              takes the general path) */
    size_t served_from;     /* the cursor when the general path last left:
                              the fast path served from there */
    uint64_t magic;         /* zero after fork where WIPEONFORK works */
    uint64_t since_clock;   /* bytes drawn since the clock was last read */
    uint64_t since_reseed;  /* bytes drawn since the last seed */
    uint64_t deadline_ns;   /* clock time of the next timed reseed */
    uint64_t canary;        /* set by every general-path call; zero after fork
                              where WIPEONFORK works */
    long pid;               /* the process the engine was seeded in */
    unsigned long owner;    /* the thread it belongs to (Windows: its id) */
    void *fiber;            /* the fiber that registered it (Windows), or NULL */
    int wiped_on_fork;      /* no child can see it: the kernel accepted
                              MADV_WIPEONFORK, or there is no fork */
    /* The engine's output for small requests, made AHEAD_BYTES at a time
     * (the engine writes whole iterations straight here) and zeroed as it
     * is handed out. */
    SHAKERAND_ALIGN64 unsigned char ahead[AHEAD_BYTES];
    shakerand_engine engine;
};

/* Whether s was seeded in this epoch and VM generation. */
static inline int in_epoch(const struct system_state *s)
{
    return shakerand_in_epoch(s->epoch, s->vm_generation);
}

/* Only the kernel zeroes a mapped page: a state found zero was wiped by a
 * fork (WIPEONFORK works here), whatever the flag, zeroed too, says. */
static inline void note_fork_wipe(struct system_state *s)
{
    if (s->magic == 0)
        s->wiped_on_fork = 1;
}

/* Seeded, in this epoch and VM generation, and in this process: the pid
 * is compared only where the kernel refused WIPEONFORK (getpid is a system
 * call, about 200 ns; the general path runs once per refill of small
 * draws). */
static inline int seeded_here(const struct system_state *s)
{
    return s->magic == STATE_MAGIC && in_epoch(s) &&
           (s->wiped_on_fork || s->pid == shakerand_system_process_id());
}

#endif
