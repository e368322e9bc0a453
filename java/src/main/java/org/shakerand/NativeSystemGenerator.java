// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;

/**
 * The system generator in C (docs/system.md), through JNI. Platform threads: a buffer of
 * {@link #WORDS} words per thread (in a ThreadLocal) refilled by one JNI call serves ints, longs
 * and UUIDs without a native call per value; large requests go to native code in one call. Virtual threads get no
 * Java buffer: they call the C generator directly (one JNI call per value, which cannot be
 * preempted midway), and the C library's per-thread state lives in the carrier thread, so the
 * number of states is the number of carriers.
 */
final class NativeSystemGenerator implements SystemGenerator.Backend {
    /**
     * Words per refill: 2 KiB. A JNI refill costs about 100 ns before its first byte (the call,
     * pinning the array, the C generator's own checks) and then about 1.5 ns a word with AVX2,
     * so 64 words paid 3 ns a word and 256 pay 1.9 (java/README.md, "Where the time goes").
     */
    static final int WORDS = 256;

    /**
     * A platform thread's buffer of native output; as a stream it serves this thread only. Not a
     * {@link BufferedStream}: that one refills as soon as it is drained (an engine's state must
     * move past what it delivered), while this one refills only when a word is asked for, so a
     * thread that stopped drawing holds no output, and it serves longs from a long[] with no
     * byte assembly.
     */
    static final class Buffer implements RandomStream {
        final long[] w = new long[WORDS];
        int pos = WORDS;
        long epoch, vmGeneration; // the epoch words when it was filled

        @Override
        public long u64() {
            return take();
        }

        @Override
        public int u32() {
            return (int) take();
        }

        @Override
        public void fill(byte[] out, int off, int len) {
            SystemGenerator.fill(out, off, len);
        }

        /**
         * The next word of this thread's buffer (zeroed as it is handed out), if the buffer is
         * still of the C library's epoch (and VM generation, where one is watched).
         */
        long take() {
            int p = pos;
            if (p < WORDS && epoch == epoch() && (!WATCHED || vmGeneration == vmGeneration())) {
                long[] a = w;
                long v = a[p];
                a[p] = 0;
                pos = p + 1;
                return v;
            }
            return refillAndTake();
        }

        /**
         * One JNI call refills the whole buffer; the first word is returned (and zeroed). The epoch
         * words are read first, so a new epoch during the fill shows.
         */
        long refillAndTake() {
            epoch = epoch();
            vmGeneration = vmGeneration();
            NativeLib.systemFillLongs(w);
            long v = w[0];
            w[0] = 0;
            pos = 1;
            return v;
        }

        void clear() {
            Arrays.fill(w, 0);
            pos = WORDS;
        }
    }

    private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

    // The C library's epoch words (docs/system.md, "Snapshots and clones"): a buffer compares
    // them before each word it hands out. The VM generation is a zero word where none is watched.
    private static final VarHandle WORD =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final ByteBuffer EPOCH = NativeLib.epochWord();
    private static final ByteBuffer VM_GENERATION = NativeLib.vmGenerationWord(); // null: none
    /** Whether a VM generation counter is watched; constant, so without one its check folds away. */
    private static final boolean WATCHED = VM_GENERATION != null;

    static long epoch() {
        return (long) WORD.getOpaque(EPOCH, 0);
    }

    static long vmGeneration() {
        return WATCHED ? (long) WORD.getOpaque(VM_GENERATION, 0) : 0;
    }

    /** This thread's buffered words still to come (for the tests). */
    static long[] heldForTest() {
        Buffer b = BUFFER.get();
        return Arrays.copyOfRange(b.w, b.pos, WORDS);
    }

    @Override
    public RandomStream local(Thread t) {
        return SystemGenerator.isVirtual(t) ? null : BUFFER.get();
    }

    @Override
    public long u64() {
        if (SystemGenerator.isVirtual(Thread.currentThread())) {
            return NativeLib.systemU64();
        }
        return BUFFER.get().take();
    }

    /** One buffer lookup for both words. */
    @Override
    public UUID uuid4() {
        if (SystemGenerator.isVirtual(Thread.currentThread())) {
            return Samplers.uuid4(NativeLib.systemU64(), NativeLib.systemU64());
        }
        Buffer b = BUFFER.get();
        return Samplers.uuid4(b.take(), b.take());
    }

    @Override
    public void fill(byte[] out, int off, int len) {
        if (len >= 64 || SystemGenerator.isVirtual(Thread.currentThread())) {
            NativeLib.systemFill(out, off, len);
            return;
        }
        Buffer b = BUFFER.get();
        while (len > 0) {
            long w = b.take();
            int n = Math.min(8, len);
            for (int i = 0; i < n; i++) {
                out[off + i] = (byte) (w >>> (8 * i));
            }
            off += n;
            len -= n;
        }
    }

    /** The thread's buffer holds output of the old seed: it is dropped first. */
    @Override
    public void reseed(byte[] extra) {
        if (!SystemGenerator.isVirtual(Thread.currentThread())) {
            BUFFER.get().clear();
        }
        NativeLib.systemReseed(extra);
    }

    @Override
    public byte[] entropy(int n) {
        byte[] out = new byte[n];
        NativeLib.entropy(out);
        return out;
    }

    @Override
    public void newEpoch() {
        NativeLib.systemNewEpoch();
    }

    @Override
    public boolean watchesVmGeneration() {
        return NativeLib.systemWatchesVmGeneration();
    }

    @Override
    public long epochWord() {
        return epoch();
    }

    @Override
    public long vmGenerationWord() {
        return vmGeneration();
    }

    @Override
    public String describe() {
        return "native shakerand " + NativeLib.version() + " (JNI), kernel " + NativeLib.kernelName()
                + ", sources: " + NativeLib.sources();
    }
}
