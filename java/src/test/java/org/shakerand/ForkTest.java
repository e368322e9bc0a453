// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A raw fork of a JVM that has drawn (RawFork: the fork system call, no fork handler): the child's
 * draws must not be its parent's. The native path's buffers are in the Java heap, which no fork
 * wipes, and a raw fork moves no epoch; what tells them apart is the fork mark (shakerand_jni.c):
 * a word a fork zeroes where the kernel takes MADV_WIPEONFORK, and where it refuses (run under
 * tests/no_wipeonfork.c) or the mark's page cannot be mapped (its --refuse-mmap), no buffer at all
 * (every value from the C core, which compares the pid). The pure-Java path cannot see such a fork
 * (Java has no fork, and the pid costs a system call): its child repeats the parent's stream until
 * ShakeRandom.newEpoch(), which java/README.md tells such a program to call.
 */
class ForkTest {
    /** The draws, in the order both sides make them: name and words. */
    private static final String[] DRAWS = {"nextLong", "nextInt", "nextBytes(16)", "randomUUID", "nextBytes(64)"};
    private static final int[] WORDS = {1, 1, 2, 2, 8};
    private static final int TOTAL = Arrays.stream(WORDS).sum();

    /** What no_wipeonfork's --refuse-mmap refuses: the fork mark's mapping (FORK_MARK_BYTES). */
    private static final String MARK_MAP_BYTES = "8";

    private static final Path DIR = Paths.get("target", "raw-fork").toAbsolutePath();

    @Test
    void nativeChildDrawsAfresh() throws Exception {
        assumeTrue(TestSupport.expectNative(), "the native path (ForkTest runs the pure one in its own test)");
        List<String> out = run(List.of(), "-Dshakerand.native=true", "");
        assertEquals("true", TestSupport.field(out, "native"), out.toString());
        assertAllDiffer(out);
        String guard = TestSupport.field(out, "guard");
        assertEquals(String.valueOf(guard.equals("MADV_WIPEONFORK")), TestSupport.field(out, "buffered"), guard);
        assumeTrue(guard.equals("MADV_WIPEONFORK"), "the kernel refused MADV_WIPEONFORK: no buffer was tested");
    }

    @Test
    void nativeChildDrawsAfreshWithoutWipeOnFork() throws Exception {
        assumeTrue(TestSupport.expectNative(), "the native path");
        List<String> out = run(launcher(), "-Dshakerand.native=true", "");
        assertAllDiffer(out);
        assertEquals("false", TestSupport.field(out, "buffered"), out.toString());
        assertEquals("none: the kernel refused MADV_WIPEONFORK", TestSupport.field(out, "guard"), out.toString());
    }

    @Test
    void nativeChildDrawsAfreshWithoutTheMarksPage() throws Exception {
        assumeTrue(TestSupport.expectNative(), "the native path");
        List<String> l = new ArrayList<>(launcher());
        l.addAll(1, List.of("--refuse-mmap", MARK_MAP_BYTES));
        List<String> out = run(l, "-Dshakerand.native=true", "");
        assertAllDiffer(out);
        assertEquals("false", TestSupport.field(out, "buffered"), out.toString());
        assertEquals("none: the fork mark's page could not be mapped", TestSupport.field(out, "guard"),
                out.toString());
    }

    /**
     * The pure path: the child repeats every draw (the control, which also shows that this test
     * sees a repeat), and after ShakeRandom.newEpoch() in the child none.
     */
    @Test
    void pureChildRepeatsUntilNewEpoch() throws Exception {
        assumeTrue(!TestSupport.expectNative(), "the pure-Java path (ForkTest runs the native one in its own tests)");
        List<String> out = run(List.of(), "-Dshakerand.native=false", "");
        assertEquals("false", TestSupport.field(out, "native"), out.toString());
        long[] parent = words(out, "parent");
        long[] child = words(out, "child");
        assertTrue(Arrays.equals(parent, child), "the pure path's child repeats: " + out);
        assertAllDiffer(run(List.of(), "-Dshakerand.native=false", "new-epoch"));
    }

    /** Each draw of the child differs from the parent's. */
    private static void assertAllDiffer(List<String> out) {
        long[] parent = words(out, "parent");
        long[] child = words(out, "child");
        for (int d = 0, at = 0; d < DRAWS.length; at += WORDS[d], d++) {
            assertFalse(Arrays.equals(parent, at, at + WORDS[d], child, at, at + WORDS[d]),
                    DRAWS[d] + ": the child drew what its parent drew: " + out);
        }
    }

    private static long[] words(List<String> out, String key) {
        String hex = TestSupport.field(out, key);
        ByteBuffer b = ByteBuffer.wrap(TestSupport.hex(hex)).order(ByteOrder.LITTLE_ENDIAN);
        long[] w = new long[b.remaining() / 8];
        b.asLongBuffer().get(w);
        assertEquals(TOTAL, w.length, key + ": " + out);
        return w;
    }

