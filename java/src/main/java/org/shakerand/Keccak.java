// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

/** Keccak-p[1600, n_r] on 25 little-endian lanes (FIPS 202), straight-line code without
 * data-dependent branches or table lookups: the lanes live in locals for the whole permutation
 * and each round's steps are written out lane by lane. The lane of (x, y) is at index x + 5y.
 * VectorTest checks it against FIPS 202 and RFC 9861 answers and the shared vectors. */
final class Keccak {
    private Keccak() {}

    private static final long[] RC = {
        0x0000000000000001L, 0x0000000000008082L, 0x800000000000808AL, 0x8000000080008000L,
        0x000000000000808BL, 0x0000000080000001L, 0x8000000080008081L, 0x8000000000008009L,
        0x000000000000008AL, 0x0000000000000088L, 0x0000000080008009L, 0x000000008000000AL,
        0x000000008000808BL, 0x800000000000008BL, 0x8000000000008089L, 0x8000000000008003L,
        0x8000000000008002L, 0x8000000000000080L, 0x000000000000800AL, 0x800000008000000AL,
        0x8000000080008081L, 0x8000000000008080L, 0x0000000080000001L, 0x8000000080008008L,
    };

    /** The last {@code rounds} rounds of Keccak-f[1600]: 12 for TurboSHAKE, 24 for SHAKE. */
    static void permute(long[] s, int rounds) {
        long a0 = s[0];
        long a1 = s[1];
        long a2 = s[2];
        long a3 = s[3];
        long a4 = s[4];
        long a5 = s[5];
        long a6 = s[6];
        long a7 = s[7];
        long a8 = s[8];
        long a9 = s[9];
        long a10 = s[10];
        long a11 = s[11];
        long a12 = s[12];
        long a13 = s[13];
        long a14 = s[14];
        long a15 = s[15];
        long a16 = s[16];
        long a17 = s[17];
        long a18 = s[18];
        long a19 = s[19];
        long a20 = s[20];
        long a21 = s[21];
        long a22 = s[22];
        long a23 = s[23];
        long a24 = s[24];
        for (int r = 24 - rounds; r < 24; r++) {
            long c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
            long c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
            long c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
            long c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
            long c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
            long d0 = c4 ^ Long.rotateLeft(c1, 1);
            long d1 = c0 ^ Long.rotateLeft(c2, 1);
            long d2 = c1 ^ Long.rotateLeft(c3, 1);
            long d3 = c2 ^ Long.rotateLeft(c4, 1);
            long d4 = c3 ^ Long.rotateLeft(c0, 1);
            long b0 = a0 ^ d0;
            long b16 = Long.rotateLeft(a5 ^ d0, 36);
            long b7 = Long.rotateLeft(a10 ^ d0, 3);
            long b23 = Long.rotateLeft(a15 ^ d0, 41);
            long b14 = Long.rotateLeft(a20 ^ d0, 18);
            long b10 = Long.rotateLeft(a1 ^ d1, 1);
            long b1 = Long.rotateLeft(a6 ^ d1, 44);
            long b17 = Long.rotateLeft(a11 ^ d1, 10);
            long b8 = Long.rotateLeft(a16 ^ d1, 45);
            long b24 = Long.rotateLeft(a21 ^ d1, 2);
            long b20 = Long.rotateLeft(a2 ^ d2, 62);
            long b11 = Long.rotateLeft(a7 ^ d2, 6);
            long b2 = Long.rotateLeft(a12 ^ d2, 43);
            long b18 = Long.rotateLeft(a17 ^ d2, 15);
            long b9 = Long.rotateLeft(a22 ^ d2, 61);
            long b5 = Long.rotateLeft(a3 ^ d3, 28);
            long b21 = Long.rotateLeft(a8 ^ d3, 55);
            long b12 = Long.rotateLeft(a13 ^ d3, 25);
            long b3 = Long.rotateLeft(a18 ^ d3, 21);
            long b19 = Long.rotateLeft(a23 ^ d3, 56);
            long b15 = Long.rotateLeft(a4 ^ d4, 27);
            long b6 = Long.rotateLeft(a9 ^ d4, 20);
            long b22 = Long.rotateLeft(a14 ^ d4, 39);
            long b13 = Long.rotateLeft(a19 ^ d4, 8);
            long b4 = Long.rotateLeft(a24 ^ d4, 14);
            a0 = b0 ^ (~b1 & b2);
            a1 = b1 ^ (~b2 & b3);
            a2 = b2 ^ (~b3 & b4);
            a3 = b3 ^ (~b4 & b0);
            a4 = b4 ^ (~b0 & b1);
            a5 = b5 ^ (~b6 & b7);
            a6 = b6 ^ (~b7 & b8);
            a7 = b7 ^ (~b8 & b9);
            a8 = b8 ^ (~b9 & b5);
            a9 = b9 ^ (~b5 & b6);
            a10 = b10 ^ (~b11 & b12);
            a11 = b11 ^ (~b12 & b13);
            a12 = b12 ^ (~b13 & b14);
            a13 = b13 ^ (~b14 & b10);
            a14 = b14 ^ (~b10 & b11);
            a15 = b15 ^ (~b16 & b17);
            a16 = b16 ^ (~b17 & b18);
            a17 = b17 ^ (~b18 & b19);
            a18 = b18 ^ (~b19 & b15);
            a19 = b19 ^ (~b15 & b16);
            a20 = b20 ^ (~b21 & b22);
            a21 = b21 ^ (~b22 & b23);
            a22 = b22 ^ (~b23 & b24);
            a23 = b23 ^ (~b24 & b20);
            a24 = b24 ^ (~b20 & b21);
            a0 ^= RC[r];
        }
        s[0] = a0;
        s[1] = a1;
        s[2] = a2;
        s[3] = a3;
        s[4] = a4;
        s[5] = a5;
        s[6] = a6;
        s[7] = a7;
        s[8] = a8;
        s[9] = a9;
        s[10] = a10;
        s[11] = a11;
        s[12] = a12;
        s[13] = a13;
        s[14] = a14;
        s[15] = a15;
        s[16] = a16;
        s[17] = a17;
        s[18] = a18;
        s[19] = a19;
        s[20] = a20;
        s[21] = a21;
        s[22] = a22;
        s[23] = a23;
        s[24] = a24;
    }
}
