/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Hex, base64 and base32: see cli.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char hex_digits[] = "0123456789abcdef";
const char cli_base64_standard[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const char cli_base64_url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t cli_encode_hex(const uint8_t *in, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    return 2 * n;
}

size_t cli_encode_base64(const uint8_t *in, size_t n, char *out, const char *alphabet, int pad)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        const uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = alphabet[v >> 6 & 63];
        out[o++] = alphabet[v & 63];
    }
    if (i < n) {
        const uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[v >> 12 & 63];
        if (i + 1 < n)
            out[o++] = alphabet[v >> 6 & 63];
        else if (pad)
            out[o++] = '=';
        if (pad)
            out[o++] = '=';
    }
    return o;
}

size_t cli_encode_base32(const uint8_t *in, size_t n, char *out)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    size_t o = 0;
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc = (acc << 8 | in[i]) & 0xFFF; /* at most 4 + 8 bits are pending */
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[o++] = alphabet[acc >> bits & 31];
        }
    }
    if (bits > 0)
        out[o++] = alphabet[acc << (5 - bits) & 31];
    return o;
}

int cli_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cli_parse_hex(const char *hex, uint8_t **out, size_t *len, const char **why)
{
    const size_t n = strlen(hex);
    /* A character that is no hex digit first: "xyz" is not hex, whatever
     * its length. */
    for (size_t i = 0; i < n; i++) {
        if (cli_hex_value(hex[i]) < 0) {
            *why = "is not hexadecimal";
            return EXIT_USAGE;
        }
    }
    if (n % 2 != 0) {
        *why = "has an odd number of hex digits";
        return EXIT_USAGE;
    }
    uint8_t *bytes = malloc(n / 2 + 1);
    if (bytes == NULL)
        return cli_out_of_memory();
    for (size_t i = 0; i < n / 2; i++)
        bytes[i] = (uint8_t)(cli_hex_value(hex[2 * i]) << 4 | cli_hex_value(hex[2 * i + 1]));
    *out = bytes;
    *len = n / 2;
    return 0;
}
