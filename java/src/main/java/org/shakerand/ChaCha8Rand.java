// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

/**
 * One chacha8rand iteration (docs/engines.md, C2SP chacha8rand): the ChaCha8 block function on
 * one key with counters 0..15 and a zero nonce, only the key words added back, the 16 blocks
 * interleaved four at a time. Each block is computed in 16 int locals and its words are stored
 * straight to their interleaved places, so an iteration needs no scratch array; the last 32 bytes
 * (the next key) never reach the output array.
 */
final class ChaCha8Rand {
    private ChaCha8Rand() {}

    static final int KEY_BYTES = 32;
    /** Output bytes of one iteration: 1024 less the next key. */
    static final int OUTPUT_BYTES = 1024 - KEY_BYTES;

    /**
     * Writes the iteration of {@code key} (eight 32-bit key words) to out[off, off + 992) and
     * replaces the key with the next one. Word w of block 4g + j is the iteration's 32-bit word
     * 64g + 4w + j; words 248..255 (words 14 and 15 of blocks 12..15) are the next key.
     */
    static void iteration(int[] key, byte[] out, int off) {
        if (off < 0 || off > out.length - OUTPUT_BYTES) {
            throw new IndexOutOfBoundsException("chacha8rand: no room for an iteration at " + off);
        }
        final int k0 = key[0], k1 = key[1], k2 = key[2], k3 = key[3];
        final int k4 = key[4], k5 = key[5], k6 = key[6], k7 = key[7];
        for (int b = 0; b < 16; b++) {
            int x0 = 0x61707865, x1 = 0x3320646e, x2 = 0x79622d32, x3 = 0x6b206574;
            int x4 = k0, x5 = k1, x6 = k2, x7 = k3, x8 = k4, x9 = k5, x10 = k6, x11 = k7;
            int x12 = b, x13 = 0, x14 = 0, x15 = 0;
            for (int r = 0; r < 4; r++) {
                // Columns.
                x0 += x4; x12 = Integer.rotateLeft(x12 ^ x0, 16);
                x8 += x12; x4 = Integer.rotateLeft(x4 ^ x8, 12);
                x0 += x4; x12 = Integer.rotateLeft(x12 ^ x0, 8);
                x8 += x12; x4 = Integer.rotateLeft(x4 ^ x8, 7);
                x1 += x5; x13 = Integer.rotateLeft(x13 ^ x1, 16);
                x9 += x13; x5 = Integer.rotateLeft(x5 ^ x9, 12);
                x1 += x5; x13 = Integer.rotateLeft(x13 ^ x1, 8);
                x9 += x13; x5 = Integer.rotateLeft(x5 ^ x9, 7);
                x2 += x6; x14 = Integer.rotateLeft(x14 ^ x2, 16);
                x10 += x14; x6 = Integer.rotateLeft(x6 ^ x10, 12);
                x2 += x6; x14 = Integer.rotateLeft(x14 ^ x2, 8);
                x10 += x14; x6 = Integer.rotateLeft(x6 ^ x10, 7);
                x3 += x7; x15 = Integer.rotateLeft(x15 ^ x3, 16);
                x11 += x15; x7 = Integer.rotateLeft(x7 ^ x11, 12);
                x3 += x7; x15 = Integer.rotateLeft(x15 ^ x3, 8);
                x11 += x15; x7 = Integer.rotateLeft(x7 ^ x11, 7);
                // Diagonals.
                x0 += x5; x15 = Integer.rotateLeft(x15 ^ x0, 16);
                x10 += x15; x5 = Integer.rotateLeft(x5 ^ x10, 12);
                x0 += x5; x15 = Integer.rotateLeft(x15 ^ x0, 8);
                x10 += x15; x5 = Integer.rotateLeft(x5 ^ x10, 7);
                x1 += x6; x12 = Integer.rotateLeft(x12 ^ x1, 16);
                x11 += x12; x6 = Integer.rotateLeft(x6 ^ x11, 12);
                x1 += x6; x12 = Integer.rotateLeft(x12 ^ x1, 8);
                x11 += x12; x6 = Integer.rotateLeft(x6 ^ x11, 7);
                x2 += x7; x13 = Integer.rotateLeft(x13 ^ x2, 16);
                x8 += x13; x7 = Integer.rotateLeft(x7 ^ x8, 12);
                x2 += x7; x13 = Integer.rotateLeft(x13 ^ x2, 8);
                x8 += x13; x7 = Integer.rotateLeft(x7 ^ x8, 7);
                x3 += x4; x14 = Integer.rotateLeft(x14 ^ x3, 16);
                x9 += x14; x4 = Integer.rotateLeft(x4 ^ x9, 12);
                x3 += x4; x14 = Integer.rotateLeft(x14 ^ x3, 8);
                x9 += x14; x4 = Integer.rotateLeft(x4 ^ x9, 7);
            }
            // Word w of this block goes to byte p + 16w of the output.
            int p = off + ((b >>> 2) << 8) + ((b & 3) << 2);
            Bytes.LE32.set(out, p, x0);
            Bytes.LE32.set(out, p + 16, x1);
            Bytes.LE32.set(out, p + 32, x2);
            Bytes.LE32.set(out, p + 48, x3);
            Bytes.LE32.set(out, p + 64, x4 + k0);
            Bytes.LE32.set(out, p + 80, x5 + k1);
            Bytes.LE32.set(out, p + 96, x6 + k2);
            Bytes.LE32.set(out, p + 112, x7 + k3);
            Bytes.LE32.set(out, p + 128, x8 + k4);
            Bytes.LE32.set(out, p + 144, x9 + k5);
            Bytes.LE32.set(out, p + 160, x10 + k6);
            Bytes.LE32.set(out, p + 176, x11 + k7);
            Bytes.LE32.set(out, p + 192, x12);
            Bytes.LE32.set(out, p + 208, x13);
            if (b < 12) {
                Bytes.LE32.set(out, p + 224, x14);
                Bytes.LE32.set(out, p + 240, x15);
            } else {
                // Iteration words 248 + (b - 12) and 252 + (b - 12): the next key, never output.
                key[b - 12] = x14;
                key[b - 8] = x15;
            }
        }
    }
}
