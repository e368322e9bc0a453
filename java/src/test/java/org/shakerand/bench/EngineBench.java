// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.bench;

import java.security.SecureRandom;
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
import org.shakerand.ShakeRandom;

/**
 * The seeded engines (ShakeRandom.seeded, one per thread) with DrngBench's two stream
 * benchmarks, per kind: native, or pure Java with -Dshakerand.native=false. Not part of
 * run-bench.sh's BENCHMARKS.md section; run it by hand (java/README.md).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"})
public class EngineBench {

    @State(Scope.Thread)
    public static class Seeded {
        @Param({"chacha8rand", "turboshake256x8", "turboshake256", "shake256"})
        public String kind;

        ShakeRandom rng;
        final byte[] buf = new byte[2 << 20];

        @Setup(Level.Trial)
        public void setup() {
            ShakeRandom.Kind k = null;
            for (ShakeRandom.Kind c : ShakeRandom.Kind.values()) {
                if (c.engineName().equals(kind)) {
                    k = c;
                }
            }
            if (k == null) {
                throw new IllegalArgumentException(kind);
            }
            byte[] seed = new byte[k.seedLength() >= 0 ? k.seedLength() : 32];
            new SecureRandom().nextBytes(seed);
            rng = ShakeRandom.seeded(seed, k);
            System.out.println("\n# implementation: " + ShakeRandom.implementation());
        }
    }

    /** 8 bytes per op. */
    @Benchmark
    public long nextLong(Seeded s) {
        return s.rng.nextLong();
    }

    /** 2 MiB per op. */
    @Benchmark
    public byte[] nextBytes2MiB(Seeded s) {
        s.rng.nextBytes(s.buf);
        return s.buf;
    }
}
