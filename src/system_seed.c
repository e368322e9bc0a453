/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Seeding and reseeding the system generator's thread states
 * (system_seed.h): the engine's kind, the seed derivation after the
 * conditioner, and the reseed budget.
 *
 * The reseed budget (bytes of output or seconds, whichever comes first),
 * the clock read once per SHAKERAND_CLOCK_CHECK_BYTES and the pieces of a
 * large request are the policy of src/policy.h, stated in docs/system.md;
 * the seed derivation's constants are there too. At bulk speed a reseed
 * (one getrandom call plus the hardware reads and one hash, a few
 * microseconds) per budget of bytes costs well under 0.1 %; the time budget
 * is the interval at which Linux reseeds its own generator. The clock (one
 * that counts time suspended: shakerand_system_clock_ns) is read only on
 * the slow path, so a small request costs no system call.
 *
 * A reseed on the byte or time budget that fails (a sandbox that forbids
 * getrandom after start-up, a full descriptor table) leaves the sound state
 * serving, is counted, and is tried again at the next check; a first seed,
 * or one after fork, that fails is an error: there is no sound state then.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entropy.h"
#include "epoch.h"
#include "internal.h"
#include "policy.h"
#include "system_state.h"
#include "system_os.h"
#include "system_seed.h"
#include "testing.h"

enum {
    SEED_BYTES = SHAKERAND_SEED_MATERIAL_BYTES,
    /* The material and the digest of a reseed's bytes. */
    MATERIAL_MAX = SHAKERAND_SEED_MATERIAL_BYTES + SHAKERAND_EXTRA_DIGEST_BYTES,
};

/* Test hooks (src/testing.h), compiled into the testing library only;
 * elsewhere each of these macros is a constant or nothing. */
#if defined(SHAKERAND_TESTING)
static _Atomic uint64_t seed_count, clock_offset_ns;

uint64_t shakerand_system_seed_count_for_testing(void) { return atomic_load(&seed_count); }
void shakerand_system_clock_offset_for_testing(uint64_t ns) { atomic_store(&clock_offset_ns, ns); }

#define TESTING_COUNT_SEED() atomic_fetch_add_explicit(&seed_count, 1, memory_order_relaxed)
#define TESTING_CLOCK_OFFSET() atomic_load_explicit(&clock_offset_ns, memory_order_relaxed)
#else
#define TESTING_COUNT_SEED() ((void)0)
#define TESTING_CLOCK_OFFSET() 0
#endif

/* The build's choice, else chacha8rand (the faster engine where the two
 * were measured: BENCHMARKS.md). */
#if !defined(SHAKERAND_SYSTEM_ENGINE_DEFAULT)
#define SHAKERAND_SYSTEM_ENGINE_DEFAULT SHAKERAND_CHACHA8RAND
#endif

shakerand_kind shakerand_system_engine_kind = SHAKERAND_SYSTEM_ENGINE_DEFAULT;

/* SHAKERAND_SYSTEM_ENGINE, read once: a keyed engine's name replaces the
 * build's choice; anything else is reported and ignored. */
void shakerand_system_choose_kind(void)
{
    const char *name = getenv("SHAKERAND_SYSTEM_ENGINE");
    if (name == NULL || name[0] == '\0')
        return;
    shakerand_kind kind;
    if (shakerand_kind_from_name(name, &kind) == SHAKERAND_OK &&
        (kind == SHAKERAND_TURBOSHAKE256X8 || kind == SHAKERAND_CHACHA8RAND)) {
        shakerand_system_engine_kind = kind;
        return;
    }
    fprintf(stderr,
            "shakerand: SHAKERAND_SYSTEM_ENGINE=%s is not chacha8rand or turboshake256x8; "
            "using %s\n",
            name, shakerand_kind_name(shakerand_system_engine_kind));
}

static uint64_t now_ns(void) { return shakerand_system_clock_ns() + TESTING_CLOCK_OFFSET(); }

/* The seed derivation after the conditioner (src/policy.h): `material`
 * holds the conditioner's SEED_BYTES; the digest of `extra` is appended
 * when it is given. Returns the material's length. */
static size_t add_extra(unsigned char material[MATERIAL_MAX], const void *extra, size_t extra_len)
{
    if (extra == NULL)
        return SEED_BYTES;
    shakerand_turboshake256_unwiped(material + SEED_BYTES, SHAKERAND_EXTRA_DIGEST_BYTES, extra,
                                    extra_len, SHAKERAND_EXTRA_DOMAIN);
    return MATERIAL_MAX;
}

/* Keys e of `kind` from the material: chacha8rand takes a 32-byte key, the
 * material's digest; turboshake256x8 takes the material itself. */
