/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The engines; docs/engines.md defines their streams.
 *
 * turboshake256, shake256 (RandomSHAKE-compatible):
 * The seed is absorbed and finalised exactly as the XOF does (domain byte
 * 0x1F), so the first 1088 bytes are the XOF's. Output then comes in periods
 * of 8 rate blocks (8 * 136 = 1088 bytes, RandomSHAKE's period): after each
 * block the state is permuted, and after the 8th the state (permuted once
 * more, never read) is ratcheted: bytes 0..31 are zeroed and it is permuted
 * again. Zeroing 256 bits makes the step many-to-one, so a captured state
 * cannot be inverted to the previous period's output.
 *
 * Blocks are advanced as soon as their last byte is handed out, so the
 * state never holds a fully delivered block, and a period's ratchet happens
 * before the call that finished it returns.
 *
 * turboshake256x8 (the 8-lane Keccak engine): eight TurboSHAKE256 sponges
 * keyed by K || lane make one 1088-byte refill per 8-way permutation; 1056 bytes are
 * output and the last 32 are the next key. Bytes are zeroed in the state as
 * they are handed out, and the refill is rekeyed as soon as its last output
 * byte is, wiping the old sponges: a captured state holds no output that
 * was already delivered.
 *
 * chacha8rand (C2SP chacha8rand, Go's math/rand/v2 ChaCha8): the seed is
 * the 32-byte key; each 1024-byte iteration (chacha8rand.h) is 992 bytes of
 * output and the next key, handled as turboshake256x8's refills (and
 * written straight into a large request's memory, the key kept apart).
 * turboshake256x8 and chacha8rand are the keyed engines below.
 */

#include "engine.h"
#include "internal.h"
#include "keccakp1600.h"

size_t shakerand_engine_size(void) { return sizeof(shakerand_engine); }

static void start_turboshake256(shakerand_engine *engine, uint32_t tag, const void *seed,
                                size_t seed_len);
static void start_shake256(shakerand_engine *engine, uint32_t tag, const void *seed,
                           size_t seed_len);
static void start_turboshake256x8(shakerand_engine *engine, uint32_t tag, const void *seed,
                                  size_t seed_len);
static void start_chacha8rand(shakerand_engine *engine, uint32_t tag, const void *seed,
                              size_t seed_len);

/* The engine kinds: one row each, the only place that lists them. The
 * shakerand_kind_* functions answer from it for every front end; a new
 * kind is a row here, its start function and its kernels. */
static const struct kind_row {
    shakerand_kind kind;
    const char *name;
    uint16_t seed_size;  /* the exact seed length, or 0: any length */
    uint16_t block_size; /* bytes handed out between ratchets or rekeys */
    uint32_t tag;        /* in the engine's memory (engine.h) */
    void (*start)(shakerand_engine *engine, uint32_t tag, const void *seed, size_t seed_len);
} kind_rows[] = {
    {SHAKERAND_TURBOSHAKE256, "turboshake256", 0, BLOCKS_PER_PERIOD * RATE, TAG_TURBOSHAKE256,
     start_turboshake256},
    {SHAKERAND_SHAKE256, "shake256", 0, BLOCKS_PER_PERIOD * RATE, TAG_SHAKE256, start_shake256},
    {SHAKERAND_TURBOSHAKE256X8, "turboshake256x8", 0, X8_OUTPUT_BYTES, TAG_TURBOSHAKE256X8,
     start_turboshake256x8},
    {SHAKERAND_CHACHA8RAND, "chacha8rand", CHACHA8_KEY_BYTES, CHACHA8_OUTPUT_BYTES, TAG_CHACHA8RAND,
     start_chacha8rand},
};
enum { KIND_COUNT = sizeof kind_rows / sizeof kind_rows[0] };

static const struct kind_row *kind_row(shakerand_kind kind)
{
    for (size_t i = 0; i < KIND_COUNT; i++)
        if (kind_rows[i].kind == kind)
            return &kind_rows[i];
    return NULL;
}

size_t shakerand_kind_count(void) { return KIND_COUNT; }

shakerand_kind shakerand_kind_at(size_t index)
{
    return index < KIND_COUNT ? kind_rows[index].kind : (shakerand_kind)0;
}

const char *shakerand_kind_name(shakerand_kind kind)
{
    const struct kind_row *row = kind_row(kind);
    return row != NULL ? row->name : NULL;
}

size_t shakerand_kind_seed_size(shakerand_kind kind)
{
    const struct kind_row *row = kind_row(kind);
    return row != NULL ? row->seed_size : 0;
}

size_t shakerand_kind_block_size(shakerand_kind kind)
{
    const struct kind_row *row = kind_row(kind);
    return row != NULL ? row->block_size : 0;
}

int shakerand_kind_from_name(const char *name, shakerand_kind *kind)
{
    if (name == NULL || kind == NULL)
        return SHAKERAND_EINVAL;
    for (size_t i = 0; i < KIND_COUNT; i++) {
        if (strcmp(name, kind_rows[i].name) == 0) {
            *kind = kind_rows[i].kind;
            return SHAKERAND_OK;
        }
    }
    return SHAKERAND_EINVAL;
}

/* Eight fresh sponges, lane j absorbing K || j with domain byte 0x21 and
 * the final padding bit, then one 8-way permutation: the refill, built in
 * `out` (every word written: nothing depends on what it held). The absorbed
 * block is non-zero only in words 0..3 (K), 4 (j, then the domain byte)
 * and 16 (0x80 in byte 135). */
static void x8_build(void *out, const uint64_t key[4])
{
    uint64_t *st = out;
    for (unsigned w = 0; w < 25; w++) {
        for (unsigned j = 0; j < 8; j++) {
            uint64_t v = 0;
            if (w < KEY_BYTES / 8)
                v = key[w];
            else if (w == 4)
                v = (uint64_t)j | (uint64_t)X8_LANE_DOMAIN << 8;
            else if (w == 16)
                v = (uint64_t)0x80 << 56;
            st[8 * w + j] = v;
        }
    }
    SHAKERAND_TEST_STEP();
    shakerand_kernel_get()->p1600x8(st, 12);
}

static void chacha8_build(void *out, const uint64_t key[4])
{
    uint64_t *words = out;
    shakerand_kernel_get()->chacha8rand(key, words, words + CHACHA8_OUTPUT_BYTES / 8);
}

/* The keyed engines: a refill is `output` bytes handed out, then the next
 * 32-byte key, then (turboshake256x8) the sponges' capacity, `size` bytes
 * in all, built from the key by `build`. */
struct keyed {
    uint16_t output;
    uint16_t size;
    /* chacha8rand's kernel writes the output and the next key to separate
     * places, so whole iterations can go straight into the caller's
     * memory without the key ever being there. turboshake256x8 permutes
     * its whole state in place: its refills always go through the engine. */
    uint8_t direct;
    void (*build)(void *out, const uint64_t key[4]);
};

static const struct keyed keyed_x8 = {X8_OUTPUT_BYTES, BUFFER_BYTES, 0, x8_build};
static const struct keyed keyed_chacha8 = {CHACHA8_OUTPUT_BYTES, CHACHA8_REFILL_BYTES, 1,
                                           chacha8_build};

/* The keyed engine of a tag, or NULL (an x1 engine). */
static const struct keyed *keyed_of(uint32_t tag)
{
    return tag == TAG_TURBOSHAKE256X8 ? &keyed_x8 : tag == TAG_CHACHA8RAND ? &keyed_chacha8 : NULL;
}

/* The live refill has been handed out: build the next one in the other
 * buffer from the key that follows the live one's output, make it live,
 * then zero what is left of the old one (the key, and for turboshake256x8
 * the sponges' capacity; its output was zeroed as it was handed out).
 *
 * A chacha8rand caller that still wants at least a whole iteration's
 * output (992 bytes) on a little-endian host gets the iterations in
 * between written straight into its memory: their output never sits in
 * the engine (no copy out, nothing to zero), and each one's next key
 * replaces the engine's key in place, never passing through the caller's
 * memory. Meanwhile the engine is marked abandoned (tag and end): if the
 * caller never comes back (a signal handler that longjmps), the engine
 * would otherwise hold the key of bytes already in the caller's memory,
 * so it refuses to produce instead of repeating them. Returns how many
 * bytes were written to out that way. */
static size_t keyed_next_refill(struct engine *e, const struct keyed *k, unsigned char *out,
                                size_t len)
{
    uint64_t *old = live_buffer(e);
    uint64_t *const old_key = old + k->output / 8;
    size_t direct = 0;
    if (k->direct && shakerand_host_is_little_endian() && len >= k->output) {
        const uint32_t tag = e->tag;
        e->end = 0;
        e->tag = TAG_ABANDONED;
        SHAKERAND_SIGNAL_FENCE();
        const shakerand_chacha8_fn kernel = shakerand_kernel_get()->chacha8rand;
        while (len - direct >= k->output) {
            SHAKERAND_TEST_STEP();
            kernel(old_key, out + direct, old_key);
            direct += k->output;
        }
        SHAKERAND_SIGNAL_FENCE();
        e->tag = tag;
        e->end = k->output;
        SHAKERAND_SIGNAL_FENCE();
    }
    uint64_t key[KEY_BYTES / 8];
    memcpy(key, old_key, sizeof key);
    SHAKERAND_TEST_STEP();
    k->build(idle_buffer(e), key);
    shakerand_memzero(key, sizeof key);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->live = (uint16_t)(BUFFER_WORDS - e->live);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->pos = 0;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    shakerand_memzero(old + k->output / 8, (size_t)k->size - k->output);
    return direct;
}

/* A keyed engine from its first key: its first refill is live. */
static void keyed_start(shakerand_engine *engine, uint32_t tag, const uint64_t key[4])
{
    const struct keyed *k = keyed_of(tag);
    shakerand_memzero(engine, sizeof *engine);
    struct engine *e = as_engine(engine);
    k->build(e->state, key);
    e->end = k->output;
    e->tag = tag;
}

/* The x1 engines: the seed absorbed and the XOF finalised; its state is
 * block 0, the live buffer's one block until the first refill. */
static void start_x1(shakerand_engine *engine, uint32_t tag, shakerand_xof *xof, const void *seed,
                     size_t seed_len)
{
    shakerand_xof_absorb_unwiped(xof, seed, seed_len);
    shakerand_xof_squeeze_unwiped(xof, NULL, 0);
    shakerand_memzero(engine, sizeof *engine);
    struct engine *e = as_engine(engine);
    _Static_assert(sizeof xof->state_ == SHAKERAND_KECCAK_STATE_BYTES, "one Keccak state");
    memcpy(e->state + X1_STATE_WORD, xof->state_, sizeof xof->state_);
    memcpy(e->state, xof->state_, RATE);
    e->tag = tag;
    e->end = RATE;
    e->rounds = xof->rounds_;
    shakerand_xof_wipe(xof);
}

static void start_turboshake256(shakerand_engine *engine, uint32_t tag, const void *seed,
                                size_t seed_len)
{
    shakerand_xof xof;
    shakerand_turboshake256_init(&xof, 0x1F);
    start_x1(engine, tag, &xof, seed, seed_len);
}

static void start_shake256(shakerand_engine *engine, uint32_t tag, const void *seed,
                           size_t seed_len)
{
    shakerand_xof xof;
    shakerand_shake256_init(&xof);
    start_x1(engine, tag, &xof, seed, seed_len);
}

/* The keyed engines from 32 key bytes. */
static void start_keyed(shakerand_engine *engine, uint32_t tag, unsigned char key_bytes[KEY_BYTES])
{
    uint64_t key[KEY_BYTES / 8];
    for (unsigned w = 0; w < KEY_BYTES / 8; w++)
        key[w] = load_le(key_bytes + (size_t)8 * w, 8);
    keyed_start(engine, tag, key);
    shakerand_memzero(key_bytes, KEY_BYTES);
    shakerand_memzero(key, sizeof key);
}

static void start_turboshake256x8(shakerand_engine *engine, uint32_t tag, const void *seed,
                                  size_t seed_len)
{
    unsigned char key_bytes[KEY_BYTES];
    shakerand_turboshake256_unwiped(key_bytes, sizeof key_bytes, seed, seed_len, X8_KEY_DOMAIN);
    start_keyed(engine, tag, key_bytes);
}

/* The seed is the key (its length checked by engine_init). */
static void start_chacha8rand(shakerand_engine *engine, uint32_t tag, const void *seed,
                              size_t seed_len)
{
    unsigned char key_bytes[KEY_BYTES];
    (void)seed_len;
    memcpy(key_bytes, seed, sizeof key_bytes);
    start_keyed(engine, tag, key_bytes);
}

__attribute__((noinline)) static int engine_init(shakerand_engine *engine, shakerand_kind kind,
                                                 const void *seed, size_t seed_len)
{
    const struct kind_row *row = kind_row(kind);
    if (engine == NULL || row == NULL || (seed == NULL && seed_len > 0) ||
        (row->seed_size != 0 && seed_len != row->seed_size))
        return SHAKERAND_EINVAL;
    row->start(engine, row->tag, seed, seed_len);
    return SHAKERAND_OK;
}

int shakerand_engine_init(shakerand_engine *engine, shakerand_kind kind, const void *seed,
                          size_t seed_len)
{
    const int status = engine_init(engine, kind, seed, seed_len);
    shakerand_wipe_stack(SHAKERAND_STACK_KERNEL);
    return status;
}

static struct engine *checked(shakerand_engine *engine)
{
    if (engine == NULL)
        shakerand_fatal("engine is NULL");
    struct engine *e = as_engine(engine);
    if (e->tag == TAG_ABANDONED)
        shakerand_fatal("engine used after a fill into it was abandoned (a longjmp out of it): "
                        "it could repeat output; initialise it again");
    if (e->tag != TAG_TURBOSHAKE256 && e->tag != TAG_SHAKE256 && keyed_of(e->tag) == NULL)
        shakerand_fatal("engine used before shakerand_engine_init or after wipe");
    return e;
}

/* The live refill has been handed out: the blocks that follow its last one
 * up to the end of their period (after the ratchet that ends a period, a
 * whole period) are computed in the other buffer, their outputs one after
 * another and the last one's state kept, made live, and the old buffer is
 * zeroed. */
static void x1_next_refill(struct engine *e, shakerand_p1600_fn permute)
{
    uint64_t *old = live_buffer(e), *next = idle_buffer(e);
    uint64_t *state = next + X1_STATE_WORD;
    memcpy(state, old + X1_STATE_WORD, SHAKERAND_KECCAK_STATE_BYTES);
    SHAKERAND_TEST_STEP();
    unsigned block = e->block, blocks = 0;
    do {
        permute(state, e->rounds);
        SHAKERAND_TEST_STEP();
        if (++block == BLOCKS_PER_PERIOD) {
            shakerand_state_zero_bytes(state, 0, RATCHET_ZERO_BYTES);
            SHAKERAND_TEST_STEP();
            permute(state, e->rounds);
            block = 0;
        }
        memcpy((unsigned char *)next + (size_t)RATE * blocks++, state, RATE);
    } while (block + 1u < BLOCKS_PER_PERIOD);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->live = (uint16_t)(BUFFER_WORDS - e->live);
    e->block = (uint8_t)block;
    e->end = (uint16_t)(RATE * blocks);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->pos = 0;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    shakerand_memzero(old, BUFFER_BYTES);
}

/* The next block or refill; for a keyed engine, with what keyed_next_refill
 * wrote straight to out (0 for the x1 engines). */
static size_t next_buffer(struct engine *e, const struct keyed *k, unsigned char *out, size_t len)
{
    if (k != NULL)
        return keyed_next_refill(e, k, out, len);
    x1_next_refill(e, shakerand_kernel_get()->p1600);
    return 0;
}

/* Bytes [pos, pos + n) of a buffer to out, zeroed after. Out of line so
 * that the copies stay calls to the C library's memcpy and memset: inlined
 * where the state's alignment is known, the compiler expands them to rep
 * movs/stos, whose start-up costs more than a small request itself. */
__attribute__((noinline)) static void copy_out(uint64_t *st, size_t pos, unsigned char *out,
                                               size_t n)
{
    shakerand_state_extract_bytes(st, pos, out, n);
    SHAKERAND_TEST_STEP();
    shakerand_state_zero_bytes(st, pos, n);
    SHAKERAND_TEST_STEP();
}

/* Each piece's position is committed before its bytes are copied out, and
 * they are zeroed in the buffer once copied. `k` is the keyed engine or
 * NULL (x1, whose refills differ in length: read from `end`). Returns
 * whether a kernel ran (the caller wipes the stack it used). */
__attribute__((noinline)) static int fill(struct engine *e, const struct keyed *k, unsigned char *p,
                                          size_t len)
{
    int computed = 0;
    while (len > 0) {
        const size_t end = k != NULL ? k->output : e->end;
        const size_t pos = e->pos;
        if (pos >= end) {
            const size_t direct = next_buffer(e, k, p, len);
            computed = 1;
            p += direct;
            len -= direct;
            continue;
        }
        size_t take = end - pos;
        if (take > len)
            take = len;
        uint64_t *st = live_buffer(e);
        e->pos = (uint16_t)(pos + take);
        SHAKERAND_SIGNAL_FENCE();
        SHAKERAND_TEST_STEP();
        copy_out(st, pos, p, take);
        p += take;
        len -= take;
        if (e->pos == end) {
            const size_t direct = next_buffer(e, k, p, len);
            computed = 1;
            p += direct;
            len -= direct;
        }
    }
    return computed;
}

void shakerand_engine_fill(shakerand_engine *engine, void *out, size_t len)
{
    struct engine *e = checked(engine);
    if (out == NULL && len > 0)
        shakerand_fatal("shakerand_engine_fill: out is NULL");
    if (fill(e, keyed_of(e->tag), out, len))
        shakerand_wipe_stack(SHAKERAND_STACK_KERNEL);
}

int shakerand_keyed_fill_unchecked(shakerand_engine *engine, shakerand_kind kind, void *out,
                                   size_t len)
{
    return fill(as_engine(engine), kind == SHAKERAND_CHACHA8RAND ? &keyed_chacha8 : &keyed_x8, out,
                len);
}

/* Words are read straight from the live refill when it holds them; only a
 * word that straddles two refills takes the general path. */
static uint64_t next_word(shakerand_engine *engine, unsigned n)
{
    (void)checked(engine);
    uint64_t v;
    if (shakerand_engine_take_word(engine, n, &v))
        return v;
    unsigned char b[8];
    shakerand_engine_fill(engine, b, n);
    return load_le(b, n);
}

uint64_t shakerand_engine_u64(shakerand_engine *engine) { return next_word(engine, 8); }

uint32_t shakerand_engine_u32(shakerand_engine *engine) { return (uint32_t)next_word(engine, 4); }

void shakerand_engine_wipe(shakerand_engine *engine)
{
    if (engine != NULL)
        shakerand_memzero(engine, sizeof *engine);
}
