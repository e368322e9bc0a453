/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The source table, the health checks, the conditioner and the sources
 * report. Reads go through hw_read and os_read below: the back ends' own,
 * or in the testing library the ones fault_testing.c puts in their place
 * (shakerand_entropy_reads_for_testing).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, where there is no cycle counter */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "../entropy.h"
#include "../epoch.h"
#include "../internal.h"
#include "../policy.h"
#include "../process_lock.h"
#include "../thread.h"
#if defined(SHAKERAND_TESTING)
#include "../testing.h"
#endif

/* The derivation's constants are the policy's (src/policy.h). */
enum {
    CONDITIONER_DOMAIN = SHAKERAND_CONDITIONER_DOMAIN,
    OS_BYTES = SHAKERAND_OS_SEED_BYTES,
    HW_WORDS = SHAKERAND_HW_SEED_BYTES / 8, /* read and absorbed as 64-bit words */
    HEALTH_WORDS = 8,
};
_Static_assert(SHAKERAND_HW_SEED_BYTES % 8 == 0, "hardware sources give 64-bit words");
_Static_assert(SHAKERAND_COUNTER_BYTES == 8, "the counter is absorbed as one 64-bit word");

/* Every hardware back end of this architecture, in report order. */
const struct shakerand_hw_source *const shakerand_hw_sources[] = {
#if defined(__x86_64__)
    &shakerand_hw_rdseed,
    &shakerand_hw_rdrand,
#endif
#if defined(__powerpc64__)
    &shakerand_hw_darn,
#endif
#if defined(__aarch64__)
    &shakerand_hw_rndrrs,
    &shakerand_hw_rndr,
#endif
    NULL,
};
#define HW_COUNT (sizeof shakerand_hw_sources / sizeof shakerand_hw_sources[0] - 1)
const size_t shakerand_hw_source_count = HW_COUNT;

#if defined(SHAKERAND_TESTING)
/* The reads the fault-injecting back end puts in place of the back ends'
 * (testing.h); NULL: the back ends' own. */
static _Atomic shakerand_hw_read_for_testing hw_read_replacement;
static _Atomic shakerand_os_read_for_testing os_read_replacement;

void shakerand_entropy_reads_for_testing(shakerand_hw_read_for_testing hw,
                                         shakerand_os_read_for_testing os)
{
    atomic_store(&hw_read_replacement, hw);
    atomic_store(&os_read_replacement, os);
}
#endif

static int hw_read(size_t i, int at_startup, uint64_t *out)
{
#if defined(SHAKERAND_TESTING)
    const shakerand_hw_read_for_testing replacement = atomic_load(&hw_read_replacement);
    if (replacement != NULL)
        return replacement(i, at_startup, out);
#endif
    (void)at_startup;
    return shakerand_hw_sources[i]->read64(out);
}

static int os_read(unsigned char *out, size_t len, const char **method, const char **reason)
{
#if defined(SHAKERAND_TESTING)
    const shakerand_os_read_for_testing replacement = atomic_load(&os_read_replacement);
    if (replacement != NULL)
        return replacement(out, len, method, reason);
#endif
    return shakerand_entropy_os_read(SHAKERAND_OS_VDSO, out, len, method, reason);
}

/* What the health checks found; under the lock. One spare entry so an
 * architecture without hardware sources has no zero-length array. */
static struct {
    int present, used;
    const char *reason;
} hw_state[HW_COUNT + 1];
static int health_checked;
/* The jitter digest of the last restore a seed named (shakerand_entropy_gather),
 * and that restore's words; `valid` is cleared in a child (by the fork
 * handler, and when it takes the lock over from its parent: lock_sources),
 * so a child samples its own. */
static struct {
    int valid;
    uint64_t restore[2];
    unsigned char digest[SHAKERAND_JITTER_DIGEST_BYTES];
} jitter;
static const char *os_reason = NULL;
static const char *os_method = NULL; /* NULL: shakerand_os_call.name */
static _Atomic uint64_t seed_counter;

