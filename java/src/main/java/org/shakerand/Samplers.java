// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.Arrays;
import java.util.UUID;

/**
 * The samplers of docs/samplers.md, drawing the same bytes in the same way as the C library,
 * so a seeded generator gives the C samplers' values for the same engine and seed.
 */
final class Samplers {
    private Samplers() {}

    /** The high 64 bits of the unsigned 128-bit product (Math.unsignedMultiplyHigh is Java 18+). */
    static long mulHiUnsigned(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** Lemire's multiply-and-reject: uniform in [0, n) for n != 0 read as unsigned. */
    static long belowU64(RandomStream s, long n) {
        long x = s.u64();
        long lo = x * n;
        long hi = mulHiUnsigned(x, n);
        if (Long.compareUnsigned(lo, n) < 0) {
            long t = Long.remainderUnsigned(-n, n); // 2^64 mod n
            while (Long.compareUnsigned(lo, t) < 0) {
                x = s.u64();
                lo = x * n;
                hi = mulHiUnsigned(x, n);
            }
        }
        return hi;
    }

    /** The same with 4-byte draws: uniform in [0, n) for n != 0 read as unsigned. */
    static int belowU32(RandomStream s, int n) {
        long nn = n & 0xffffffffL;
        long m = (s.u32() & 0xffffffffL) * nn;
        if (Integer.compareUnsigned((int) m, n) < 0) {
            int t = Integer.remainderUnsigned(-n, n); // 2^32 mod n
            while (Integer.compareUnsigned((int) m, t) < 0) {
                m = (s.u32() & 0xffffffffL) * nn;
            }
        }
        return (int) (m >>> 32);
    }

    static double nextDouble(RandomStream s) {
        return (s.u64() >>> 11) * 0x1.0p-53;
    }

    static float nextFloat(RandomStream s) {
        return (s.u32() >>> 8) * 0x1.0p-24f;
    }

    /** Version 4: 16 bytes of the stream in network order, version and variant set. */
    static UUID uuid4(RandomStream s) {
        long first = s.u64();
        return uuid4(first, s.u64());
    }

    /** The UUID of the 16 bytes whose little-endian words are first and second. */
    static UUID uuid4(long first, long second) {
        long msb = Long.reverseBytes(first);
        long lsb = Long.reverseBytes(second);
        msb = (msb & ~0xF000L) | 0x4000L;
        lsb = (lsb & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    private static final int COUNTER_BITS = 42;
    private static long v7LastMs;
    private static long v7Counter;
    // The system generator's epoch when the state above was set: after a restored snapshot
    // (ShakeRandom.newEpoch) the next UUID moves to a later millisecond with a fresh counter.
    private static long v7Epoch;
    private static long v7VmGeneration;

    /** Version 7, RFC 9562 section 6.2 method 1, as shakerand_uuid7 (12 bytes drawn). */
    static UUID uuid7(RandomStream s) {
        long epoch = SystemGenerator.epochWord(); // before the draw: it is of this epoch or later
        long vmGeneration = SystemGenerator.vmGenerationWord();
        byte[] random = new byte[12];
        s.fill(random, 0, 12);
        long fresh = 0;
        for (int i = 0; i < 8; i++) {
            fresh = fresh << 8 | (random[i] & 0xff);
        }
        long tail = 0;
        for (int i = 8; i < 12; i++) {
            tail = tail << 8 | (random[i] & 0xff);
        }
        Arrays.fill(random, (byte) 0);
        long now = System.currentTimeMillis() & ((1L << 48) - 1);
        long ms;
        long c;
        synchronized (Samplers.class) {
            boolean copied = epoch != v7Epoch || vmGeneration != v7VmGeneration;
            if (now > v7LastMs && !copied) {
                v7LastMs = now;
                v7Counter = fresh & ((1L << (COUNTER_BITS - 1)) - 1);
            } else if (copied || (++v7Counter >>> COUNTER_BITS) != 0) {
                v7LastMs = Math.max(now, v7LastMs + 1);
                v7Counter = fresh & ((1L << (COUNTER_BITS - 1)) - 1);
                v7Epoch = epoch;
                v7VmGeneration = vmGeneration;
            }
            ms = v7LastMs;
            c = v7Counter;
        }
        long msb = ms << 16 | 0x7000L | ((c >>> 30) & 0xFFFL);
        long lsb = 0x8000000000000000L | ((c & 0x3FFFFFFFL) << 32) | tail;
        return new UUID(msb, lsb);
    }

    /**
     * RNG-BC-1 (the Optimized Simple Discard Method): uniform in [0, r), r big-endian, the result
     * as r.length big-endian bytes. A port of rng_bc_1 in src/samplers.c, bit for bit.
     */
    static byte[] below(RandomStream src, byte[] r) {
        int len = r.length;
        int first = 0;
        while (first < len && r[first] == 0) {
            first++;
        }
        if (first == len) {
            throw new IllegalArgumentException("bound must be positive");
        }
        int bits = 8;
        while (((r[first] & 0xff) >>> (bits - 1)) == 0) {
            bits--;
        }
        long m = (long) (len - first - 1) * 8 + bits;
        byte[] out = new byte[len];
        if (m == 1) {
            return out;
        }
        rngBc1(src, r, first, len, m, out);
        return out;
    }

    private static final class BitSource {
        final RandomStream src;
        long cur;
        long next;
        int left;
        boolean hasNext;
        int pos;
        final int block;
        final byte[] buf = new byte[64];

        BitSource(RandomStream src, int block) {
            this.src = src;
            this.block = block;
            this.pos = block;
        }

        long nextWord() {
            if (pos == block) {
                src.fill(buf, 0, block);
                pos = 0;
            }
            long w = Long.reverseBytes(Bytes.le64(buf, pos));
            pos += 8;
            return w;
        }

        long peek(int k) {
            if (left >= k) {
                return cur >>> (64 - k);
            }
            if (!hasNext) {
                next = nextWord();
                hasNext = true;
            }
            long window = left != 0 ? cur | (next >>> left) : next;
            return window >>> (64 - k);
        }

        void consume(int k) {
            if (k <= left) {
                cur = k == 64 ? 0 : cur << k;
                left -= k;
                return;
            }
            k -= left;
            cur = k == 64 ? 0 : next << k;
            left = 64 - k;
            hasNext = false;
        }

        void wipe() {
            cur = 0;
            next = 0;
            Arrays.fill(buf, (byte) 0);
        }
    }

    private static long loadChunk(byte[] x, int base, int n, int k) {
        int bytes = Math.min(n - 8 * k, 8);
        long w = 0;
        for (int i = bytes; i-- > 0; ) {
            w = w << 8 | (x[base + n - 1 - 8 * k - i] & 0xff);
        }
        return w;
    }

    private static void storeChunk(byte[] x, int base, int n, int k, long w) {
        int bytes = Math.min(n - 8 * k, 8);
        for (int i = 0; i < bytes; i++) {
            x[base + n - 1 - 8 * k - i] = (byte) (w >>> (8 * i));
        }
    }

    private static void rngBc1(RandomStream src, byte[] r, int first, int len, long m, byte[] v) {
        int chunks = (int) ((m + 63) / 64);
        int block = chunks < 7 ? 8 * (chunks + 1) : 64;
        BitSource s = new BitSource(src, block);
        int n = len - first;
        int top = (int) (m - 64L * (chunks - 1));
        for (;;) {
            for (int k = chunks; k-- > 0; ) {
                int width = k == chunks - 1 ? top : 64;
                long c = s.peek(width);
                long diff = c ^ loadChunk(r, first, n, k);
                if (diff == 0) {
                    s.consume(width);
                    storeChunk(v, first, n, k, c);
                    continue;
                }
                int d = Long.numberOfLeadingZeros(diff) - (64 - width); // from the top
                s.consume(d + 1);
                int rest = width - 1 - d;
                if (((c >>> rest) & 1) != 0) {
                    break; // above r: start again
                }
                long w = rest == 64 ? 0 : (c >>> rest) << rest;
                if (rest > 0) {
                    w |= s.peek(rest);
                    s.consume(rest);
                }
                storeChunk(v, first, n, k, w);
                while (k-- > 0) {
                    w = s.peek(64);
                    s.consume(64);
                    storeChunk(v, first, n, k, w);
                }
                s.wipe();
                return;
            }
        }
    }
}
