// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * The pure-Java system generator: one engine per thread of the kind the C system generator
 * runs (chacha8rand, or turboshake256x8 where the environment variable SHAKERAND_SYSTEM_ENGINE
 * says so), on the C system generator's policy (docs/system.md): keyed by the C core's seed
 * derivation from the kernel's /dev/urandom, read at each seed (Windows: the JDK's
 * Windows-PRNG; no hardware sources), and reseeded on the
 * same budget. The policy's constants below are held to the vector file's "system_policy" by
 * JavaSystemPolicyTest.
 *
 * <p>A new epoch (newEpoch), or a move of the VM generation word where the vmclock device can be
 * read (VmClock), reseeds each generator before its next output; every seed after such a restore
 * mixes in a CPU-jitter sample's digest, as the C core's do (restoreDigest).
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
    // After a restore, as the C core (src/policy.h): a CPU-jitter sample's digest,
    // TurboSHAKE256(deltas, D = JITTER_DOMAIN) of JITTER_DIGEST_BYTES, follows the counter and the
    // conditioner runs with RESTORE_CONDITIONER_DOMAIN. Held to the vector file's
    // "restore_derivation" by JavaSystemPolicyTest. Never counted as entropy.
    static final int JITTER_DOMAIN = 0x25;
    static final int JITTER_DIGEST_BYTES = 32;
    static final int RESTORE_CONDITIONER_DOMAIN = 0x26;
    // The sample's shape, the C core's (src/entropy/conditioner.c says why each).
    static final int JITTER_SAMPLES = 2048;
    private static final int JITTER_TOUCHES = 16;
    private static final int JITTER_MEMORY = 64 * 1024;
    private static final int JITTER_STRIDE = 64 * 7 + 8;

    /**
     * The kernel's generator, read directly where this JVM can: a character device at
     * /dev/urandom (Linux, the BSDs, macOS). Each seed opens it and reads exactly the bytes it
     * needs, so what a seed gets is the kernel's at that moment: SUN's NativePRNG keeps up to
     * 256 bytes of it on the heap and hands them out again for 100 ms (indefinitely if the wall
     * clock stepped back), which a snapshot taken meanwhile would give every clone. A stream per
     * seed, not a channel: an interrupt cannot close it, and nothing stays open for a checkpoint.
     */
    static final Path URANDOM = Path.of("/dev/urandom");
    private static final boolean KERNEL = readableKernel();
    private static final SecureRandom OS = KERNEL ? null : osSource();
    private static long counter;

    private static boolean readableKernel() {
        try {
            return VmClock.isCharacterDevice(URANDOM) && Files.isReadable(URANDOM);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException
                | SecurityException e) {
            return false; // no such file, or no "unix" view (Windows)
        }
    }

    /**
     * Where there is no /dev/urandom (Windows), the operating system's generator through the JDK,
     * named explicitly ("new SecureRandom()" could be ShakeRandom itself once the provider is
     * installed first): SUN's NativePRNGNonBlocking, should a JVM have it without the device
     * being readable here, or SunMSCAPI's Windows-PRNG, which calls CryptGenRandom into the
     * caller's array at every request and buffers nothing in Java. Nothing else: SUN's DRBG, where the operating
     * system's source fails, seeds itself from thread-timing jitter, and this generator never
     * runs on anything but the operating system.
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
        if (KERNEL) {
            return URANDOM + ", read at each seed";
        }
        return OS == null
                ? UNAVAILABLE.substring("shakerand: ".length()) + " (no readable /dev/urandom,"
                        + " SunMSCAPI Windows-PRNG or SUN NativePRNGNonBlocking in this JVM)"
                : OS.getProvider().getName() + " " + OS.getAlgorithm();
    }

    private static synchronized long nextCounter() {
        return ++counter;
    }

    /** The counter the last seed took (for the tests, in a process that seeds on one thread). */
    static synchronized long lastCounterForTest() {
        return counter;
    }

    /** Fills out from the operating system's source. */
    static void osBytes(byte[] out) {
        if (KERNEL) {
            kernelBytes(out);
            return;
        }
        if (OS == null) {
            throw new ProviderException("shakerand: " + osSourceName());
        }
        OS.nextBytes(out);
    }

    private static final String UNAVAILABLE =
            "shakerand: the operating system's entropy source is unavailable";

    /** Fills out with one read of /dev/urandom (a short one goes on), opened for it alone. */
    private static void kernelBytes(byte[] out) {
        try (FileInputStream in = new FileInputStream(URANDOM.toFile())) {
            for (int off = 0; off < out.length;) {
                int n = in.read(out, off, out.length - off);
                if (n <= 0) {
                    throw new ProviderException(UNAVAILABLE + " (" + URANDOM + " ended)");
                }
                off += n;
            }
        } catch (IOException e) {
            throw new ProviderException(UNAVAILABLE + " (" + URANDOM + " could not be read)", e);
        }
    }

    /**
     * n bytes of fresh conditioned entropy (generateSeed): the conditioner of new OS bytes and the
     * next counter, and after a restore the process saw, that restore's jitter digest, as a seed
     * (restoreJitter); vm is the page watched (null: none), os the OS bytes' source.
     */
    static byte[] entropy(int n, VmClock vm, Consumer<byte[]> os) {
        long epoch = EPOCH.get();
        long vmWord = vm != null ? vm.read(vm.buffer()) : 0;
        byte[] jitter = restoreJitter(epoch, vm, vmWord);
        byte[] out = conditionedEntropy(n, jitter, os);
        if (jitter != null) {
            Arrays.fill(jitter, (byte) 0);
        }
        return out;
    }

    /** The same, with a restore's jitter digest when it is not null, from the OS bytes os gives. */
    private static byte[] conditionedEntropy(int n, byte[] jitter, Consumer<byte[]> osSource) {
        byte[] os = new byte[OS_SEED_BYTES];
        osSource.accept(os);
        byte[] out = conditioner(os, nextCounter(), jitter, n);
        Arrays.fill(os, (byte) 0);
        return out;
    }

    /**
     * The C core's conditioner (src/entropy/conditioner.c) with no hardware source:
     * TurboSHAKE256(os || counter, little-endian, D = CONDITIONER_DOMAIN)[0, n); after a restore,
     * TurboSHAKE256(os || counter || jitter, D = RESTORE_CONDITIONER_DOMAIN)[0, n).
     */
    static byte[] conditioner(byte[] os, long counter, byte[] jitter, int n) {
        int j = jitter != null ? jitter.length : 0;
        byte[] msg = new byte[os.length + COUNTER_BYTES + j];
        System.arraycopy(os, 0, msg, 0, os.length);
        Bytes.putLe64(msg, os.length, counter);
        if (jitter != null) {
            System.arraycopy(jitter, 0, msg, os.length + COUNTER_BYTES, j);
        }
        byte[] out = Sponge.turboshake256(msg, jitter != null ? RESTORE_CONDITIONER_DOMAIN
                : CONDITIONER_DOMAIN, n);
        Arrays.fill(msg, (byte) 0);
        return out;
    }

    // The digest of the last restore a seed named, and that restore's words (the epoch and the VM
    // generation word), under JITTER_LOCK: one sample per restore for the process, as the C core.
    private static final Object JITTER_LOCK = new Object();
    private static boolean jitterValid;
    private static long jitterEpoch;
    private static long jitterVmWord;
    private static final byte[] JITTER_DIGEST = new byte[JITTER_DIGEST_BYTES];
    private static int jitterSamples; // for the tests
    // Touched under JITTER_LOCK (or by a test's sample); its contents are no secret.
    private static final byte[] JITTER_TOUCHED = new byte[JITTER_MEMORY];

    /**
     * The jitter digest a seed made now mixes in, read before its sources: after a restore this
     * process saw (a newEpoch call, epoch not 0, or the word of vm moved since the watch began)
     * that restore's (restoreDigest), else null. A new array: the caller wipes it.
     */
    static byte[] restoreJitter(long epoch, VmClock vm, long vmWord) {
        boolean afterRestore = epoch != 0 || vm != null && vmWord != vm.startWord();
        return afterRestore ? restoreDigest(epoch, vmWord) : null;
    }

    /**
     * The jitter digest of the restore named by epoch and vmWord: sampled by the first seed that
     * names it, a copy of that sample for the others. A new array: the caller wipes it.
     */
    static byte[] restoreDigest(long epoch, long vmWord) {
        synchronized (JITTER_LOCK) {
            if (!jitterValid || jitterEpoch != epoch || jitterVmWord != vmWord) {
                jitterValid = false;
                byte[] d = jitterSample(System::nanoTime);
                System.arraycopy(d, 0, JITTER_DIGEST, 0, JITTER_DIGEST_BYTES);
                Arrays.fill(d, (byte) 0);
                jitterEpoch = epoch;
                jitterVmWord = vmWord;
                jitterValid = true;
                jitterSamples++;
            }
            return JITTER_DIGEST.clone();
        }
    }

    /** How many samples this process has taken, and the digest of the last (for the tests). */
    static int jitterSamplesForTest() {
        synchronized (JITTER_LOCK) {
            return jitterSamples;
        }
    }

    static byte[] lastJitterDigestForTest() {
        synchronized (JITTER_LOCK) {
            return jitterValid ? JITTER_DIGEST.clone() : null;
        }
    }

    /**
     * The C core's CPU-jitter sample (src/entropy/conditioner.c, which says what differs between
     * clones and why this shape): JITTER_SAMPLES timings, on clock (System.nanoTime; the tests
     * pass a fixed one), of JITTER_TOUCHES memory touches each, the walk's next line moved by the
     * last delta; the digest of every delta, each a 64-bit word, little-endian.
     */
    static byte[] jitterSample(LongSupplier clock) {
        byte[] deltas = new byte[JITTER_SAMPLES * 8];
        int pos = 0;
        long before = clock.getAsLong();
        for (int i = 0; i < JITTER_SAMPLES; i++) {
            for (int k = 0; k < JITTER_TOUCHES; k++) {
                pos = (pos + JITTER_STRIDE) & (JITTER_MEMORY - 1);
                JITTER_TOUCHED[pos]++;
            }
            long now = clock.getAsLong();
            long delta = now - before;
            before = now;
            pos = (pos + (int) (delta & 0x3F)) & (JITTER_MEMORY - 1);
            Bytes.putLe64(deltas, 8 * i, delta);
        }
        byte[] digest = Sponge.turboshake256(deltas, JITTER_DOMAIN, JITTER_DIGEST_BYTES);
        Arrays.fill(deltas, (byte) 0);
        return digest;
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

    /** The VM generation word watched (VmClock), opened at class initialisation; null: none. */
    static final VmClock VM = VmClock.device();

    /** One thread's generator. */
    static final class ThreadGenerator implements RandomStream {
        BufferedStream engine; // the tests copy it, as a snapshot would
        private final VmClock vm; // null: none watched
        private final ByteBuffer page; // vm's reads; null with vm
        private final Consumer<byte[]> os; // the operating system's bytes (the tests' fixed ones)
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
            this(vm, JavaSystemGenerator::osBytes);
        }

        /** The same, its seeds reading the operating system's bytes from os (the tests' seam). */
        ThreadGenerator(VmClock vm, Consumer<byte[]> os) {
            this.vm = vm;
            this.page = vm != null ? vm.buffer() : null;
            this.os = os;
            reseed(null);
        }

        /** What this generator watches (for the tests). */
        VmClock vm() {
            return vm;
        }

        /** Keys the engine afresh; extra, if not null, is the caller's bytes (setSeed). */
        void reseed(byte[] extra) {
            long seededEpoch = EPOCH.get(); // before the sources: a new epoch meanwhile shows
            long seededVm = vm != null ? vm.read(page) : 0; // so does a restore
            byte[] jitter = restoreJitter(seededEpoch, vm, seededVm);
            byte[] material = conditionedEntropy(SEED_MATERIAL_BYTES, jitter, os);
            if (jitter != null) {
                Arrays.fill(jitter, (byte) 0);
            }
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
            if (epoch != EPOCH.get() || vm != null && !vm.unchanged(page, vmWord)) {
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
        return entropy(n, VM, JavaSystemGenerator::osBytes);
    }

    @Override
    public void newEpoch() {
        EPOCH.incrementAndGet();
    }

    /** Also closes the vmclock device: CRaC refuses a checkpoint with a file open. */
    @Override
    public void beforeCheckpoint() {
        newEpoch();
        if (VM != null) {
            VM.closeForCheckpoint();
        }
    }

    /** The device opened again, before the new epoch's seeds read it. */
    @Override
    public void afterRestore() {
        if (VM != null) {
            VM.reopenAfterRestore();
        }
        newEpoch();
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
