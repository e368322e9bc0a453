/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Bounded integers, big ranges (RNG-BC), floats. docs/samplers.md explains
 * the algorithms and what each may reveal through timing. */
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "internal.h"

/* Inlined even where this file is built for size (the WebAssembly modules,
 * js/tools/build-wasm.sh): a call per draw made shakerand_double 5 to 6 %
 * slower there. */
#if defined(__GNUC__)
#define DRAW_INLINE __attribute__((always_inline)) static inline
#else
#define DRAW_INLINE static inline
#endif

DRAW_INLINE uint64_t draw64(shakerand_engine *engine)
{
    return engine != NULL ? shakerand_engine_u64(engine) : shakerand_system_u64();
}

DRAW_INLINE uint32_t draw32(shakerand_engine *engine)
{
    return engine != NULL ? shakerand_engine_u32(engine) : shakerand_system_u32();
}

/* ---- word-size bounds: Lemire's multiply-and-reject ---------------------
 *
 * Lemire, "Fast Random Integer Generation in an Interval" (ACM TOMACS 2019).
 * For x uniform in [0, 2^64) and 0 < n, write x * n = hi * 2^64 + lo. As x
 * runs over [0, 2^64), each hi in [0, n) is produced by a run of
 * consecutive x whose lo values step by n modulo 2^64; every such run has
 * either floor(2^64/n) or floor(2^64/n) + 1 members, and the runs with the
 * extra member are exactly those containing an x with lo < t, where
 * t = 2^64 mod n (at most one such x per run, since lo steps by n > t).
 * Rejecting x with lo < t therefore leaves exactly floor(2^64/n) values of
 * x for every hi: hi is uniform. Since t < n, the division computing t is
 * needed only when lo < n, which for small n almost never happens. The same
 * argument holds with 32-bit words.
 */

static inline uint64_t mul64_hi_lo(uint64_t a, uint64_t b, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    const unsigned __int128 p = (unsigned __int128)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    const uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

static uint64_t below_u64(shakerand_engine *engine, uint64_t n)
{
    uint64_t lo, hi = mul64_hi_lo(draw64(engine), n, &lo);
    if (lo < n) {
        const uint64_t t = (0 - n) % n; /* 2^64 mod n */
        while (lo < t)
            hi = mul64_hi_lo(draw64(engine), n, &lo);
    }
    return hi;
}

static uint32_t below_u32(shakerand_engine *engine, uint32_t n)
{
    uint64_t m = (uint64_t)draw32(engine) * n;
    if ((uint32_t)m < n) {
        const uint32_t t = (0u - n) % n; /* 2^32 mod n */
        while ((uint32_t)m < t)
            m = (uint64_t)draw32(engine) * n;
    }
    return (uint32_t)(m >> 32);
}

int shakerand_uniform_u32(shakerand_engine *engine, uint32_t n, uint32_t *out)
{
    if (n == 0 || out == NULL)
        return SHAKERAND_EINVAL;
    *out = below_u32(engine, n);
    return SHAKERAND_OK;
}

int shakerand_uniform_u64(shakerand_engine *engine, uint64_t n, uint64_t *out)
{
    if (n == 0 || out == NULL)
        return SHAKERAND_EINVAL;
    *out = below_u64(engine, n);
    return SHAKERAND_OK;
}

int shakerand_range_u64(shakerand_engine *engine, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (lo > hi || out == NULL)
        return SHAKERAND_EINVAL;
    const uint64_t span = hi - lo;
    *out = lo + (span == UINT64_MAX ? draw64(engine) : below_u64(engine, span + 1));
    return SHAKERAND_OK;
}

int shakerand_range_i64(shakerand_engine *engine, int64_t lo, int64_t hi, int64_t *out)
{
    if (lo > hi || out == NULL)
        return SHAKERAND_EINVAL;
    /* Offsets in two's complement: [lo, hi] maps onto [0, hi - lo] as u64. */
    const uint64_t span = (uint64_t)hi - (uint64_t)lo;
    const uint64_t v = span == UINT64_MAX ? draw64(engine) : below_u64(engine, span + 1);
    *out = (int64_t)((uint64_t)lo + v);
    return SHAKERAND_OK;
}

double shakerand_double(shakerand_engine *engine)
{
    return (double)(draw64(engine) >> 11) * 0x1.0p-53;
}

float shakerand_float(shakerand_engine *engine)
{
    return (float)(draw32(engine) >> 8) * 0x1.0p-24f;
}

/* ---- big ranges ------------------------------------------------------------ */

/* r as the methods see it: bytes [first, len) are significant, and the top
 * one, r[first], has top_bits significant bits. */
struct bound {
    const uint8_t *r;
    size_t len, first;
    unsigned top_bits; /* 1..8 */
    uint8_t top_mask;
    uint64_t m; /* bit length of r */
};

static int bound_init(struct bound *b, const uint8_t *r, size_t len)
{
    size_t first = 0;
    while (first < len && r[first] == 0)
        first++;
    if (first == len)
        return SHAKERAND_EINVAL; /* r == 0: the range is empty */
    unsigned bits = 8;
    while (!(r[first] >> (bits - 1)))
        bits--;
    b->r = r;
    b->len = len;
    b->first = first;
    b->top_bits = bits;
    b->top_mask = (uint8_t)((1u << bits) - 1);
    b->m = (uint64_t)(len - first - 1) * 8 + bits;
    return SHAKERAND_OK;
}

static int is_one(const struct bound *b) { return b->m == 1; }

/* Bytes from the generator, taken a few at a time from a small buffer so
 * byte-wise methods do not pay a call per byte. Unused bytes are wiped. */
struct byte_source {
    shakerand_engine *engine;
    uint8_t buf[64];
    size_t pos;
};

static uint8_t next_byte(struct byte_source *s)
{
    if (s->pos == sizeof s->buf) {
        shakerand_draw(s->engine, s->buf, sizeof s->buf);
        s->pos = 0;
    }
    return s->buf[s->pos++];
}

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    w = __builtin_bswap64(w);
#elif !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    w = 0;
    for (int i = 0; i < 8; i++)
        w = w << 8 | p[i];
#endif
    return w;
}

