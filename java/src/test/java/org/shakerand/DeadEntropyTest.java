// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.DrbgParameters;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The operating system's entropy source dies under a running JVM (the LD_PRELOAD shim the CLI's
 * tests use too, tests/python/fault_shim.c, its entropy fault switched by a file): every draw
 * from a thread's not yet seeded system generator must throw ProviderException, with the C
 * core's reason, instead of aborting the JVM or returning a value; once the source is back, the
 * same calls work.
 */
class DeadEntropyTest {
    /** What shakerand_strerror(SHAKERAND_EENTROPY) says. */
    private static final String REASON = "the operating system's entropy source failed";

    /** The draws the child makes, each on the native path's own route into the C core. */
    private static final List<String> DRAWS = List.of("nextLong", "nextLong.again", "nextBytes.small",
            "nextBytes.large", "randomUUID", "nextUUID", "generateSeed", "setSeed", "reseed");

    @Test
    void deadEntropySourceThrowsProviderExceptionAndRecovers() throws Exception {
        assumeTrue(TestSupport.expectNative(), "native path only: the shim acts on the C core's calls");
        Path dir = Paths.get("target", "dead-entropy").toAbsolutePath();
        Files.createDirectories(dir);
        Path shim = dir.resolve("fault_shim.so");
        assumeTrue(compile(TestSupport.repoFile("tests/python/fault_shim.c"), shim), "no working cc");
        Path flag = dir.resolve("dead");
        Files.deleteIfExists(flag);

        Process p = TestSupport.startChild(
                Map.of("LD_PRELOAD", shim.toString(), "SHAKERAND_TEST_FAULTS", "entropy",
                        "SHAKERAND_TEST_FAULTS_WHILE", flag.toString()),
                List.of("-Dshakerand.native=true"), Child.class.getName(), flag.toString());
        List<String> out = TestSupport.output(p); // a JVM abort (exit 134) fails here
        assertEquals("true", TestSupport.field(out, "native"), out.toString());
        List<String> draws = new ArrayList<>(DRAWS);
        if (Runtime.version().feature() >= 21) {
            draws.add("virtual.nextLong");
        }
        for (String d : draws) {
            String v = TestSupport.field(out, "dead." + d);
            assertTrue(v.startsWith(ProviderException.class.getName() + ": ") && v.contains(REASON),
                    d + " gave " + v);
            assertEquals("ok", TestSupport.field(out, "recovered." + d), out.toString());
        }
        // The thread's generator is seeded now and the source dies again: plain requests go on
        // from the generator; prediction resistance and DRBG reseeds go to the source, and fail.
        assertEquals("ok", TestSupport.field(out, "seeded.nextBytes"), out.toString());
        for (String d : List.of("nextBytes.predictionResistance", "provider.predictionResistance",
                "reseed.params")) {
            String v = TestSupport.field(out, "seeded." + d);
            assertTrue(v.startsWith(ProviderException.class.getName() + ": ") && v.contains(REASON),
                    d + " gave " + v);
        }
    }