    /** The launcher that makes the kernel refuse MADV_WIPEONFORK; the test is skipped without it. */
    private static List<String> launcher() throws Exception {
        Path exe = DIR.resolve("no_wipeonfork");
        assumeTrue(compile(List.of("-O2", "-o", exe.toString(),
                TestSupport.repoFile("tests/no_wipeonfork.c").toAbsolutePath().toString())), "no working cc");
        Process check = new ProcessBuilder(exe.toString(), "--check").redirectErrorStream(true).start();
        String log = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = check.waitFor();
        assumeTrue(status != 77, "no_wipeonfork --check: the seccomp filter cannot be installed here: " + log);
        assertEquals(0, status, "no_wipeonfork --check: " + log);
        return List.of(exe.toString(), "--");
    }

    /**
     * One child JVM (under the launcher command, if any) that draws, raw-forks, and draws again
     * in both processes; its output has both sides' words.
     */
    private static List<String> run(List<String> launcher, String path, String mode) throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the raw fork is Linux's system call");
        Path lib = DIR.resolve("librawfork.so");
        Path jinc = Paths.get(System.getProperty("java.home"), "include");
        assumeTrue(Files.isDirectory(jinc), "no JNI headers in " + jinc);
        assumeTrue(compile(List.of("-std=c11", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror",
                "-I", jinc.toString(), "-I", jinc.resolve("linux").toString(), "-o", lib.toString(),
                TestSupport.repoFile("java/src/test/c/rawfork_jni.c").toAbsolutePath().toString())),
                "no working cc");
        Path childOut = Files.createTempFile(DIR, "child", ".bin");
        List<String> cmd = new ArrayList<>(launcher);
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        // The child of a raw fork has the forking thread alone: no VM thread to end a safepoint,
        // no GC or compiler thread. Nothing is compiled (-Xint), the heap is large enough for no
        // collection, and no safepoint is made only because time passed, so that none is under way
        // at the fork.
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", path, "-Xint", "-XX:+UseSerialGC", "-Xms64m",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0",
                "-cp", "target/classes" + File.pathSeparator + "target/test-classes",
                Child.class.getName(), lib.toString(), childOut.toString(), mode));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the child JVM did not finish in 120 s");
        }
        List<String> out = TestSupport.output(p);
        Files.deleteIfExists(childOut);
        return out;
    }

    private static boolean compile(List<String> args) throws IOException, InterruptedException {
        Files.createDirectories(DIR);
        List<String> cmd = new ArrayList<>();
        cmd.add("cc");
        cmd.addAll(args);
        Process cc;
        try {
            cc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            return false;
        }
        String log = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (cc.waitFor() != 0) {
            throw new AssertionError("cc failed: " + cmd + ": " + log);
        }
        return true;
    }

    /**
     * Run in the child JVM: args are the raw-fork library, the file for the forked child's words,
     * and "new-epoch" or "" (what the forked child calls first).
     */
    public static final class Child {
        private Child() {}

        private static final byte[] SMALL = new byte[16];
        private static final byte[] LARGE = new byte[64];

        /** Every draw, its words into w (a UUID's as its two halves). */
        static void draw(ShakeRandom r, long[] w) {
            w[0] = r.nextLong();
            w[1] = r.nextInt();
            r.nextBytes(SMALL);
            w[2] = le(SMALL, 0);
            w[3] = le(SMALL, 8);
            java.util.UUID u = ShakeRandom.randomUUID();
            w[4] = u.getMostSignificantBits();
            w[5] = u.getLeastSignificantBits();
            r.nextBytes(LARGE);
            for (int i = 0; i < 8; i++) {
                w[6 + i] = le(LARGE, 8 * i);
            }
        }

        private static long le(byte[] b, int at) {
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = v << 8 | (b[at + i] & 0xff);
            }
            return v;
        }

        private static String hex(long[] w) {
            ByteBuffer b = ByteBuffer.allocate(8 * w.length).order(ByteOrder.LITTLE_ENDIAN);
            b.asLongBuffer().put(w);
            return TestSupport.toHex(b.array());
        }

        public static void main(String[] args) throws Exception {
            System.load(args[0]);
            byte[] path = (args[1] + "\0").getBytes(StandardCharsets.UTF_8);
            boolean newEpoch = args.length > 2 && args[2].equals("new-epoch");
            ShakeRandom r = new ShakeRandom();
            long[] parent = new long[TOTAL];
            long[] child = new long[TOTAL];
            draw(r, parent); // every class loaded; this thread's buffer holds words to come
            System.out.println("native=" + ShakeRandom.isNative());
            if (ShakeRandom.isNative()) {
                System.out.println("buffered=" + NativeSystemGenerator.BUFFERED);
                System.out.println("guard=" + NativeSystemGenerator.FORK_GUARD);
            }
            System.out.flush();
            int pid = RawFork.fork();
            if (pid == 0) {
                if (newEpoch) {
                    ShakeRandom.newEpoch();
                }
                draw(r, child);
                RawFork.writeAndExit(path, child);
            }
            if (pid < 0) {
                throw new AssertionError("fork: errno " + -pid);
            }
            draw(r, parent);
            int status = RawFork.waitFor(pid, 60);
            if (status != 0) {
                throw new AssertionError("the forked child: " + (status < 0 ? "no exit in 60 s" : "status " + status));
            }
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(Paths.get(args[1]))).order(ByteOrder.LITTLE_ENDIAN);
            b.asLongBuffer().get(child);
            System.out.println("parent=" + hex(parent));
            System.out.println("child=" + hex(child));
        }
    }
}
