// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** The pure-Java system generator's engine, reseed budget (16 MiB) and setSeed mixing. */
class JavaSystemGeneratorTest {
    @Test
    void reseedsAfterSixteenMebibytes() {
        JavaSystemGenerator.ThreadGenerator g = new JavaSystemGenerator.ThreadGenerator();
        assertEquals(1, g.reseeds);
        byte[] buf = new byte[1 << 20];
        for (int i = 0; i < 15; i++) {
            g.fill(buf, 0, buf.length);
        }
        assertEquals(1, g.reseeds, "15 MiB: still the first seed");
        g.fill(buf, 0, buf.length);
        g.u64();
        assertEquals(2, g.reseeds, "16 MiB: reseeded");
        g.reseed(new byte[] {1, 2, 3});
        assertEquals(3, g.reseeds);
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
