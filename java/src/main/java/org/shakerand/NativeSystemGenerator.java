// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.invoke.MethodHandle;
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
 * number of states is the number of carriers. Where there is no fork mark ({@link #BUFFERED}
 * false) no thread has a buffer: every value is a call, as on a virtual thread.
 */
final class NativeSystemGenerator implements SystemGenerator.Backend {
    /**
     * Words per refill: 8 KiB. A JNI refill costs about 180 ns before its first word (the call,
     * pinning the array, the C generator's own checks) and then about 1.4 ns a word with AVX2,
     * so a word costs 2.1 ns at 256 words, 1.75 at 512 and 1.55 at 1024 (java/README.md, "Where
     * the time goes"). Only platform threads that draw have one.
     */
    static final int WORDS = 1024;

    /**
     * A platform thread's buffer of native output; as a stream it serves this thread only. Not a
     * {@link BufferedStream}: that one refills as soon as it is drained (an engine's state must
     * move past what it delivered), while this one refills only when a word is asked for (a
     * thread that stopped drawing still holds what its last refill left, up to WORDS - 1 words
     * and a half, until its next draws or the collector take it), and it serves longs from a
     * long[] with no byte assembly. A 4-byte draw takes the low half of a word and keeps the high half (its
     * index in {@link #spare}) for the next 4-byte draw, so ints cost half a word of generation.
     */
    static final class Buffer implements RandomStream {
        final long[] w = new long[WORDS];
        int pos = WORDS;
        /** The word whose high half is still to be handed out (its low half is zero), or -1. */
        int spare = -1;
        long epoch, vmGeneration; // the epoch words when it was filled
        long mark; // the fork mark it was filled under

        @Override
        public long u64() {
            return take();
        }

        /**
         * The spare high half if there is one and the buffer is still of the C library's epoch;
         * otherwise the low half of the next word, its high half kept as the spare.
         */
        @Override
        public int u32() {
            int s = spare;
            if (s >= 0 && current()) {
                long[] a = w;
                long v = a[s];
                a[s] = 0;
                spare = -1;
                return (int) (v >>> 32);
            }
            int p = pos;
            if (p < WORDS && current()) {
                long[] a = w;
                long v = a[p];
                a[p] = v & 0xFFFFFFFF00000000L;
                spare = p;
                pos = p + 1;
                return (int) v;
            }
            return (int) refillAndTake();
        }

        @Override
        public void fill(byte[] out, int off, int len) {
            SystemGenerator.fill(out, off, len);
        }

        /**
         * Whether the buffer is still of the C library's epoch (and VM generation, if watched) and
         * of this process: a fork zeroes the mark in the child, which no fork handler may have
         * told (a raw fork), and the Java heap is copied as it was.
         */
        private boolean current() {
            return epoch == epoch() && mark == forkMark() && (!WATCHED || vmGeneration == vmGeneration());
        }

        /**
         * The next word of this thread's buffer (zeroed as it is handed out), if the buffer is
         * still current.
         */
        long take() {
            int p = pos;
            if (p < WORDS && current()) {
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
         * words and the fork mark are read first, so a new epoch or a fork during the fill shows.
         * A spare half is dropped.
         */
        long refillAndTake() {
            // Nothing of the old fill stays servable if the fill throws (a reseed that fails
            // after a new epoch): the epoch words and the mark are stored only once the fill
            // succeeded.
            spare = -1;
            pos = WORDS;
            long e = epoch();
            long g = vmGeneration();
            long m = NativeLib.systemFillLongs(w);
            epoch = e;
            vmGeneration = g;
            mark = m;
            long v = w[0];
            w[0] = 0;
            pos = 1;
            return v;
        }

        void clear() {
            Arrays.fill(w, 0);
            pos = WORDS;
            spare = -1;
        }
    }

    private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

    // The C library's epoch words (docs/system.md, "Snapshots and clones"): a buffer compares
    // them before each word or half word it hands out. The VM generation is a zero word where none
    // is watched.
    private static final ByteBuffer EPOCH = NativeLib.epochWord();
    private static final ByteBuffer VM_GENERATION = NativeLib.vmGenerationWord();
    /** Whether a VM generation counter is watched; constant, so without one its check folds away. */
    private static final boolean WATCHED = NativeLib.systemWatchesVmGeneration();

    // The fork mark (shakerand_jni.c), compared like the epoch words. Without one nothing tells a
    // raw-forked child's buffer from its parent's but the pid, a system call, as the C core's
    // state where the kernel refuses MADV_WIPEONFORK: then there are no buffers, and every value
    // is a call into the core, which compares the pid on each (seeded_here, system_state.h).
    private static final ByteBuffer MARK = NativeLib.forkMarkWord();
    /** Whether platform threads have buffers: only where a fork zeroes the mark. */
    static final boolean BUFFERED = MARK != null;
    /** What keeps a forked child from the buffers' words: "MADV_WIPEONFORK", or why none (for the tests). */
    static final String FORK_GUARD = NativeLib.forkGuard();

    /**
     * Reads of the words, each a constant {@code ()long} handle that C2 inlines to one load.
     * Opaque (volatile through Unsafe), not plain: a plain read of a word no Java code writes
     * could be hoisted out of a caller's loop, and then a new epoch would not be seen before the
     * next draw; on x86 both are one load, and plain measured no faster.
     */
    private static final MethodHandle SEGMENT_EPOCH_READ = segmentReader(EPOCH);
    private static final MethodHandle UNSAFE_EPOCH_READ =
            SEGMENT_EPOCH_READ == null ? unsafeReader(EPOCH) : null;
    private static final MethodHandle EPOCH_READ = SEGMENT_EPOCH_READ != null ? SEGMENT_EPOCH_READ
            : UNSAFE_EPOCH_READ != null ? UNSAFE_EPOCH_READ : bufferReader(EPOCH);
    private static final MethodHandle VM_GENERATION_READ = WATCHED ? reader(VM_GENERATION) : null;
    private static final MethodHandle MARK_READ = BUFFERED ? reader(MARK) : null;
    /**
     * How the epoch word is read, the reader in use (for the tests and java/README.md):
     * "MemorySegment" on JDK 22 and later, "Unsafe" on 17 to 21 where jdk.unsupported is
     * resolved, "ByteBuffer" otherwise.
     */
    static final String WORD_ACCESS = SEGMENT_EPOCH_READ != null ? "MemorySegment"
            : UNSAFE_EPOCH_READ != null ? "Unsafe" : "ByteBuffer";

    private static MethodHandle reader(ByteBuffer word) {
        MethodHandle m = segmentReader(word);
        if (m == null) {
            m = unsafeReader(word);
        }
        return m != null ? m : bufferReader(word);
    }

    /**
     * On JDK 17 to 21 (no java.lang.foreign): {@code sun.misc.Unsafe.getLongVolatile(null,
     * address)}, one load (an acquiring one on Arm): about 0.4 ns
     * where the ByteBuffer view costs 1.2 (JDK 17; java/README.md, "Where the time goes"). Not on
     * 22 and later, where Unsafe's memory access is deprecated for removal (and warns from 24).
     * The address is of a C static that lives as long as the library. Null where jdk.unsupported
     * is absent (a jlinked runtime without it; on the module path, unless it is resolved) or the
     * read does not match the buffer's.
     */
    private static MethodHandle unsafeReader(ByteBuffer word) {
        if (Runtime.version().feature() >= 22) {
            return null;
        }
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            NativeSystemGenerator.class.getModule().addReads(unsafeClass.getModule());
            java.lang.reflect.Field f = unsafeClass.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            Object unsafe = f.get(null);
            long address = NativeLib.bufferAddress(word);
            if (address == 0 || (address & 7) != 0) {
                return null;
            }
            MethodHandle get = MethodHandles.lookup().unreflect(
                    unsafeClass.getMethod("getLongVolatile", Object.class, long.class));
            MethodHandle read = MethodHandles.insertArguments(get, 0, unsafe, null, address);
            long byUnsafe = (long) read.invokeExact();
            long byBuffer = (long) bufferReader(word).invokeExact();
            return byUnsafe == byBuffer ? read : null;
        } catch (Throwable e) { // no usable sun.misc.Unsafe: the ByteBuffer view
            return null;
        }
    }

    /** An opaque read of the native-order word at the start of {@code word}, as a ()long handle. */
    private static MethodHandle bufferReader(ByteBuffer word) {
        VarHandle view = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
        return MethodHandles.insertArguments(view.toMethodHandle(VarHandle.AccessMode.GET_OPAQUE), 0, word, 0);
    }

    /**
     * The same read through a {@code MemorySegment} over the buffer, on JDK 22 and later (found
     * by reflection, so the jar still builds and runs on 17): about 0.3 ns a read where the
     * {@code ByteBuffer} view VarHandle costs about 1.2 ns (its limit, address, alignment and
     * session checks, not all inlined; java/README.md, "Where the time goes"). {@code ofBuffer}
     * is not a restricted method: no native access is asked for. Null where no segment can be
     * made or it reads another value than the buffer does: the ByteBuffer view serves then.
     */
    private static MethodHandle segmentReader(ByteBuffer word) {
        if (Runtime.version().feature() < 22) {
            return null;
        }
        try {
            Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
            Object seg = segment.getMethod("ofBuffer", java.nio.Buffer.class).invoke(null, word);
            Class<?> layout = Class.forName("java.lang.foreign.ValueLayout");
            Object javaLong = layout.getField("JAVA_LONG").get(null); // native order, 8-aligned
            VarHandle vh = (VarHandle) layout.getMethod("varHandle").invoke(javaLong);
            MethodHandle read = MethodHandles.insertArguments(
                    vh.toMethodHandle(VarHandle.AccessMode.GET_OPAQUE), 0, seg, 0L);
            long bySegment = (long) read.invokeExact();
            long byBuffer = (long) bufferReader(word).invokeExact();
            return bySegment == byBuffer ? read : null;
        } catch (Throwable e) { // no usable java.lang.foreign: the ByteBuffer view
            return null;
        }
    }

    static long epoch() {
        try {
            return (long) EPOCH_READ.invokeExact();
        } catch (Throwable e) { // a read of live native memory cannot fail
            throw new AssertionError(e);
        }
    }

    static long vmGeneration() {
        if (!WATCHED) {
            return 0;
        }
        try {
            return (long) VM_GENERATION_READ.invokeExact();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** The fork mark now; only where there are buffers. */
    static long forkMark() {
        try {
            return (long) MARK_READ.invokeExact();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** Whether thread t draws without a buffer: a virtual thread, or no fork mark. */
    private static boolean unbuffered(Thread t) {
        return !BUFFERED || SystemGenerator.isVirtual(t);
    }

    /** This thread's buffered words still to come (for the tests). */
    static long[] heldForTest() {
        Buffer b = BUFFER.get();
        return Arrays.copyOfRange(b.w, b.pos, WORDS);
    }

    @Override
    public RandomStream local(Thread t) {
        return unbuffered(t) ? null : BUFFER.get();
    }

    @Override
    public long u64() {
        if (unbuffered(Thread.currentThread())) {
            return NativeLib.systemU64();
        }
        return BUFFER.get().take();
    }

    /** One buffer lookup for both words. */
    @Override
    public UUID uuid4() {
        if (unbuffered(Thread.currentThread())) {
            return Samplers.uuid4(NativeLib.systemU64(), NativeLib.systemU64());
        }
        Buffer b = BUFFER.get();
        return Samplers.uuid4(b.take(), b.take());
    }

    @Override
    public void fill(byte[] out, int off, int len) {
        if (len >= 64 || unbuffered(Thread.currentThread())) {
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
        if (!unbuffered(Thread.currentThread())) {
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
