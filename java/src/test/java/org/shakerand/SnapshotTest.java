// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
                assertFalse((int) h >>> 2 == bounded, "nextInt(bound): a word buffered before the new epoch");
            }
        } else {
            int before = JavaSystemGenerator.reseedsForTest();
            ShakeRandom.newEpoch();
            r.nextLong();
            assertEquals(before + 1, JavaSystemGenerator.reseedsForTest(), "reseeded at the next draw");
        }
    }

    @Test
    void vmGenerationCounterWatchedOnlyWhereThereIsOne() {
        // The pure path watches none anywhere; the native one only a readable vmclock device.
        if (!SystemGenerator.NATIVE || !java.nio.file.Files.isReadable(java.nio.file.Path.of("/dev/vmclock0"))) {
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
}
