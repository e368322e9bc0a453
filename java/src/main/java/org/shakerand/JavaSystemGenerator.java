// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The pure-Java system generator: one engine per thread of the kind the C system generator
 * runs (chacha8rand, or turboshake256x8 where the environment variable SHAKERAND_SYSTEM_ENGINE
 * says so), on the C system generator's policy (docs/system.md): keyed by the C core's seed
 * derivation from the JDK's own non-blocking source (no hardware sources), and reseeded on the
 * same budget. The policy's constants below are held to the vector file's "system_policy" by
 * JavaSystemPolicyTest.
 *
 * <p>A new epoch (newEpoch), or a move of the VM generation word where the vmclock page can be
 * mapped (VmClock), reseeds each generator before its next output.
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

    // The policy's constants, the C core's (src/policy.h): the reseed budget in bytes and time,
    // the bytes drawn between two reads of the clock, the largest piece of a request, and the
    // seed derivation's sizes and TurboSHAKE256 domain bytes. The C core's hardware words have
    // no counterpart here.
    static final long RESEED_BYTES = 16L << 20;
    static final long RESEED_SECONDS = 60;
    static final long RESEED_NANOS = RESEED_SECONDS * 1_000_000_000L;
    static final int CLOCK_CHECK_BYTES = 4096;
    static final int MAX_PIECE_BYTES = 1 << 20;
    static final int CONDITIONER_DOMAIN = 0x22;
    static final int OS_SEED_BYTES = 32;
    static final int COUNTER_BYTES = 8;
    static final int SEED_MATERIAL_BYTES = 64;
    static final int EXTRA_DOMAIN = 0x23;
    static final int EXTRA_DIGEST_BYTES = 32;
    static final int CHACHA8RAND_KEY_DOMAIN = 0x24;

    private static final SecureRandom OS = osSource();
    private static long counter;

    /**
     * The operating system's generator, named explicitly ("new SecureRandom()" could be
     * ShakeRandom itself once the provider is installed first): /dev/urandom through SUN's
     * NativePRNGNonBlocking, or Windows' through SunMSCAPI. Nothing else: SUN's DRBG, where the
     * operating system's source fails, seeds itself from thread-timing jitter, and this
     * generator never runs on anything but the operating system.
     */
    private static SecureRandom osSource() {
        for (String[] c : new String[][] {{"NativePRNGNonBlocking", "SUN"}, {"Windows-PRNG", "SunMSCAPI"}}) {
            try {
                return SecureRandom.getInstance(c[0], c[1]);
            } catch (NoSuchAlgorithmException | NoSuchProviderException e) {
                // next candidate
            }
        }
        return null; // each draw that needs it then throws ProviderException
    }

    static String osSourceName() {
        return OS == null
                ? "the operating system's entropy source is unavailable (no SUN NativePRNGNonBlocking"
                        + " or SunMSCAPI Windows-PRNG in this JVM)"
                : OS.getProvider().getName() + " " + OS.getAlgorithm();
    }

    private static synchronized long nextCounter() {
        return ++counter;
    }

    /** n bytes of fresh conditioned entropy: the conditioner of new OS bytes and the next counter. */
    static byte[] conditionedEntropy(int n) {
        if (OS == null) {
            throw new ProviderException("shakerand: " + osSourceName());
        }
        byte[] os = new byte[OS_SEED_BYTES];
        OS.nextBytes(os);
        byte[] out = conditioner(os, nextCounter(), n);
        Arrays.fill(os, (byte) 0);
        return out;
    }

    /**
     * The C core's conditioner (src/entropy/conditioner.c) with no hardware source:
     * TurboSHAKE256(os || counter, little-endian, D = CONDITIONER_DOMAIN)[0, n).
     */
    static byte[] conditioner(byte[] os, long counter, int n) {
        byte[] msg = new byte[os.length + COUNTER_BYTES];
        System.arraycopy(os, 0, msg, 0, os.length);
        Bytes.putLe64(msg, os.length, counter);
        byte[] out = Sponge.turboshake256(msg, CONDITIONER_DOMAIN, n);
        Arrays.fill(msg, (byte) 0);
        return out;
    }

    /**
     * An engine's seed from the material, as the C core derives it (src/system_seed.c): the material,
     * followed by TurboSHAKE256(extra, D = EXTRA_DOMAIN)[0, EXTRA_DIGEST_BYTES) when extra (the
     * caller's bytes of a reseed) is not null; chacha8rand takes TurboSHAKE256 of that with
     * D = CHACHA8RAND_KEY_DOMAIN, 32 bytes, as its key. A new array: the caller wipes both.
     */
    static byte[] engineSeed(ShakeRandom.Kind kind, byte[] material, byte[] extra) {
        byte[] m = Arrays.copyOf(material, material.length + (extra != null ? EXTRA_DIGEST_BYTES : 0));
        if (extra != null) {
            byte[] digest = Sponge.turboshake256(extra, EXTRA_DOMAIN, EXTRA_DIGEST_BYTES);
            System.arraycopy(digest, 0, m, material.length, EXTRA_DIGEST_BYTES);
            Arrays.fill(digest, (byte) 0);
        }
        if (kind != ShakeRandom.Kind.CHACHA8RAND) {
            return m;
        }
        byte[] key = Sponge.turboshake256(m, CHACHA8RAND_KEY_DOMAIN, 32);
        Arrays.fill(m, (byte) 0);
        return key;
    }

    /** The pure path's epoch (newEpoch). */
    private static final AtomicLong EPOCH = new AtomicLong();

    /** The VM generation word watched (VmClock), mapped at class initialisation; null: none. */
    static final VmClock VM = VmClock.device();

    /** One thread's generator. */
    static final class ThreadGenerator implements RandomStream {
        BufferedStream engine; // the tests copy it, as a snapshot would
        private final VmClock vm; // null: none watched
        private long sinceSeed;
        private long epoch; // EPOCH when it was seeded
        private long vmWord; // vm's word when it was seeded
        long deadline; // System.nanoTime() of the time reseed; the tests move it
        int reseeds; // for the tests

        ThreadGenerator() {
            this(VM);
        }

        /** One that watches vm (null: none); the tests pass a file laid out as the page. */
        ThreadGenerator(VmClock vm) {
            this.vm = vm;
            reseed(null);
        }

        /** Keys the engine afresh; extra, if not null, is the caller's bytes (setSeed). */
        void reseed(byte[] extra) {
            long seededEpoch = EPOCH.get(); // before the sources: a new epoch meanwhile shows
            long seededVm = vm != null ? vm.read() : 0; // so does a restore
            byte[] material = conditionedEntropy(SEED_MATERIAL_BYTES);
            byte[] seed = engineSeed(KIND, material, extra);
            Arrays.fill(material, (byte) 0);
            BufferedStream old = engine;
            engine = KIND == ShakeRandom.Kind.CHACHA8RAND ? new JavaEngines.ChaCha8(seed)
                    : new JavaEngines.X8(seed);
            Arrays.fill(seed, (byte) 0);
            if (old != null) {
                old.wipe();
            }
            sinceSeed = 0;
            epoch = seededEpoch;
            vmWord = seededVm;
            reseeds++;
            deadline = System.nanoTime() + RESEED_NANOS;
        }

        /** Called before each draw of n bytes; the clock is read once per CLOCK_CHECK_BYTES. */
        private void account(int n) {
            if (epoch != EPOCH.get() || vm != null && vmWord != vm.word()) {
                // a snapshot's restore: nothing of the old engine is handed out
                reseed(null);
                sinceSeed = n;
                return;
            }
            long before = sinceSeed;
            sinceSeed = before + n;
            if (before / CLOCK_CHECK_BYTES != sinceSeed / CLOCK_CHECK_BYTES
                    && (sinceSeed >= RESEED_BYTES || System.nanoTime() - deadline >= 0)) {
                reseed(null);
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
                int n = Math.min(len, MAX_PIECE_BYTES);
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

    /** How many times this platform thread's generator has been seeded (for the tests). */
    static int reseedsForTest() {
        return OWN.get().reseeds;
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
        Objects.requireNonNull(extra, "seed");
        withGenerator(g -> {
            g.reseed(extra);
            return 0;
        });
    }

    @Override
    public byte[] entropy(int n) {
        return conditionedEntropy(n);
    }

    @Override
    public void newEpoch() {
        EPOCH.incrementAndGet();
    }

    @Override
    public boolean watchesVmGeneration() {
        return VM != null;
    }

    @Override
    public long epochWord() {
        return EPOCH.get();
    }

    @Override
    public long vmGenerationWord() {
        return VM != null ? VM.word() : 0;
    }

    @Override
    public String describe() {
        return "pure Java (" + NativeLib.STATUS + "), kernel java, sources: " + osSourceName();
    }
}
