/*
 * The RandomSHAKE-compatible engines (docs/engines.md has the definition).
 *
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
 */

#include "internal.h"
#include "keccakp1600.h"

enum {
    RATE = 136,
    BLOCKS_PER_PERIOD = 8,
    RATCHET_ZERO_BYTES = 32,
    /* Engine tags in memory, distinct from 0 so a zeroed (wiped or never
     * initialised) engine is recognised and refused. */
    TAG_TURBOSHAKE256 = 0x54534831, /* "TSH1" */
    TAG_SHAKE256 = 0x53484b31,      /* "SHK1" */
};

struct engine_x1 {
    uint64_t state[25];
    uint32_t tag;
    uint16_t pos;    /* bytes of the current block already handed out */
    uint8_t block;   /* index of the current block in its period */
    uint8_t rounds;  /* 12 (TurboSHAKE256) or 24 (SHAKE256) */
};

_Static_assert(sizeof(struct engine_x1) <= SHAKERAND_ENGINE_SIZE, "engine too large");

static struct engine_x1 *as_x1(shakerand_engine *engine)
{
    return (struct engine_x1 *)(void *)engine->opaque_;
}

size_t shakerand_engine_size(void) { return sizeof(shakerand_engine); }

const char *shakerand_kind_name(shakerand_kind kind)
{
    switch (kind) {
    case SHAKERAND_TURBOSHAKE256: return "turboshake256";
    case SHAKERAND_SHAKE256: return "shake256";
    }
    return NULL;
}

int shakerand_kind_from_name(const char *name, shakerand_kind *kind)
{
    static const shakerand_kind kinds[] = {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256};
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

int shakerand_engine_init(shakerand_engine *engine, shakerand_kind kind, const void *seed,
                          size_t seed_len)
{
    if (engine == NULL || (seed == NULL && seed_len > 0))
        return SHAKERAND_EINVAL;
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
    struct engine_x1 *e = as_x1(engine);
    memcpy(e->state, xof.state_, sizeof e->state);
    e->tag = tag;
    e->rounds = xof.rounds_;
    shakerand_xof_wipe(&xof);
    return SHAKERAND_OK;
}

static struct engine_x1 *checked(shakerand_engine *engine)
{
    if (engine == NULL)
        shakerand_fatal("engine is NULL");
    struct engine_x1 *e = as_x1(engine);
    if (e->tag != TAG_TURBOSHAKE256 && e->tag != TAG_SHAKE256)
        shakerand_fatal("engine used before shakerand_engine_init or after wipe");
    return e;
}

/* The current block has been handed out: move to the next. */
static void x1_next_block(struct engine_x1 *e, shakerand_p1600_fn permute)
{
    permute(e->state, e->rounds);
    if (++e->block == BLOCKS_PER_PERIOD) {
        shakerand_state_zero_lanes(e->state, RATCHET_ZERO_BYTES);
        permute(e->state, e->rounds);
        e->block = 0;
    }
    e->pos = 0;
}

void shakerand_engine_fill(shakerand_engine *engine, void *out, size_t len)
{
    struct engine_x1 *e = checked(engine);
    if (out == NULL && len > 0)
        shakerand_fatal("shakerand_engine_fill: out is NULL");
    const shakerand_p1600_fn permute = shakerand_kernel_get()->p1600;
    unsigned char *p = out;
    while (len > 0) {
        size_t take = RATE - e->pos;
        if (take > len)
            take = len;
        shakerand_state_extract_bytes(e->state, e->pos, p, take);
        e->pos = (uint16_t)(e->pos + take);
        p += take;
        len -= take;
        if (e->pos == RATE)
            x1_next_block(e, permute);
    }
}

static uint64_t load_le(const unsigned char *b, unsigned n)
{
    uint64_t v = 0;
    while (n--)
        v = v << 8 | b[n];
    return v;
}

/* Words are read straight from the state when the current block holds
 * them; only a word that straddles two blocks takes the general path. */
static uint64_t next_word(shakerand_engine *engine, unsigned n)
{
    struct engine_x1 *e = checked(engine);
    unsigned char b[8];
    if (e->pos + n < RATE) {
        shakerand_state_extract_bytes(e->state, e->pos, b, n);
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
