/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* int's numbers, of any size: see cli.h. Text is converted digit by digit,
 * schoolbook fashion: the numbers are short. */
#define _GNU_SOURCE
#include <string.h>

#include "cli.h"

size_t cli_bignum_bytes(size_t digits) { return digits / 2 + 2; }

int cli_bignum_is_zero(const uint8_t *mag, size_t len)
{
    uint8_t any = 0;
    for (size_t i = 0; i < len; i++)
        any |= mag[i];
    return any == 0;
}

/* mag = mag * base + digit; base and digit below 256. */
static void mag_mul_add(uint8_t *mag, size_t len, unsigned base, unsigned digit)
{
    unsigned carry = digit;
    for (size_t i = len; i-- > 0;) {
        carry += mag[i] * base;
        mag[i] = (uint8_t)carry;
        carry >>= 8;
    }
}

int cli_bignum_parse(const char *s, struct cli_bignum *out, size_t len)
{
    const int negative = *s == '-';
    s += negative;
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0')
        return -1;
    memset(out->mag, 0, len);
    for (; *s != '\0'; s++) {
        const int digit = cli_hex_value(*s);
        if (digit < 0 || (unsigned)digit >= base || out->mag[0] != 0)
            return -1;
        mag_mul_add(out->mag, len, base, (unsigned)digit);
    }
    if (out->mag[0] != 0)
        return -1;
    out->negative = negative && !cli_bignum_is_zero(out->mag, len);
    return 0;
}

static int mag_compare(const uint8_t *a, const uint8_t *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* out = a + b; out may be a or b. */
static void mag_add(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t len)
{
    unsigned carry = 0;
    for (size_t i = len; i-- > 0;) {
        carry += (unsigned)a[i] + b[i];
        out[i] = (uint8_t)carry;
        carry >>= 8;
    }
}

/* out = a - b for a >= b; out may be a or b. */
static void mag_sub(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t len)
{
    unsigned borrow = 0;
    for (size_t i = len; i-- > 0;) {
        const unsigned d = (unsigned)a[i] - b[i] - borrow;
        out[i] = (uint8_t)d;
        borrow = d >> 8 & 1;
    }
}

/* The magnitudes fit, as the operands' have a spare top byte. */
void cli_bignum_add(const struct cli_bignum *a, const struct cli_bignum *b, struct cli_bignum *out,
                    size_t len)
{
    if (a->negative == b->negative) {
        out->negative = a->negative;
        mag_add(a->mag, b->mag, out->mag, len);
    } else if (mag_compare(a->mag, b->mag, len) >= 0) {
        out->negative = a->negative;
        mag_sub(a->mag, b->mag, out->mag, len);
    } else {
        out->negative = b->negative;
        mag_sub(b->mag, a->mag, out->mag, len);
    }
    out->negative &= !cli_bignum_is_zero(out->mag, len);
}

/* A sign, up to 2.41 decimal or 2 hex digits per byte, the digits of one
 * more short group, a line end. */
size_t cli_bignum_text_size(size_t len) { return 3 * len + 16; }

size_t cli_bignum_format(const struct cli_bignum *x, size_t len, int hex, uint8_t *scratch,
                         char *text)
{
    size_t n = 0;
    if (x->negative)
        text[n++] = '-';
    if (hex) {
        const size_t digits = cli_encode_hex(x->mag, len, text + n);
        size_t skip = 0;
        while (skip + 1 < digits && text[n + skip] == '0')
            skip++;
        memmove(text + n, text + n + skip, digits - skip);
        n += digits - skip;
        text[n++] = '\n';
        return n;
    }
    /* Divide by 10^9 until nothing is left; the remainders are the groups of
     * nine digits, last first, written from the end of text. */
    memcpy(scratch, x->mag, len);
    const size_t size = cli_bignum_text_size(len);
    size_t pos = size;
    size_t first = 0;
    do {
        uint64_t rem = 0;
        while (first < len && scratch[first] == 0)
            first++;
        for (size_t i = first; i < len; i++) {
            const uint64_t cur = rem << 8 | scratch[i];
            scratch[i] = (uint8_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        const int last = cli_bignum_is_zero(scratch + first, len - first);
        for (int d = 0; d < 9 && (!last || rem != 0 || d == 0); d++) {
            text[--pos] = (char)('0' + rem % 10);
            rem /= 10;
        }
        if (last)
            break;
    } while (1);
    memmove(text + n, text + pos, size - pos);
    n += size - pos;
    text[n++] = '\n';
    return n;
}
