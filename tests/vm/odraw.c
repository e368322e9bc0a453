/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The OpenSSL front end in tests/vm's guest, run twice by agent.c: with
 * the OpenSSL provider's configuration (argv[1], the guest's copy of
 * openssl/shakerand.cnf) and without it ("-": OpenSSL's own CTR-DRBG, the
 * control that shows what a restore does to it). Dynamically linked with
 * Debian 12's libcrypto, copied into the initramfs with its loader. Says
 * which DRBG serves RAND_bytes, then for each line N on its standard input
 * writes N words of RAND_bytes, one per line in 16 hex digits (gdraw's
 * protocol).
 */
#define _POSIX_C_SOURCE 200809L
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char line[64];
    if (argc != 2)
        return 2;
    /* Before the first OpenSSL call, which reads the configuration. */
    if (strcmp(argv[1], "-") != 0) {
        setenv("OPENSSL_CONF", argv[1], 1);
        setenv("OPENSSL_MODULES", "/lib/ossl-modules", 0); /* unless given */
    } else {
        unsetenv("OPENSSL_CONF");
    }
    EVP_RAND_CTX *pub = RAND_get0_public(NULL);
    printf("drbg=%s openssl=%s\n",
           pub != NULL ? EVP_RAND_get0_name(EVP_RAND_CTX_get0_rand(pub)) : "none",
           OpenSSL_version(OPENSSL_VERSION_STRING));
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL) {
        const long n = strtol(line, NULL, 10);
        if (n <= 0) {
            fprintf(stderr, "odraw: want a count, got %s", line);
            return 2;
        }
        for (long i = 0; i < n; i++) {
            unsigned char b[8];
            unsigned long long w = 0;
            if (RAND_bytes(b, sizeof b) != 1)
                return 1;
            for (int j = 0; j < 8; j++)
                w = w << 8 | b[j];
            printf("%016llx\n", w);
        }
        fflush(stdout);
    }
    return 0;
}
