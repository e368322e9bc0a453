/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Entropy sources, system generator and engine byte order on another
 * architecture, run under qemu-user by run.sh.
 *
 * Usage: entropy_cross SOURCE present|absent ENGINE_HEX...
 *   SOURCE present: the hardware source must be present, pass its health
 *     check and be used; every injected fault must get it rejected.
 *   SOURCE absent: it must be reported as not present and not used.
 *   ENGINE_HEX: the first 2300 bytes of turboshake256, shake256 and
 *     turboshake256x8 for the seed ptn(40), from the reference model: past
 *     the ratchet (1088, 2176) and the rekey (1056, 2112). Words read with
 *     shakerand_engine_u64 must be those bytes read little-endian.
 * Prints "N passed, M failed".
 */
#include <stdio.h>
#include <string.h>

#include "shakerand.h"
#include "keccakp1600.h"
#include "testing.h"

static int passed, failed;

#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        if (cond) {                                                                          \
            passed++;                                                                        \
        } else {                                                                             \
            failed++;                                                                        \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                      \
            printf(__VA_ARGS__);                                                             \
            printf("\n");                                                                    \
        }                                                                                    \
    } while (0)

static const shakerand_source_info *find(shakerand_source_info *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

static void to_hex(const unsigned char *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s SOURCE present|absent TS256_HEX SHAKE256_HEX TS256X8_HEX "
                "CHACHA8RAND_HEX\n", argv[0]);
        return 2;
    }
    const char *source = argv[1];
    const int expect_present = strcmp(argv[2], "present") == 0;
    shakerand_source_info v[16];
    size_t n = shakerand_sources(v, 16);
    for (size_t i = 0; i < n; i++)
        printf("source %-7s present=%d used=%d %s\n", v[i].name, v[i].present, v[i].used,
               v[i].reason ? v[i].reason : "");
    CHECK(n >= 1 && strcmp(v[0].name, "os") == 0 && v[0].used, "os source unusable");

    const shakerand_source_info *s = find(v, n, source);
    if (expect_present) {
        CHECK(s != NULL && s->present && s->used, "%s should be present and used", source);
        static const struct {
            enum shakerand_fault fault;
            const char *reason;
        } cases[] = {{SHAKERAND_FAULT_FAIL, "no value"},
                     {SHAKERAND_FAULT_STUCK, "repeated"},
                     {SHAKERAND_FAULT_ALL_ONES, "all-ones"},
                     {SHAKERAND_FAULT_ALL_ZEROS, "all-zeros"}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            shakerand_entropy_fault_for_testing(source, cases[c].fault);
            n = shakerand_sources(v, 16);
            s = find(v, n, source);
            CHECK(s != NULL && !s->used && s->reason && strstr(s->reason, cases[c].reason),
                  "%s with fault %d not rejected", source, (int)cases[c].fault);
            CHECK(shakerand_system_reseed() == SHAKERAND_OK, "reseed without %s", source);
        }
        shakerand_entropy_fault_for_testing(source, SHAKERAND_FAULT_NONE);
        n = shakerand_sources(v, 16);
        s = find(v, n, source);
        CHECK(s != NULL && s->used, "%s not used again after the fault was cleared", source);
    } else {
        CHECK(s == NULL || (!s->present && !s->used), "%s should be absent", source);
    }

    unsigned char a[32], b[32];
    shakerand_system_fill(a, sizeof a);
    shakerand_system_fill(b, sizeof b);
    CHECK(memcmp(a, b, sizeof a) != 0, "system generator repeated itself");

    shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_FAIL);
    CHECK(shakerand_entropy(a, sizeof a) == SHAKERAND_EENTROPY, "no error without the OS source");
    shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NONE);

    /* Byte order and the portable kernel: the streams equal the model's. */
    unsigned char seed[40];
    for (int i = 0; i < 40; i++)
        seed[i] = (unsigned char)i;
    const shakerand_kind kinds[] = {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256,
                                    SHAKERAND_TURBOSHAKE256X8, SHAKERAND_CHACHA8RAND};
    for (int k = 0; k < 4; k++) {
        static shakerand_engine e;
        enum { N = 2300 };
        static unsigned char out[N];
        static char hex[2 * N + 1];
        /* chacha8rand takes the seed's first 32 bytes. */
        const size_t seed_len = kinds[k] == SHAKERAND_CHACHA8RAND ? 32 : sizeof seed;
        shakerand_engine_init(&e, kinds[k], seed, seed_len);
        shakerand_engine_fill(&e, out, N);
        to_hex(out, N, hex);
        CHECK(strcmp(hex, argv[3 + k]) == 0, "%s: stream differs from the model",
              shakerand_kind_name(kinds[k]));
        shakerand_engine_init(&e, kinds[k], seed, seed_len);
        int words_ok = 1;
        for (int w = 0; w + 8 <= N; w += 8) {
            uint64_t expect = 0;
            for (int t = 7; t >= 0; t--)
                expect = expect << 8 | out[w + t];
            words_ok &= shakerand_engine_u64(&e) == expect;
        }
        CHECK(words_ok, "%s: u64 words are not the stream read little-endian",
              shakerand_kind_name(kinds[k]));
    }
    /* Every kernel this CPU runs gives the model's chacha8rand stream (the
     * NEON and VSX kernels are only ever run here and in the aarch64 and
     * ppc64le suites). */
    char kernels[128] = "";
    for (size_t i = 0; shakerand_kernel_list[i] != NULL; i++) {
        const struct shakerand_kernel *k = shakerand_kernel_list[i];
        if (shakerand_kernel_find(k->name) == NULL)
            continue;
        shakerand_kernel_set_for_testing(k);
        static shakerand_engine e;
        enum { N = 2300 };
        static unsigned char out[N];
        static char hex[2 * N + 1];
        shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, seed, 32);
        shakerand_engine_fill(&e, out, N);
        to_hex(out, N, hex);
        CHECK(strcmp(hex, argv[6]) == 0, "chacha8rand on kernel %s differs from the model", k->name);
        strncat(kernels, " ", sizeof kernels - strlen(kernels) - 1);
        strncat(kernels, k->name, sizeof kernels - strlen(kernels) - 1);
    }
    shakerand_kernel_set_for_testing(NULL);
#if defined(__aarch64__)
    CHECK(strstr(kernels, "neon") != NULL, "the NEON kernel was not run");
#endif
#if defined(__powerpc64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    CHECK(strstr(kernels, "vsx") != NULL, "the VSX kernel was not run");
#endif
    printf("kernels run:%s\n", kernels);
    printf("kernel %s\n%d passed, %d failed\n", shakerand_kernel_name(), passed, failed);
    return failed != 0;
}