/* Guards the state above; never held across a read of the operating
 * system. Fork handlers take it so a child never inherits it locked by a
 * thread that no longer exists; a child of a raw fork or clone, which runs
 * no handler, makes it anew (src/process_lock.h). What it guards is sound
 * in a child that takes it over halfway through a critical section: the
 * health checks are marked done only after the last one (a child runs them
 * all again), and the rest are single words (the report's reasons, a
 * source dropped). Every pthread result is checked:
 * pthread_atfork can fail (ENOMEM), and then every call that needs the
 * lock returns SHAKERAND_ENOMEM, since pthread_once does not run the
 * installer again; a failed lock is SHAKERAND_EENTROPY (the sources could
 * not be read). A fork handler cannot return an error and a failed unlock
 * leaves the lock in no known state: those are fatal. */
static struct shakerand_process_lock lock = SHAKERAND_PROCESS_LOCK_INITIALIZER;
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
static int fork_handlers_error;

/* `holding`: this thread holds the lock, or is about to take it or has just
 * released it: set before the lock is taken and cleared after it is
 * released, so a signal handler that forks in either gap finds it set. The
 * prepare handler then does not take the lock (it may be this thread's);
 * in the child, where no other thread exists, a lock the handlers did not
 * take is made free again (re-initialised), and the child's copy of this
 * thread goes on as it would have. The prepare handler also sets the
 * in-use marker, so a signal handler that draws during fork() goes to the
 * operating system, not to the lock the prepare handler holds. */
static _Thread_local int holding;

static void release_lock(void)
{
    const int failed = shakerand_process_unlock(&lock) != 0;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP(); /* released, not yet cleared */
    holding = 0;
    if (failed)
        shakerand_fatal("the entropy sources' lock failed");
}

#if SHAKERAND_HAVE_FORK
static _Thread_local int fork_took, fork_entered;

static void lock_for_fork(void)
{
    fork_entered = shakerand_thread_enter();
    fork_took = !holding;
    if (fork_took) {
        holding = 1;
        SHAKERAND_SIGNAL_FENCE();
        if (shakerand_process_lock(&lock) != 0)
            shakerand_fatal("the entropy sources' lock failed");
    }
    SHAKERAND_TEST_STEP(); /* a signal during fork(), the lock held */
}

static void after_fork_in_parent(void)
{
    if (fork_took)
        release_lock();
    if (fork_entered)
        shakerand_thread_leave();
}

static void after_fork_in_child(void)
{
    /* Also where the lock's mark is not renewed (an emulator that accepts
     * WIPEONFORK and does nothing): the parent's digest is not the child's. */
    jitter.valid = 0;
    if (fork_took)
        release_lock();
    else if (pthread_mutex_init(&lock.mutex, NULL) != 0)
        shakerand_fatal("the entropy sources' lock failed");
    if (fork_entered)
        shakerand_thread_leave();
}

static void install_fork_handlers(void)
{
    shakerand_process_lock_setup(&lock);
    fork_handlers_error = pthread_atfork(lock_for_fork, after_fork_in_parent, after_fork_in_child);
}
#else
static void install_fork_handlers(void) { fork_handlers_error = 0; }
#endif

/* SHAKERAND_OK with the lock held, or the error without it. */
static int lock_sources(void)
{
    if (pthread_once(&fork_handlers_once, install_fork_handlers) != 0 || fork_handlers_error != 0)
        return SHAKERAND_ENOMEM;
    holding = 1;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP(); /* set, not yet taken */
    if (shakerand_process_lock(&lock) != 0) {
        holding = 0;
        return SHAKERAND_EENTROPY;
    }
    if (lock.taken_over) { /* a child: the parent's digest is not this process's */
        lock.taken_over = 0;
        jitter.valid = 0;
    }
    return SHAKERAND_OK;
}

/* A source is used only if HEALTH_WORDS reads all succeed, none is all-zeros
 * or all-ones (AMD's RDRAND returned all-ones after resume on some
 * microcode), and no value repeats (a stuck source). */
static void health_check(size_t i)
{
    hw_state[i].present = shakerand_hw_sources[i]->present();
    hw_state[i].used = 0;
    hw_state[i].reason = NULL;
    if (!hw_state[i].present) {
        hw_state[i].reason = "not supported by this CPU";
        return;
    }
    uint64_t v[HEALTH_WORDS];
    for (int k = 0; k < HEALTH_WORDS; k++) {
        if (hw_read(i, 1, &v[k]) != 0) {
            hw_state[i].reason =
                "failed the start-up health check: no value within the retry budget";
            return;
        }
        if (v[k] == 0 || v[k] == UINT64_MAX) {
            hw_state[i].reason = "failed the start-up health check: returned all-zeros or all-ones";
            return;
        }
        for (int j = 0; j < k; j++) {
            if (v[j] == v[k]) {
                hw_state[i].reason = "failed the start-up health check: repeated a value";
                return;
            }
        }
    }
    shakerand_memzero(v, sizeof v);
    hw_state[i].used = 1;
}

