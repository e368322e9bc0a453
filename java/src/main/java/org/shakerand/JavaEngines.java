// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.Arrays;
import java.util.List;

/** The engines of docs/engines.md in Java, byte-identical to the C library's. */
final class JavaEngines {
    private JavaEngines() {}

    /**
     * The pure-Java path's kind table: the rows of the C core's (src/engine.c), each with its
     * Java engine. The only place this path lists the kinds; KindTableTest holds it (and the
     * native table) to the vector file's "kinds".
     */
    static final List<KindRow> KINDS = List.of(
            new KindRow("turboshake256", 1, 0, Xof.PERIOD_BYTES, seed -> new Xof(seed, 12)),
            new KindRow("shake256", 2, 0, Xof.PERIOD_BYTES, seed -> new Xof(seed, 24)),
            new KindRow("turboshake256x8", 3, 0, X8.OUTPUT, X8::new),
            new KindRow("chacha8rand", 4, ChaCha8Rand.KEY_BYTES, ChaCha8Rand.OUTPUT_BYTES, ChaCha8::new));

    /** @throws IllegalArgumentException for a seed length the kind refuses (nothing is kept) */
    static BufferedStream create(ShakeRandom.Kind kind, byte[] seed) {
        return KindRow.of(KINDS, kind).start(seed);
    }

    /** RandomSHAKE's streams: the XOF squeezed in periods of 8 blocks, a ratchet between them. */
    static final class Xof extends BufferedStream {
        static final int BLOCKS_PER_PERIOD = 8;
        /** Bytes handed out between two ratchets: the kind's block size. */
        static final int PERIOD_BYTES = BLOCKS_PER_PERIOD * Sponge.RATE;
        private final long[] s = new long[25];
        private final int rounds;
        private int block;

        Xof(byte[] seed, int rounds) {
            super(Sponge.RATE);
            this.rounds = rounds;
            Sponge.absorbFinal(s, seed, 0x1F, rounds);
            prime();
        }

        @Override
        void refill() {
            for (int i = 0; i < Sponge.RATE / 8; i++) {
                Bytes.putLe64(buf, 8 * i, s[i]);
            }
            Keccak.permute(s, rounds);
            if (++block == BLOCKS_PER_PERIOD) {
                block = 0;
                s[0] = 0;
                s[1] = 0;
                s[2] = 0;
                s[3] = 0;
                Keccak.permute(s, rounds);
            }
        }

        @Override
        void wipeState() {
            Arrays.fill(s, 0);
        }
    }

    /** turboshake256x8: 8 TurboSHAKE256 lanes keyed by K || j, words interleaved, key erasure. */
    static final class X8 extends BufferedStream {
        static final int OUTPUT = 1056;
        final long[] key = new long[4];
        private final long[] s = new long[25];

        X8(byte[] seed) {
            super(OUTPUT);
            byte[] k = Sponge.turboshake256(seed, 0x20, 32);
            for (int i = 0; i < 4; i++) {
                key[i] = Bytes.le64(k, 8 * i);
            }
            Arrays.fill(k, (byte) 0);
            prime();
        }

        @Override
        void refill() {
            long[] st = s;
            long k0 = key[0], k1 = key[1], k2 = key[2], k3 = key[3];
            for (int j = 0; j < 8; j++) {
                Arrays.fill(st, 0);
                st[0] = k0;
                st[1] = k1;
                st[2] = k2;
                st[3] = k3;
                st[4] = j | (0x21L << 8);
                st[16] = 0x80L << 56;
                Keccak.permute(st, 12);
                // R[64w + 8j + t] = B_j[8w + t]: word 8w + j of the refill is lane w of sponge j.
                for (int w = 0; w < 16; w++) {
                    Bytes.putLe64(buf, 8 * (8 * w + j), st[w]);
                }
                if (j < 4) {
                    Bytes.putLe64(buf, 8 * (128 + j), st[16]);
                } else {
                    key[j - 4] = st[16]; // words 132..135: the next key, never output
                }
            }
            Arrays.fill(st, 0);
        }

        @Override
        void wipeState() {
            Arrays.fill(s, 0);
            Arrays.fill(key, 0);
        }
    }

    /**
     * chacha8rand: each refill is one 992-byte iteration (ChaCha8Rand), its last 32 bytes the
     * next key; the old key is overwritten as the iteration is computed, so a captured engine
     * holds only the key of output not yet produced and the undelivered rest of buf.
     */
    static final class ChaCha8 extends BufferedStream {
        final int[] key = new int[8];

        /**
         * From a seed of exactly KEY_BYTES bytes: create checks it against the table; the system
         * generator passes a key of that length.
         */
        ChaCha8(byte[] seed) {
            super(ChaCha8Rand.OUTPUT_BYTES);
            for (int i = 0; i < 8; i++) {
                key[i] = Bytes.le32(seed, 4 * i);
            }
            prime();
        }

        @Override
        void refill() {
            ChaCha8Rand.iteration(key, buf, 0);
        }

        @Override
        int fillWhole(byte[] out, int off, int len) {
            int done = 0;
            for (; len - done >= ChaCha8Rand.OUTPUT_BYTES; done += ChaCha8Rand.OUTPUT_BYTES) {
                ChaCha8Rand.iteration(key, out, off + done);
            }
            return done;
        }

        @Override
        void wipeState() {
            Arrays.fill(key, 0);
        }
    }
}
