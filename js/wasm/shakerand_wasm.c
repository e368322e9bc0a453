/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The WebAssembly build's platform layer: what the core's native system
 * generator (src/system.c) and stack wipe (src/stack_wipe.c) do with
 * threads, signals and an operating system, for a module instance, which
 * has none of them. One instance runs on one agent (a page, a worker, a
 * Node process or worker thread): no locks, no reentrancy, no fork.
 *
 * The system generator: one chacha8rand engine per instance, seeded with
 * the derivation of src/policy.h from 32 bytes the host gives (the import
 * `entropy`: crypto.getRandomValues, or the kernel after a restore in Node),
 * reseeded on the policy's byte budget and, by the host's clock, its time
 * budget. After a restore the host saw (shakerand_js_system_restore), every
 * seed also mixes in that restore's CPU-jitter digest, as the C core's
 * (src/entropy.h). A failed seed writes nothing and hands out nothing.
 *
 * The stack: the C stack of a module lives in its linear memory (arrays,
 * structs and anything whose address is taken), below __stack_pointer;
 * scalar locals live in the engine's own frames and registers, which no
 * module can reach (js/README.md says so). The wipe zeroes the linear
 * stack below the entry point as deep as the work can reach.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/engine.h"
#include "../../src/internal.h"
#include "../../src/policy.h"

#define EXPORT(name) __attribute__((export_name(#name), visibility("default")))

/* The host's crypto.getRandomValues into [out, out + len): 0 on success. */
__attribute__((import_module("env"), import_name("entropy"))) int shakerand_js_entropy(void *out,
                                                                                       size_t len);

/* Deep enough for the portable kernels' frames (about 1.2 KiB for
 * chacha8rand, src/stack_wipe.c) and a seed's hashes, with room to spare.
 * The functions zero their own secrets too; test/suite.js ("memory")
 * scans the whole memory for a seed's bytes, its key and output handed
 * out. */
enum { WIPE_KERNEL_BYTES = 4096, WIPE_SEED_BYTES = 8192 };

/* The stack grows down: the `depth` bytes right below the caller are the
 * top of this frame's array. */
__attribute__((noinline)) static void wipe_below(size_t depth)
{
    unsigned char below[WIPE_SEED_BYTES];
    shakerand_memzero(below + sizeof below - depth, depth);
}

void shakerand_wipe_stack_kernel(void) { wipe_below(WIPE_KERNEL_BYTES); }
void shakerand_wipe_stack_seed(void) { wipe_below(WIPE_SEED_BYTES); }

static struct {
    shakerand_engine engine;
    uint64_t counter; /* seeds made: the conditioner's counter */
    uint64_t bytes;   /* handed out since the last seed */
    double seeded_ms; /* the host's clock at the last seed */
    double now_ms;    /* the host's clock at the last call from it */
    int seeded;
    int restored; /* a restore was seen: every seed mixes in `jitter` */
    unsigned char jitter[SHAKERAND_JITTER_DIGEST_BYTES]; /* the last restore's digest */
} sys;

/* The policy's derivation without hardware sources (the vector file's
 * system_policy entries): material = TurboSHAKE256(os || counter, D =
 * 0x22)[0, 64), or after a restore TurboSHAKE256(os || counter || jitter,
 * D = 0x26)[0, 64) (tools/shakerand_ref.py, system_conditioner); key =
 * TurboSHAKE256(material, D = 0x24)[0, 32). `jitter` NULL: no restore. */
