// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Java samplers over the pure-Java engine against the C samplers over a native engine with
 * the same seed: every value must be equal. This is what shows the Java ports are exact.
 */
class CrossCheckTest {
    private long c;

    @BeforeEach
    void needNative() {
        assumeTrue(ShakeRandom.isNative(), "the C samplers need the native library");
    }

    @AfterEach
    void free() {
        if (c != 0) {
            NativeSamplers.engineFree(c);
            c = 0;
        }
    }

    private ShakeRandom pair(ShakeRandom.Kind k, String seedText) {
        byte[] seed = TestSupport.seed(k, seedText);
        c = NativeSamplers.engineNew(k.row().value(), seed);
        return ShakeRandom.seededJava(seed, k);
    }

    static final int[] INT_BOUNDS = {1, 2, 3, 5, 6, 7, 10, 100, 255, 256, 257, 1000, 65537,
        (1 << 30) + 1, 3 << 29, Integer.MAX_VALUE, -1, -2, (int) 0x80000001L, (int) 0xC0000001L};
    static final long[] LONG_BOUNDS = {1, 2, 3, 7, 1000, (1L << 32) + 1, (1L << 62) + 1, 3L << 61,
        Long.MAX_VALUE, (1L << 63) + 1, -1L, -3L, 0xC000000000000001L};

