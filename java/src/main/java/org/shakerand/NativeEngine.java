// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;

/**
 * A seeded engine in native memory, read through a 512-byte Java buffer (one JNI call per
 * buffer; large fills go to native code in one call).
 */
final class NativeEngine extends BufferedStream {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int SIZE = 512;

    /** Frees (and wipes) the native engine when the generator becomes unreachable. */
    private static final class Handle implements Runnable {
        volatile long ptr;

        @Override
        public void run() {
            long p = ptr;
            ptr = 0;
            if (p != 0) {
                NativeLib.engineFree(p);
            }
        }
    }

    private final Handle handle = new Handle();
    private final Cleaner.Cleanable cleanable;

    NativeEngine(int kind, byte[] seed) {
        super(SIZE);
        long p = NativeLib.engineNew(kind, seed);
        if (p == 0) {
            throw new IllegalStateException("shakerand: engine could not be created");
        }
        handle.ptr = p;
        cleanable = CLEANER.register(this, handle);
        prime();
    }

    /**
     * One native call. Synchronized: concurrent calls on one engine would race on its read
     * position in C memory, and misuse from several threads must not corrupt the heap. The fence
     * keeps this engine, and so its native memory, alive until the call returns (the fill may
     * release its critical region between pieces, letting a GC run the cleaner).
     */
    private synchronized void nativeFill(byte[] out, int off, int len) {
        try {
            long p = handle.ptr;
            if (p == 0) {
                throw new IllegalStateException("shakerand: seeded generator used after wipe");
            }
            NativeLib.engineFill(p, out, off, len);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    void refill() {
        nativeFill(buf, 0, SIZE);
    }

    @Override
    int fillWhole(byte[] out, int off, int len) {
        int whole = len - len % SIZE;
        nativeFill(out, off, whole);
        return whole;
    }

    @Override
    void wipeState() {
        cleanable.clean();
    }

    /** Synchronized with nativeFill: the native memory is freed here. */
    @Override
    synchronized void wipe() {
        super.wipe();
    }
}
