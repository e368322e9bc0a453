// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.Arrays;

/** The Keccak sponge with rate 136 (TurboSHAKE256: 12 rounds, SHAKE256: 24). */
final class Sponge {
    private Sponge() {}

    static final int RATE = 136;

    /** Absorbs msg into a zero state and finalises it with the domain byte (pad10*1 after it). */
    static void absorbFinal(long[] s, byte[] msg, int domain, int rounds) {
        int pos = 0;
        for (byte b : msg) {
            s[pos >>> 3] ^= (long) (b & 0xff) << ((pos & 7) << 3);
            if (++pos == RATE) {
                Keccak.permute(s, rounds);
                pos = 0;
            }
        }
        s[pos >>> 3] ^= (long) domain << ((pos & 7) << 3);
        s[(RATE - 1) >>> 3] ^= 0x80L << 56;
        Keccak.permute(s, rounds);
    }

    /** The first outLen bytes of the XOF: TurboSHAKE256 (rounds 12, any domain) or SHAKE256. */
    static byte[] xof(byte[] msg, int domain, int rounds, int outLen) {
        long[] s = new long[25];
        absorbFinal(s, msg, domain, rounds);
        byte[] out = new byte[outLen];
        byte[] block = new byte[RATE];
        for (int off = 0; off < outLen; off += RATE) {
            if (off > 0) {
                Keccak.permute(s, rounds);
            }
            for (int i = 0; i < RATE / 8; i++) {
                Bytes.putLe64(block, 8 * i, s[i]);
            }
            System.arraycopy(block, 0, out, off, Math.min(RATE, outLen - off));
        }
        Arrays.fill(s, 0);
        Arrays.fill(block, (byte) 0);
        return out;
    }

    static byte[] turboshake256(byte[] msg, int domain, int outLen) {
        return xof(msg, domain, 12, outLen);
    }

    static byte[] shake256(byte[] msg, int outLen) {
        return xof(msg, 0x1F, 24, outLen);
    }
}
