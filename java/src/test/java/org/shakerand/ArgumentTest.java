// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad arguments throw what the JDK's own classes throw; good ones stay in range. */
class ArgumentTest {
    final ShakeRandom r = new ShakeRandom();
    final ShakeRandom s = ShakeRandom.seeded(new byte[] {1, 2, 3}, ShakeRandom.Kind.TURBOSHAKE256X8);
    final ShakeRandom c = ShakeRandom.seeded(new byte[32], ShakeRandom.Kind.CHACHA8RAND);
    final Random jdk = new Random(1);

    private void same(Class<? extends Throwable> type, Executable ours, Executable theirs) {
        assertThrows(type, theirs, "the JDK itself");
        assertThrows(type, ours);
    }

    @Test
    void boundsAndRanges() {
        for (ShakeRandom g : new ShakeRandom[] {r, s, c}) {
            same(IllegalArgumentException.class, () -> g.nextInt(0), () -> jdk.nextInt(0));
            same(IllegalArgumentException.class, () -> g.nextInt(-5), () -> jdk.nextInt(-5));
            same(IllegalArgumentException.class, () -> g.nextInt(5, 5), () -> jdk.nextInt(5, 5));
            same(IllegalArgumentException.class, () -> g.nextLong(0), () -> jdk.nextLong(0));
            same(IllegalArgumentException.class, () -> g.nextLong(3, 2), () -> jdk.nextLong(3, 2));
            same(IllegalArgumentException.class, () -> g.ints(-1), () -> jdk.ints(-1));
            same(IllegalArgumentException.class, () -> g.ints(5, 5), () -> jdk.ints(5, 5));
            same(IllegalArgumentException.class, () -> g.longs(10, 7, 7), () -> jdk.longs(10, 7, 7));
            same(IllegalArgumentException.class, () -> g.doubles(1.0, 1.0), () -> jdk.doubles(1.0, 1.0));
            same(IllegalArgumentException.class, () -> g.doubles(-1), () -> jdk.doubles(-1));
            same(NullPointerException.class, () -> g.nextBytes(null), () -> jdk.nextBytes(null));
            assertThrows(NullPointerException.class, () -> g.nextBigInteger(null));
            assertThrows(IllegalArgumentException.class, () -> g.nextBigInteger(BigInteger.ZERO));
            assertThrows(IllegalArgumentException.class, () -> g.nextBigInteger(BigInteger.valueOf(-7)));
            same(IllegalArgumentException.class, () -> g.generateSeed(-1), () -> new SecureRandom().generateSeed(-1));
            assertEquals(BigInteger.ZERO, g.nextBigInteger(BigInteger.ONE));

            for (int i = 0; i < 2000; i++) {
                int a = g.nextInt(Integer.MIN_VALUE, Integer.MIN_VALUE + 3);
                assertTrue(a >= Integer.MIN_VALUE && a < Integer.MIN_VALUE + 3);
                int b = g.nextInt(Integer.MAX_VALUE - 2, Integer.MAX_VALUE);
                assertTrue(b >= Integer.MAX_VALUE - 2 && b < Integer.MAX_VALUE);
                long c = g.nextLong(-3, 4);
                assertTrue(c >= -3 && c < 4);
                assertTrue(g.nextLong(Long.MAX_VALUE - 1, Long.MAX_VALUE) == Long.MAX_VALUE - 1);
                int d = g.nextInt(7);
                assertTrue(d >= 0 && d < 7);
                double x = g.nextDouble();
                assertTrue(x >= 0 && x < 1);
                float f = g.nextFloat();
                assertTrue(f >= 0 && f < 1);
            }
            assertEquals(10, g.ints(10).count());
            assertTrue(g.ints(1000, -2, 3).allMatch(v -> v >= -2 && v < 3));
            assertTrue(g.longs(1000, 5, 9).allMatch(v -> v >= 5 && v < 9));
            assertTrue(g.doubles(1000, 2.0, 2.5).allMatch(v -> v >= 2.0 && v < 2.5));
            assertEquals(5, g.longs().limit(5).count());
            assertEquals(3, g.generateSeed(3).length);
        }
        assertThrows(NullPointerException.class, () -> r.setSeed((byte[]) null));
        assertThrows(NullPointerException.class, () -> ShakeRandom.seeded((byte[]) null, ShakeRandom.Kind.SHAKE256));
        assertThrows(NullPointerException.class, () -> ShakeRandom.seeded(new byte[0], null));
        assertThrows(NullPointerException.class, () -> ShakeRandom.seeded((String) null, ShakeRandom.Kind.SHAKE256));
        assertThrows(NullPointerException.class, () -> ShakeRandom.seeded("", null));
        assertThrows(UnsupportedOperationException.class, () -> s.setSeed(new byte[] {1}));
        assertThrows(UnsupportedOperationException.class, () -> c.reseed());
    }

