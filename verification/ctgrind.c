/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The constant-time check (the ctgrind technique): secrets are marked
 * undefined for valgrind memcheck, which then reports every conditional
 * branch, memory address and system-call argument computed from them.
 * Outputs stay undefined too; they are only checked after
 * VALGRIND_MAKE_MEM_DEFINED, which is where a caller would use them.
 *
 *   ctgrind xof       TurboSHAKE128/256, SHAKE128/256 on a secret message
 *   ctgrind engines   every engine from a secret seed, odd request sizes
 *   ctgrind system    the system generator (its seed is marked secret by the
 *                     library when built with -DSHAKERAND_CTGRIND)
 *   ctgrind samplers  bounded ints, RNG-BC, floats, UUIDs from a secret seed
 *                     (rejection branches are expected: docs/samplers.md)
 *   ctgrind planted   a secret-dependent branch, a table index and a branch
 *                     on raw system output: all three must be reported,
 *                     which shows the check can fail
 * Run under valgrind by verification/ctgrind.sh. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "shakerand.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t out[8192];
static volatile uint8_t sink;

/* Uses the output the way a caller would, after declassifying it. */
static void consume(const void *p, size_t n)
{
    PUBLIC(p, n);
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= ((const uint8_t *)p)[i];
    sink = x;
}

static void check_xof(void)
{
    uint8_t msg[300];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)i;
    SECRET(msg, sizeof msg);
    for (int f = 0; f < 4; f++) {
        shakerand_xof x;
        if (f == 0)
            shakerand_turboshake128_init(&x, 0x1F);
        else if (f == 1)
            shakerand_turboshake256_init(&x, 0x1F);
        else if (f == 2)
            shakerand_shake128_init(&x);
        else
            shakerand_shake256_init(&x);
        shakerand_xof_absorb(&x, msg, 7);
        shakerand_xof_absorb(&x, msg + 7, sizeof msg - 7);
        shakerand_xof_squeeze(&x, out, 1);
        shakerand_xof_squeeze(&x, out + 1, 1000);
        consume(out, 1001);
        shakerand_xof_wipe(&x);
        shakerand_turboshake256(out, 64, msg, sizeof msg, 0x22);
        consume(out, 64);
    }
}

static void check_engines(void)
{
    static const size_t sizes[] = {1, 7, 8, 31, 1000, 1056, 1088, 4099};
    uint8_t seed[64];
    memset(seed, 0x5C, sizeof seed);
    SECRET(seed, sizeof seed);
    for (int kind = SHAKERAND_TURBOSHAKE256; kind <= SHAKERAND_CHACHA8RAND; kind++) {
        static shakerand_engine e;
        shakerand_engine_init(&e, (shakerand_kind)kind, seed,
                              kind == SHAKERAND_CHACHA8RAND ? 32 : sizeof seed);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            shakerand_engine_fill(&e, out, sizes[i]);
            consume(out, sizes[i]);
            uint64_t w = shakerand_engine_u64(&e);
            uint32_t v = shakerand_engine_u32(&e);
            consume(&w, sizeof w);
            consume(&v, sizeof v);
        }
        shakerand_engine_wipe(&e);
    }
}

static void check_system(void)
{
    for (size_t n = 1; n < sizeof out; n = n * 3 + 1) {
        shakerand_system_fill(out, n);
        consume(out, n);
        uint64_t w = shakerand_system_u64();
        consume(&w, sizeof w);
    }
    shakerand_system_reseed();
    shakerand_system_fill(out, 100);
    consume(out, 100);
    shakerand_system_reseed_with("caller bytes", 12);
    shakerand_system_fill(out, 100);
    consume(out, 100);
}

static void check_samplers(void)
{
    uint8_t seed[32] = {1};
    SECRET(seed, sizeof seed);
    static shakerand_engine e;
    shakerand_engine_init(&e, SHAKERAND_TURBOSHAKE256X8, seed, sizeof seed);
    uint8_t r[32], v[32];
    memset(r, 0xC0, sizeof r);
    for (int i = 0; i < 100; i++) {
        uint64_t x;
        uint32_t y;
        shakerand_uniform_u64(&e, 3 * (UINT64_C(1) << 62), &x);
        shakerand_uniform_u32(&e, 1000, &y);
        double d = shakerand_double(&e);
        consume(&x, sizeof x);
        consume(&y, sizeof y);
        consume(&d, sizeof d);
        for (int m = SHAKERAND_RNG_BC_1; m <= SHAKERAND_SIMPLE_MODULAR; m++) {
            shakerand_below(&e, (shakerand_method)m, r, sizeof r, v, NULL);
            consume(v, sizeof v);
        }
        uint8_t u[16];
        shakerand_uuid4(&e, u);
        consume(u, sizeof u);
        shakerand_uuid7(&e, u);
        consume(u, sizeof u);
    }
}

static void check_planted(void)
{
    static const uint8_t table[256] = {1, 2, 3};
    uint8_t key[16] = {3};
    SECRET(key, sizeof key);
    if (key[0] == 3) /* a secret-dependent branch */
        sink = 1;
    sink = table[key[1]]; /* a secret-dependent index */
    /* The system generator's output is secret too (so "system" above checks
     * something): branching on it undeclassified must be reported. */
    uint8_t b[8];
    shakerand_system_fill(b, sizeof b);
    if (b[0] == 1)
        sink = 2;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } checks[] = {{"xof", check_xof},         {"engines", check_engines},
                  {"system", check_system},   {"samplers", check_samplers},
                  {"planted", check_planted}};
    for (size_t i = 0; argc == 2 && i < sizeof checks / sizeof checks[0]; i++)
        if (strcmp(argv[1], checks[i].name) == 0) {
            checks[i].run();
            return 0;
        }
    fputs("usage: ctgrind xof|engines|system|samplers|planted\n", stderr);
    return 2;
}
