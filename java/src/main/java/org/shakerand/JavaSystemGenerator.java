// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The pure-Java system generator: one engine per thread of the kind the C system generator
 * runs (chacha8rand, or turboshake256x8 where the environment variable SHAKERAND_SYSTEM_ENGINE
 * says so), keyed with TurboSHAKE256(D = 0x22) of 64 bytes from the JDK's own non-blocking
 * source and a counter (32 bytes out for chacha8rand, 64 for turboshake256x8), reseeded after
 * 16 MiB of output or 60 seconds, the C system generator's policy (docs/system.md).
 *
 * <p>Platform threads have a generator each (in a ThreadLocal); virtual threads share a few,
 * chosen by thread id, each behind its own lock.
 */
final class JavaSystemGenerator implements SystemGenerator.Backend {

    /** The engine every thread runs, read once as the C library does. */
    static final ShakeRandom.Kind KIND =
            "turboshake256x8".equals(System.getenv("SHAKERAND_SYSTEM_ENGINE"))
                    ? ShakeRandom.Kind.TURBOSHAKE256X8
                    : ShakeRandom.Kind.CHACHA8RAND;

    static final long RESEED_BYTES = 16L << 20;
    static final long RESEED_NANOS = 60_000_000_000L;

    private static final SecureRandom OS = osSource();
    private static long counter;

    /**
     * Named explicitly from the SUN provider: "new SecureRandom()" could be ShakeRandom itself
     * once the provider is installed first.
     */
    private static SecureRandom osSource() {
        for (String[] c : new String[][] {{"NativePRNGNonBlocking", "SUN"}, {"DRBG", "SUN"},
                {"Windows-PRNG", "SunMSCAPI"}}) {
            try {
                return SecureRandom.getInstance(c[0], c[1]);
            } catch (NoSuchAlgorithmException | NoSuchProviderException e) {
                // next candidate
            }
        }
        return null; // each draw that needs it then throws ProviderException
    }

    static String osSourceName() {
        return OS == null ? "none (no SUN NativePRNGNonBlocking or DRBG in this JDK)"
                : OS.getProvider().getName() + " " + OS.getAlgorithm();
    }

    private static synchronized long nextCounter() {
        return ++counter;
    }

    /** Fresh conditioned entropy: TurboSHAKE256(D = 0x22) of OS bytes, a counter and extra. */
    static byte[] entropy(int n, byte[] extra) {
        if (OS == null) {
            throw new ProviderException("shakerand: " + osSourceName());
        }
        byte[] os = new byte[64];
        OS.nextBytes(os);
        byte[] msg = new byte[64 + 8 + extra.length];
        System.arraycopy(os, 0, msg, 0, 64);
        Bytes.putLe64(msg, 64, nextCounter());
        System.arraycopy(extra, 0, msg, 72, extra.length);
        byte[] out = Sponge.turboshake256(msg, 0x22, n);
        Arrays.fill(os, (byte) 0);
        Arrays.fill(msg, (byte) 0);
        return out;
    }

    /** One thread's generator. */
    static final class ThreadGenerator implements RandomStream {
        private BufferedStream engine;
        private long sinceSeed;
        private long deadline;
        int reseeds; // for the tests


        ThreadGenerator() {
            reseed(new byte[0]);
        }

        void reseed(byte[] extra) {
            final boolean chacha = KIND == ShakeRandom.Kind.CHACHA8RAND;
            byte[] seed = entropy(chacha ? 32 : 64, extra);
            BufferedStream old = engine;
            engine = chacha ? new JavaEngines.ChaCha8(seed) : new JavaEngines.X8(seed);
            Arrays.fill(seed, (byte) 0);
            if (old != null) {
                old.wipe();
            }
            sinceSeed = 0;
            reseeds++;
            deadline = System.nanoTime() + RESEED_NANOS;
        }

        /** Called before each draw of n bytes; the clock is read only once per 4 KiB. */
        private void account(int n) {
            long before = sinceSeed;
            sinceSeed = before + n;
            if ((before >>> 12) != (sinceSeed >>> 12)
                    && (sinceSeed >= RESEED_BYTES || System.nanoTime() - deadline >= 0)) {
                reseed(new byte[0]);
                sinceSeed = n; // the request that triggered the reseed counts against the new seed
            }
        }

        @Override
        public long u64() {
            account(8);
            return engine.u64();
        }

        @Override
        public int u32() {
            account(4);
            return engine.u32();
        }

        @Override
        public void fill(byte[] out, int off, int len) {
            while (len > 0) {
                int n = Math.min(len, 1 << 20);
                account(n);
                engine.fill(out, off, n);
                off += n;
                len -= n;
            }
        }
    }

    private static final ThreadLocal<ThreadGenerator> OWN = ThreadLocal.withInitial(ThreadGenerator::new);

    private static final int STRIPES = Integer.highestOneBit(
            Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1) << 1;
    private static final ThreadGenerator[] SHARED = new ThreadGenerator[STRIPES];
    private static final ReentrantLock[] LOCKS = new ReentrantLock[STRIPES];

    static {
        for (int i = 0; i < STRIPES; i++) {
            LOCKS[i] = new ReentrantLock();
        }
    }

    /** The stripe of a virtual thread; its generator is made on first use, under its lock. */
    private static int stripe(Thread t) {
        long id = t.getId();
        return (int) ((id ^ (id >>> 17)) * 0x9E3779B9L >>> 7) & (STRIPES - 1);
    }

    private static ThreadGenerator shared(int i) {
        ThreadGenerator g = SHARED[i];
        if (g == null) {
            g = new ThreadGenerator();
            SHARED[i] = g;
        }
        return g;
    }

    /** f applied to the calling thread's generator: its own, or its stripe's under the lock. */
    private static long withGenerator(ToLongFunction<ThreadGenerator> f) {
        Thread t = Thread.currentThread();
        if (!SystemGenerator.isVirtual(t)) {
            return f.applyAsLong(OWN.get());
        }
        int i = stripe(t);
        LOCKS[i].lock();
        try {
            return f.applyAsLong(shared(i));
        } finally {
            LOCKS[i].unlock();
        }
    }

    @Override
    public RandomStream local(Thread t) {
        return SystemGenerator.isVirtual(t) ? null : OWN.get();
    }

    @Override
    public long u64() {
        Thread t = Thread.currentThread();
        if (!SystemGenerator.isVirtual(t)) {
            return OWN.get().u64();
        }
        return withGenerator(ThreadGenerator::u64);
    }

    @Override
    public void fill(byte[] out, int off, int len) {
        withGenerator(g -> {
            g.fill(out, off, len);
            return 0;
        });
    }

    @Override
    public UUID uuid4() {
        long[] w = new long[2];
        withGenerator(g -> {
            w[0] = g.u64();
            w[1] = g.u64();
            return 0;
        });
        return Samplers.uuid4(w[0], w[1]);
    }

    @Override
    public void reseed(byte[] extra) {
        withGenerator(g -> {
            g.reseed(extra);
            return 0;
        });
    }

    @Override
    public byte[] entropy(int n) {
        return entropy(n, new byte[0]);
    }

    @Override
    public String describe() {
        return "pure Java (" + NativeLib.STATUS + "), kernel java, sources: " + osSourceName();
    }
}
