// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every public method of a seeded ShakeRandom gives the same values on the default path
 * (the native engine behind a Java buffer when the library is loaded) as on the pure-Java
 * engine, including words that straddle the native buffer's refills.
 */
class SeededApiTest {
    @ParameterizedTest
    @EnumSource(ShakeRandom.Kind.class)
    void sameValuesOnBothEngines(ShakeRandom.Kind k) {
        byte[] seed = TestSupport.seed(k, "api " + k);
        ShakeRandom a = ShakeRandom.seeded(seed, k);
        ShakeRandom b = ShakeRandom.seededJava(seed, k);
        BigInteger big = BigInteger.ONE.shiftLeft(255).add(BigInteger.valueOf(19));
        for (int i = 0; i < 3000; i++) {
            assertEquals(b.nextInt(), a.nextInt());
            assertEquals(b.nextLong(), a.nextLong());
            assertEquals(b.nextBoolean(), a.nextBoolean());
            assertEquals(b.nextInt(1000), a.nextInt(1000));
            assertEquals(b.nextInt(-7, 9), a.nextInt(-7, 9));
            assertEquals(b.nextLong(1L << 40), a.nextLong(1L << 40));
            assertEquals(b.nextLong(Long.MIN_VALUE, Long.MAX_VALUE), a.nextLong(Long.MIN_VALUE, Long.MAX_VALUE));
            assertEquals(b.nextDouble(), a.nextDouble());
            assertEquals(b.nextFloat(), a.nextFloat());
            assertEquals(b.nextGaussian(), a.nextGaussian());
            assertEquals(b.nextBigInteger(big), a.nextBigInteger(big));
            assertEquals(b.nextUUID(), a.nextUUID());
            byte[] x = new byte[i % 700];
            byte[] y = new byte[i % 700];
            a.nextBytes(x);
            b.nextBytes(y);
            assertArrayEquals(y, x);
        }
        assertArrayEquals(b.ints(100, 0, 10).toArray(), a.ints(100, 0, 10).toArray());
        assertArrayEquals(b.longs(100).toArray(), a.longs(100).toArray());
        assertArrayEquals(b.doubles(100, 1.0, 2.0).toArray(), a.doubles(100, 1.0, 2.0).toArray());
        assertEquals(b.nextUUIDv7().getLeastSignificantBits() & 0xFFFFFFFFL,
                a.nextUUIDv7().getLeastSignificantBits() & 0xFFFFFFFFL, "v7's 32 random bits");
        // Large fills cross the JNI glue's 256 KiB pieces.
        byte[] x = new byte[(1 << 20) + 13];
        byte[] y = new byte[x.length];
        a.nextBytes(x);
        b.nextBytes(y);
        assertArrayEquals(y, x);
    }

    /** Large native fills while the collector runs: the engine must stay alive through each call. */
    @ParameterizedTest
    @EnumSource(ShakeRandom.Kind.class)
    void largeFillsSurviveGarbageCollection(ShakeRandom.Kind k) {
        byte[] seed = TestSupport.seed(k, "gc " + k);
        byte[] expected = new byte[3 << 20];
        ShakeRandom.seededJava(seed, k).nextBytes(expected);
        for (int i = 0; i < 20; i++) {
            byte[] got = new byte[expected.length];
            ShakeRandom.seeded(seed, k).nextBytes(got); // the generator is unreachable during the call
            System.gc();
            assertArrayEquals(expected, got);
        }
    }
}
