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
 * turboshake256x8 (the fast engine): eight TurboSHAKE256 sponges keyed by
 * K || lane make one 1088-byte refill per 8-way permutation; 1056 bytes are
 * output and the last 32 are the next key. Bytes are zeroed in the state as
 * they are handed out, and the refill is rekeyed as soon as its last output
 * byte is, wiping the old sponges: a captured state holds no output that
 * was already delivered.
 */

#include "engine.h"
#include "internal.h"
#include "keccakp1600.h"

#if defined(SHAKERAND_TESTING)
void (*volatile shakerand_step_hook_for_testing)(void);
#endif

size_t shakerand_engine_size(void) { return sizeof(shakerand_engine); }

const char *shakerand_kind_name(shakerand_kind kind)
{
    switch (kind) {
    case SHAKERAND_TURBOSHAKE256: return "turboshake256";
    case SHAKERAND_SHAKE256: return "shake256";
    case SHAKERAND_TURBOSHAKE256X8: return "turboshake256x8";
    }
    return NULL;
}

int shakerand_kind_from_name(const char *name, shakerand_kind *kind)
{
    static const shakerand_kind kinds[] = {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256,
                                          SHAKERAND_TURBOSHAKE256X8};
    if (name == NULL || kind == NULL)
        return SHAKERAND_EINVAL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(name, shakerand_kind_name(kinds[i])) == 0) {
            *kind = kinds[i];
            return SHAKERAND_OK;
        }
    }
    return SHAKERAND_EINVAL;
}

/* Eight fresh sponges, lane j absorbing K || j with domain byte 0x21 and
 * the final padding bit, then one 8-way permutation: the refill, built in
 * `st` (every word written: nothing depends on what it held). The absorbed
 * block is non-zero only in words 0..3 (K), 4 (j, then the domain byte)
 * and 16 (0x80 in byte 135). */
