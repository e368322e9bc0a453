// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Behaviour that needs a fresh JVM: the default SecureRandom, UUID.randomUUID(), extraction. */
class ProcessTest {
    private static final List<String> OPENS = List.of("--add-opens", "java.base/java.security=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Dshakerand.native=" + TestSupport.expectNative());

    /**
     * The promise as README.md and java/README.md make it: Security.insertProviderAt(new
     * ShakeRandProvider(), 1) before anything in the JVM called UUID.randomUUID() makes new
     * SecureRandom() and UUID.randomUUID() use shakerand. Seen on shakerand's side, not through
     * the JDK: the UUID is exactly the next 16 bytes the calling thread's system generator held
     * (version and variant bits set), and those bytes are gone from it afterwards.
     */
    @Test
    void providerInstalledFirstServesDefaultAndUuid() throws Exception {
        List<String> out = TestSupport.output(TestSupport.startChild(OPENS, "org.shakerand.Probe", "provider"));
        assertEquals("ShakeRandom", TestSupport.field(out, "default.algorithm"), out.toString());
        assertEquals("ShakeRand", TestSupport.field(out, "default.provider"));
        assertEquals(ShakeRandomSpi.class.getName(), TestSupport.field(out, "default.spi"));
        assertEquals("4", TestSupport.field(out, "uuid.version"));
        assertEquals("ShakeRand", TestSupport.field(out, "uuid.provider"));
        assertEquals(ShakeRandomSpi.class.getName(), TestSupport.field(out, "uuid.spi"));
        assertEquals("true", TestSupport.field(out, "uuid.shakerand"), out.toString());
        assertEquals("false", TestSupport.field(out, "uuid.shakerandUntouched"), out.toString());
        assertEquals("true", TestSupport.field(out, "shake.shakerand"), out.toString());
        assertEquals(String.valueOf(TestSupport.expectNative()), TestSupport.field(out, "native"));
    }

    /**
     * The condition the docs state: the JDK makes the SecureRandom behind UUID.randomUUID() at
     * its first call and keeps it, so in a JVM that made a UUID before the provider was
     * installed, new SecureRandom() is shakerand's but UUID.randomUUID() stays on the JDK's own
     * generator and never draws from shakerand.
     */
    @Test
    void uuidMadeBeforeInstallingKeepsTheJdkGenerator() throws Exception {
        List<String> out = TestSupport.output(TestSupport.startChild(OPENS, "org.shakerand.Probe",
                "provider-after-uuid"));
        assertEquals("4", TestSupport.field(out, "before.version"), out.toString());
        assertEquals("ShakeRand", TestSupport.field(out, "default.provider"), out.toString());
        assertNotEquals("ShakeRand", TestSupport.field(out, "uuid.provider"), out.toString());
        assertEquals("false", TestSupport.field(out, "uuid.shakerand"), out.toString());
        assertEquals("true", TestSupport.field(out, "uuid.shakerandUntouched"), out.toString());
        // ShakeRandom.randomUUID() is shakerand's whatever ran before
        assertEquals("true", TestSupport.field(out, "shake.shakerand"), out.toString());
    }

