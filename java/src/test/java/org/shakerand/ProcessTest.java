// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Behaviour that needs a fresh JVM: the default SecureRandom, UUID.randomUUID(), extraction. */
class ProcessTest {
    private static final List<String> OPENS = List.of("--add-opens", "java.base/java.security=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Dshakerand.native=" + TestSupport.expectNative());

    @Test
    void providerInstalledFirstServesDefaultAndUuid() throws Exception {
        List<String> out = TestSupport.output(TestSupport.startChild(OPENS, "org.shakerand.Probe", "provider"));
        assertEquals("ShakeRandom", TestSupport.field(out, "default.algorithm"), out.toString());
        assertEquals("ShakeRand", TestSupport.field(out, "default.provider"));
        assertEquals(ShakeRandomSpi.class.getName(), TestSupport.field(out, "default.spi"));
        assertEquals("4", TestSupport.field(out, "uuid.version"));
        assertEquals("ShakeRand", TestSupport.field(out, "uuid.provider"));
        assertEquals(ShakeRandomSpi.class.getName(), TestSupport.field(out, "uuid.spi"));
        assertEquals(String.valueOf(TestSupport.expectNative()), TestSupport.field(out, "native"));
    }

    @Test
    void unknownPlatformFallsBackToPureJava() throws Exception {
        List<String> args = List.of("-Dos.arch=sparc", "-Dshakerand.native=true");
        List<String> out = TestSupport.output(TestSupport.startChild(args, "org.shakerand.Probe", "lib"));
        assertEquals("false", TestSupport.field(out, "native"), out.toString());
        assertTrue(TestSupport.field(out, "implementation").startsWith("pure Java (no native library for linux-sparc)"),
                out.toString());
        assertEquals("true", TestSupport.field(out, "draws"), out.toString());
        // One line on System.Logger (java.util.logging's console handler, on stderr) says why.
        assertEquals(1, out.stream().filter(l -> l.contains("shakerand: pure Java, no native library for linux-sparc")).count(),
                out.toString());
    }

    @Test
    void deniedNativeAccessFallsBackToPureJava() throws Exception {
        assumeTrue(Runtime.version().feature() >= 24, "--illegal-native-access exists from JDK 24");
        List<String> args = List.of("--illegal-native-access=deny", "-Dshakerand.native=true");
        List<String> out = TestSupport.output(TestSupport.startChildExactly(args, "org.shakerand.Probe", "lib"));
        assertEquals("false", TestSupport.field(out, "native"), out.toString());
        assertTrue(TestSupport.field(out, "implementation").contains("IllegalCallerException"), out.toString());
        assertEquals("true", TestSupport.field(out, "draws"), out.toString());
    }

    @Test
    void twoJvmsExtractTheirOwnCopy() throws Exception {
        assumeTrue(TestSupport.expectNative(), "native path only");
        Process a = TestSupport.startChild(OPENS, "org.shakerand.Probe", "lib", "hold");
        Process b = TestSupport.startChild(OPENS, "org.shakerand.Probe", "lib", "hold");
        List<String> oa = TestSupport.output(a);
        List<String> ob = TestSupport.output(b);
        assertEquals("true", TestSupport.field(oa, "native"), oa.toString());
        assertEquals("true", TestSupport.field(ob, "native"), ob.toString());
        String pa = TestSupport.field(oa, "path");
        String pb = TestSupport.field(ob, "path");
        assertNotEquals(pa, pb);
        assertTrue(pa.contains("shakerand-jni-"), pa);
        // Deleted once loaded: nothing is left in the temporary directory.
        assertTrue(!Files.exists(Paths.get(pa)) && !Files.exists(Paths.get(pb)));
    }
}
