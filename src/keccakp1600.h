/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * Kernels: the private interface between the modes (TurboSHAKE, SHAKE, the
 * engines) and the per-instruction-set permutations: Keccak-p[1600] here,
 * the chacha8rand iteration in chacha8rand.h.
 *
 * A single state is 25 lanes in native byte order, lane (x, y) at index
 * x + 5y. Parallel kernels take their states lane-interleaved, lane i of
 * state j at index 8*i + j (x8) or 4*i + j (x4), so a vector kernel loads one
 * lane of every state at once. A kernel set names one implementation of
 * each width; widths a set has no vector code for use the best other code
 * its instruction set allows (the scalar BMI2 x1 in the AVX2 set, the AVX2
 * x4 in the AVX-512 set, the portable Keccak code in the NEON set). The
 * AVX-512 set's x1 is whichever of its own and the BMI2 one ran faster
 * when dispatch timed them (dispatch.c).
 */
#ifndef SHAKERAND_KECCAKP1600_H
#define SHAKERAND_KECCAKP1600_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "chacha8rand.h"

#define SHAKERAND_KECCAK_LANES 25
#define SHAKERAND_KECCAK_STATE_BYTES 200

/* Permute one state with the last `rounds` rounds of Keccak-f[1600]:
 * 24 is Keccak-f[1600] (SHAKE), 12 is Keccak-p[1600, 12] (TurboSHAKE). */
typedef void (*shakerand_p1600_fn)(uint64_t state[25], unsigned rounds);
/* The same on 4 (8) lane-interleaved states: lane i of state j at 4*i + j
 * (8*i + j), 100 (200) words. */
typedef void (*shakerand_p1600xn_fn)(uint64_t *states, unsigned rounds);

struct shakerand_kernel {
    const char *name;
    shakerand_p1600_fn p1600;
    shakerand_p1600xn_fn p1600x4;
    shakerand_p1600xn_fn p1600x8;
    shakerand_chacha8_fn chacha8rand;
};

extern const uint64_t shakerand_keccak_round_constants[24];

/* Every kernel compiled into this build, portable first; NULL-terminated. */
extern const struct shakerand_kernel *const shakerand_kernel_list[];

/* The kernel chosen once per process: SHAKERAND_KERNEL if set to a kernel
 * the CPU supports, else the fastest the CPU and OS support. */
const struct shakerand_kernel *shakerand_kernel_get(void);

/* A kernel by name, or NULL if unknown or unsupported on this CPU. */
const struct shakerand_kernel *shakerand_kernel_find(const char *name);

#if defined(SHAKERAND_TESTING)
/* Test hook (testing library only): make `k` the active kernel (NULL
 * restores the detected one). */
void shakerand_kernel_set_for_testing(const struct shakerand_kernel *k);
#endif

void shakerand_keccakp1600_permute_portable(uint64_t *state, unsigned rounds);
void shakerand_keccakp1600x4_permute_portable(uint64_t *states, unsigned rounds);
void shakerand_keccakp1600x8_permute_portable(uint64_t *states, unsigned rounds);
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
void shakerand_keccakp1600x4_permute_avx2(uint64_t *states, unsigned rounds);
void shakerand_keccakp1600x8_permute_avx2(uint64_t *states, unsigned rounds);
void shakerand_keccakp1600_permute_avx512(uint64_t *state, unsigned rounds);
void shakerand_keccakp1600_permute_bmi2(uint64_t *state, unsigned rounds);
void shakerand_keccakp1600x8_permute_avx512(uint64_t *states, unsigned rounds);
#endif

/* Byte access to a state (or to interleaved states, read word by word);
 * lanes are little-endian (FIPS 202). */
static inline int shakerand_host_is_little_endian(void)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#else
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
#endif
}

/* state bytes [offset, offset + n) ^= in[0, n) */
static inline void shakerand_state_xor_bytes(uint64_t *state, size_t offset,
                                             const unsigned char *in, size_t n)
{
    if (shakerand_host_is_little_endian()) {
        unsigned char *s = (unsigned char *)state + offset;
        for (; n >= 8; n -= 8, s += 8, in += 8) {
            uint64_t a, b;
            memcpy(&a, s, 8);
            memcpy(&b, in, 8);
            a ^= b;
            memcpy(s, &a, 8);
        }
        while (n--)
            *s++ ^= *in++;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t j = offset + i;
        state[j / 8] ^= (uint64_t)in[i] << (8 * (j % 8));
    }
}

/* out[0, n) = state bytes [offset, offset + n) */
static inline void shakerand_state_extract_bytes(const uint64_t *state, size_t offset,
                                                 unsigned char *out, size_t n)
{
    if (shakerand_host_is_little_endian()) {
        memcpy(out, (const unsigned char *)state + offset, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t j = offset + i;
        out[i] = (unsigned char)(state[j / 8] >> (8 * (j % 8)));
    }
}

/* state bytes [offset, offset + n) = 0 */
static inline void shakerand_state_zero_bytes(uint64_t *state, size_t offset, size_t n)
{
    if (shakerand_host_is_little_endian()) {
        memset((unsigned char *)state + offset, 0, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t j = offset + i;
        state[j / 8] &= ~((uint64_t)0xFF << (8 * (j % 8)));
    }
}

#endif