    /**
     * The other way the docs give: the provider listed first in the java.security file (here
     * an override file, -Djava.security.properties, with the JDK's own entries moved down one)
     * is in place before any code runs, so even the JVM's first UUID.randomUUID() uses it.
     */
    @Test
    void providerListedFirstInJavaSecurityServesUuid() throws Exception {
        Path props = Files.createTempFile(Paths.get("target"), "java", ".security");
        try {
            StringBuilder sb = new StringBuilder("security.provider.1=org.shakerand.ShakeRandProvider\n");
            for (int i = 1; java.security.Security.getProperty("security.provider." + i) != null; i++) {
                sb.append("security.provider.").append(i + 1).append('=')
                        .append(java.security.Security.getProperty("security.provider." + i)).append('\n');
            }
            Files.writeString(props, sb.toString());
            List<String> args = new java.util.ArrayList<>(OPENS);
            args.add("-Djava.security.properties=" + props);
            List<String> out = TestSupport.output(TestSupport.startChild(args, "org.shakerand.Probe",
                    "provider-from-file"));
            assertEquals("ShakeRand", TestSupport.field(out, "default.provider"), out.toString());
            assertEquals("ShakeRand", TestSupport.field(out, "uuid.provider"), out.toString());
            assertEquals("true", TestSupport.field(out, "uuid.shakerand"), out.toString());
            assertEquals("false", TestSupport.field(out, "uuid.shakerandUntouched"), out.toString());
            assertEquals("true", TestSupport.field(out, "shake.shakerand"), out.toString());
            assertEquals(String.valueOf(TestSupport.expectNative()), TestSupport.field(out, "native"));
        } finally {
            Files.delete(props);
        }
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

    /**
     * The library is not extracted where another user could swap it before it is loaded: a
     * directory others may write without the sticky bit is refused (pure Java, and the INFO line
     * says why); with the sticky bit, as /tmp, it is used.
     */
    @Test
    void sharedTemporaryDirectoryWithoutStickyBitIsRefused() throws Exception {
        assumeTrue(TestSupport.expectNative(), "native path only");
        Path open = Files.createTempDirectory(Paths.get("target"), "tmpdir-open");
        Path sticky = Files.createTempDirectory(Paths.get("target"), "tmpdir-sticky");
        try {
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
            List<String> out = TestSupport.output(TestSupport.startChild(
                    List.of("-Dshakerand.tmpdir=" + open), "org.shakerand.Probe", "lib"));
            assertEquals("false", TestSupport.field(out, "native"), out.toString());
            assertTrue(TestSupport.field(out, "implementation").contains("without the sticky bit"), out.toString());
            assertEquals(1, out.stream().filter(l -> l.contains("shakerand: pure Java")
                    && l.contains("-Dshakerand.tmpdir")).count(), out.toString());
            try (var left = Files.list(open)) {
                assertEquals(0, left.count(), "nothing left in " + open);
            }

            // Java's permission API has no sticky bit
            assertEquals(0, new ProcessBuilder("chmod", "1777", sticky.toString()).inheritIO().start().waitFor());
            out = TestSupport.output(TestSupport.startChild(
                    List.of("-Dshakerand.tmpdir=" + sticky), "org.shakerand.Probe", "lib"));
            assertEquals("true", TestSupport.field(out, "native"), out.toString());
            assertTrue(TestSupport.field(out, "path").startsWith(sticky.toRealPath().toString()), out.toString());
        } finally {
            Files.delete(open);
            Files.delete(sticky);
        }
    }

    /**
     * A logging back end that draws randomness while the fall-back line is logged (a UUID for
     * its record, with the provider installed first) comes back into the system generator during
     * its initialisation: it must find it complete, and the generator must work afterwards.
     */
    @Test
    void loggerThatDrawsDuringTheFallbackLine() throws Exception {
        Path config = Files.createTempFile(Paths.get("target"), "logging", ".properties");
        try {
            Files.writeString(config, "handlers=org.shakerand.DrawingLogHandler\n.level=INFO\n");
            List<String> args = new java.util.ArrayList<>(OPENS);
            args.addAll(List.of("-Dos.arch=sparc", "-Djava.util.logging.config.file=" + config));
            List<String> out = TestSupport.output(TestSupport.startChild(args, "org.shakerand.Probe", "logdraw"));
            assertEquals("4", TestSupport.field(out, "handler.uuid.version"), out.toString());
            assertTrue(TestSupport.field(out, "handler.message").startsWith("shakerand: pure Java, "),
                    out.toString());
            assertEquals("ShakeRand", TestSupport.field(out, "uuid.provider"), out.toString());
            assertEquals("true", TestSupport.field(out, "draws"), out.toString());
        } finally {
            Files.delete(config);
        }
    }

    /**
     * A JDK without its SUN provider: where /dev/urandom is a readable character device the pure
     * path reads it itself and draws; elsewhere it has no OS source and each draw throws
     * ProviderException (DeadEntropyTest makes /dev/urandom fail to open).
     */
    @Test
    void pureJavaWithoutTheSunProviderReadsTheKernelOrThrowsOnEachDraw() throws Exception {
        List<String> out = TestSupport.output(TestSupport.startChild(
                List.of("-Dshakerand.native=false"), "org.shakerand.Probe", "nosun"));
        boolean kernel = Files.isReadable(JavaSystemGenerator.URANDOM)
                && !System.getProperty("os.name").startsWith("Windows");
        for (String key : new String[] {"nosun.draw0", "nosun.draw1"}) {
            String v = TestSupport.field(out, key);
            assertTrue(kernel ? v.equals("drew") : v.startsWith(
                    "ProviderException: shakerand: the operating system's entropy source is unavailable"),
                    out.toString());
        }
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