static void store_be64(uint8_t *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    w = __builtin_bswap64(w);
    memcpy(p, &w, 8);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(p, &w, 8);
#else
    for (int i = 7; i >= 0; i--, w >>= 8)
        p[i] = (uint8_t)w;
#endif
}

/* The bit stream: the generator's bytes, each most significant bit first.
 * Bytes are drawn in blocks of 8 * (ceil(m / 64) + 1), at most 64: one
 * candidate and a word to spare in one call for r up to 448 bits. A 64-bit
 * big-endian word is taken
 * from it whenever a peek needs more bits than are left. Bytes not used when
 * the call returns are discarded (and wiped). `cur` holds the `left`
 * unread bits of the current word at its top. */
struct bit_source {
    shakerand_engine *engine;
    uint64_t cur, next;
    unsigned left;
    int has_next;
    size_t pos, block; /* block: bytes per draw, a multiple of 8, at most 64 */
    uint8_t buf[64];
};

static inline uint64_t next_word(struct bit_source *s)
{
    if (s->pos == s->block) {
        shakerand_draw(s->engine, s->buf, s->block);
        s->pos = 0;
    }
    const uint64_t w = load_be64(s->buf + s->pos);
    s->pos += 8;
    return w;
}

/* The next k bits (1 <= k <= 64), right-aligned, without consuming them. */
static inline uint64_t peek_bits(struct bit_source *s, unsigned k)
{
    if (s->left >= k)
        return s->cur >>
               (64 -
                k); /* NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult): callers pass k >= 1 (top >= 1 as m >= 1; rest > 0 is checked) */
    if (!s->has_next) {
        s->next = next_word(s);
        s->has_next = 1;
    }
    const uint64_t window = s->left ? s->cur | (s->next >> s->left) : s->next;
    return window >> (64 - k);
}

/* Consumes k bits (k <= 64) after a peek of at least k bits. */
static inline void consume_bits(struct bit_source *s, unsigned k)
{
    if (k <= s->left) {
        s->cur = k == 64 ? 0 : s->cur << k;
        s->left -= k;
        return;
    }
    k -= s->left;
    s->cur = k == 64 ? 0 : s->next << k;
    s->left = 64 - k;
    s->has_next = 0;
}

/* Chunk k (bits 64k .. 64k + 63, counted from the least significant) of an
 * n-byte big-endian number; the top chunk may have fewer than 8 bytes. */
static inline uint64_t load_chunk(const uint8_t *x, size_t n, size_t k)
{
    const size_t bytes = n - 8 * k < 8 ? n - 8 * k : 8;
    if (bytes == 8)
        return load_be64(x + n - 8 - 8 * k);
    uint64_t w = 0;
    for (size_t i = bytes; i-- > 0;)
        w = w << 8 | x[n - 1 - 8 * k - i];
    return w;
}

static inline void store_chunk(uint8_t *x, size_t n, size_t k, uint64_t w)
{
    const size_t bytes = n - 8 * k < 8 ? n - 8 * k : 8;
    if (bytes == 8) {
        store_be64(x + n - 8 - 8 * k, w);
        return;
    }
    for (size_t i = 0; i < bytes; i++)
        x[n - 1 - 8 * k - i] = (uint8_t)(w >> (8 * i));
}

