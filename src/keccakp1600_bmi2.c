/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Keccak-p[1600] on one state, scalar, with BMI1/BMI2: the portable round
 * compiled for andn (chi) and rorx (rho), which on some cores beats the
 * xmm-per-lane AVX-512 kernel; dispatch times the two once and keeps the
 * faster (dispatch.c). Compiled to nothing outside x86-64; called only
 * when dispatch has checked the CPU. */
#include "arch.h"

#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
#include "keccakp1600.h"

#include "keccakp1600_scalar.h"
#define KP_FUNCTION shakerand_keccakp1600_permute_bmi2
#define KP_ATTRIBUTES __attribute__((target("bmi,bmi2")))
#include "keccakp1600_round.h"
#endif
