/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The portable Keccak-p[1600] kernel: plain C, any byte order. It is the
 * reference every other kernel is tested against. */
#include "keccakp1600.h"

const uint64_t shakerand_keccak_round_constants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#include "keccakp1600_scalar.h"
#define KP_FUNCTION shakerand_keccakp1600_permute_portable
#define KP_ATTRIBUTES
#include "keccakp1600_round.h"

/* The parallel forms, state by state: the reference for the vector kernels
 * and the fallback where there are none. States are lane-interleaved, lane i
 * of state j at index n*i + j. */
static void permute_interleaved(uint64_t *states, unsigned n, unsigned rounds)
{
    for (unsigned j = 0; j < n; j++) {
        uint64_t one[25];
        for (unsigned i = 0; i < 25; i++)
            one[i] = states[n * i + j];
        shakerand_keccakp1600_permute_portable(one, rounds);
        for (unsigned i = 0; i < 25; i++)
            states[n * i + j] = one[i];
    }
}

void shakerand_keccakp1600x4_permute_portable(uint64_t *states, unsigned rounds)
{
    permute_interleaved(states, 4, rounds);
}

void shakerand_keccakp1600x8_permute_portable(uint64_t *states, unsigned rounds)
{
    permute_interleaved(states, 8, rounds);
}
