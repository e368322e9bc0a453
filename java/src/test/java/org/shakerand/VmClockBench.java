// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
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
 * generator (JavaSystemGenerator.ThreadGenerator, what the pure path's nextLong and nextBytes
 * draw from) with nothing watched and with a regular file laid out as the page watched (the
 * device is not on this machine: the watched figure is the device's minus its driver), beside
 * ThreadLocalRandom and SecureRandom NativePRNG, in one run; and a positional read of the
 * structure's first 24 bytes from that file and from /dev/zero, a character device, to estimate
 * the device's read. In this package for the generator's package-private constructor;
 * run-bench.sh runs it into BENCHMARKS.md.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Dshakerand.native=false"})
public class VmClockBench {

    @State(Scope.Thread)
    public static class Generators {
        JavaSystemGenerator.ThreadGenerator unwatched;
        JavaSystemGenerator.ThreadGenerator watched;
        SecureRandom nativePrng;
        final byte[] bytes16 = new byte[16];
        Path page;
        FileChannel file;
        FileChannel devZero;
        final ByteBuffer header = ByteBuffer.allocateDirect(VmClock.DISRUPTION_OFFSET + 8);

        @Setup(Level.Trial)
        public void setup() throws Exception {
            ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0, VmClock.MAGIC).putInt(VmClock.SIZE_OFFSET, 4096)
                    .putShort(VmClock.VERSION_OFFSET, (short) 1).putLong(VmClock.DISRUPTION_OFFSET, 1);
            page = Files.createTempFile("vmclock", ".page");
            Files.write(page, b.array());
            VmClock vm = VmClock.open(page, false);
            if (vm == null) {
                throw new IllegalStateException("the page was not accepted");
            }
            unwatched = new JavaSystemGenerator.ThreadGenerator(null);
            watched = new JavaSystemGenerator.ThreadGenerator(vm);
            nativePrng = SecureRandom.getInstance("NativePRNG", "SUN");
            file = FileChannel.open(page, StandardOpenOption.READ);
            devZero = FileChannel.open(Path.of("/dev/zero"), StandardOpenOption.READ);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            file.close();
            devZero.close();
            Files.deleteIfExists(page);
        }
    }

    @Benchmark
    public long pureNextLongUnwatched(Generators g) {
        return g.unwatched.u64();
    }

    @Benchmark
    public long pureNextLongWatched(Generators g) {
        return g.watched.u64();
    }

    @Benchmark
    public long threadLocalRandomNextLong() {
        return ThreadLocalRandom.current().nextLong();
    }

    @Benchmark
    public long nativePrngNextLong(Generators g) {
        return g.nativePrng.nextLong();
    }

    @Benchmark
    public byte[] pureNextBytes16Unwatched(Generators g) {
        g.unwatched.fill(g.bytes16, 0, 16);
        return g.bytes16;
    }

    @Benchmark
    public byte[] pureNextBytes16Watched(Generators g) {
        g.watched.fill(g.bytes16, 0, 16);
        return g.bytes16;
    }

    @Benchmark
    public byte[] threadLocalRandomNextBytes16(Generators g) {
        ThreadLocalRandom.current().nextBytes(g.bytes16);
        return g.bytes16;
    }

    @Benchmark
    public byte[] nativePrngNextBytes16(Generators g) {
        g.nativePrng.nextBytes(g.bytes16);
        return g.bytes16;
    }

    @Benchmark
    public int preadFile(Generators g) throws IOException {
        g.header.clear();
        return g.file.read(g.header, 0);
    }

    @Benchmark
    public int preadDevZero(Generators g) throws IOException {
        g.header.clear();
        return g.devZero.read(g.header, 0);
    }
}
