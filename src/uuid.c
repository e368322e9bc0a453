/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* UUIDs, RFC 9562: version 4 and version 7. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "draw.h"
#include "internal.h"
#include "process_lock.h"

void shakerand_uuid4(shakerand_engine *engine, uint8_t uuid[16])
{
    shakerand_draw(engine, uuid, 16);
    uuid[6] = (uint8_t)((uuid[6] & 0x0F) | 0x40); /* version 4 */
    uuid[8] = (uint8_t)((uuid[8] & 0x3F) | 0x80); /* variant 10 */
}

/*
 * Version 7 with RFC 9562 section 6.2 method 1: a 42-bit counter in rand_a
 * (12 bits) and the top 30 bits of rand_b. Each new millisecond starts the
 * counter at a random value with its top bit clear, leaving at least 2^41
 * increments of room; within a millisecond it increments by one. If it
 * would overflow, or the clock stands still or steps back, the timestamp
 * used is the last one plus what is needed to stay ahead, so UUIDs made in
 * this process always increase. The last 32 bits are fresh random bits.
 */
#define COUNTER_BITS 42
static struct shakerand_process_lock v7_lock = SHAKERAND_PROCESS_LOCK_INITIALIZER;
static pthread_once_t v7_fork_once = PTHREAD_ONCE_INIT;
static int v7_fork_handlers_status = -1;
static uint64_t v7_last_ms, v7_counter;
static int v7_forked; /* under v7_lock */
/* The system generator's epoch words when v7's state was last set (under
 * v7_lock): a restored snapshot, like a forked child, must not go on with
 * the snapshot's millisecond and counter. */
static uint64_t v7_epoch, v7_vm_generation;

/* A child must not inherit the lock held by a thread it does not have,
 * nor go on with the parent's counter: parent and child would make the
 * same 74 leading bits in the same millisecond, leaving 32 random bits
 * between them. The child moves to the next millisecond with a fresh
 * counter instead, which keeps its own UUIDs increasing. v7_holding is set
 * before the lock is taken and cleared after it is released: a signal
 * handler that forks while it is set must not wait for the lock (it may be
 * its own thread's), and in the child, where no other thread exists, a
 * lock the handlers did not take is made free again (re-initialised).
 * A raw fork or clone system call runs no handler: the lock knows itself
 * another process's then (src/process_lock.h), is made anew, and says so
 * (taken_over), which moves the child on as v7_forked does. */
static _Thread_local int v7_holding;

#if SHAKERAND_HAVE_FORK
static _Thread_local int v7_fork_took;

static void v7_lock_for_fork(void)
{
    v7_fork_took = !v7_holding;
    if (v7_fork_took && shakerand_process_lock(&v7_lock) != 0)
        shakerand_fatal("shakerand_uuid7: the lock failed");
}
static void v7_unlock_in_parent(void)
{
    if (v7_fork_took)
        shakerand_process_unlock(&v7_lock);
}
static void v7_unlock_in_child(void)
{
    v7_forked = 1;
    if (v7_fork_took)
        shakerand_process_unlock(&v7_lock);
    else
        pthread_mutex_init(&v7_lock.mutex, NULL);
}

static void v7_install_fork_handlers(void)
{
    shakerand_process_lock_setup(&v7_lock);
    v7_fork_handlers_status =
        pthread_atfork(v7_lock_for_fork, v7_unlock_in_parent, v7_unlock_in_child);
}
#else
static void v7_install_fork_handlers(void) { v7_fork_handlers_status = 0; }
#endif

#if defined(SHAKERAND_TESTING)
#include <stdatomic.h>
static _Atomic uint64_t frozen_ms;
void shakerand_uuid7_freeze_clock_for_testing(uint64_t ms) { atomic_store(&frozen_ms, ms); }
#define TESTING_FROZEN_MS() atomic_load_explicit(&frozen_ms, memory_order_relaxed)
#else
#define TESTING_FROZEN_MS() UINT64_C(0)
#endif

static uint64_t unix_ms(void)
{
    const uint64_t frozen = TESTING_FROZEN_MS();
    if (frozen != 0)
        return frozen;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void shakerand_uuid7(shakerand_engine *engine, uint8_t uuid[16])
{
    pthread_once(&v7_fork_once, v7_install_fork_handlers);
    if (v7_fork_handlers_status != 0)
        shakerand_fatal("shakerand_uuid7: pthread_atfork failed (out of memory)");
    /* Read before the draw, which is then of this epoch or a later one. */
    const volatile uint64_t *epoch_word, *vm_word;
    shakerand_system_epoch_words(&epoch_word, &vm_word);
    const uint64_t epoch = *epoch_word, vm_generation = *vm_word;
    uint8_t random[12];
    shakerand_draw(engine, random, sizeof random);
    uint64_t fresh = 0;
    for (int i = 0; i < 8; i++)
        fresh = fresh << 8 | random[i];
    fresh &= (UINT64_C(1) << (COUNTER_BITS - 1)) - 1;
    const uint64_t now = unix_ms() & ((UINT64_C(1) << 48) - 1);

    v7_holding = 1;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    if (shakerand_process_lock(&v7_lock) != 0)
        shakerand_fatal("shakerand_uuid7: the lock failed");
    SHAKERAND_TEST_STEP();
    const int copied =
        v7_forked || v7_lock.taken_over || v7_epoch != epoch || v7_vm_generation != vm_generation;
    if (now > v7_last_ms && !copied) {
        v7_last_ms = now;
        v7_counter = fresh;
    } else if (copied || ++v7_counter >> COUNTER_BITS) {
        v7_last_ms = now > v7_last_ms ? now : v7_last_ms + 1;
        v7_counter = fresh;
        v7_forked = 0;
        v7_lock.taken_over = 0;
        v7_epoch = epoch;
        v7_vm_generation = vm_generation;
    }
    const uint64_t ms = v7_last_ms, c = v7_counter;
    SHAKERAND_TEST_STEP();
    shakerand_process_unlock(&v7_lock);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    v7_holding = 0;

    for (int i = 0; i < 6; i++)
        uuid[i] = (uint8_t)(ms >> (40 - 8 * i));
    uuid[6] = (uint8_t)(0x70 | ((c >> 38) & 0x0F));
    uuid[7] = (uint8_t)(c >> 30);
    uuid[8] = (uint8_t)(0x80 | ((c >> 24) & 0x3F));
    uuid[9] = (uint8_t)(c >> 16);
    uuid[10] = (uint8_t)(c >> 8);
    uuid[11] = (uint8_t)c;
    memcpy(uuid + 12, random + 8, 4);
    shakerand_memzero(random, sizeof random);
}

void shakerand_uuid_format(const uint8_t uuid[16], char text[SHAKERAND_UUID_STRING_SIZE])
{
    static const char digits[] = "0123456789abcdef";
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            text[o++] = '-';
        text[o++] = digits[uuid[i] >> 4];
        text[o++] = digits[uuid[i] & 15];
    }
    text[o] = '\0';
}
