// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/**
 * The pure-Java system generator's engine, byte budget and setSeed mixing (JavaSystemPolicyTest
 * holds the budget and the derivation to the vector file).
 */
class JavaSystemGeneratorTest {
    @Test
    void reseedsAfterTheByteBudget() {
        JavaSystemGenerator.ThreadGenerator g = new JavaSystemGenerator.ThreadGenerator();
        assertEquals(1, g.reseeds);
        byte[] buf = new byte[1 << 20];
        long pieces = JavaSystemGenerator.RESEED_BYTES / buf.length;
        for (long i = 0; i < pieces - 1; i++) {
            g.fill(buf, 0, buf.length);
        }
        assertEquals(1, g.reseeds, "a MiB short of the budget: still the first seed");
        g.fill(buf, 0, buf.length);
        g.u64();
        assertEquals(2, g.reseeds, "at the budget: reseeded");
        g.reseed(new byte[] {1, 2, 3});
        assertEquals(3, g.reseeds);
    }

    @Test
    void reseedsAtTheDrawAfterANewEpoch() {
        JavaSystemGenerator.ThreadGenerator g = new JavaSystemGenerator.ThreadGenerator();
        g.u64();
        new JavaSystemGenerator().newEpoch();
        assertEquals(1, g.reseeds, "nothing happens until the next draw");
        g.u64();
        assertEquals(2, g.reseeds, "the first draw of the new epoch reseeds");
        g.u64();
        assertEquals(2, g.reseeds);
    }

    @Test
    void runsTheCSystemGeneratorsEngine() {
        String chosen = System.getenv("SHAKERAND_SYSTEM_ENGINE");
        assertEquals("turboshake256x8".equals(chosen) ? ShakeRandom.Kind.TURBOSHAKE256X8
                : ShakeRandom.Kind.CHACHA8RAND, JavaSystemGenerator.KIND);
    }

    @Test
    void twoGeneratorsDiffer() {
        assertNotEquals(new JavaSystemGenerator.ThreadGenerator().u64(), new JavaSystemGenerator.ThreadGenerator().u64());
    }
}
