/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Byte streams for the statistical batteries' self-checks and variants.
 *   streamtool counter   32-bit little-endian counter, forever (a bad generator)
 *   streamtool stuck     stdin to stdout with bit 0 of every byte set (a bad generator)
 *   streamtool reverse   stdin to stdout with the bits of each 32-bit word reversed
 * Ends quietly when the reader closes the pipe. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { WORDS = 16384 };

static int write_all(const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        const ssize_t n = write(STDOUT_FILENO, p, len);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static uint32_t reverse32(uint32_t x)
{
    x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
    x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
    x = (x >> 4 & 0x0F0F0F0Fu) | (x & 0x0F0F0F0Fu) << 4;
    return __builtin_bswap32(x);
}

int main(int argc, char **argv)
{
    static uint32_t buf[WORDS];
    const char *mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "counter") == 0) {
        for (uint32_t c = 0;;) {
            for (size_t i = 0; i < WORDS; i++)
                buf[i] = c++; /* the host is little-endian x86-64 */
            if (write_all(buf, sizeof buf) != 0)
                return 0;
        }
    }
    if (strcmp(mode, "stuck") != 0 && strcmp(mode, "reverse") != 0) {
        fputs("usage: streamtool counter|stuck|reverse\n", stderr);
        return 2;
    }
    for (;;) {
        size_t got = 0;
        while (got < sizeof buf) {
            const ssize_t n = read(STDIN_FILENO, (char *)buf + got, sizeof buf - got);
            if (n <= 0)
                return 0;
            got += (size_t)n;
        }
        for (size_t i = 0; i < WORDS; i++)
            buf[i] = mode[0] == 's' ? buf[i] | 0x01010101u : reverse32(buf[i]);
        if (write_all(buf, sizeof buf) != 0)
            return 0;
    }
}
