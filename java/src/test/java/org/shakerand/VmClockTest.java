// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pure-Java system generator's watch of the vmclock page (VmClock), fed a regular file laid
 * out as the kernel's struct vmclock_abi, as the C core's tests feed theirs (tests/test_snapshot.cpp),
 * read as the device is (a positional read before every draw): a restore is played by copying a
 * generator's engine (the snapshot's state) and comparing what the generator hands out after the
 * page's word moved with what the copy continues with. The jitter sample after a restore is
 * checked in a child JVM, whose epoch no other test has moved.
 */
class VmClockTest {
    @TempDir
    Path dir;

    /** A page: magic, size, version 1, an even sequence count, the marker 1, flags, counter 0. */
    private Path page(long flags) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, VmClock.MAGIC);
        b.putInt(VmClock.SIZE_OFFSET, VmClock.ABI_BYTES);
        b.putShort(VmClock.VERSION_OFFSET, (short) 1);
        b.putInt(VmClock.SEQ_OFFSET, 2);
        b.putLong(VmClock.DISRUPTION_OFFSET, 1);
        b.putLong(VmClock.FLAGS_OFFSET, flags);
        b.putLong(VmClock.VM_GEN_OFFSET, 0);
        Path p = Files.createTempFile(dir, "vmclock", ".page");
        Files.write(p, b.array());
        return p;
    }

    /** Writes a little-endian value of n bytes at off, as the hypervisor would (seen by the next read). */
    private static void poke(Path p, int off, long v, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v);
        b.limit(n);
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
            c.write(b, off);
        }
    }

    /** The engine's state copied, as a snapshot holds it: its continuation without a reseed. */
    private static BufferedStream copy(BufferedStream e) {
        BufferedStream c;
        if (e instanceof JavaEngines.ChaCha8) {
            JavaEngines.ChaCha8 d = new JavaEngines.ChaCha8(new byte[32]);
            System.arraycopy(((JavaEngines.ChaCha8) e).key, 0, d.key, 0, 8);
            c = d;
        } else {
            JavaEngines.X8 d = new JavaEngines.X8(new byte[32]);
            System.arraycopy(((JavaEngines.X8) e).key, 0, d.key, 0, 4);
            c = d;
        }
        System.arraycopy(e.buf, 0, c.buf, 0, e.buf.length);
        c.pos = e.pos;
        return c;
    }

    /** Whether g's next word is the continuation of its state now, i.e. g did not reseed. */
    private static boolean continues(JavaSystemGenerator.ThreadGenerator g, Runnable between) {
        BufferedStream snapshot = copy(g.engine);
        int before = g.reseeds;
        between.run();
        long next = g.u64();
        long cont = snapshot.u64();
        boolean same = next == cont;
        assertEquals(same, g.reseeds == before, "a reseed iff the stream left the snapshot's");
        return same;
    }

    private static Runnable poking(Path p, int off, long v) {
        return () -> {
            try {
                poke(p, off, v, 8);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        };
    }

    private static JavaSystemGenerator.ThreadGenerator watching(Path p) {
        VmClock vm = VmClock.open(p, false);
        assertNotNull(vm, "the page was not accepted");
        JavaSystemGenerator.ThreadGenerator g = new JavaSystemGenerator.ThreadGenerator(vm);
        g.u64();
        return g;
    }

    @Test
    void aMovedMarkerReseedsBeforeTheNextWord() throws IOException {
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        assertTrue(continues(g, () -> {}), "the control: an unmoved page, the snapshot's stream");
        assertFalse(continues(g, poking(p, VmClock.DISRUPTION_OFFSET, 2)), "the marker moved");
        assertTrue(continues(g, () -> {}), "once per move");
        assertFalse(continues(g, poking(p, VmClock.DISRUPTION_OFFSET, 3)), "and again");
        // Through fill and u32 too: the check precedes every kind of draw.
        poke(p, VmClock.DISRUPTION_OFFSET, 4, 8);
        g.fill(new byte[3], 0, 3);
        assertEquals(4, g.reseeds);
        poke(p, VmClock.DISRUPTION_OFFSET, 5, 8);
        g.u32();
        assertEquals(5, g.reseeds);
    }

    @Test
    void withTheFlagTheCounterIsWatchedAndTheMarkerIsNot() throws IOException {
        Path p = page(VmClock.FLAG_VM_GEN_KEPT);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        assertTrue(VmClock.open(p, false).watchesCounter());
        assertTrue(continues(g, poking(p, VmClock.DISRUPTION_OFFSET, 2)), "the marker alone");
        assertFalse(continues(g, poking(p, VmClock.VM_GEN_OFFSET, 1)), "the counter moved");
    }

    @Test
    void withoutTheFlagTheCountersBytesAreNotWatched() throws IOException {
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        assertFalse(VmClock.open(p, false).watchesCounter());
        assertTrue(continues(g, poking(p, VmClock.VM_GEN_OFFSET, 7)), "the counter's bytes, no flag");
    }

    @Test
    void aSequenceCountHeldOddDoesNotHang() throws IOException {
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        poke(p, VmClock.SEQ_OFFSET, 3, 4);
        assertFalse(continues(g, poking(p, VmClock.DISRUPTION_OFFSET, 2)), "reseeded, read after the tries");
        assertTrue(continues(g, () -> {}), "and seeded under the value then read");
    }

    /**
     * An interrupted thread's read closes a FileChannel for every thread: the watch reads with the
     * status cleared and hands it back, and opens the channel again when another thread's
     * interrupt (during that thread's read) closed it.
     */
    @Test
    void anInterruptKeepsTheWatchAndItsStatus() throws IOException {
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        Runnable interrupt = () -> Thread.currentThread().interrupt();
        try {
            assertTrue(continues(g, interrupt), "interrupted, nothing moved: a reseed");
            assertTrue(Thread.interrupted(), "the interrupt status was lost");
            poke(p, VmClock.DISRUPTION_OFFSET, 2, 8);
            assertFalse(continues(g, interrupt), "interrupted, a move not seen");
            assertTrue(Thread.interrupted(), "the interrupt status was lost");
        } finally {
            Thread.interrupted();
        }
        assertEquals(0, g.vm().reopensForTest(), "an interrupted read closed the channel");
        g.vm().closeForTest(); // as another thread's interrupt during its read would
        assertTrue(continues(g, () -> {}), "a channel closed under the watch: a reseed");
        assertEquals(1, g.vm().reopensForTest());
        assertFalse(continues(g, poking(p, VmClock.DISRUPTION_OFFSET, 3)), "a move not seen after it");
    }

    /** A page that can no longer be read vouches for nothing: every draw reseeds. */
    @Test
    void anUnreadablePageReseedsEveryDraw() throws IOException {
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
            c.truncate(VmClock.DISRUPTION_OFFSET); // the watched word is gone
        }
        assertFalse(continues(g, () -> {}), "unreadable: reseeded");
        assertFalse(continues(g, () -> {}), "and again");
    }

    @Test
    void aPageThatIsNotOneIsIgnored() throws IOException {
        Path p = page(0);
        poke(p, 0, VmClock.MAGIC + 1, 4);
        assertNull(VmClock.open(p, false), "wrong magic");
        p = page(0);
        poke(p, VmClock.VERSION_OFFSET, 2, 2);
        assertNull(VmClock.open(p, false), "version 2");
        p = page(0);
        poke(p, VmClock.SIZE_OFFSET, VmClock.ABI_BYTES - 1, 4);
        assertNull(VmClock.open(p, false), "a region smaller than the structure");
        p = page(0);
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
            c.truncate(VmClock.ABI_BYTES - 1);
        }
        assertNull(VmClock.open(p, false), "a short file");
        assertNull(VmClock.open(dir.resolve("absent"), false), "no file");
        assertNull(VmClock.open(dir, false), "a directory");
        assertNull(VmClock.open(page(0), true), "a regular file where the device is asked for");
        p = page(0);
        assertNotNull(VmClock.open(p, false), "the same page, unchanged, is accepted");
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
            c.truncate(VmClock.ABI_BYTES);
        }
        assertNotNull(VmClock.open(p, false), "exactly the structure is enough");
    }

    /**
     * The bytes this thread has read through system calls, by the kernel's own count (rchar of
     * /proc/thread-self/io), less what reading that file took the last time: out[0] the count
     * now, out[1] the length read now (which the next count includes).
     */
    private static long[] threadBytesRead(Path io, long[] last) throws IOException {
        String s = Files.readString(io);
        long rchar = 0;
        for (String line : s.split("\n")) {
            if (line.startsWith("rchar:")) {
                rchar = Long.parseLong(line.substring(6).trim());
            }
        }
        long len = s.getBytes(java.nio.charset.StandardCharsets.US_ASCII).length;
        long[] now = {rchar, len};
        if (last != null) {
            now[0] -= last[1];
        }
        return now;
    }

    /**
     * After a restore every seed reads the kernel: a draw that reseeds after a move reads, on
     * this thread and by the kernel's count, the page twice (the check and the seed's word) and
     * at least the seed's OS_SEED_BYTES besides; a draw without a move, the page once. SUN's
     * NativePRNG, the source before, served such seeds from bytes it had read up to 100 ms before.
     */
    @Test
    void everySeedAfterARestoreReadsTheKernel() throws IOException {
        Path io = Path.of("/proc/thread-self/io");
        assumeTrue(Files.isReadable(io) && Files.isReadable(JavaSystemGenerator.URANDOM),
                "Linux with per-thread I/O accounting only");
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        poke(p, VmClock.DISRUPTION_OFFSET, 2, 8);
        g.u64(); // the classes of a restore's path loaded, their reads before the counts
        threadBytesRead(io, threadBytesRead(io, null));
        long page = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long[] before = threadBytesRead(io, null);
            g.u64();
            long[] after = threadBytesRead(io, before);
            page = Math.min(page, after[0] - before[0]);
        }
        assertTrue(page > 0, "a draw read nothing");
        for (int i = 0; i < 5; i++) {
            poke(p, VmClock.DISRUPTION_OFFSET, 3 + i, 8);
            int reseeds = g.reseeds;
            long[] before = threadBytesRead(io, null);
            g.u64();
            long[] after = threadBytesRead(io, before);
            assertEquals(reseeds + 1, g.reseeds, "no reseed after the move");
            long read = after[0] - before[0];
            assertTrue(read >= 2 * page + JavaSystemGenerator.OS_SEED_BYTES, "restore " + i
                    + ": the reseed read " + read + " bytes, the page alone " + page + " a read");
        }
    }

    /** Whether this process has path open (a descriptor in /proc/self/fd naming it). */
    private static boolean isOpen(Path path) throws IOException {
        Path real = path.toRealPath();
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(real);
                } catch (IOException e) {
                    return false; // closed meanwhile (the listing's own descriptor)
                }
            });
        }
    }

    /**
     * CRaC refuses a checkpoint with a file open: the pure path's hooks close the page before it
     * (draws in between reseed, and do not open it again) and open it after the restore, where a
     * move is seen again. The hooks are driven by JavaSystemGenerator's, on a watch of a file.
     */
    @Test
    void aCheckpointClosesThePageAndTheRestoreOpensIt() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "Linux only");
        Path p = page(0);
        JavaSystemGenerator.ThreadGenerator g = watching(p);
        assertTrue(isOpen(p), "the control: the watch holds the page open");
        g.vm().closeForCheckpoint();
        assertFalse(isOpen(p), "open at the checkpoint");
        assertFalse(continues(g, () -> {}), "closed: a draw reseeds");
        assertFalse(isOpen(p), "a draw before the checkpoint opened the page again");
        g.vm().reopenAfterRestore();
        assertTrue(isOpen(p), "not opened after the restore");
        g.u64();
        assertTrue(continues(g, () -> {}), "open again, unmoved: no reseed");
        assertFalse(continues(g, poking(p, VmClock.DISRUPTION_OFFSET, 2)), "a move after the restore");
    }

    /**
     * The seeds of a child JVM whose operating-system bytes are fixed (0xA5 ^ i, as the C core's
     * test): without a restore no jitter sample is taken and the material is the conditioner's of
     * the bytes and the counter alone; after the marker moves, and after newEpoch, one sample per
     * restore for the process, and the material has that sample's digest (domain 0x26); so has
     * generateSeed's (entropy), and its first after newEpoch takes the sample. The
     * conditioner with and without a digest is held to the model by JavaSystemPolicyTest.
     */
    @Test
    void aJitterSampleIsMixedInAfterARestoreOnly() throws Exception {
        Path p = page(0);
        List<String> out = TestSupport.output(TestSupport.startChild(List.of("-Dshakerand.native=false"),
                JitterChild.class.getName(), p.toString()));
        for (String step : JitterChild.STEPS) {
            assertEquals("true", TestSupport.field(out, step + ".model"), step + ": " + out);
        }
        assertEquals("0", TestSupport.field(out, "start.samples"), "a sample without a restore");
        assertEquals("0", TestSupport.field(out, "reseed.samples"), "a sample at a reseed, no restore");
        assertEquals("1", TestSupport.field(out, "marker.samples"), "no sample after the marker moved");
        assertEquals("1", TestSupport.field(out, "again.samples"), "a second sample for one restore");
        assertEquals("2", TestSupport.field(out, "epoch.samples"), "no sample after newEpoch");
        assertEquals("0", TestSupport.field(out, "seedStart.samples"), "generateSeed sampled, no restore");
        assertEquals("1", TestSupport.field(out, "seedMarker.samples"), "generateSeed sampled again");
        assertEquals("2", TestSupport.field(out, "seedEpoch.samples"), "generateSeed after newEpoch: no sample");
    }

    /**
     * The child of aJitterSampleIsMixedInAfterARestoreOnly: at each step a fresh seed's first
     * bytes, STEP.model (whether they are those the model's material keys, with the digest after
     * a restore and without it before) and STEP.samples (the samples taken so far).
     */
    static final class JitterChild {
        static final List<String> STEPS = List.of("start", "reseed", "seedStart", "marker", "again",
                "seedMarker", "seedEpoch", "epoch");

        private static void fixedOs(byte[] out) {
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (0xA5 ^ i);
            }
        }

        /**
         * Whether out is the first bytes of the engine the model's material keys: the conditioner
         * of the fixed bytes and the last counter, with the last sample's digest if digest.
         */
        private static boolean isModels(byte[] out, boolean digest) {
            byte[] os = new byte[JavaSystemGenerator.OS_SEED_BYTES];
            fixedOs(os);
            byte[] material = JavaSystemGenerator.conditioner(os, JavaSystemGenerator.lastCounterForTest(),
                    digest ? JavaSystemGenerator.lastJitterDigestForTest() : null,
                    JavaSystemGenerator.SEED_MATERIAL_BYTES);
            byte[] seed = JavaSystemGenerator.engineSeed(JavaSystemGenerator.KIND, material, null);
            BufferedStream e = JavaSystemGenerator.KIND == ShakeRandom.Kind.CHACHA8RAND
                    ? new JavaEngines.ChaCha8(seed) : new JavaEngines.X8(seed);
            byte[] want = new byte[out.length];
            e.fill(want, 0, want.length);
            return java.util.Arrays.equals(out, want);
        }

        /**
         * generateSeed's bytes (entropy) with vm watched, and whether they are the model's: the
         * conditioner of the fixed bytes and the last counter, with the last digest if digest.
         */
        private static void reportEntropy(String step, VmClock vm, boolean digest) {
            byte[] out = JavaSystemGenerator.entropy(48, vm, JitterChild::fixedOs);
            byte[] os = new byte[JavaSystemGenerator.OS_SEED_BYTES];
            fixedOs(os);
            byte[] want = JavaSystemGenerator.conditioner(os, JavaSystemGenerator.lastCounterForTest(),
                    digest ? JavaSystemGenerator.lastJitterDigestForTest() : null, out.length);
            System.out.println(step + ".model=" + java.util.Arrays.equals(out, want));
            System.out.println(step + ".samples=" + JavaSystemGenerator.jitterSamplesForTest());
        }

        /** g's next 64 bytes, the first of a seed made just before or by this draw. */
        private static void report(String step, JavaSystemGenerator.ThreadGenerator g, boolean digest) {
            byte[] out = new byte[64];
            g.fill(out, 0, out.length);
            System.out.println(step + ".model=" + isModels(out, digest));
            System.out.println(step + ".samples=" + JavaSystemGenerator.jitterSamplesForTest());
        }

        public static void main(String[] args) throws IOException {
            VmClock vm = VmClock.open(Path.of(args[0]), false);
            JavaSystemGenerator.ThreadGenerator g = new JavaSystemGenerator.ThreadGenerator(vm, JitterChild::fixedOs);
            report("start", g, false);
            g.reseed(null);
            report("reseed", g, false);
            reportEntropy("seedStart", vm, false);
            poke(Path.of(args[0]), VmClock.DISRUPTION_OFFSET, 2, 8);
            report("marker", g, true);
            report("again", new JavaSystemGenerator.ThreadGenerator(vm, JitterChild::fixedOs), true);
            reportEntropy("seedMarker", vm, true);
            new JavaSystemGenerator().newEpoch();
            reportEntropy("seedEpoch", vm, true);
            report("epoch", g, true);
        }
    }

    @Test
    void theSystemGeneratorWatchesWhatTheDeviceGives() {
        assertEquals(VmClock.device() != null, new JavaSystemGenerator().watchesVmGeneration());
        if (!Files.exists(Path.of(VmClock.DEVICE))) {
            assertNull(JavaSystemGenerator.VM, "no device, nothing watched");
            assertEquals(0, new JavaSystemGenerator().vmGenerationWord());
        }
    }
}