static void x8_build(uint64_t *st, const uint64_t key[X8_KEY_BYTES / 8])
{
    for (unsigned w = 0; w < 25; w++) {
        for (unsigned j = 0; j < 8; j++) {
            uint64_t v = 0;
            if (w < X8_KEY_BYTES / 8)
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

/* The live refill has been handed out: build the next one in the other
 * buffer from the key in the live one's last 32 bytes (words 132..135),
 * make it live, then zero what is left of the old one (the key and the
 * sponges' capacity; its output was zeroed as it was handed out).
 *
 * A caller that still wants at least a whole state's worth (1600 bytes)
 * into 8-byte-aligned memory on a little-endian host gets the refills in
 * between built and permuted in its own memory: their output lands where
 * it belongs and never sits in the engine (no copy out, nothing to zero).
 * Each such refill's key is moved into the live buffer's key slot at once
 * and its key and capacity zeroed in the caller's memory (the next refill
 * is built over them anyway), so the engine always holds the key that comes
 * next (a caller that leaves by longjmp gets no repeat) and the caller's
 * memory never holds a key past that step. Returns how many bytes were
 * written to out that way. */
static size_t x8_next_refill(struct engine *e, unsigned char *out, size_t len)
{
    uint64_t *old = live_buffer(e);
    uint64_t *const old_key = old + X8_OUTPUT_BYTES / 8;
    size_t direct = 0;
    if (shakerand_host_is_little_endian() && ((uintptr_t)out & 7) == 0) {
        while (len - direct >= (size_t)BUFFER_BYTES) {
            uint64_t *st = (uint64_t *)(void *)(out + direct);
            x8_build(st, old_key);
            memcpy(old_key, st + X8_OUTPUT_BYTES / 8, X8_KEY_BYTES);
            shakerand_memzero(st + X8_OUTPUT_BYTES / 8, (size_t)BUFFER_BYTES - X8_OUTPUT_BYTES);
            direct += X8_OUTPUT_BYTES;
        }
    }
    uint64_t key[X8_KEY_BYTES / 8];
    memcpy(key, old_key, sizeof key);
    SHAKERAND_TEST_STEP();
    x8_build(idle_buffer(e), key);
    shakerand_memzero(key, sizeof key);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->live = (uint16_t)(BUFFER_WORDS - e->live);
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->pos = 0;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    shakerand_memzero(old + X8_OUTPUT_BYTES / 8, (size_t)BUFFER_BYTES - X8_OUTPUT_BYTES);
    return direct;
}

int shakerand_engine_init(shakerand_engine *engine, shakerand_kind kind, const void *seed,
                          size_t seed_len)
{
    if (engine == NULL || (seed == NULL && seed_len > 0))
        return SHAKERAND_EINVAL;
    if (kind == SHAKERAND_TURBOSHAKE256X8) {
        unsigned char key_bytes[X8_KEY_BYTES];
        uint64_t key[X8_KEY_BYTES / 8];
        shakerand_turboshake256(key_bytes, sizeof key_bytes, seed, seed_len, X8_KEY_DOMAIN);
        for (unsigned w = 0; w < X8_KEY_BYTES / 8; w++)
            key[w] = load_le(key_bytes + (size_t)8 * w, 8);
        shakerand_memzero(engine, sizeof *engine);
        struct engine *e = as_engine(engine);
        x8_build(e->state, key);
        e->tag = TAG_TURBOSHAKE256X8;
        shakerand_memzero(key_bytes, sizeof key_bytes);
        shakerand_memzero(key, sizeof key);
        return SHAKERAND_OK;
    }
    shakerand_xof xof;
    uint32_t tag;
    switch (kind) {
    case SHAKERAND_TURBOSHAKE256:
        shakerand_turboshake256_init(&xof, 0x1F);
        tag = TAG_TURBOSHAKE256;
        break;
    case SHAKERAND_SHAKE256:
        shakerand_shake256_init(&xof);
        tag = TAG_SHAKE256;
        break;
    default:
        return SHAKERAND_EINVAL;
    }
    shakerand_xof_absorb(&xof, seed, seed_len);
    shakerand_xof_squeeze(&xof, NULL, 0); /* finalise: the state is block 0 */

    shakerand_memzero(engine, sizeof *engine);
    struct engine *e = as_engine(engine);
    memcpy(e->state, xof.state_, sizeof xof.state_);
    e->tag = tag;
    e->rounds = xof.rounds_;
    shakerand_xof_wipe(&xof);
    return SHAKERAND_OK;
}

static struct engine *checked(shakerand_engine *engine)
{
    if (engine == NULL)
        shakerand_fatal("engine is NULL");
    struct engine *e = as_engine(engine);
    if (e->tag != TAG_TURBOSHAKE256 && e->tag != TAG_SHAKE256 && e->tag != TAG_TURBOSHAKE256X8)
        shakerand_fatal("engine used before shakerand_engine_init or after wipe");
    return e;
}

/* The live block has been handed out: the next one (after the ratchet at
 * the end of a period) is computed in the other buffer, made live, and the
 * old one is zeroed. */
static void x1_next_block(struct engine *e, shakerand_p1600_fn permute)
{
    uint64_t *old = live_buffer(e), *next = idle_buffer(e);
    memcpy(next, old, SHAKERAND_KECCAK_STATE_BYTES);
    SHAKERAND_TEST_STEP();
    permute(next, e->rounds);
    SHAKERAND_TEST_STEP();
    unsigned block = e->block + 1u;
    if (block == BLOCKS_PER_PERIOD) {
        shakerand_state_zero_bytes(next, 0, RATCHET_ZERO_BYTES);
        SHAKERAND_TEST_STEP();
        permute(next, e->rounds);
        block = 0;
    }
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->live = (uint16_t)(BUFFER_WORDS - e->live);
    e->block = (uint8_t)block;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    e->pos = 0;
    SHAKERAND_SIGNAL_FENCE();
    SHAKERAND_TEST_STEP();
    shakerand_memzero(old, SHAKERAND_KECCAK_STATE_BYTES);
}

/* The next block or refill; for the fast engine, with what x8_next_refill
 * wrote straight to out (0 for the x1 engines). */
static size_t next_buffer(struct engine *e, int x8, unsigned char *out, size_t len)
{
    if (x8)
        return x8_next_refill(e, out, len);
    x1_next_block(e, shakerand_kernel_get()->p1600);
    return 0;
}

/* Bytes [pos, pos + n) of a buffer to out, zeroed after for the fast
 * engine. Out of line so that the copies stay calls to the C library's
 * memcpy and memset: inlined where the state's alignment is known, the
 * compiler expands them to rep movs/stos, whose start-up costs more than a
 * small request itself. */
__attribute__((noinline)) static void copy_out(uint64_t *st, size_t pos, unsigned char *out,
                                               size_t n, int zero)
{
    shakerand_state_extract_bytes(st, pos, out, n);
    SHAKERAND_TEST_STEP();
    if (zero)
        shakerand_state_zero_bytes(st, pos, n);
    SHAKERAND_TEST_STEP();
}

/* Each piece's position is committed before its bytes are copied out; the
 * fast engine zeroes them in the state once copied (the x1 engines need
 * their block for the next permutation, and zero the whole buffer when
 * they move on). */
static void fill(struct engine *e, int x8, unsigned char *p, size_t len)
{
    const size_t end = x8 ? X8_OUTPUT_BYTES : RATE;
    while (len > 0) {
        const size_t pos = e->pos;
        if (pos >= end) {
            const size_t direct = next_buffer(e, x8, p, len);
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
        copy_out(st, pos, p, take, x8);
        p += take;
        len -= take;
        if (e->pos == end) {
            const size_t direct = next_buffer(e, x8, p, len);
            p += direct;
            len -= direct;
        }
    }
}

void shakerand_engine_fill(shakerand_engine *engine, void *out, size_t len)
{
    struct engine *e = checked(engine);
    if (out == NULL && len > 0)
        shakerand_fatal("shakerand_engine_fill: out is NULL");
    fill(e, e->tag == TAG_TURBOSHAKE256X8, out, len);
}

void shakerand_x8_fill_unchecked(shakerand_engine *engine, void *out, size_t len)
{
    fill(as_engine(engine), 1, out, len);
}

/* Words are read straight from the state when the live block holds them;
 * only a word that straddles two blocks takes the general path. */
static uint64_t next_word(shakerand_engine *engine, unsigned n)
{
    struct engine *e = checked(engine);
    unsigned char b[8];
    const int x8 = e->tag == TAG_TURBOSHAKE256X8;
    const size_t pos = e->pos;
    if (pos + n < (x8 ? (size_t)X8_OUTPUT_BYTES : (size_t)RATE)) {
        uint64_t *st = live_buffer(e);
        e->pos = (uint16_t)(pos + n);
        SHAKERAND_SIGNAL_FENCE();
        SHAKERAND_TEST_STEP();
        shakerand_state_extract_bytes(st, pos, b, n);
        SHAKERAND_TEST_STEP();
        if (x8)
            shakerand_state_zero_bytes(st, pos, n);
    } else {
        shakerand_engine_fill(engine, b, n);
    }
    return load_le(b, n);
}

uint64_t shakerand_engine_u64(shakerand_engine *engine) { return next_word(engine, 8); }

uint32_t shakerand_engine_u32(shakerand_engine *engine) { return (uint32_t)next_word(engine, 4); }

void shakerand_engine_wipe(shakerand_engine *engine)
{
    if (engine != NULL)
        shakerand_memzero(engine, sizeof *engine);
}