    /**
     * The pure-Java path with the operating system's source dead from the start (/dev/urandom,
     * which each seed opens, cannot be opened): every draw throws
     * ProviderException, never a value seeded from anything else (SUN's DRBG would seed itself
     * from thread-timing jitter).
     */
    @Test
    void pureJavaWithoutTheOperatingSystemsSourceThrows() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the shim is an LD_PRELOAD library");
        Path dir = Paths.get("target", "dead-entropy").toAbsolutePath();
        Files.createDirectories(dir);
        Path shim = dir.resolve("fault_shim_pure.so");
        assumeTrue(compile(TestSupport.repoFile("tests/python/fault_shim.c"), shim), "no working cc");
        Process p = TestSupport.startChild(Map.of("LD_PRELOAD", shim.toString(), "SHAKERAND_TEST_FAULTS", "entropy"),
                List.of("-Dshakerand.native=false"), PureChild.class.getName());
        List<String> out = TestSupport.output(p);
        assertEquals("false", TestSupport.field(out, "native"), out.toString());
        for (String d : List.of("nextLong", "nextBytes", "randomUUID", "generateSeed")) {
            String v = TestSupport.field(out, "pure." + d);
            assertTrue(v.startsWith(ProviderException.class.getName() + ": ")
                    && v.contains("entropy source is unavailable"), d + " gave " + v);
        }
    }

    /** Run in the child JVM of the pure-Java case. */
    public static final class PureChild {
        private PureChild() {}

        public static void main(String[] args) {
            System.out.println("native=" + ShakeRandom.isNative());
            ShakeRandom r = new ShakeRandom();
            Child.report("pure.nextLong", r::nextLong);
            Child.report("pure.nextBytes", () -> Child.draw(r, 16));
            Child.report("pure.randomUUID", ShakeRandom::randomUUID);
            Child.report("pure.generateSeed", () -> r.generateSeed(32));
        }
    }

    /** Builds the shim; false if there is no C compiler. */
    private static boolean compile(Path source, Path out) throws IOException, InterruptedException {
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-o", out.toString(), source.toString(), "-ldl")
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            return false;
        }
        String log = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (cc.waitFor() != 0) {
            throw new AssertionError("cc failed on the shim: " + log);
        }
        return true;
    }

    /** Run in the child JVM: args[0] is the flag file that kills the entropy source while it exists. */
    public static final class Child {
        private Child() {}

        public static void main(String[] args) throws Exception {
            Path flag = Paths.get(args[0]);
            System.out.println("native=" + ShakeRandom.isNative());
            Files.createFile(flag);
            drawAll("dead");
            Files.delete(flag);
            drawAll("recovered");
            Files.createFile(flag);
            ShakeRandom r = new ShakeRandom();
            SecureRandom p = SecureRandom.getInstance("ShakeRandom", new ShakeRandProvider());
            report("seeded.nextBytes", () -> draw(r, 64));
            report("seeded.nextBytes.predictionResistance", () -> {
                r.nextBytes(new byte[16], DrbgParameters.nextBytes(-1, true, null));
                return null;
            });
            report("seeded.provider.predictionResistance", () -> {
                p.nextBytes(new byte[16], DrbgParameters.nextBytes(256, true, null));
                return null;
            });
            report("seeded.reseed.params", () -> {
                r.reseed(DrbgParameters.reseed(false, null));
                return null;
            });
            Files.delete(flag);
        }

        private static void drawAll(String phase) throws Exception {
            ShakeRandom r = new ShakeRandom();
            report(phase + ".nextLong", r::nextLong);
            report(phase + ".nextLong.again", r::nextLong);
            report(phase + ".nextBytes.small", () -> draw(r, 16));
            report(phase + ".nextBytes.large", () -> draw(r, 4096));
            report(phase + ".randomUUID", ShakeRandom::randomUUID);
            report(phase + ".nextUUID", r::nextUUID);
            report(phase + ".generateSeed", () -> r.generateSeed(32));
            report(phase + ".setSeed", () -> {
                r.setSeed(new byte[8]);
                return null;
            });
            report(phase + ".reseed", () -> {
                r.reseed();
                return null;
            });
            if (Runtime.version().feature() >= 21) { // a virtual thread calls the C generator per value
                Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
                Thread t = (Thread) start.invoke(null, (Runnable) () -> report(phase + ".virtual.nextLong", r::nextLong));
                t.join();
            }
        }

        static byte[] draw(ShakeRandom r, int n) {
            byte[] b = new byte[n];
            r.nextBytes(b);
            return b;
        }

        /** One line: "ok", or the exception; a ProviderException is what a dead source must give. */
        static void report(String name, Callable<?> call) {
            String result;
            try {
                call.call();
                result = "ok";
            } catch (Exception e) {
                result = e.toString();
            }
            System.out.println(name + "=" + result);
        }
    }
}