/* RNG-BC-1, the paper's bit-serial comparison done 64 bits at a time: the
 * candidate's bits are the next bits of the stream, compared with r from
 * the top. Where they first differ at bit i: a candidate 0 against r's 1
 * means the candidate is below r whatever follows, so it is accepted and
 * its remaining bits are the next bits of the stream; a candidate 1 against
 * r's 0 means it is above r: only the bits up to i are spent and the
 * comparison starts again from the top. A candidate equal to r starts again.
 * Chunks run from the top: the first has m mod 64 bits (64 if m is a
 * multiple of 64), the others 64. The bit count is exactly the bit-serial
 * algorithm's. */
static void rng_bc_1(shakerand_engine *engine, const struct bound *b, uint8_t *out, uint64_t *bits)
{
    const size_t chunks = (size_t)((b->m + 63) / 64);
    const size_t block = chunks < 7 ? 8 * (chunks + 1) : 64;
    struct bit_source s = {engine, 0, 0, 0, 0, block, block, {0}};
    uint8_t *v = out + b->first;
    const uint8_t *r = b->r + b->first;
    const size_t n = b->len - b->first;
    const unsigned top = (unsigned)(b->m - 64 * (uint64_t)(chunks - 1));
    for (;;) {
        for (size_t k = chunks; k-- > 0;) {
            const unsigned width = k == chunks - 1 ? top : 64;
            const uint64_t c = peek_bits(&s, width), diff = c ^ load_chunk(r, n, k);
            if (diff == 0) {
                consume_bits(&s, width);
                *bits += width;
                store_chunk(v, n, k, c);
                continue;
            }
            const unsigned d = (unsigned)__builtin_clzll(diff) - (64 - width); /* from the top */
            consume_bits(&s, d + 1);
            *bits += d + 1;
            const unsigned rest = width - 1 - d;
            if ((c >> rest) & 1)
                break; /* above r: start again */
            uint64_t w = (c >> rest) << rest;
            if (rest > 0) {
                w |= peek_bits(&s, rest);
                consume_bits(&s, rest);
            }
            store_chunk(v, n, k, w);
            *bits += rest + 64 * (uint64_t)k;
            while (k-- > 0) {
                w = peek_bits(&s, 64);
                consume_bits(&s, 64);
                store_chunk(v, n, k, w);
            }
            shakerand_memzero(&s, sizeof s);
            return;
        }
    }
}

/* RNG-BC-8: the same a byte at a time; the top byte is masked to r's bit
 * length. */
static void rng_bc_8(shakerand_engine *engine, const struct bound *b, uint8_t *out, uint64_t *bits)
{
    struct byte_source s = {engine, {0}, sizeof s.buf};
    for (;;) {
        size_t i;
        for (i = b->first; i < b->len; i++) {
            uint8_t c = next_byte(&s);
            if (i == b->first) {
                c &= b->top_mask;
                *bits += b->top_bits;
            } else {
                *bits += 8;
            }
            out[i] = c;
            if (c == b->r[i])
                continue;
            if (c > b->r[i])
                break;
            *bits += 8 * (uint64_t)(b->len - i - 1);
            if (i + 1 < b->len)
                shakerand_draw(engine, out + i + 1, b->len - i - 1);
            shakerand_memzero(&s, sizeof s);
            return;
        }
    }
}

