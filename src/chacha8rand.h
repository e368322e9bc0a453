/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * chacha8rand kernels (C2SP chacha8rand, the generator of Go's runtime and
 * math/rand/v2): one iteration is the ChaCha8 block function on one key
 * with a zero nonce and the counters 0..15, the constants and the counter
 * left out of the final addition (only the key words are added back), the
 * 16 blocks interleaved four at a time: in each group of four blocks, word
 * w of block j is the group's 32-bit word 4w + j. The iteration's 1024
 * bytes are 992 bytes of output and, last, the next iteration's key.
 *
 * A kernel takes the key as four 64-bit words (Go's seed words: bytes
 * 8i..8i+7 read little-endian) and writes the iteration as native 64-bit
 * words, word i being Go's i-th Uint64 of the iteration (so on a
 * little-endian host memory holds the stream's bytes in order): words
 * 0..123, the output, to `out` (992 bytes, any alignment) and words
 * 124..127, the next key, to `next_key`, which may be `key` itself (the key
 * is read before anything is written) but must not overlap `out`. The next
 * key never passes through `out`: that may be the caller's buffer.
 */
#ifndef SHAKERAND_CHACHA8RAND_H
#define SHAKERAND_CHACHA8RAND_H

#include <stdint.h>

#include "arch.h"

enum {
    CHACHA8_KEY_BYTES = 32,
    CHACHA8_REFILL_BYTES = 1024,
    CHACHA8_OUTPUT_BYTES = CHACHA8_REFILL_BYTES - CHACHA8_KEY_BYTES, /* 992 */
};

typedef void (*shakerand_chacha8_fn)(const uint64_t key[4], void *out, uint64_t next_key[4]);

/* "expand 32-byte k", the ChaCha constants. */
#define SHAKERAND_CHACHA_C0 0x61707865u
#define SHAKERAND_CHACHA_C1 0x3320646eu
#define SHAKERAND_CHACHA_C2 0x79622d32u
#define SHAKERAND_CHACHA_C3 0x6b206574u

/* One double round (a column round, then a diagonal round) on the 16
 * words x[0..15], with the kernel's quarter round QR(a, b, c, d). */
#define SHAKERAND_CHACHA_DOUBLE_ROUND(x, QR) \
    do {                                     \
        QR(x[0], x[4], x[8], x[12]);         \
        QR(x[1], x[5], x[9], x[13]);         \
        QR(x[2], x[6], x[10], x[14]);        \
        QR(x[3], x[7], x[11], x[15]);        \
        QR(x[0], x[5], x[10], x[15]);        \
        QR(x[1], x[6], x[11], x[12]);        \
        QR(x[2], x[7], x[8], x[13]);         \
        QR(x[3], x[4], x[9], x[14]);         \
    } while (0)

#if defined(__aarch64__) && defined(__ARM_NEON) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SHAKERAND_HAVE_AARCH64_KERNELS 1
#endif
/* Little-endian ppc64 is ELFv2, whose baseline (Power ISA 2.07, POWER8)
 * includes VSX: its compilers define __VSX__ unless told otherwise. */
#if defined(__powerpc64__) && defined(__VSX__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SHAKERAND_HAVE_PPC64LE_KERNELS 1
#endif

/* WebAssembly with the SIMD128 proposal enabled (-msimd128): a module that
 * holds these instructions loads only on an engine that has them, so the
 * host picks the module, not this code (js/README.md). */
#if defined(__wasm__) && defined(__wasm_simd128__)
#define SHAKERAND_HAVE_WASM_SIMD128_KERNELS 1
#endif

void shakerand_chacha8rand_portable(const uint64_t key[4], void *out, uint64_t next_key[4]);
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
void shakerand_chacha8rand_avx2(const uint64_t key[4], void *out, uint64_t next_key[4]);
void shakerand_chacha8rand_avx512(const uint64_t key[4], void *out, uint64_t next_key[4]);
#endif
#if defined(SHAKERAND_HAVE_AARCH64_KERNELS)
void shakerand_chacha8rand_neon(const uint64_t key[4], void *out, uint64_t next_key[4]);
#endif
#if defined(SHAKERAND_HAVE_WASM_SIMD128_KERNELS)
void shakerand_chacha8rand_simd128(const uint64_t key[4], void *out, uint64_t next_key[4]);
#endif
#if defined(SHAKERAND_HAVE_PPC64LE_KERNELS)
void shakerand_chacha8rand_vsx(const uint64_t key[4], void *out, uint64_t next_key[4]);
#endif

#endif