/* Under the lock. */
static void ensure_health_checked(void)
{
    if (!health_checked) {
        for (size_t i = 0; shakerand_hw_sources[i] != NULL; i++)
            health_check(i);
        SHAKERAND_SIGNAL_FENCE(); /* done only after the last: a raw fork may land between */
        health_checked = 1;
    }
}

/* The operating system's last answer, for the report. */
static int record_os(const char *method, const char *reason)
{
    const int status = lock_sources();
    if (status != SHAKERAND_OK)
        return status;
    SHAKERAND_TEST_STEP();
    os_reason = reason;
    if (method != NULL)
        os_method = method;
    release_lock();
    return SHAKERAND_OK;
}

/* A word read at seed time that is all-zeros, all-ones or a repeat of the
 * previous one means the source broke after its start-up check (AMD's
 * all-ones after resume): it is dropped from this seed and reported. */
static const char *runtime_check(const uint64_t *w, int n)
{
    for (int i = 0; i < n; i++) {
        if (w[i] == 0 || w[i] == UINT64_MAX)
            return "failed a check at seed time: returned all-zeros or all-ones";
        if (i > 0 && w[i] == w[i - 1])
            return "failed a check at seed time: repeated a value";
    }
    return NULL;
}

static void absorb_u64(shakerand_xof *xof, uint64_t w)
{
    unsigned char b[8];
    for (int t = 0; t < 8; t++)
        b[t] = (unsigned char)(w >> (8 * t));
    shakerand_xof_absorb_unwiped(xof, b, sizeof b);
    shakerand_memzero(b, sizeof b);
}

/* ---- the CPU-jitter sample after a restore ----------------------------------
 * Two clones of one snapshot whose kernel was not reseeded (no vmgenid) and
 * whose CPU has no random instruction read the same bytes from every
 * source; what still differs between them is how long each takes to run
 * the same code after the restore (caches, TLB, interrupts, the host's
 * scheduling of the vCPU). The sample times JITTER_SAMPLES short runs of
 * memory touches, as the Linux kernel's jitter fallback and the
 * jitterentropy library do, and hashes every raw delta. It is mixed in, never
 * counted: whoever runs the hypervisor can predict or steer the guest's
 * timing (docs/system.md). Its size keeps it to a fraction of a
 * millisecond natively (measured there). */
enum {
    JITTER_SAMPLES = 2048,
    JITTER_TOUCHES = 16,        /* memory touches per timed run */
    JITTER_MEMORY = 64 * 1024,  /* larger than a first-level data cache */
    JITTER_STRIDE = 64 * 7 + 8, /* a new cache line each touch, wrapping unevenly */
    JITTER_BATCH = 17,          /* deltas per absorb: one TurboSHAKE256 block */
};
_Static_assert((JITTER_MEMORY & (JITTER_MEMORY - 1)) == 0, "a power of two: masked index");

/* Touched under the sources' lock only; its contents are no secret. */
static volatile unsigned char jitter_memory[JITTER_MEMORY];

#if defined(SHAKERAND_TESTING)
static _Atomic uint64_t jitter_samples_taken;
static _Atomic int jitter_fixed;

uint64_t shakerand_entropy_jitter_samples_for_testing(void)
{
    return atomic_load(&jitter_samples_taken);
}
void shakerand_entropy_jitter_fixed_for_testing(int fixed) { atomic_store(&jitter_fixed, fixed); }
#endif

/* The cycle counter where user space may read it, else the monotonic clock
 * in nanoseconds. */
