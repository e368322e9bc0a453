/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The engines' memory layout, shared with the system generator's fast path
 * (private). */
#ifndef SHAKERAND_ENGINE_H
#define SHAKERAND_ENGINE_H

#include <string.h>

#include "chacha8rand.h"
#include "internal.h"
#include "keccakp1600.h"
#include "shakerand.h"

enum {
    RATE = 136,
    BLOCKS_PER_PERIOD = 8,
    RATCHET_ZERO_BYTES = 32,
    X8_KEY_DOMAIN = 0x20,
    X8_LANE_DOMAIN = 0x21,
    KEY_BYTES = 32,                                /* a keyed engine's next key, after its output */
    X8_REFILL_BYTES = 8 * RATE,                    /* 1088 */
    X8_OUTPUT_BYTES = X8_REFILL_BYTES - KEY_BYTES, /* 1056 */
    BUFFER_WORDS = 25 * 8,                         /* one buffer (below) */
    BUFFER_BYTES = 8 * BUFFER_WORDS,
    /* x1: a buffer holds the outputs of the rest of a period's blocks, one
     * after another from its start, and the state of the last of them at
     * this word, from which the next refill goes on. */
    X1_STATE_WORD = BLOCKS_PER_PERIOD * RATE / 8,
    /* Engine tags in memory, distinct from 0 so a zeroed (wiped or never
     * initialised) engine is recognised and refused. */
    TAG_TURBOSHAKE256 = 0x54534831,   /* "TSH1" */
    TAG_SHAKE256 = 0x53484b31,        /* "SHK1" */
    TAG_TURBOSHAKE256X8 = 0x54534838, /* "TSH8" */
    TAG_CHACHA8RAND = 0x43433852,     /* "CC8R" */
    /* A keyed engine in the middle of writing iterations into a caller's
     * memory (engine.c, keyed_next_refill): refused if it is ever used in
     * that state (the fill was abandoned). */
    TAG_ABANDONED = 0x41424e44, /* "ABND" */
};

/*
 * Two buffers, one live: a refill (the keyed engines, turboshake256x8 and
 * chacha8rand; for x1, the rest of a period's blocks, so that the stack
 * wipe after the kernel is paid once a period rather than once a block) is
 * computed in the other buffer and made live by one store of `live`, so the
 * live buffer is never half-written. Between calls the other buffer is all
 * zero, so a captured engine holds only the live buffer's secrets, which
 * for x1 its state determines anyway. Positions are committed before bytes
 * are copied out, and every engine zeroes what it hands out.
 * None of this makes one engine safe to share between a signal handler and
 * the code it interrupted (two writers); the system generator has its own
 * guard for that (the in-use marker, thread.h).
 */
struct engine {
    uint32_t tag;
    uint16_t pos;   /* bytes of the live refill handed out */
    uint16_t end;   /* bytes the live refill hands out; 0 in a wiped
                       engine, so no take fits */
    uint16_t live;  /* the buffer being served: its first word in state, 0 or
                       BUFFER_WORDS (an offset, not an index: no multiply on
                       the hot path) */
    uint8_t block;  /* x1: index in its period of the live buffer's last block */
    uint8_t rounds; /* x1: 12 (TurboSHAKE256) or 24 (SHAKE256) */
    /* x1: the outputs of blocks from words 0 on, the last block's state at
     * X1_STATE_WORD; turboshake256x8: eight states, lane i
     * of state j at word 8i + j, so the refill's output is words 0..131 in
     * order; chacha8rand: the iteration's 128 words (chacha8rand.h). A
     * keyed engine's next key follows its output (its last 32 bytes). */
    SHAKERAND_ALIGN64 uint64_t state[2 * BUFFER_WORDS];
};

#ifndef __cplusplus
_Static_assert(sizeof(struct engine) <= SHAKERAND_ENGINE_SIZE, "engine too large");
_Static_assert(X1_STATE_WORD + 25 <= BUFFER_WORDS, "a period's outputs and a state fit a buffer");
#endif

static inline uint64_t *live_buffer(struct engine *e) { return e->state + e->live; }
static inline uint64_t *idle_buffer(struct engine *e)
{
    return e->state + (BUFFER_WORDS - e->live);
}

static inline struct engine *as_engine(shakerand_engine *engine)
{
    return (struct engine *)(void *)engine->opaque_;
}

/* shakerand_engine_fill for the system generator's keyed engine (kind
 * SHAKERAND_TURBOSHAKE256X8 or SHAKERAND_CHACHA8RAND), without the check
 * that the engine was initialised: a signal handler that forks may leave
 * the child's engine wiped mid-call, and the system generator checks its
 * whole state after the take and draws again. Returns whether a kernel ran,
 * for the public entry point's stack wipe (internal.h), which it leaves to
 * that entry point. */
int shakerand_keyed_fill_unchecked(shakerand_engine *engine, shakerand_kind kind, void *out,
                                   size_t len);

/* The first n <= 8 bytes of b as a little-endian number. */
static inline uint64_t load_le(const unsigned char *b, unsigned n)
{
    if (shakerand_host_is_little_endian() && (n == 8 || n == 4)) {
        /* One load where the byte order allows (compilers do not see the
         * loop below as one). */
        if (n == 8) {
            uint64_t w;
            memcpy(&w, b, 8);
            return w;
        }
        uint32_t h;
        memcpy(&h, b, 4);
        return h;
    }
    uint64_t v = 0;
    while (n--)
        v = v << 8 | b[n];
    return v;
}

/* The common case of shakerand_engine_u64 and _u32: the next n (4 or 8)
 * bytes of the live refill as a little-endian word, the position committed
 * before the bytes are read, the bytes zeroed where they lay. 0 when the
 * take does not fit (a refill is due, or the engine is wiped, never
 * initialised or abandoned: its end is 0), for the caller to call the
 * function, which checks the engine and refills. engine.c's functions inline it, and so do front ends
 * built with the core's sources (the Python extension's numpy bit
 * generator), so that a word costs them no call. */
static inline int shakerand_engine_take_word(shakerand_engine *engine, unsigned n, uint64_t *word)
{
    struct engine *e = as_engine(engine);
    const size_t pos = e->pos;
    if (__builtin_expect(pos + n >= e->end, 0))
        return 0;
    uint64_t *st = live_buffer(e);
    e->pos = (uint16_t)(pos + n);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    unsigned char b[8];
    shakerand_state_extract_bytes(st, pos, b, n);
    SHAKERAND_TEST_STEP();
    shakerand_state_zero_bytes(st, pos, n);
    *word = load_le(b, n);
    return 1;
}

/* Copies n <= 16 bytes with at most two fixed-size moves each way. */
static inline void copy_small(unsigned char *dst, const unsigned char *src, size_t n)
{
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &b, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            dst[i] = src[i];
    }
}

#endif