static void derive_key(const unsigned char os[SHAKERAND_OS_SEED_BYTES], uint64_t counter,
                       const unsigned char *jitter, unsigned char key[CHACHA8_KEY_BYTES])
{
    unsigned char
        in[SHAKERAND_OS_SEED_BYTES + SHAKERAND_COUNTER_BYTES + SHAKERAND_JITTER_DIGEST_BYTES];
    unsigned char material[SHAKERAND_SEED_MATERIAL_BYTES];
    size_t len = SHAKERAND_OS_SEED_BYTES + SHAKERAND_COUNTER_BYTES;
    memcpy(in, os, SHAKERAND_OS_SEED_BYTES);
    for (unsigned i = 0; i < SHAKERAND_COUNTER_BYTES; i++)
        in[SHAKERAND_OS_SEED_BYTES + i] = (unsigned char)(counter >> (8 * i));
    if (jitter != NULL) {
        memcpy(in + len, jitter, SHAKERAND_JITTER_DIGEST_BYTES);
        len += SHAKERAND_JITTER_DIGEST_BYTES;
    }
    shakerand_turboshake256_unwiped(material, sizeof material, in, len,
                                    jitter != NULL ? SHAKERAND_RESTORE_CONDITIONER_DOMAIN
                                                   : SHAKERAND_CONDITIONER_DOMAIN);
    shakerand_turboshake256_unwiped(key, CHACHA8_KEY_BYTES, material, sizeof material,
                                    SHAKERAND_CHACHA8_KEY_DOMAIN);
    shakerand_memzero(in, sizeof in);
    shakerand_memzero(material, sizeof material);
}

/* The derivation's known answers (test/suite.js): key for os, a counter
 * given as two 32-bit halves, and a jitter digest (NULL: none). */
EXPORT(shakerand_js_derive_key)
void shakerand_js_derive_key(const unsigned char *os, uint32_t counter_lo, uint32_t counter_hi,
                             const unsigned char *jitter, unsigned char *key)
{
    derive_key(os, (uint64_t)counter_hi << 32 | counter_lo, jitter, key);
    shakerand_wipe_stack(SHAKERAND_STACK_SEED);
}

/* The host's seed bytes are refused when fewer than this many of the 32
 * are distinct values: a "getRandomValues" that is a stub or a broken
 * polyfill (one that writes nothing, a constant, 16 bytes or fewer of the
 * 32, a pattern of 17 bytes or fewer, or only 17 values or fewer). 32
 * uniform bytes have fewer than 18 distinct values with probability
 * 1.149e-13, below 2^-42.9 (exactly, by js/tools/seed-odds.py), so real
 * bytes are as good as never refused. */
enum { SEED_MIN_DISTINCT = 18 };
_Static_assert(SHAKERAND_OS_SEED_BYTES == 32, "SEED_MIN_DISTINCT is sized for 32 bytes");

/* The number of distinct values among the bytes: each counts unless an
 * earlier byte equals it. No branch or index depends on the bytes. */
static unsigned distinct_bytes(const unsigned char *b, size_t n)
{
    unsigned distinct = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= ((unsigned)(b[i] ^ b[j]) - 1u) >> 8 & 1u; /* 1 exactly when equal */
        distinct += seen ^ 1u;
    }
    return distinct;
}

/* Forgets the generator's state, then seeds it again from the host: on
 * failure nothing of the old state is left to hand out. */
__attribute__((noinline)) static int seed(void)
{
    shakerand_engine_wipe(&sys.engine);
    sys.seeded = 0;
    unsigned char os[SHAKERAND_OS_SEED_BYTES], key[CHACHA8_KEY_BYTES];
    memset(os, 0, sizeof os);
    const int status = shakerand_js_entropy(os, sizeof os);
    if (status != 0 || distinct_bytes(os, sizeof os) < SEED_MIN_DISTINCT) {
        shakerand_memzero(os, sizeof os);
        return SHAKERAND_EENTROPY;
    }
    derive_key(os, ++sys.counter, sys.restored ? sys.jitter : NULL, key);
    shakerand_engine_init(&sys.engine, SHAKERAND_CHACHA8RAND, key, sizeof key);
    shakerand_memzero(os, sizeof os);
    shakerand_memzero(key, sizeof key);
    sys.seeded = 1;
    sys.bytes = 0;
    sys.seeded_ms = sys.now_ms;
    return SHAKERAND_OK;
}

/* Seeds when the budget says so (policy.h); the clock is the host's, read
 * at its last call: a clock that went back (a restored snapshot, a changed
 * system time) reseeds too. Records a seed in *used, for the stack wipe. */
static int ready(size_t len, int *used)
{
    const double age = sys.now_ms - sys.seeded_ms;
    if (sys.seeded && sys.bytes + len <= SHAKERAND_RESEED_BYTES && age >= 0 &&
        age < SHAKERAND_RESEED_SECONDS * 1000.0)
        return SHAKERAND_OK;
    shakerand_stack_used(used, SHAKERAND_STACK_SEED);
    return seed();
}

