// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A seeded native engine on a thread that never drew from the system generator: the JNI fill
 * records the thread's stack bounds, so the C core's stack wipe after each fill does not ask
 * sigaltstack where it runs (one system call per fill otherwise). Counted with strace in a child
 * JVM (Linux, where strace is installed and may trace).
 */
class StackBoundsTest {
    /** The child's fills: far more than the calls the JVM itself makes. */
    static final int FILLS = 2000;

    @Test
    void engineFillsAskNoSigaltstack() throws Exception {
        assumeTrue(TestSupport.expectNative(), "the native path");
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "Linux");
        assumeTrue(works("strace", "-qq", "-o", "/dev/null", "true"), "strace cannot trace here");
        Path log = Files.createTempFile("shakerand-strace", ".txt");
        try {
            List<String> cmd = new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=sigaltstack",
                    "-o", log.toString(), Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-Dshakerand.native=true",
                    "-cp", "target/classes" + File.pathSeparator + "target/test-classes",
                    EngineFills.class.getName()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            List<String> out = TestSupport.output(p);
            assertEquals("true", TestSupport.field(out, "native"), out.toString());
            assertEquals(String.valueOf(FILLS), TestSupport.field(out, "fills"), out.toString());
            long calls = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains("sigaltstack(")).count();
            assertTrue(calls < FILLS / 10, calls + " sigaltstack calls for " + FILLS + " engine fills");
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static boolean works(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** The child: FILLS native engine fills on a new thread that draws nothing else. */
    public static final class EngineFills {
        public static void main(String[] args) throws Exception {
            int[] done = new int[1];
            Thread t = new Thread(() -> {
                long h = NativeLib.engineNew(ShakeRandom.Kind.CHACHA8RAND.row().value(), new byte[32]);
                byte[] b = new byte[4096]; // more than an iteration: the kernel runs, then the wipe
                for (int i = 0; i < FILLS; i++) {
                    NativeLib.engineFill(h, b, 0, b.length);
                    done[0]++;
                }
                NativeLib.engineFree(h);
            });
            t.start();
            t.join();
            System.out.println("native=" + NativeLib.LOADED);
            System.out.println("fills=" + done[0]);
        }
    }
}