    /** chacha8rand takes exactly 32 bytes: anything else is refused on every path, naming the length. */
    @Test
    void chacha8randSeedLength() {
        ShakeRandom.Kind k = ShakeRandom.Kind.CHACHA8RAND;
        assertEquals(32, k.seedLength());
        assertEquals(-1, ShakeRandom.Kind.TURBOSHAKE256X8.seedLength());
        for (int n : new int[] {0, 1, 16, 31, 33, 64, 1000}) {
            byte[] seed = new byte[n];
            for (int i = 0; i < n; i++) {
                seed[i] = (byte) (i + 1);
            }
            byte[] before = seed.clone();
            for (Executable make : new Executable[] {() -> ShakeRandom.seeded(seed, k),
                () -> ShakeRandom.seededJava(seed, k), () -> JavaEngines.create(k, seed)}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make);
                assertTrue(e.getMessage().contains("chacha8rand") && e.getMessage().endsWith("not " + n),
                        e.getMessage());
            }
            if (ShakeRandom.isNative()) {
                // The JNI glue refuses it too (the C library's SHAKERAND_EINVAL), should anything
                // reach it without the Java check.
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> NativeLib.engineNew(k.row().value(), seed));
                assertTrue(e.getMessage().contains("chacha8rand engine from a seed of " + n + " bytes"),
                        e.getMessage());
            }
            org.junit.jupiter.api.Assertions.assertArrayEquals(before, seed, "the seed is left as it was");
        }
        // The other kinds still take any length, and 32 bytes is a chacha8rand seed.
        ShakeRandom.seeded(new byte[31], ShakeRandom.Kind.TURBOSHAKE256X8).nextLong();
        ShakeRandom.seeded(new byte[32], k).nextLong();
        ShakeRandom.seededJava(new byte[32], k).nextLong();
    }

    @Test
    void setSeedNeverMakesItDeterministic() {
        // The same seed twice in a row on one thread: a deterministic generator would repeat.
        ShakeRandom a = new ShakeRandom();
        a.setSeed(42L);
        long x = a.nextLong();
        a.setSeed(42L);
        org.junit.jupiter.api.Assertions.assertNotEquals(x, a.nextLong());
        a.setSeed(new byte[] {1, 2, 3});
        long z = a.nextLong();
        a.setSeed(new byte[] {1, 2, 3});
        org.junit.jupiter.api.Assertions.assertNotEquals(z, a.nextLong());
        // Nor does it become the seeded generator of those bytes.
        byte[] seed = {1, 2, 3};
        a.setSeed(seed);
        org.junit.jupiter.api.Assertions.assertNotEquals(
                ShakeRandom.seeded(seed, ShakeRandom.Kind.TURBOSHAKE256X8).nextLong(), a.nextLong());
        a.reseed();
        assertEquals("ShakeRandom", a.getAlgorithm());
    }

    @Test
    void gaussianLooksNormal() {
        double sum = 0;
        double sq = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            double g = s.nextGaussian();
            sum += g;
            sq += g * g;
        }
        double mean = sum / n;
        double var = sq / n - mean * mean;
        assertTrue(Math.abs(mean) < 0.02, "mean " + mean);
        assertTrue(Math.abs(var - 1) < 0.02, "variance " + var);
    }
}
