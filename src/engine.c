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

/* The first n <= 8 bytes of b as a little-endian number. */
static uint64_t load_le(const unsigned char *b, unsigned n)
{
    uint64_t v = 0;
    while (n--)
        v = v << 8 | b[n];
    return v;
}

/* Eight fresh sponges, lane j absorbing K || j with domain byte 0x21 and
 * the final padding bit, then one 8-way permutation: the refill. The
 * absorbed block is non-zero only in words 0..3 (K), 4 (j, then the domain
 * byte) and 16 (0x80 in byte 135). Everything before is overwritten. */
static void x8_rekey(struct engine *e, const unsigned char key[X8_KEY_BYTES])
{
    uint64_t k[X8_KEY_BYTES / 8];
    for (unsigned w = 0; w < X8_KEY_BYTES / 8; w++)
        k[w] = load_le(key + (size_t)8 * w, 8);
    for (unsigned w = 0; w < 25; w++) {
        for (unsigned j = 0; j < 8; j++) {
            uint64_t v = 0;
            if (w < X8_KEY_BYTES / 8)
                v = k[w];
            else if (w == 4)
                v = (uint64_t)j | (uint64_t)X8_LANE_DOMAIN << 8;
            else if (w == 16)
                v = (uint64_t)0x80 << 56;
            e->state[8 * w + j] = v;
        }
    }
    shakerand_memzero(k, sizeof k);
    shakerand_kernel_get()->p1600x8(e->state, 12);
    e->pos = 0;
}

static void x8_next_refill(struct engine *e)
{
    unsigned char key[X8_KEY_BYTES];
    shakerand_state_extract_bytes(e->state, X8_OUTPUT_BYTES, key, sizeof key);
    x8_rekey(e, key);
    shakerand_memzero(key, sizeof key);
}

int shakerand_engine_init(shakerand_engine *engine, shakerand_kind kind, const void *seed,
                          size_t seed_len)
{
    if (engine == NULL || (seed == NULL && seed_len > 0))
        return SHAKERAND_EINVAL;
    if (kind == SHAKERAND_TURBOSHAKE256X8) {
        unsigned char key[X8_KEY_BYTES];
        shakerand_turboshake256(key, sizeof key, seed, seed_len, X8_KEY_DOMAIN);
        shakerand_memzero(engine, sizeof *engine);
        struct engine *e = as_engine(engine);
        e->tag = TAG_TURBOSHAKE256X8;
        x8_rekey(e, key);
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

/* The current block has been handed out: move to the next. */
static void x1_next_block(struct engine *e, shakerand_p1600_fn permute)
{
    permute(e->state, e->rounds);
    if (++e->block == BLOCKS_PER_PERIOD) {
        shakerand_state_zero_bytes(e->state, 0, RATCHET_ZERO_BYTES);
        permute(e->state, e->rounds);
        e->block = 0;
    }
    e->pos = 0;
}

void shakerand_engine_fill(shakerand_engine *engine, void *out, size_t len)
{
    struct engine *e = checked(engine);
    if (out == NULL && len > 0)
        shakerand_fatal("shakerand_engine_fill: out is NULL");
    if (len == 0)
        return;
    unsigned char *p = out;
    const int x8 = e->tag == TAG_TURBOSHAKE256X8;
    const size_t end = x8 ? X8_OUTPUT_BYTES : RATE;
    const shakerand_p1600_fn permute = x8 ? NULL : shakerand_kernel_get()->p1600;
    while (len > 0) {
        size_t take = end - e->pos;
        if (take > len)
            take = len;
        shakerand_state_extract_bytes(e->state, e->pos, p, take);
        e->pos = (uint16_t)(e->pos + take);
        p += take;
        len -= take;
        if (e->pos == end) {
            if (x8)
                x8_next_refill(e); /* overwrites everything */
            else
                x1_next_block(e, permute);
        } else if (x8) {
            /* The x1 engines need their block for the next permutation; the
             * fast engine never reads delivered bytes again. */
            shakerand_state_zero_bytes(e->state, e->pos - take, take);
        }
    }
}

/* Words are read straight from the state when the current block holds
 * them; only a word that straddles two blocks takes the general path. */
static uint64_t next_word(shakerand_engine *engine, unsigned n)
{
    struct engine *e = checked(engine);
    unsigned char b[8];
    const unsigned end = e->tag == TAG_TURBOSHAKE256X8 ? X8_OUTPUT_BYTES : RATE;
    if (e->pos + n < end) {
        shakerand_state_extract_bytes(e->state, e->pos, b, n);
        if (e->tag == TAG_TURBOSHAKE256X8)
            shakerand_state_zero_bytes(e->state, e->pos, n);
        e->pos = (uint16_t)(e->pos + n);
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
