// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.Arrays;

/**
 * The engines of docs/engines.md in Java, byte-identical to the C library's. Output is served
 * from a buffer that refill() loads; each byte is zeroed as it is handed out, and the next
 * refill happens as soon as the last byte of the current one is gone, so a captured engine
 * holds nothing already delivered. A large fill may have the refills in between written
 * straight into the caller's array (fillWhole), as the C engines do. Confined to one thread.
 */
abstract class Engine implements Source {
    final byte[] buf;
    int pos;
    private final int size;

    Engine(int size) {
        this.buf = new byte[size];
        this.size = size;
        this.pos = size;
    }

    /** Loads buf[0, size) with the next output and moves the state past it. */
    abstract void refill();

    abstract void wipeState();

    final void prime() {
        refill();
        pos = 0;
    }

    @Override
    public final long u64() {
        int p = pos;
        if (size - p >= 8) {
            long v = Bytes.le64(buf, p);
            Bytes.putLe64(buf, p, 0L);
            advance(p + 8);
            return v;
        }
        byte[] t = new byte[8];
        fill(t, 0, 8);
        long v = Bytes.le64(t, 0);
        Arrays.fill(t, (byte) 0);
        return v;
    }

    @Override
    public final int u32() {
        int p = pos;
        if (size - p >= 4) {
            int v = Bytes.le32(buf, p);
            Bytes.LE32.set(buf, p, 0);
            advance(p + 4);
            return v;
        }
        byte[] t = new byte[4];
        fill(t, 0, 4);
        int v = Bytes.le32(t, 0);
        Arrays.fill(t, (byte) 0);
        return v;
    }

    private void advance(int p) {
        if (p == size) {
            refill();
            p = 0;
        }
        pos = p;
    }

    /**
     * Writes the refills that follow the current one straight into out[off, off + k * size) for
     * the largest k with k * size <= len, exactly as k calls of refill() would load them into
     * buf, and returns k * size; this is called only when buf has been handed out in full. The
     * delivered bytes then never sit in the engine. An engine that cannot returns 0.
     */
    int fillWhole(byte[] out, int off, int len) {
        return 0;
    }

    @Override
    public final void fill(byte[] out, int off, int len) {
        while (len > 0) {
            int p = pos;
            int n = Math.min(len, size - p);
            System.arraycopy(buf, p, out, off, n);
            Arrays.fill(buf, p, p + n, (byte) 0);
            off += n;
            len -= n;
            if (p + n < size) {
                pos = p + n;
                return;
            }
            if (len >= size) {
                int d = fillWhole(out, off, len);
                off += d;
                len -= d;
            }
            refill();
            pos = 0;
        }
    }

    final void wipe() {
        Arrays.fill(buf, (byte) 0);
        wipeState();
        pos = size;
    }

    static Engine create(ShakeRandom.Kind kind, byte[] seed) {
        switch (kind) {
            case TURBOSHAKE256:
                return new SpongeEngine(seed, 12);
            case SHAKE256:
                return new SpongeEngine(seed, 24);
            case TURBOSHAKE256X8:
                return new X8Engine(seed);
            case CHACHA8RAND:
                return new ChaCha8Engine(seed);
            default:
                throw new IllegalArgumentException("unknown kind " + kind);
        }
    }

    /** RandomSHAKE's streams: the XOF squeezed in periods of 8 blocks, a ratchet between them. */
    static final class SpongeEngine extends Engine {
        private final long[] s = new long[25];
        private final int rounds;
        private int block;

        SpongeEngine(byte[] seed, int rounds) {
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
            if (++block == 8) {
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
    static final class X8Engine extends Engine {
        static final int OUTPUT = 1056;
        private final long[] key = new long[4];
        private final long[] s = new long[25];

        X8Engine(byte[] seed) {
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
    static final class ChaCha8Engine extends Engine {
        final int[] key = new int[8];

        /** @throws IllegalArgumentException if the seed is not 32 bytes (nothing is kept) */
        ChaCha8Engine(byte[] seed) {
            super(ChaCha8Rand.OUTPUT_BYTES);
            ShakeRandom.Kind.CHACHA8RAND.checkSeed(seed);
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