/* Big-endian a < b over n bytes. */
static int less_than(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

/* Simple Discard (A.5.1): m-bit candidates until one is below r. */
static void simple_discard(shakerand_engine *engine, const struct bound *b, uint8_t *out,
                           uint64_t *bits)
{
    const size_t n = b->len - b->first;
    do {
        shakerand_draw(engine, out + b->first, n);
        out[b->first] &= b->top_mask;
        *bits += b->m;
    } while (!less_than(out + b->first, b->r + b->first, n));
}

/* Bit j (0 = least significant) of a big-endian number of len bytes. */
static unsigned bit_of(const uint8_t *x, size_t len, uint64_t j)
{
    return (x[len - 1 - j / 8] >> (j % 8)) & 1u;
}

/* Simple Modular (A.5.3): an (m + 128)-bit candidate c, then c mod r by
 * shift-and-subtract on 32-bit limbs (kept for comparison; the slowest). */
static int simple_modular(shakerand_engine *engine, const struct bound *b, uint8_t *out,
                          uint64_t *bits)
{
    enum { S = 128 };
    const uint64_t cbits = b->m + S;
    const size_t cbytes = (size_t)((cbits + 7) / 8), limbs = (size_t)(b->m + 31) / 32 + 1;
    uint8_t *c = malloc(cbytes);
    uint32_t *rl = calloc(limbs, sizeof *rl), *rem = calloc(limbs, sizeof *rem);
    if (c == NULL || rl == NULL || rem == NULL) {
        free(c);
        free(rl);
        free(rem);
        return SHAKERAND_ENOMEM;
    }
    for (uint64_t j = 0; j < b->m; j++)
        rl[j / 32] |= (uint32_t)bit_of(b->r, b->len, j) << (j % 32);
    shakerand_draw(engine, c, cbytes);
    if (cbits % 8)
        c[0] &= (uint8_t)((1u << (cbits % 8)) - 1);
    *bits += cbits;
    for (uint64_t j = cbits; j-- > 0;) {
        uint32_t carry = bit_of(c, cbytes, j);
        for (size_t k = 0; k < limbs; k++) {
            const uint32_t next = rem[k] >> 31;
            rem[k] = rem[k] << 1 | carry;
            carry = next;
        }
        int ge = 1; /* rem >= r ? */
        for (size_t k = limbs; k-- > 0;) {
            if (rem[k] != rl[k]) {
                ge = rem[k] > rl[k];
                break;
            }
        }
        if (ge) {
            uint64_t borrow = 0;
            for (size_t k = 0; k < limbs; k++) {
                const uint64_t d = (uint64_t)rem[k] - rl[k] - borrow;
                rem[k] = (uint32_t)d;
                borrow = (d >> 63) & 1;
            }
        }
    }
    memset(out, 0, b->first);
    for (size_t i = b->first; i < b->len; i++) {
        const uint64_t j = (uint64_t)(b->len - 1 - i) * 8;
        out[i] = (uint8_t)(rem[j / 32] >> (j % 32));
    }
    shakerand_memzero(c, cbytes);
    shakerand_memzero(rem, limbs * sizeof *rem);
    free(c);
    free(rl);
    free(rem);
    return SHAKERAND_OK;
}

__attribute__((noinline)) static int below(shakerand_engine *engine, shakerand_method method,
                                           const uint8_t *r, size_t r_len, uint8_t *out,
                                           uint64_t *bits_drawn)
{
    struct bound b;
    if (r == NULL || out == NULL || shakerand_method_name(method) == NULL ||
        bound_init(&b, r, r_len) != SHAKERAND_OK)
        return SHAKERAND_EINVAL;
    uint64_t bits = 0;
    if (is_one(&b)) {
        memset(out, 0, r_len);
    } else if (method == SHAKERAND_SIMPLE_MODULAR) {
        const int status = simple_modular(engine, &b, out, &bits);
        if (status != SHAKERAND_OK)
            return status;
    } else {
        memset(out, 0, b.first);
        switch (method) {
            case SHAKERAND_RNG_BC_1: rng_bc_1(engine, &b, out, &bits); break;
            case SHAKERAND_RNG_BC_8: rng_bc_8(engine, &b, out, &bits); break;
            default: simple_discard(engine, &b, out, &bits); break;
        }
    }
    if (bits_drawn != NULL)
        *bits_drawn += bits;
    return SHAKERAND_OK;
}

/* The result may be a key: no copy of it or of a rejected candidate stays
 * in the frames below (internal.h). */
int shakerand_below(shakerand_engine *engine, shakerand_method method, const uint8_t *r,
                    size_t r_len, uint8_t *out, uint64_t *bits_drawn)
{
    const int status = below(engine, method, r, r_len, out, bits_drawn);
    shakerand_wipe_stack(SHAKERAND_STACK_KERNEL);
    return status;
}

const char *shakerand_method_name(shakerand_method method)
{
    switch (method) {
        case SHAKERAND_RNG_BC_1: return "rng-bc-1";
        case SHAKERAND_RNG_BC_8: return "rng-bc-8";
        case SHAKERAND_SIMPLE_DISCARD: return "simple-discard";
        case SHAKERAND_SIMPLE_MODULAR: return "simple-modular";
    }
    return NULL;
}

int shakerand_method_from_name(const char *name, shakerand_method *method)
{
    if (name == NULL || method == NULL)
        return SHAKERAND_EINVAL;
    for (int m = SHAKERAND_RNG_BC_1; m <= SHAKERAND_SIMPLE_MODULAR; m++) {
        if (strcmp(name, shakerand_method_name((shakerand_method)m)) == 0) {
            *method = (shakerand_method)m;
            return SHAKERAND_OK;
        }
    }
    return SHAKERAND_EINVAL;
}
