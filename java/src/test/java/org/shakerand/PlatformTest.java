// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The platform the library picked and the entropy sources the system generator mixes, on
 * whatever machine runs it: the host in the ordinary suites, and each architecture under
 * qemu-user in java/run-cross-tests.sh, which says what to expect through system properties:
 * shakerand.expectPlatform (e.g. linux-ppc64le) and shakerand.expectSources, a comma-separated
 * list of hardware sources, each "+name" (must be used, e.g. +darn under -cpu power9) or
 * "-name" (must not be, e.g. -darn under -cpu power8).
 */
class PlatformTest {
    @Test
    void picksThePlatformsLibrary() {
        String expected = System.getProperty("shakerand.expectPlatform");
        if (expected != null) {
            assertEquals(expected, NativeLib.platform());
        }
        assertEquals(TestSupport.expectNative(), ShakeRandom.isNative(), NativeLib.STATUS);
        if (TestSupport.expectNative()) {
            assertTrue(NativeLib.PATH != null && NativeLib.PATH.contains("shakerand-jni-"), NativeLib.PATH);
        }
    }

    @Test
    void reportsItsSourcesAndDraws() {
        String impl = ShakeRandom.implementation();
        System.out.println("shakerand implementation: " + impl); // the runners' summary lines quote it
        int at = impl.indexOf("sources: ");
        assertTrue(at >= 0, impl);
        String sources = impl.substring(at + "sources: ".length());
        if (TestSupport.expectNative()) {
            assertTrue(sources.startsWith("os"), impl); // the operating system's source is always mixed in
        }
        String expected = System.getProperty("shakerand.expectSources", "");
        for (String e : expected.split(",")) {
            if (e.isEmpty()) {
                continue;
            }
            String name = e.substring(1);
            boolean used = sources.contains(name);
            if (e.charAt(0) == '+') {
                assertTrue(used, name + " should be used: " + impl);
            } else {
                assertFalse(used, name + " should not be used: " + impl);
            }
        }
        ShakeRandom r = new ShakeRandom();
        assertNotEquals(r.nextLong(), r.nextLong());
        byte[] seed = new byte[32];
        r.nextBytes(seed);
        assertEquals(4, r.nextUUID().version());
    }
}
