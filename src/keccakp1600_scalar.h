/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The lane operations of keccakp1600_round.h on plain 64-bit words, for
 * the scalar kernels (portable, BMI2). No include guard: the round file
 * undefines these after each use. */
#define KP_LANE uint64_t
#define KP_LOAD(s, i) ((s)[i])
#define KP_STORE(s, i, v) ((s)[i] = (v))
#define KP_XOR(a, b) ((a) ^ (b))
#define KP_XOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
/* The "& 63" keeps n == 0 defined; compilers still emit one rotate. */
#define KP_ROL(a, n) (((a) << (n)) | ((a) >> ((64 - (n)) & 63)))
#define KP_CHI(a, b, c) ((a) ^ (~(b) & (c)))
#define KP_XOR_RC(a, rc) ((a) ^ (rc))
