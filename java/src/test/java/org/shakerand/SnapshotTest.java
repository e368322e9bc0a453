// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Snapshots (docs/system.md, "Snapshots and clones"): after ShakeRandom.newEpoch, or CRaC's
 * before-checkpoint and after-restore notifications driven through org.crac's global context as a
 * restore would, nothing this thread had buffered is handed out (native path: its words are
 * compared with what follows) and the generator reseeds (pure path: its seed count). On either
 * path only one runs per JVM; the build runs the suite on both.
 */
class SnapshotTest {
    /** Draws, then runs restore, then checks that what comes next is of a new epoch. */
    private static void afterRestoreNothingOldIsServed(Runnable restore) {
        ShakeRandom.randomUUID(); // this thread's buffer or generator holds output now
        if (SystemGenerator.NATIVE) {
            if (NativeSystemGenerator.heldForTest().length == 0) {
                SystemGenerator.u64(); // the UUID took the buffer's last words: a refill
            }
            long[] held = NativeSystemGenerator.heldForTest();
            assertTrue(held.length > 0, "the buffer holds words to come");
            restore.run();
            long[] next = {SystemGenerator.u64(), SystemGenerator.u64()};
            for (long h : held) {
                assertFalse(h == next[0] || h == next[1], "a word buffered before the restore");
            }
        } else {
            int before = JavaSystemGenerator.reseedsForTest();
            restore.run();
            SystemGenerator.u64();
            assertEquals(before + 1, JavaSystemGenerator.reseedsForTest(), "reseeded at the next draw");
        }
    }

    @Test
    void newEpochDropsWhatThisThreadHeld() {
        afterRestoreNothingOldIsServed(ShakeRandom::newEpoch);
    }

    /**
     * org.crac.Core.checkpointRestore(), forwarded by org.crac to the stand-in CRaC JDK of
     * org.shakerand.cractest (the tests' JVM arguments name it), which notifies the resources as
     * a CRaC JDK does around a checkpoint and restore.
     */
    @Test
    void cracCheckpointAndRestoreStartANewEpoch() {
        ShakeRandom.randomUUID(); // the system generator set up, its hooks registered
        assertTrue(org.shakerand.cractest.Core.registered() > 0, "no CRaC resource registered");
        afterRestoreNothingOldIsServed(() -> {
            try {
                org.crac.Core.checkpointRestore();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    /**
     * The same through an instance this thread owns (its draws skip the ThreadLocal lookup):
     * nextLong and nextInt(bound) after a new epoch take nothing this thread had buffered.
     */
    @Test
    void newEpochReachesTheOwnersFastPath() {
        ShakeRandom r = new ShakeRandom();
        r.nextInt(6); // this thread owns r from here on
        if (SystemGenerator.NATIVE) {
            if (NativeSystemGenerator.heldForTest().length < 2) {
                r.nextLong(); // the buffer's last word: a refill
            }
            long[] held = NativeSystemGenerator.heldForTest();
            assertTrue(held.length >= 2, "the buffer holds words to come");
            ShakeRandom.newEpoch();
            long next = r.nextLong();
            int bounded = r.nextInt(1 << 30); // 2^30 divides 2^32: the low word's top 30 bits
            for (long h : held) {
                assertFalse(h == next, "nextLong: a word buffered before the new epoch");
                assertFalse((int) h >>> 2 == bounded || (int) (h >>> 32) >>> 2 == bounded,
                        "nextInt(bound): a word buffered before the new epoch");
            }
        } else {
            int before = JavaSystemGenerator.reseedsForTest();
            ShakeRandom.newEpoch();
            r.nextLong();
            assertEquals(before + 1, JavaSystemGenerator.reseedsForTest(), "reseeded at the next draw");
        }
    }

    /**
     * On the native path an int is half a buffered word: the low half, then the high half kept
     * as the spare. A new epoch drops the spare: the next nextInt is not it.
     */
    @Test
    void newEpochDropsTheSpareHalf() {
        if (!SystemGenerator.NATIVE) {
            return;
        }
        ShakeRandom r = new ShakeRandom();
        r.nextLong(); // this thread owns r from here on
        NativeSystemGenerator.Buffer b =
                (NativeSystemGenerator.Buffer) SystemGenerator.local(Thread.currentThread());
        if (b.spare >= 0) {
            r.nextInt(); // a half another test left
        }
        if (NativeSystemGenerator.WORDS - b.pos < 2) {
            r.nextLong(); // the buffer's last word: a refill
        }
        long word = b.w[b.pos];
        assertEquals((int) word, r.nextInt(), "the low half first");
        assertEquals(word & 0xFFFFFFFF00000000L, b.w[b.spare], "the low half zeroed as it is handed out");
        ShakeRandom.newEpoch();
        int next = r.nextInt();
        assertNotEquals((int) (word >>> 32), next, "the spare half of the old epoch was handed out");
        assertEquals(-1, b.spare, "a refill, which keeps no spare");
        long fresh = b.w[b.pos];
        assertEquals((int) fresh, r.nextInt(), "the low half");
        assertEquals((int) (fresh >>> 32), r.nextInt(), "then the high half");
        assertEquals(0, b.w[b.pos - 1], "and the word zeroed");
    }

    /**
     * The buffers read the C library's live epoch word (through a MemorySegment on JDK 22 and
     * later, sun.misc.Unsafe before): a new epoch set in C moves what they read.
     */
    @Test
    void epochWordIsReadLive() {
        if (!SystemGenerator.NATIVE) {
            return;
        }
        assertEquals(Runtime.version().feature() >= 22 ? "MemorySegment" : "Unsafe",
                NativeSystemGenerator.WORD_ACCESS, "the word's reader");
        long before = NativeSystemGenerator.epoch();
        ShakeRandom.newEpoch();
        long after = NativeSystemGenerator.epoch();
        assertTrue(after != before, "a new epoch moves the word the buffers read");
        assertEquals(after, SystemGenerator.epochWord());
    }

    @Test
    void vmGenerationCounterWatchedOnlyWhereThereIsOne() {
        // Either path watches only a readable vmclock device (the pure one: one it can map).
        if (!java.nio.file.Files.isReadable(java.nio.file.Path.of("/dev/vmclock0"))) {
            assertFalse(ShakeRandom.watchesVmGeneration());
        }
    }

    /** After a new epoch a version 7 UUID moves to a later millisecond with a fresh counter. */
    @Test
    void uuid7LeavesTheSnapshotsMillisecond() {
        ShakeRandom r = new ShakeRandom();
        for (int i = 0; i < 20; i++) {
            long a = r.nextUUIDv7().getMostSignificantBits() >>> 16;
            ShakeRandom.newEpoch();
            long b = r.nextUUIDv7().getMostSignificantBits() >>> 16;
            assertTrue(b > a, "after newEpoch: millisecond " + b + ", before " + a);
        }
    }

    /** setSeed drops a spare half with the buffer: the next nextInt is not the zeroed half (0). */
    @Test
    void setSeedDropsTheSpareHalf() {
        if (!SystemGenerator.NATIVE) {
            return;
        }
        ShakeRandom r = new ShakeRandom();
        int zeros = 0;
        for (int i = 0; i < 64; i++) {
            r.nextLong();
            r.nextInt(); // a spare half now
            r.setSeed(new byte[] {1});
            zeros += r.nextInt() == 0 ? 1 : 0;
        }
        assertTrue(zeros < 2, zeros + " of 64 nextInt after setSeed were 0");
    }
}
