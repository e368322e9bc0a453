/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * RAND_bytes and RAND_priv_bytes through the shakerand provider against
 * OpenSSL's default DRBG (CTR-DRBG, AES-256), in one process: two library
 * contexts, one with openssl/shakerand.cnf loaded and one without, timed
 * in turns so that both see the same machine. Prints Markdown table rows
 * (bench/openssl.sh writes the section of BENCHMARKS.md).
 *   openssl_rand_bench CONF   (OPENSSL_MODULES names shakerand.so's directory)
 */
#define _POSIX_C_SOURCE 200809L
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 7

typedef int (*draw_fn)(OSSL_LIB_CTX *, unsigned char *, size_t, unsigned int);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Nanoseconds per call: calls repeated for about 50 ms. */
static double time_calls(draw_fn draw, OSSL_LIB_CTX *ctx, unsigned char *buf, size_t len)
{
    size_t calls = len >= 65536 ? 16 : 20000;
    double t0 = now(), t;
    for (size_t i = 0; i < calls; i++)
        if (draw(ctx, buf, len, 0) != 1) {
            ERR_print_errors_fp(stderr);
            exit(1);
        }
    t = now() - t0;
    if (t < 0.05) { /* a second pass long enough to time */
        calls = (size_t)((double)calls * 0.05 / (t > 1e-6 ? t : 1e-6)) + 1;
        t0 = now();
        for (size_t i = 0; i < calls; i++)
            draw(ctx, buf, len, 0);
        t = now() - t0;
    }
    return 1e9 * t / (double)calls;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *drbg_name(OSSL_LIB_CTX *ctx)
{
    EVP_RAND_CTX *r = RAND_get0_public(ctx);
    return r != NULL ? EVP_RAND_get0_name(EVP_RAND_CTX_get0_rand(r)) : "(none)";
}

int main(int argc, char **argv)
{
    static const struct {
        const char *call;
        draw_fn draw;
        size_t len;
    } cases[] = {
        {"RAND_bytes", RAND_bytes_ex, 16},
        {"RAND_bytes", RAND_bytes_ex, 32},
        {"RAND_bytes", RAND_bytes_ex, 1 << 20},
        {"RAND_priv_bytes", RAND_priv_bytes_ex, 32},
    };
    OSSL_LIB_CTX *plain = OSSL_LIB_CTX_new(), *shake = OSSL_LIB_CTX_new();
    unsigned char *buf = malloc(1 << 20);
    if (argc != 2 || plain == NULL || shake == NULL || buf == NULL) {
        fprintf(stderr, "usage: openssl_rand_bench CONF\n");
        return 2;
    }
    if (!OSSL_LIB_CTX_load_config(shake, argv[1]) || strcmp(drbg_name(shake), "SHAKERAND") != 0 ||
        strcmp(drbg_name(plain), "CTR-DRBG") != 0) {
        fprintf(stderr, "openssl_rand_bench: the contexts' DRBGs are %s and %s, not SHAKERAND and "
                        "CTR-DRBG\n", drbg_name(shake), drbg_name(plain));
        ERR_print_errors_fp(stderr);
        return 1;
    }
    printf("| call | bytes | default DRBG (%s), ns | shakerand provider, ns | ratio |\n",
           drbg_name(plain));
    printf("|---|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double a[ROUNDS], b[ROUNDS], ma, mb;
        for (int r = 0; r < ROUNDS; r++) { /* in turns, which goes first alternating */
            if (r & 1) {
                b[r] = time_calls(cases[c].draw, shake, buf, cases[c].len);
                a[r] = time_calls(cases[c].draw, plain, buf, cases[c].len);
            } else {
                a[r] = time_calls(cases[c].draw, plain, buf, cases[c].len);
                b[r] = time_calls(cases[c].draw, shake, buf, cases[c].len);
            }
        }
        qsort(a, ROUNDS, sizeof a[0], cmp);
        qsort(b, ROUNDS, sizeof b[0], cmp);
        ma = a[ROUNDS / 2];
        mb = b[ROUNDS / 2];
        if (cases[c].len >= 65536)
            printf("| %s | %zu | %.0f (%.2f GB/s) | %.0f (%.2f GB/s) | %.2fx |\n", cases[c].call,
                   cases[c].len, ma, (double)cases[c].len / ma, mb, (double)cases[c].len / mb,
                   ma / mb);
        else
            printf("| %s | %zu | %.1f | %.1f | %.2fx |\n", cases[c].call, cases[c].len, ma, mb,
                   ma / mb);
    }
    OSSL_LIB_CTX_free(shake);
    OSSL_LIB_CTX_free(plain);
    free(buf);
    return 0;
}
