/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* SHA-1 (FIPS 180-4), for name-based UUIDs of version 5 only (uuid
 * --sha1, as RFC 9562 defines them): not for anything that needs a secure
 * hash. tests/python/test_cli_commands.py holds it to Python's uuid5
 * across the lengths where the padding changes. */
#define _GNU_SOURCE
#include <string.h>

#include "cli.h"

static uint32_t rotl(uint32_t x, unsigned n) { return x << n | x >> (32 - n); }

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (size_t i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        const uint32_t f = i < 20   ? (b & c) | (~b & d)
                           : i < 40 ? b ^ c ^ d
                           : i < 60 ? (b & c) | (b & d) | (c & d)
                                    : b ^ c ^ d;
        const uint32_t k = i < 20   ? 0x5A827999
                           : i < 40 ? 0x6ED9EBA1
                           : i < 60 ? 0x8F1BBCDC
                                    : 0xCA62C1D6;
        const uint32_t t = rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void cli_sha1(const uint8_t *data, size_t len, uint8_t out[20])
{
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t done = 0;
    for (; len - done >= 64; done += 64)
        sha1_block(h, data + done);
    /* The rest, 0x80, zeros, and the length in bits: one block or two. */
    uint8_t tail[128] = {0};
    const size_t rest = len - done, blocks = rest < 56 ? 1 : 2;
    memcpy(tail, data + done, rest);
    tail[rest] = 0x80;
    const uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < blocks; i++)
        sha1_block(h, tail + 64 * i);
    for (int i = 0; i < 20; i++)
        out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}
