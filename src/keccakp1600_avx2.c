/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Keccak-p[1600] on four states with AVX2: lane i of four states in one ymm
 * register. AVX2 has no rotate and no three-input logic, so a rotation is
 * two shifts and an or, and chi an andnot and a xor. AVX2 is enabled per
 * function by a target attribute, so no build passes -mavx2; called only
 * when dispatch has checked the CPU and the OS. Compiled to nothing
 * outside x86-64.
 *
 * Two instantiations: the x4 layout (lane i of state j at 4*i + j) and the
 * x8 layout (8*i + j), where states 0-3 and 4-7 are two x4 groups whose
 * lanes sit 8 words apart. */
#include "arch.h"

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
#include <immintrin.h>

#include "keccakp1600.h"

#define SHAKERAND_TARGET_AVX2 __attribute__((target("avx2")))

#define AVX2_XOR(a, b) _mm256_xor_si256((a), (b))
#define AVX2_XOR5(a, b, c, d, e) \
    _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256((a), (b)), _mm256_xor_si256((c), (d))), (e))
/* A shift by 64 gives 0 on AVX2, so n == 0 is a plain copy. */
#define AVX2_ROL(a, n) \
    _mm256_or_si256(_mm256_slli_epi64((a), (n)), _mm256_srli_epi64((a), 64 - (n)))
#define AVX2_CHI(a, b, c) _mm256_xor_si256((a), _mm256_andnot_si256((b), (c)))
#define AVX2_XOR_RC(a, rc) _mm256_xor_si256((a), _mm256_set1_epi64x((long long)(rc)))
#define KP_LANE __m256i
#define KP_XOR AVX2_XOR
#define KP_XOR5 AVX2_XOR5
#define KP_ROL AVX2_ROL
#define KP_CHI AVX2_CHI
#define KP_XOR_RC AVX2_XOR_RC
#define KP_LOAD(s, i) _mm256_loadu_si256((const __m256i *)(const void *)((s) + 4 * (i)))
#define KP_STORE(s, i, v) _mm256_storeu_si256((__m256i *)(void *)((s) + 4 * (i)), (v))
#define KP_FUNCTION shakerand_keccakp1600x4_permute_avx2
#define KP_ATTRIBUTES SHAKERAND_TARGET_AVX2
#include "keccakp1600_round.h"

#define KP_LANE __m256i
#define KP_XOR AVX2_XOR
#define KP_XOR5 AVX2_XOR5
#define KP_ROL AVX2_ROL
#define KP_CHI AVX2_CHI
#define KP_XOR_RC AVX2_XOR_RC
#define KP_LOAD(s, i) _mm256_loadu_si256((const __m256i *)(const void *)((s) + 8 * (i)))
#define KP_STORE(s, i, v) _mm256_storeu_si256((__m256i *)(void *)((s) + 8 * (i)), (v))
#define KP_FUNCTION permute_x4_group_of_x8
#define KP_ATTRIBUTES static SHAKERAND_TARGET_AVX2
#include "keccakp1600_round.h"

SHAKERAND_TARGET_AVX2 void shakerand_keccakp1600x8_permute_avx2(uint64_t *states, unsigned rounds)
{
    permute_x4_group_of_x8(states, rounds);     /* states 0-3 */
    permute_x4_group_of_x8(states + 4, rounds); /* states 4-7 */
}
#endif