/* The host's fills: nothing is written unless a seed succeeded. */
static int system_try_fill(void *out, size_t len)
{
    int used = SHAKERAND_STACK_CLEAN;
    int status = ready(0, &used); /* even for nothing: a seed where one is due */
    for (size_t done = 0; done < len && status == SHAKERAND_OK;) {
        const size_t piece =
            len - done < SHAKERAND_MAX_PIECE_BYTES ? len - done : SHAKERAND_MAX_PIECE_BYTES;
        status = ready(piece, &used);
        if (status == SHAKERAND_OK) {
            /* Wipes below itself after its kernel. */
            shakerand_engine_fill(&sys.engine, (unsigned char *)out + done, piece);
            sys.bytes += piece;
            done += piece;
        }
    }
    if (status != SHAKERAND_OK)
        shakerand_memzero(out, len);
    shakerand_wipe_stack(used);
    return status;
}

/* The core's system-generator calls, which the samplers reach when given
 * no engine. The host never does that (its big bounds use an engine keyed
 * from shakerand_js_system_fill, which reports a failed seed): they are
 * here to link, and stop the module rather than hand out anything. */
void shakerand_system_fill(void *out, size_t len)
{
    shakerand_memzero(out, len);
    shakerand_fatal("the system generator is reached through shakerand_js_system_fill only");
}

uint64_t shakerand_system_u64(void)
{
    shakerand_system_fill(NULL, 0);
    return 0;
}

uint32_t shakerand_system_u32(void) { return (uint32_t)shakerand_system_u64(); }

/* The host's refill: len bytes into out, with the host's clock (ms). */
EXPORT(shakerand_js_system_fill)
int shakerand_js_system_fill(void *out, size_t len, double now_ms)
{
    sys.now_ms = now_ms;
    return system_try_fill(out, len);
}

/* Forgets the generator and seeds it again from the host now. */
EXPORT(shakerand_js_system_reseed)
int shakerand_js_system_reseed(double now_ms)
{
    sys.now_ms = now_ms;
    const int status = seed();
    shakerand_wipe_stack(SHAKERAND_STACK_SEED);
    return status;
}

/* A restore the host saw: the digest of its CPU-jitter sample (`deltas`,
 * each timer delta a 64-bit little-endian word, zeroed here) becomes
 * TurboSHAKE256(deltas, D = 0x25)[0, 32), mixed into this seed and every
 * later one until the next restore; then the generator is seeded again
 * now. The sample is never counted as entropy (docs/system.md). */
EXPORT(shakerand_js_system_restore)
int shakerand_js_system_restore(double now_ms, unsigned char *deltas, size_t len)
{
    shakerand_turboshake256_unwiped(sys.jitter, sizeof sys.jitter, deltas, len,
                                    SHAKERAND_JITTER_DOMAIN);
    shakerand_memzero(deltas, len);
    sys.restored = 1;
    return shakerand_js_system_reseed(now_ms);
}

/* Memory for the host: engines (aligned as the header requires) and byte
 * buffers, zeroed when freed. */
EXPORT(shakerand_js_alloc)
void *shakerand_js_alloc(size_t len)
{
    void *p = aligned_alloc(64, (len + 63) & ~(size_t)63);
    if (p != NULL)
        memset(p, 0, len);
    return p;
}

EXPORT(shakerand_js_free)
void shakerand_js_free(void *p, size_t len)
{
    shakerand_memzero(p, len);
    free(p);
}

/* Samplers over doubles (a JavaScript number holds any safe integer
 * exactly), so the host passes no BigInt: uniform in [lo, hi] as
 * shakerand_range_i64, for an engine. */
EXPORT(shakerand_js_engine_range)
double shakerand_js_engine_range(shakerand_engine *engine, double lo, double hi)
{
    int64_t out = 0;
    shakerand_range_i64(engine, (int64_t)lo, (int64_t)hi, &out);
    return (double)out;
}

EXPORT(shakerand_js_engine_double)
double shakerand_js_engine_double(shakerand_engine *engine) { return shakerand_double(engine); }

EXPORT(shakerand_js_engine_u32)
uint32_t shakerand_js_engine_u32(shakerand_engine *engine) { return shakerand_engine_u32(engine); }
