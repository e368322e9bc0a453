/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The big-range samplers with arbitrary r bytes: every method must return
 * a value below r in r's length, count at least r's bit length of drawn
 * bits, repeat itself for the same seed, refuse r == 0 without touching the
 * output, and draw nothing for r == 1. Input: method, engine seed byte,
 * then r (big-endian, leading zeros allowed). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "shakerand.h"

enum { MAX_R = 160 };

/* Big-endian a < b, both len bytes. */
static int less(const uint8_t *a, const uint8_t *b, size_t len)
{
    return memcmp(a, b, len) < 0;
}

static unsigned bit_length(const uint8_t *r, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (r[i] != 0)
            return (unsigned)(8 * (len - i)) - (unsigned)__builtin_clz(r[i]) + 24;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size};
    const uint8_t selector = take_u8(&in);
    const shakerand_method method = (shakerand_method)(1 + selector % 4);
    const uint8_t seed = take_u8(&in);
    size_t r_len;
    const uint8_t *r = take_bytes(&in, MAX_R, &r_len);
    const unsigned m = bit_length(r, r_len);
#ifdef FUZZ_PLANTED_OVERFLOW
    /* run.sh's self-check: a heap overflow AddressSanitizer must report. */
    if (r_len > 1 && r[0] == 0x42) {
        uint8_t *copy = malloc(r_len);
        memcpy(copy, r, r_len);
        volatile uint8_t past_end = copy[r_len];
        (void)past_end;
        free(copy);
    }
#endif

    shakerand_engine engine;
    uint8_t out[MAX_R], again[MAX_R];
    uint64_t bits = 0, bits_again = 0;
    memset(out, 0x5A, sizeof out);
    shakerand_engine_init(&engine, SHAKERAND_TURBOSHAKE256X8, &seed, 1);
    const int status = shakerand_below(&engine, method, r, r_len, out, &bits);
    if (m == 0) {
        for (size_t i = 0; i < sizeof out; i++)
            if (status != SHAKERAND_EINVAL || out[i] != 0x5A || bits != 0)
                abort();
        return 0;
    }
    if (status != SHAKERAND_OK || !less(out, r, r_len))
        abort();
    if (m == 1 ? bits != 0 : bits < m)
        abort();
    shakerand_engine_init(&engine, SHAKERAND_TURBOSHAKE256X8, &seed, 1);
    if (shakerand_below(&engine, method, r, r_len, again, &bits_again) != SHAKERAND_OK ||
        memcmp(out, again, r_len) != 0 || bits != bits_again)
        abort();
    /* The system generator (engine NULL) keeps the same contract. */
    if ((selector & 0x80) &&
        (shakerand_below(NULL, method, r, r_len, again, NULL) != SHAKERAND_OK ||
         !less(again, r, r_len)))
        abort();
    shakerand_engine_wipe(&engine);
    return 0;
}
