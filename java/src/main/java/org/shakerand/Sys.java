// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The default, non-deterministic source: the calling thread's system generator.
 *
 * <p>Native path, platform threads: a 512-byte buffer per thread (in a ThreadLocal) refilled by
 * one JNI call serves ints, longs and UUIDs without a native call per value; large requests go
 * to native code in one call. Virtual threads get no Java buffer: a million virtual threads
 * would otherwise hold a million buffers of unused random bytes. They call the C generator
 * directly (one JNI call per value, which cannot be preempted midway), and the C library's
 * per-thread state lives in the carrier thread, so the number of states is the number of
 * carriers.
 *
 * <p>Pure-Java path: one {@link JavaSystem.Gen} per platform thread; virtual threads share a
 * few generators chosen by thread id, each behind its own lock, for the same reason.
 */
final class Sys {
    private Sys() {}

    static final boolean NATIVE = NativeLib.LOADED;
    static final int WORDS = 64;

    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) { // before Java 21: no virtual threads
            return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0,
                    Thread.class);
        }
    }

    static boolean isVirtual(Thread t) {
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** A platform thread's buffer of native output; as a Source it serves this thread only. */
    static final class Buf implements Source {
        final long[] w = new long[WORDS];
        int pos = WORDS;

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
            Sys.fill(out, off, len);
        }

        /** The next word of this thread's buffer (zeroed as it is handed out). */
        long take() {
            int p = pos;
            if (p < WORDS) {
                long[] a = w;
                long v = a[p];
                a[p] = 0;
                pos = p + 1;
                return v;
            }
            return refillAndTake();
        }

        /** One JNI call refills the whole buffer; the first word is returned (and zeroed). */
        long refillAndTake() {
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

    private static final ThreadLocal<Buf> BUF = ThreadLocal.withInitial(Buf::new);
    private static final ThreadLocal<JavaSystem.Gen> GEN = new ThreadLocal<>();

    private static final int STRIPES = Integer.highestOneBit(
            Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1) << 1;
    private static final JavaSystem.Gen[] SHARED = new JavaSystem.Gen[STRIPES];
    private static final ReentrantLock[] LOCKS = new ReentrantLock[STRIPES];

    static {
        for (int i = 0; i < STRIPES; i++) {
            LOCKS[i] = new ReentrantLock();
        }
    }

    /**
     * The calling platform thread's own generator: its native buffer, or its pure-Java
     * generator; null on a virtual thread.
     */
    static Source local(Thread t) {
        if (isVirtual(t)) {
            return null;
        }
        return NATIVE ? BUF.get() : gen();
    }

    private static JavaSystem.Gen gen() {
        JavaSystem.Gen g = GEN.get();
        if (g == null) {
            g = new JavaSystem.Gen();
            GEN.set(g);
        }
        return g;
    }

    private static int stripe(Thread t) {
        long id = t.getId();
        return (int) ((id ^ (id >>> 17)) * 0x9E3779B9L >>> 7) & (STRIPES - 1);
    }

    private static JavaSystem.Gen shared(int i) {
        JavaSystem.Gen g = SHARED[i];
        if (g == null) {
            g = new JavaSystem.Gen();
            SHARED[i] = g;
        }
        return g;
    }

    static long u64() {
        if (NATIVE) {
            Thread t = Thread.currentThread();
            if (isVirtual(t)) {
                return NativeLib.systemU64();
            }
            return BUF.get().take();
        }
        return javaU64();
    }

    private static long javaU64() {
        Thread t = Thread.currentThread();
        if (isVirtual(t)) {
            int i = stripe(t);
            LOCKS[i].lock();
            try {
                return shared(i).u64();
            } finally {
                LOCKS[i].unlock();
            }
        }
        return gen().u64();
    }

    /** A version 4 UUID from the calling thread's generator (one buffer lookup for both words). */
    static java.util.UUID uuid4() {
        if (NATIVE && !isVirtual(Thread.currentThread())) {
            Buf b = BUF.get();
            return Samplers.uuid4(b.take(), b.take());
        }
        return Samplers.uuid4(SOURCE);
    }

    static int u32() {
        return (int) u64();
    }

    static void fill(byte[] out, int off, int len) {
        Thread t = Thread.currentThread();
        if (NATIVE) {
            if (len >= 64 || isVirtual(t)) {
                NativeLib.systemFill(out, off, len);
                return;
            }
            Buf b = BUF.get();
            while (len > 0) {
                long w = b.take();
                int n = Math.min(8, len);
                for (int i = 0; i < n; i++) {
                    out[off + i] = (byte) (w >>> (8 * i));
                }
                off += n;
                len -= n;
            }
            return;
        }
        if (isVirtual(t)) {
            int i = stripe(t);
            LOCKS[i].lock();
            try {
                shared(i).fill(out, off, len);
            } finally {
                LOCKS[i].unlock();
            }
            return;
        }
        gen().fill(out, off, len);
    }

    /** Reseeds the calling thread's generator from the sources, with extra hashed into the seed. */
    static void reseed(byte[] extra) {
        Thread t = Thread.currentThread();
        if (NATIVE) {
            if (!isVirtual(t)) {
                BUF.get().clear();
            }
            NativeLib.systemReseed(extra);
            return;
        }
        if (isVirtual(t)) {
            int i = stripe(t);
            LOCKS[i].lock();
            try {
                shared(i).reseed(extra);
            } finally {
                LOCKS[i].unlock();
            }
            return;
        }
        gen().reseed(extra);
    }

    static byte[] entropy(int n) {
        byte[] out = new byte[n];
        if (n == 0) {
            return out;
        }
        if (NATIVE) {
            NativeLib.entropy(out);
            return out;
        }
        return JavaSystem.entropy(n, new byte[0]);
    }

    static final Source SOURCE = new Source() {
        @Override
        public long u64() {
            return Sys.u64();
        }

        @Override
        public int u32() {
            return Sys.u32();
        }

        @Override
        public void fill(byte[] out, int off, int len) {
            Sys.fill(out, off, len);
        }
    };

    static String describe() {
        if (NATIVE) {
            return "native shakerand " + NativeLib.version() + " (JNI), kernel " + NativeLib.kernelName()
                    + ", sources: " + NativeLib.sources();
        }
        return "pure Java (" + NativeLib.STATUS + "), kernel java, sources: "
                + JavaSystem.osSourceName();
    }
}
