// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What watching the vmclock page costs the pure-Java system generator per value: one thread's
 * generator drawing u64 with nothing watched and with a file laid out as the page watched (the
 * device is not on this machine), beside ThreadLocalRandom.nextLong, in one run. In this package
 * for the generator's package-private constructor; run it as
 * {@code java -cp ... org.openjdk.jmh.Main VmClockBench} (run-bench.sh does not).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Dshakerand.native=false"})
public class VmClockBench {

    @State(Scope.Thread)
    public static class Generators {
        JavaSystemGenerator.ThreadGenerator none;
        JavaSystemGenerator.ThreadGenerator watched;
        Path page;

        @Setup(Level.Trial)
        public void setup() throws Exception {
            ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0, VmClock.MAGIC).putInt(VmClock.SIZE_OFFSET, VmClock.ABI_BYTES)
                    .putShort(VmClock.VERSION_OFFSET, (short) 1).putLong(VmClock.DISRUPTION_OFFSET, 1);
            page = Files.createTempFile("vmclock", ".page");
            Files.write(page, b.array());
            VmClock vm = VmClock.map(page, false);
            if (vm == null) {
                throw new IllegalStateException("the page was not accepted");
            }
            none = new JavaSystemGenerator.ThreadGenerator(null);
            watched = new JavaSystemGenerator.ThreadGenerator(vm);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Files.deleteIfExists(page);
        }
    }

    @Benchmark
    public long pureNothingWatched(Generators g) {
        return g.none.u64();
    }

    @Benchmark
    public long pureVmClockWatched(Generators g) {
        return g.watched.u64();
    }

    @Benchmark
    public long threadLocalRandom() {
        return ThreadLocalRandom.current().nextLong();
    }
}
