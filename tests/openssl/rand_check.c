/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Run under openssl/shakerand.cnf by tests/openssl/run.sh; links only
 * libcrypto. Checks that:
 * - the primary, public and private DRBGs are SHAKERAND contexts (not
 *   OpenSSL's CTR-DRBG: without the configuration this fails), with
 *   strength 256 and state ready;
 * - RAND_bytes and RAND_priv_bytes went through them: the contexts' byte
 *   count (shakerand_generated) grows by exactly what was asked for;
 * - generate with additional input and a reseed with entropy succeed, and
 *   a strength above 256 is refused;
 * - after fork(), a child's RAND_bytes and RAND_priv_bytes share nothing
 *   with its parent's or another child's: every 32-byte block drawn after
 *   the fork, in the parent and in three children, is different, and no
 *   8-byte word of one appears in another.
 */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/err.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLOCK 32
#define CHILDREN 3

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rand_check: FAILED: %s\n", what);
        ERR_print_errors_fp(stderr);
        failures++;
    }
}

static uint64_t generated(EVP_RAND_CTX *ctx)
{
    uint64_t n = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_uint64("shakerand_generated", &n), OSSL_PARAM_END};
    if (ctx == NULL || !EVP_RAND_CTX_get_params(ctx, params) || !OSSL_PARAM_modified(params))
        return UINT64_MAX;
    return n;
}

static void check_drbg(EVP_RAND_CTX *ctx, const char *which)
{
    char what[128];
    const char *name = ctx != NULL ? EVP_RAND_get0_name(EVP_RAND_CTX_get0_rand(ctx)) : "(none)";
    snprintf(what, sizeof what, "the %s DRBG is SHAKERAND (it is %s)", which, name);
    check(ctx != NULL && strcmp(name, "SHAKERAND") == 0, what);
    if (ctx == NULL)
        return;
    snprintf(what, sizeof what, "the %s DRBG's strength is 256 and its state ready", which);
    check(EVP_RAND_get_strength(ctx) == 256 && EVP_RAND_get_state(ctx) == EVP_RAND_STATE_READY,
          what);
}

/* Draws after the fork: RAND_bytes then RAND_priv_bytes. */
static void draw(unsigned char out[2][BLOCK])
{
    check(RAND_bytes(out[0], BLOCK) == 1, "RAND_bytes after fork");
    check(RAND_priv_bytes(out[1], BLOCK) == 1, "RAND_priv_bytes after fork");
}

int main(void)
{
    unsigned char before[BLOCK], thousand[1000], blocks[CHILDREN + 1][2][BLOCK];
    EVP_RAND_CTX *pub = RAND_get0_public(NULL), *priv = RAND_get0_private(NULL);
    uint64_t n0, n1;
    unsigned int too_strong = 512;
    int fds[CHILDREN][2];

    check_drbg(RAND_get0_primary(NULL), "primary");
    check_drbg(pub, "public");
    check_drbg(priv, "private");

    n0 = generated(pub);
    check(RAND_bytes(thousand, sizeof thousand) == 1, "RAND_bytes");
    n1 = generated(pub);
    check(n0 != UINT64_MAX && n1 - n0 == 1000, "RAND_bytes(1000) counted 1000 bytes on public");
    n0 = generated(priv);
    check(RAND_priv_bytes(before, BLOCK) == 1, "RAND_priv_bytes");
    n1 = generated(priv);
    check(n0 != UINT64_MAX && n1 - n0 == BLOCK, "RAND_priv_bytes(32) counted 32 bytes on private");

    if (pub != NULL) {
        static const unsigned char addin[] = "additional input";
        check(EVP_RAND_generate(pub, before, BLOCK, 256, 0, addin, sizeof addin) == 1,
              "generate with additional input");
        check(EVP_RAND_generate(pub, before, BLOCK, 256, 1, NULL, 0) == 1,
              "generate with prediction resistance");
        check(EVP_RAND_reseed(pub, 0, addin, sizeof addin, NULL, 0) == 1, "reseed with entropy");
        ERR_set_mark();
        check(EVP_RAND_generate(pub, before, BLOCK, too_strong, 0, NULL, 0) == 0,
              "a strength of 512 is refused");
        ERR_pop_to_mark();
    }

    for (int i = 0; i < CHILDREN; i++) {
        pid_t pid;
        check(pipe(fds[i]) == 0, "pipe");
        pid = fork();
        check(pid >= 0, "fork");
        if (pid == 0) {
            unsigned char mine[2][BLOCK];
            failures = 0; /* the child's own */
            draw(mine);
            if (write(fds[i][1], mine, sizeof mine) != (ssize_t)sizeof mine)
                failures++;
            _exit(failures != 0);
        }
        close(fds[i][1]);
    }
    draw(blocks[CHILDREN]);
    for (int i = 0; i < CHILDREN; i++) {
        int status = 0;
        check(read(fds[i][0], blocks[i], sizeof blocks[i]) == (ssize_t)sizeof blocks[i],
              "a child's blocks");
        close(fds[i][0]);
        wait(&status);
        check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child's draws");
    }

    /* Every 8-byte word of every block after the fork, distinct. */
    {
        const unsigned char *all = &blocks[0][0][0];
        size_t words = sizeof blocks / 8;
        for (size_t a = 0; a < words; a++)
            for (size_t b = a + 1; b < words; b++)
                if (memcmp(all + 8 * a, all + 8 * b, 8) == 0) {
                    fprintf(stderr, "rand_check: word %zu equals word %zu\n", a, b);
                    check(0, "draws after fork share nothing");
                    a = words;
                    break;
                }
    }

    if (failures == 0)
        printf("rand_check: primary, public and private are SHAKERAND; the byte counts match "
               "the requests; %d children and the parent drew distinct bytes after fork\n",
               CHILDREN);
    return failures != 0;
}