static void key_engine(shakerand_engine *e, shakerand_kind kind, const unsigned char *material,
                       size_t len)
{
    if (kind == SHAKERAND_CHACHA8RAND) {
        unsigned char key[CHACHA8_KEY_BYTES];
        shakerand_turboshake256_unwiped(key, sizeof key, material, len,
                                        SHAKERAND_CHACHA8_KEY_DOMAIN);
        shakerand_engine_init(e, SHAKERAND_CHACHA8RAND, key, sizeof key);
        shakerand_memzero(key, sizeof key);
    } else {
        shakerand_engine_init(e, SHAKERAND_TURBOSHAKE256X8, material, len);
    }
}

#if defined(SHAKERAND_TESTING)
int shakerand_system_key_engine_for_testing(shakerand_engine *engine, shakerand_kind kind,
                                            const unsigned char *material, const void *extra,
                                            size_t extra_len)
{
    if (kind != SHAKERAND_CHACHA8RAND && kind != SHAKERAND_TURBOSHAKE256X8)
        return SHAKERAND_EINVAL;
    unsigned char m[MATERIAL_MAX];
    memcpy(m, material, SEED_BYTES);
    key_engine(engine, kind, m, add_extra(m, extra, extra_len));
    shakerand_memzero(m, sizeof m);
    return SHAKERAND_OK;
}
#endif

/* Seeds from the sources, followed by a digest of `extra` when given. The
 * epoch, the VM generation and the pid are read before the sources: a
 * signal handler that forks or moves the epoch during the seed, or a
 * snapshot taken then and restored, leaves a state marked as older than it
 * is, which the check after the take (still_sound) rejects. */
int shakerand_system_seed_with(struct system_state *s, const void *extra, size_t extra_len)
{
    uint64_t seeded_epoch, restore[2];
    const int after_restore = shakerand_epoch_read(&seeded_epoch, restore);
    const long pid = shakerand_system_process_id();
    SHAKERAND_TEST_STEP(); /* a move from here on leaves the state older than the epoch */
    /* After a restore this process saw, every seed mixes in that restore's
     * jitter digest (src/entropy.h). */
    unsigned char material[MATERIAL_MAX];
    const int status =
        shakerand_entropy_gather(material, SEED_BYTES, after_restore ? restore : NULL);
    SHAKERAND_TEST_STEP();
    if (status != SHAKERAND_OK)
        return status;
    const size_t len = add_extra(material, extra, extra_len);
    SHAKERAND_SECRET(material, len);
    key_engine(&s->engine, shakerand_system_engine_kind, material, len);
    SHAKERAND_TEST_STEP();
    shakerand_memzero(material, sizeof material);
    s->magic = STATE_MAGIC;
    s->epoch = seeded_epoch;
    s->vm_generation = restore[1];
    s->pid = pid;
    shakerand_memzero(s->ahead, sizeof s->ahead); /* an earlier seed's, or a snapshot's */
    s->cursor = s->served_from = AHEAD_BYTES;
    s->fast_end = 0; /* opened by the caller (open_fast_path) */
    s->since_reseed = 0;
    s->since_clock = 0;
    s->deadline_ns = now_ns() + SHAKERAND_RESEED_NANOSECONDS;
    TESTING_COUNT_SEED();
    return SHAKERAND_OK;
}

static _Atomic uint64_t reseed_failures;

uint64_t shakerand_system_reseed_failures(void)
{
    return atomic_load_explicit(&reseed_failures, memory_order_relaxed);
}

int shakerand_system_seed_if_due(struct system_state *s, size_t len, int *used)
{
    note_fork_wipe(s);
    const int sound = seeded_here(s);
    int due = !sound;
    if (sound) {
        const size_t c = s->cursor;
        const uint64_t drawn = (c > s->served_from ? c - s->served_from : 0) + len;
        s->served_from = c;
        s->since_reseed += drawn;
        s->since_clock += drawn;
        due = s->since_reseed >= SHAKERAND_RESEED_BYTES;
        if (!due && s->since_clock >= SHAKERAND_CLOCK_CHECK_BYTES) {
            s->since_clock = 0;
            due = now_ns() >= s->deadline_ns;
        }
    }
    if (due) {
        /* After a fork the page may have been wiped, flag included. */
        const int wiped = s->wiped_on_fork;
        shakerand_stack_used(used, SHAKERAND_STACK_SEED);
        const int status = shakerand_system_seed_with(s, NULL, 0);
        s->wiped_on_fork = wiped;
        if (status == SHAKERAND_OK)
            s->since_reseed = s->since_clock = len;
        else if (!sound)
            return status;
        else /* still due: tried again at the next check */
            atomic_fetch_add_explicit(&reseed_failures, 1, memory_order_relaxed);
    }
    return SHAKERAND_OK;
}