    @ParameterizedTest
    @EnumSource(ShakeRandom.Kind.class)
    void boundedIntegers(ShakeRandom.Kind k) {
        ShakeRandom j = pair(k, "bounded " + k);
        for (int round = 0; round < 200; round++) {
            for (int n : INT_BOUNDS) {
                // Unsigned bounds beyond Integer.MAX_VALUE exercise heavy rejection.
                assertEquals(NativeSamplers.uniformU32(c, n), Samplers.belowU32(j.source(), n), "u32 " + n);
                if (n > 0) {
                    assertEquals(NativeSamplers.uniformU32(c, n), j.nextInt(n), "nextInt " + n);
                }
            }
            for (long n : LONG_BOUNDS) {
                assertEquals(NativeSamplers.uniformU64(c, n), Samplers.belowU64(j.source(), n), "u64 " + n);
                if (n > 0) {
                    assertEquals(NativeSamplers.uniformU64(c, n), j.nextLong(n), "nextLong " + n);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ShakeRandom.Kind.class)
    void rangesFloatsAndUuids(ShakeRandom.Kind k) {
        ShakeRandom j = pair(k, "ranges " + k);
        long[][] ranges = {{-5, 5}, {Long.MIN_VALUE, Long.MAX_VALUE}, {Long.MIN_VALUE, 0},
            {-1, Long.MAX_VALUE}, {1000, 1001}, {Long.MAX_VALUE - 3, Long.MAX_VALUE}};
        for (int round = 0; round < 300; round++) {
            for (long[] r : ranges) {
                assertEquals(NativeSamplers.rangeI64(c, r[0], r[1] - 1), j.nextLong(r[0], r[1]));
            }
            assertEquals(NativeSamplers.uniformU32(c, 20) - 10, j.nextInt(-10, 10));
            assertEquals(NativeSamplers.uniformU32(c, -1) + Integer.MIN_VALUE, j.nextInt(Integer.MIN_VALUE, Integer.MAX_VALUE));
            assertEquals(NativeSamplers.nextDouble(c), j.nextDouble());
            assertEquals(NativeSamplers.nextFloat(c), j.nextFloat());
            ByteBuffer u = ByteBuffer.wrap(NativeSamplers.uuid4(c));
            assertEquals(new UUID(u.getLong(), u.getLong()), j.nextUUID());
        }
    }

    @ParameterizedTest
    @EnumSource(ShakeRandom.Kind.class)
    void bigIntegers(ShakeRandom.Kind k) {
        ShakeRandom j = pair(k, "big " + k);
        List<BigInteger> bounds = new ArrayList<>();
        for (int bits : new int[] {1, 2, 3, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255, 256, 257, 448, 449,
            512, 521, 1024, 2048, 3072}) {
            BigInteger p = BigInteger.ONE.shiftLeft(bits);
            bounds.add(p);
            bounds.add(p.add(BigInteger.ONE));
            bounds.add(p.subtract(BigInteger.ONE).max(BigInteger.ONE));
        }
        SplittableRandom sr = new SplittableRandom(7);
        for (int i = 0; i < 60; i++) {
            byte[] b = new byte[1 + sr.nextInt(80)];
            sr.nextBytes(b);
            b[0] |= 1; // positive, non-zero top byte half the time after the sign bit
            bounds.add(new BigInteger(1, b));
        }
        // The P-256 group order.
        bounds.add(new BigInteger("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16));
        for (int round = 0; round < 5; round++) {
            for (BigInteger r : bounds) {
                byte[] rb = r.toByteArray();
                BigInteger want = new BigInteger(1, NativeSamplers.below(c, rb));
                assertEquals(want, j.nextBigInteger(r), "bound " + r.toString(16));
            }
        }
        // Leading zero bytes in r are allowed and give the same draws.
        byte[] padded = {0, 0, 0, 5};
        assertArrayEquals(NativeSamplers.below(c, padded), Samplers.below(j.source(), padded));
    }

    /** A request length: mostly small, often around one refill or a few (the direct path). */
    static int sliceLength(SplittableRandom sr) {
        switch (sr.nextInt(6)) {
            case 0: return sr.nextInt(9);
            case 1: return sr.nextInt(100);
            case 2: return 980 + sr.nextInt(90);           // around 992 and 1056
            case 3: return 1900 + sr.nextInt(2300);         // two to four refills
            case 4: return sr.nextInt(700);
            default: return 3 * 992 + sr.nextInt(8) - 4;  // just short of or past whole iterations
        }
    }

    /**
     * Reads n bytes from src in random slices: fill at random offsets of a larger array, u64 and
     * u32 words (little-endian), zero-length fills.
     */
    static byte[] sliced(RandomStream src, int n, SplittableRandom sr) {
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            int op = sr.nextInt(4);
            if (op == 0 && n - got >= 8) {
                Bytes.putLe64(out, got, src.u64());
                got += 8;
            } else if (op == 1 && n - got >= 4) {
                Bytes.LE32.set(out, got, src.u32());
                got += 4;
            } else {
                int len = Math.min(sliceLength(sr), n - got);
                int pad = sr.nextInt(3) == 0 ? 0 : sr.nextInt(40);
                byte[] b = new byte[pad + len + sr.nextInt(40)];
                src.fill(b, pad, len);
                System.arraycopy(b, pad, out, got, len);
                got += len;
            }
        }
        return out;
    }

    static byte[] randomSeed(ShakeRandom.Kind k, SplittableRandom sr) {
        byte[] seed = new byte[k.seedLength() >= 0 ? k.seedLength() : sr.nextInt(300)];
        sr.nextBytes(seed);
        return seed;
    }

    /**
     * The raw streams on random seeds: a native engine read in one call against the pure-Java
     * engine read in random slices, and the native engine behind its Java buffer read in random
     * slices against the pure-Java engine read in one call.
     */
    @ParameterizedTest
    @EnumSource(ShakeRandom.Kind.class)
    void streamsOverRandomSeedsAndSlicings(ShakeRandom.Kind k) {
        long master = System.nanoTime();
        SplittableRandom sr = new SplittableRandom(master);
        int seeds = k == ShakeRandom.Kind.CHACHA8RAND ? 60 : 12;
        for (int i = 0; i < seeds; i++) {
            byte[] seed = randomSeed(k, sr);
            int n = 1 + sr.nextInt(40_000);
            String what = k + " seed " + TestSupport.toHex(seed) + " n " + n + " (master seed " + master + ")";

            byte[] whole = new byte[n];
            long e = NativeLib.engineNew(k.row().value(), seed);
            try {
                NativeLib.engineFill(e, whole, 0, n);
            } finally {
                NativeLib.engineFree(e);
            }
            assertArrayEquals(whole, sliced(JavaEngines.create(k, seed), n, sr), "pure Java sliced, " + what);

            byte[] pure = new byte[n];
            JavaEngines.create(k, seed).fill(pure, 0, n);
            assertArrayEquals(whole, pure, "pure Java in one fill, " + what);
            NativeEngine ne = new NativeEngine(k.row().value(), seed);
            try {
                assertArrayEquals(pure, sliced(ne, n, sr), "native sliced, " + what);
            } finally {
                ne.wipe();
            }
        }
    }
}
