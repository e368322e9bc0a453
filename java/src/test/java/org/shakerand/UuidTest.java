// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidTest {
    @Test
    void version4() {
        ShakeRandom r = new ShakeRandom();
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            for (UUID u : new UUID[] {r.nextUUID(), ShakeRandom.randomUUID()}) {
                assertEquals(4, u.version());
                assertEquals(2, u.variant());
                assertTrue(seen.add(u));
            }
        }
        // Each of the 122 random bits takes both values.
        long orHi = 0, andHi = -1, orLo = 0, andLo = -1;
        for (UUID u : seen) {
            orHi |= u.getMostSignificantBits();
            andHi &= u.getMostSignificantBits();
            orLo |= u.getLeastSignificantBits();
            andLo &= u.getLeastSignificantBits();
        }
        assertEquals(~0xF000L, orHi & ~andHi, "msb random bits");
        assertEquals(0x3FFFFFFFFFFFFFFFL, orLo & ~andLo, "lsb random bits");
    }

    @Test
    void version7() {
        ShakeRandom r = new ShakeRandom();
        long before = System.currentTimeMillis();
        UUID prev = r.nextUUIDv7();
        for (int i = 0; i < 50_000; i++) {
            UUID u = r.nextUUIDv7();
            assertEquals(7, u.version());
            assertEquals(2, u.variant());
            int c = Long.compareUnsigned(prev.getMostSignificantBits(), u.getMostSignificantBits());
            if (c == 0) {
                c = Long.compareUnsigned(prev.getLeastSignificantBits(), u.getLeastSignificantBits());
            }
            assertTrue(c < 0, "increasing: " + prev + " then " + u);
            prev = u;
        }
        long ms = prev.getMostSignificantBits() >>> 16;
        assertTrue(ms >= before && ms <= System.currentTimeMillis() + 1000, "timestamp " + ms);
    }
}
