// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.bench;

import java.security.SecureRandom;
import java.security.Security;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.shakerand.ShakeRandProvider;
import org.shakerand.ShakeRandom;

/**
 * drnglib's three benchmarks re-made with JMH: (1) nextLong, (2) nextBytes on 2 MiB arrays,
 * each thread with its own generator as in drnglib; (3) UUIDs. Throughput is summed over the
 * threads (-t 1, -t 2), as drnglib's tables are. Pure Java is the same ShakeRandom code run
 * with -Dshakerand.native=false (run-bench.sh passes it).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"})
public class DrngBench {

    @State(Scope.Thread)
    public static class Generator {
        @Param({"Random", "ThreadLocalRandom", "SecureRandom", "NativePRNG", "DRBG", "ShakeRandom"})
        public String impl;

        Random rng;
        final byte[] buf = new byte[2 << 20];

        @Setup(Level.Trial)
        public void setup() throws Exception {
            switch (impl) {
                case "Random": rng = new Random(); break;
                case "ThreadLocalRandom": rng = ThreadLocalRandom.current(); break;
                case "SecureRandom": rng = new SecureRandom(); break;
                case "NativePRNG": rng = SecureRandom.getInstance("NativePRNG"); break;
                case "DRBG": rng = SecureRandom.getInstance("DRBG"); break;
                case "ShakeRandom": rng = new ShakeRandom(); break;
                default: throw new IllegalArgumentException(impl);
            }
            if (impl.equals("ShakeRandom")) {
                System.out.println("\n# implementation: " + ShakeRandom.implementation());
            }
        }
    }

    /** Benchmark 1: 8 bytes per op. */
    @Benchmark
    public long nextLong(Generator g) {
        return g.rng.nextLong();
    }

    /** Issue 29: a bounded draw (Lemire's method here; JDK 17's Random/TLR use a modulus). */
    @Benchmark
    public int nextIntBound(Generator g) {
        return g.rng.nextInt(1000);
    }

    /** Benchmark 2: 2 MiB per op. */
    @Benchmark
    public byte[] nextBytes2MiB(Generator g) {
        g.rng.nextBytes(g.buf);
        return g.buf;
    }

    @State(Scope.Benchmark)
    public static class JdkUuids {
        /** false: UUID.randomUUID() as shipped; true: with ShakeRand installed first. */
        @Param({"false", "true"})
        public boolean provider;

        @Setup(Level.Trial)
        public void setup() {
            if (provider) {
                Security.insertProviderAt(new ShakeRandProvider(), 1);
            }
            UUID.randomUUID(); // UUID's generator is made now, per fork, with or without it
        }
    }

    /** Benchmark 3: UUID.randomUUID(), one shared SecureRandom inside the JDK. */
    @Benchmark
    public UUID uuidJdk(JdkUuids u) {
        return UUID.randomUUID();
    }

    /** Benchmark 3: ShakeRandom.randomUUID(), the calling thread's generator. */
    @Benchmark
    public UUID uuidShakeRandom() {
        return ShakeRandom.randomUUID();
    }
}
