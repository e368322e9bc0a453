/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The Keccak-p[1600] round, written once over an abstract lane type so every
 * kernel shares the exact same round: the portable kernel (uint64_t), the
 * single-state AVX-512 kernel (one lane per xmm register), and the parallel
 * kernels (one lane of 4 or 8 states per ymm / zmm register).
 *
 * A template, not a header with a guard: named .h so that every build
 * (Go's build cache among them) counts it among the sources it hashes.
 *
 * The including file defines, before each inclusion (this file undefines
 * them again, so one translation unit can instantiate several kernels):
 *   KP_LANE            the lane type
 *   KP_LOAD(s, i)      load lane i from the states at uint64_t *s
 *   KP_STORE(s, i, v)  store lane i
 *   KP_XOR(a, b)       a ^ b
 *   KP_XOR5(a,b,c,d,e) a ^ b ^ c ^ d ^ e
 *   KP_ROL(a, n)       rotate left by the constant n, 0 <= n < 64
 *   KP_CHI(a, b, c)    a ^ (~b & c)
 *   KP_XOR_RC(a, rc)   a ^ the 64-bit round constant rc
 *   KP_FUNCTION        name of the function to define
 *   KP_ATTRIBUTES      function attributes (may be empty)
 *
 * The round is theta, rho, pi, chi, iota fused per output row ("plane"):
 * output row Y, column X takes input lane (x, y) = ((X + 3Y) mod 5, X), so
 * every output row reads one lane from each input row; the arguments of
 * KP_ROW below are the output lanes, then each input lane's index x + 5y
 * with its rho offset.
 */

#define KP_THETA(A)                                \
    C0 = KP_XOR5(A##0, A##5, A##10, A##15, A##20); \
    C1 = KP_XOR5(A##1, A##6, A##11, A##16, A##21); \
    C2 = KP_XOR5(A##2, A##7, A##12, A##17, A##22); \
    C3 = KP_XOR5(A##3, A##8, A##13, A##18, A##23); \
    C4 = KP_XOR5(A##4, A##9, A##14, A##19, A##24); \
    D0 = KP_XOR(C4, KP_ROL(C1, 1));                \
    D1 = KP_XOR(C0, KP_ROL(C2, 1));                \
    D2 = KP_XOR(C1, KP_ROL(C3, 1));                \
    D3 = KP_XOR(C2, KP_ROL(C4, 1));                \
    D4 = KP_XOR(C3, KP_ROL(C0, 1))

/* Theta's column parities are folded into every lane before the rows are
 * formed, so D0..D4 are dead during rho/pi/chi: 25 lanes plus 5 row
 * temporaries fit the 32 vector registers of AVX-512 without spilling. */
#define KP_THETA_APPLY(A)      \
    A##0 = KP_XOR(A##0, D0);   \
    A##5 = KP_XOR(A##5, D0);   \
    A##10 = KP_XOR(A##10, D0); \
    A##15 = KP_XOR(A##15, D0); \
    A##20 = KP_XOR(A##20, D0); \
    A##1 = KP_XOR(A##1, D1);   \
    A##6 = KP_XOR(A##6, D1);   \
    A##11 = KP_XOR(A##11, D1); \
    A##16 = KP_XOR(A##16, D1); \
    A##21 = KP_XOR(A##21, D1); \
    A##2 = KP_XOR(A##2, D2);   \
    A##7 = KP_XOR(A##7, D2);   \
    A##12 = KP_XOR(A##12, D2); \
    A##17 = KP_XOR(A##17, D2); \
    A##22 = KP_XOR(A##22, D2); \
    A##3 = KP_XOR(A##3, D3);   \
    A##8 = KP_XOR(A##8, D3);   \
    A##13 = KP_XOR(A##13, D3); \
    A##18 = KP_XOR(A##18, D3); \
    A##23 = KP_XOR(A##23, D3); \
    A##4 = KP_XOR(A##4, D4);   \
    A##9 = KP_XOR(A##9, D4);   \
    A##14 = KP_XOR(A##14, D4); \
    A##19 = KP_XOR(A##19, D4); \
    A##24 = KP_XOR(A##24, D4)

#define KP_ROW(A, E, o0, o1, o2, o3, o4, i0, r0, i1, r1, i2, r2, i3, r3, i4, r4) \
    B0 = KP_ROL(A##i0, r0);                                                      \
    B1 = KP_ROL(A##i1, r1);                                                      \
    B2 = KP_ROL(A##i2, r2);                                                      \
    B3 = KP_ROL(A##i3, r3);                                                      \
    B4 = KP_ROL(A##i4, r4);                                                      \
    E##o0 = KP_CHI(B0, B1, B2);                                                  \
    E##o1 = KP_CHI(B1, B2, B3);                                                  \
    E##o2 = KP_CHI(B2, B3, B4);                                                  \
    E##o3 = KP_CHI(B3, B4, B0);                                                  \
    E##o4 = KP_CHI(B4, B0, B1)

#define KP_ROUND(A, E, rc)                                                  \
    KP_THETA(A);                                                            \
    KP_THETA_APPLY(A);                                                      \
    KP_ROW(A, E, 0, 1, 2, 3, 4, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14);       \
    E##0 = KP_XOR_RC(E##0, rc);                                             \
    KP_ROW(A, E, 5, 6, 7, 8, 9, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61);       \
    KP_ROW(A, E, 10, 11, 12, 13, 14, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18);    \
    KP_ROW(A, E, 15, 16, 17, 18, 19, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56); \
    KP_ROW(A, E, 20, 21, 22, 23, 24, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2)

#define KP_DECLARE(A)                                                                        \
    KP_LANE A##0, A##1, A##2, A##3, A##4, A##5, A##6, A##7, A##8, A##9, A##10, A##11, A##12, \
        A##13, A##14, A##15, A##16, A##17, A##18, A##19, A##20, A##21, A##22, A##23, A##24

/* A list of invocations, which clang-format cannot format stably. */
/* clang-format off */
#define KP_EACH_LANE(M)                                                       \
    M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12)       \
    M(13) M(14) M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24)
/* clang-format on */

#define KP_LOAD_LANE(i) a##i = KP_LOAD(state, i);
#define KP_STORE_LANE(i) KP_STORE(state, i, a##i);

/* rounds must be even (12 and 24 are the only callers): the loop runs two
 * rounds per iteration so the state ping-pongs between a and e without
 * copies. The number of rounds is public, never secret. */
KP_ATTRIBUTES void KP_FUNCTION(uint64_t *state, unsigned rounds)
{
    KP_DECLARE(a);
    KP_DECLARE(e);
    KP_LANE B0, B1, B2, B3, B4, C0, C1, C2, C3, C4, D0, D1, D2, D3, D4;

    KP_EACH_LANE(KP_LOAD_LANE)
    for (unsigned i = 24 - rounds; i < 24; i += 2) {
        KP_ROUND(a, e, shakerand_keccak_round_constants[i]);
        KP_ROUND(e, a, shakerand_keccak_round_constants[i + 1]);
    }
    KP_EACH_LANE(KP_STORE_LANE)
}

#undef KP_THETA
#undef KP_ROW
#undef KP_THETA_APPLY
#undef KP_ROUND
#undef KP_DECLARE
#undef KP_EACH_LANE
#undef KP_LOAD_LANE
#undef KP_STORE_LANE
#undef KP_LANE
#undef KP_LOAD
#undef KP_STORE
#undef KP_XOR
#undef KP_XOR5
#undef KP_ROL
#undef KP_CHI
#undef KP_XOR_RC
#undef KP_FUNCTION
#undef KP_ATTRIBUTES
