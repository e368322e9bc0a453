/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Keccak-p[1600] with AVX-512F/VL.
 *
 * One state: each lane lives in its own
 * xmm register (32 of them with EVEX encoding, enough for the 25 lanes and the
 * temporaries without spilling), so theta's five-way xor and chi become one
 * vpternlogq each and rho one vprolq, about 95 instructions a round against
 * about 130 for the scalar code. AVX-512F/VL is enabled per function by a
 * target attribute, so no build passes -mavx512f -mavx512vl; called only
 * when dispatch has checked the CPU and the OS. Compiled to nothing
 * outside x86-64. */
#include "arch.h"

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
#include <immintrin.h>

#include "keccakp1600.h"

#define SHAKERAND_TARGET_AVX512 __attribute__((target("avx512f,avx512vl")))

#define KP_LANE __m128i
#define KP_LOAD(s, i) _mm_loadl_epi64((const __m128i *)(const void *)((s) + (i)))
#define KP_STORE(s, i, v) _mm_storel_epi64((__m128i *)(void *)((s) + (i)), (v))
#define KP_XOR(a, b) _mm_xor_si128((a), (b))
#define KP_XOR5(a, b, c, d, e) \
    _mm_ternarylogic_epi64(_mm_ternarylogic_epi64((a), (b), (c), 0x96), (d), (e), 0x96)
#define KP_ROL(a, n) _mm_rol_epi64((a), (n))
/* 0xD2 is the truth table of a ^ (~b & c). */
#define KP_CHI(a, b, c) _mm_ternarylogic_epi64((a), (b), (c), 0xD2)
#define KP_XOR_RC(a, rc) _mm_xor_si128((a), _mm_cvtsi64_si128((long long)(rc)))
#define KP_FUNCTION shakerand_keccakp1600_permute_avx512
#define KP_ATTRIBUTES SHAKERAND_TARGET_AVX512
#include "keccakp1600_round.h"

/* Eight states: lane i of all eight in one zmm register (the x8 layout,
 * index 8*i + j), so the round is the same ~95 instructions for 8 times the
 * work, with no shuffles at all. */
#define KP_LANE __m512i
#define KP_LOAD(s, i) _mm512_loadu_si512((const void *)((s) + 8 * (i)))
#define KP_STORE(s, i, v) _mm512_storeu_si512((void *)((s) + 8 * (i)), (v))
#define KP_XOR(a, b) _mm512_xor_si512((a), (b))
#define KP_XOR5(a, b, c, d, e) \
    _mm512_ternarylogic_epi64(_mm512_ternarylogic_epi64((a), (b), (c), 0x96), (d), (e), 0x96)
#define KP_ROL(a, n) _mm512_rol_epi64((a), (n))
#define KP_CHI(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xD2)
#define KP_XOR_RC(a, rc) _mm512_xor_si512((a), _mm512_set1_epi64((long long)(rc)))
#define KP_FUNCTION shakerand_keccakp1600x8_permute_avx512
#define KP_ATTRIBUTES SHAKERAND_TARGET_AVX512
#include "keccakp1600_round.h"
#endif
