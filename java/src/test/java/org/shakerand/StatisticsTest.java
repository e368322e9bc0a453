// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Ranges of nextBigInteger and chi-square on small bounds. The seeded cases are deterministic
 * (no flaky failures); the threshold is the 1e-6 upper tail, and the biased control shows the
 * same test rejects a sampler with modulo bias.
 */
class StatisticsTest {
    /** Wilson-Hilferty approximation of the chi-square quantile for k degrees of freedom. */
    static double critical(int k) {
        double z = 4.75; // upper tail 1e-6
        double a = 2.0 / (9 * k);
        return k * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }

    static boolean uniform(int bound, int samples, IntUnaryOperator draw) {
        long[] count = new long[bound];
        for (int i = 0; i < samples; i++) {
            int v = draw.applyAsInt(i);
            if (v < 0 || v >= bound) {
                return false;
            }
            count[v]++;
        }
        double e = (double) samples / bound;
        double chi = 0;
        for (long c : count) {
            chi += (c - e) * (c - e) / e;
        }
        return chi < critical(bound - 1);
    }

    static final int[] BOUNDS = {2, 3, 5, 6, 7, 10, 100, 192, 255, 256, 257, 1000};

    @Test
    void bigIntegerSmallBoundsChiSquare() {
        ShakeRandom s = ShakeRandom.seeded(TestSupport.utf8("chi"), ShakeRandom.Kind.TURBOSHAKE256X8);
        ShakeRandom sys = new ShakeRandom();
        for (int b : BOUNDS) {
            BigInteger bb = BigInteger.valueOf(b);
            assertTrue(uniform(b, 40 * b + 20_000, i -> s.nextBigInteger(bb).intValueExact()), "seeded " + b);
            assertTrue(uniform(b, 40 * b + 20_000, i -> sys.nextBigInteger(bb).intValueExact()), "system " + b);
            assertTrue(uniform(b, 40 * b + 20_000, i -> s.nextInt(b)), "nextInt " + b);
            assertTrue(uniform(b, 40 * b + 20_000, i -> (int) s.nextLong(b)), "nextLong " + b);
        }
    }

    @Test
    void biasedSamplerIsCaught() {
        // byte mod 192: values below 64 are twice as likely. The test must reject it.
        ShakeRandom s = ShakeRandom.seeded(TestSupport.utf8("bias"), ShakeRandom.Kind.TURBOSHAKE256X8);
        assertFalse(uniform(192, 40 * 192 + 20_000, i -> (s.nextInt() & 0xff) % 192));
        // A subtler one: 16 bits mod 1000 (values below 536 about 1.5 % more likely).
        assertFalse(uniform(1000, 16_000_000, i -> (s.nextInt() & 0xffff) % 1000));
    }

    @Test
    void bigIntegerRanges() {
        ShakeRandom s = new ShakeRandom();
        BigInteger p256 = new BigInteger("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);
        BigInteger[] bounds = {BigInteger.TWO, BigInteger.ONE.shiftLeft(64), BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE),
            p256, BigInteger.ONE.shiftLeft(2048).subtract(BigInteger.valueOf(159))};
        for (BigInteger b : bounds) {
            BigInteger max = BigInteger.ZERO;
            for (int i = 0; i < 2000; i++) {
                BigInteger v = s.nextBigInteger(b);
                assertTrue(v.signum() >= 0 && v.compareTo(b) < 0, v.toString(16));
                max = max.max(v);
            }
            // The top half of the range is reached (fails for a sampler stuck in low bits).
            assertTrue(max.compareTo(b.shiftRight(1)) >= 0, "max " + max.toString(16));
        }
    }
}
