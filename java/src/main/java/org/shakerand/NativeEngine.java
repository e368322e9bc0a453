// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Arrays;

/** A seeded engine in native memory, read through a small Java buffer (one JNI call per 512 bytes). */
final class NativeEngine implements Source {
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
    private final byte[] buf = new byte[SIZE];
    private int pos = SIZE;

    NativeEngine(int kind, byte[] seed) {
        long p = NativeLib.engineNew(kind, seed);
        if (p == 0) {
            throw new IllegalStateException("shakerand: engine could not be created");
        }
        handle.ptr = p;
        cleanable = CLEANER.register(this, handle);
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

    private void refill() {
        nativeFill(buf, 0, SIZE);
        pos = 0;
    }

    @Override
    public long u64() {
        if (SIZE - pos < 8) {
            return slowWord(8);
        }
        long v = Bytes.le64(buf, pos);
        Bytes.putLe64(buf, pos, 0L);
        pos += 8;
        return v;
    }

    @Override
    public int u32() {
        if (SIZE - pos < 4) {
            return (int) slowWord(4);
        }
        int v = Bytes.le32(buf, pos);
        Bytes.LE32.set(buf, pos, 0);
        pos += 4;
        return v;
    }

    private long slowWord(int n) {
        byte[] t = new byte[8];
        fill(t, 0, n);
        long v = Bytes.le64(t, 0);
        Arrays.fill(t, (byte) 0);
        return v;
    }

    @Override
    public void fill(byte[] out, int off, int len) {
        int n = Math.min(len, SIZE - pos);
        System.arraycopy(buf, pos, out, off, n);
        Arrays.fill(buf, pos, pos + n, (byte) 0);
        pos += n;
        off += n;
        len -= n;
        if (len >= SIZE) {
            nativeFill(out, off, len);
            return;
        }
        if (len > 0) {
            refill();
            System.arraycopy(buf, 0, out, off, len);
            Arrays.fill(buf, 0, len, (byte) 0);
            pos = len;
        }
    }

    synchronized void wipe() {
        Arrays.fill(buf, (byte) 0);
        pos = SIZE;
        cleanable.clean();
    }
}