static inline uint64_t jitter_clock(void)
{
#if defined(SHAKERAND_TESTING)
    static _Thread_local uint64_t fixed_ticks;
    if (atomic_load_explicit(&jitter_fixed, memory_order_relaxed))
        return fixed_ticks += 100; /* the same deltas in every process */
#endif
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#elif defined(__powerpc64__)
    return __builtin_ppc_get_timebase();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Under the lock. The walk's next line depends on the last delta, so two
 * clones that differ once also walk differently from then on. */
__attribute__((noinline)) static void
jitter_sample(unsigned char digest[SHAKERAND_JITTER_DIGEST_BYTES])
{
    shakerand_xof xof;
    shakerand_turboshake256_init(&xof, SHAKERAND_JITTER_DOMAIN);
    unsigned char batch[JITTER_BATCH * 8];
    size_t pos = 0;
    int in_batch = 0;
    uint64_t before = jitter_clock();
    for (int i = 0; i < JITTER_SAMPLES; i++) {
        for (int k = 0; k < JITTER_TOUCHES; k++) {
            pos = (pos + JITTER_STRIDE) & (JITTER_MEMORY - 1);
            jitter_memory[pos] = (unsigned char)(jitter_memory[pos] + 1);
        }
        const uint64_t now = jitter_clock();
        const uint64_t delta = now - before;
        before = now;
        pos = (pos + (size_t)(delta & 0x3F)) & (JITTER_MEMORY - 1);
        for (int t = 0; t < 8; t++)
            batch[8 * in_batch + t] = (unsigned char)(delta >> (8 * t));
        if (++in_batch == JITTER_BATCH) {
            shakerand_xof_absorb_unwiped(&xof, batch, sizeof batch);
            in_batch = 0;
        }
    }
    shakerand_xof_absorb_unwiped(&xof, batch, (size_t)in_batch * 8);
    shakerand_xof_squeeze_unwiped(&xof, digest, SHAKERAND_JITTER_DIGEST_BYTES);
    shakerand_xof_wipe(&xof);
    shakerand_memzero(batch, sizeof batch);
#if defined(SHAKERAND_TESTING)
    atomic_fetch_add(&jitter_samples_taken, 1);
#endif
}

/* Under the lock: the digest for the restore `restore` names, sampled by
 * the first seed that names it in this process. */
static void jitter_digest(const uint64_t restore[2],
                          unsigned char digest[SHAKERAND_JITTER_DIGEST_BYTES])
{
    if (!jitter.valid ||
        ((jitter.restore[0] ^ restore[0]) | (jitter.restore[1] ^ restore[1])) != 0) {
        jitter.valid = 0;
        SHAKERAND_SIGNAL_FENCE(); /* a raw fork in the sample leaves a child that samples again */
        jitter_sample(jitter.digest);
        jitter.restore[0] = restore[0];
        jitter.restore[1] = restore[1];
        SHAKERAND_SIGNAL_FENCE();
        jitter.valid = 1;
    }
    memcpy(digest, jitter.digest, SHAKERAND_JITTER_DIGEST_BYTES);
}

int shakerand_entropy_gather(unsigned char *out, size_t len, const uint64_t *restore)
{
    size_t used[HW_COUNT + 1];
    size_t n_used = 0;
    unsigned char jitter_bytes[SHAKERAND_JITTER_DIGEST_BYTES];
    int status = lock_sources();
    if (status != SHAKERAND_OK)
        return status;
    SHAKERAND_TEST_STEP(); /* a signal while the lock is held */
    ensure_health_checked();
    for (size_t i = 0; shakerand_hw_sources[i] != NULL; i++)
        if (hw_state[i].used)
            used[n_used++] = i;
    if (restore != NULL)
        jitter_digest(restore, jitter_bytes);
    release_lock();

    unsigned char os[OS_BYTES];
    const char *method = NULL, *reason = NULL;
    const int os_status = os_read(os, sizeof os, &method, &reason);
    status = record_os(method, reason);
    if (os_status != 0 || status != SHAKERAND_OK) {
        shakerand_memzero(os, sizeof os);
        shakerand_memzero(jitter_bytes, sizeof jitter_bytes);
        return os_status != 0 ? SHAKERAND_EENTROPY : status;
    }

    shakerand_xof xof;
    shakerand_turboshake256_init(&xof, restore != NULL ? SHAKERAND_RESTORE_CONDITIONER_DOMAIN
                                                       : CONDITIONER_DOMAIN);
    shakerand_xof_absorb_unwiped(&xof, os, sizeof os);
    shakerand_memzero(os, sizeof os);
    for (size_t k = 0; k < n_used && status == SHAKERAND_OK; k++) {
        uint64_t w[HW_WORDS];
        int got = 0;
        /* A source that stops answering is skipped for this seed: the
         * operating system's bytes carry the seed on their own. */
        while (got < HW_WORDS && hw_read(used[k], 0, &w[got]) == 0)
            got++;
        const char *broken = runtime_check(w, got);
        if (broken == NULL) {
            for (int t = 0; t < got; t++)
                absorb_u64(&xof, w[t]);
        } else if ((status = lock_sources()) == SHAKERAND_OK) {
            hw_state[used[k]].used = 0;
            hw_state[used[k]].reason = broken;
            release_lock();
        }
        shakerand_memzero(w, sizeof w);
    }
    if (status != SHAKERAND_OK) {
        shakerand_xof_wipe(&xof);
        shakerand_memzero(jitter_bytes, sizeof jitter_bytes);
        return status;
    }

    /* The counter makes every seed's input distinct even if every source
     * repeated itself. */
    absorb_u64(&xof, atomic_fetch_add_explicit(&seed_counter, 1, memory_order_relaxed));
    if (restore != NULL)
        shakerand_xof_absorb_unwiped(&xof, jitter_bytes, sizeof jitter_bytes);
    shakerand_memzero(jitter_bytes, sizeof jitter_bytes);
    shakerand_xof_squeeze_unwiped(&xof, out, len);
    shakerand_xof_wipe(&xof);
    return SHAKERAND_OK;
}

/* The marker keeps a signal handler that interrupts this call (and so may
 * find the lock held) away from the lock: its draws go to the operating
 * system, and so does this function when it is that handler. */
__attribute__((noinline)) static int entropy(void *out, size_t len)
{
    if (!shakerand_thread_enter())
        return shakerand_entropy_os_signal_safe(out, len);
    /* After a restore this process saw, the restore's jitter digest as in
     * every seed (src/entropy.h): a seed for another generator is a seed. */
    uint64_t epoch, restore[2];
    const int after_restore = shakerand_epoch_read(&epoch, restore);
    const int status = shakerand_entropy_gather(out, len, after_restore ? restore : NULL);
    shakerand_thread_leave();
    return status;
}

int shakerand_entropy(void *out, size_t len)
{
    if (out == NULL && len > 0)
        return SHAKERAND_EINVAL;
    const int status = entropy(out, len);
    shakerand_wipe_stack(SHAKERAND_STACK_SEED);
    return status;
}

size_t shakerand_sources(shakerand_source_info *out, size_t max)
{
    /* Report the OS source as it is now, not as it was at the last seed. */
    unsigned char probe[1];
    const char *method = NULL, *reason = NULL;
    (void)os_read(probe, sizeof probe, &method, &reason);
    shakerand_memzero(probe, sizeof probe);

    const size_t count = 1 + HW_COUNT;
    /* From a signal handler inside a call of its own thread the lock may be
     * held: report without it. */
    const int entered = shakerand_thread_enter();
    const int locked = entered && lock_sources() == SHAKERAND_OK;
    if (locked) {
        SHAKERAND_TEST_STEP();
        ensure_health_checked();
        os_reason = reason;
        if (method != NULL)
            os_method = method;
    }
    /* Without the lock nothing is checked or recorded; every source is
     * reported unused, with the reason. */
    static const char *const no_lock =
        "not checked: the sources' lock could not be set up or taken";
    for (size_t i = 0; i < count && i < max; i++) {
        if (i == 0) {
            out[0].name = "os";
            out[0].method = locked && os_method != NULL ? os_method : shakerand_os_call.name;
            out[0].present = 1;
            out[0].used = locked && os_reason == NULL;
            out[0].reason = locked ? os_reason : no_lock;
            continue;
        }
        const size_t h = i - 1;
        out[i].name = shakerand_hw_sources[h]->name;
        out[i].method = shakerand_hw_sources[h]->name;
        out[i].present = locked && hw_state[h].present;
        out[i].used = locked && hw_state[h].used;
        out[i].reason = locked ? hw_state[h].reason : no_lock;
    }
    if (locked)
        release_lock();
    if (entered)
        shakerand_thread_leave();
    return count;
}

#if defined(SHAKERAND_TESTING)
void shakerand_entropy_seed_counter_for_testing(uint64_t next)
{
    atomic_store_explicit(&seed_counter, next, memory_order_relaxed);
}

int shakerand_entropy_recheck_for_testing(void)
{
    const int status = lock_sources();
    if (status != SHAKERAND_OK)
        return status;
    os_reason = NULL;
    health_checked = 0;
    ensure_health_checked();
    release_lock();
    return SHAKERAND_OK;
}
#endif
