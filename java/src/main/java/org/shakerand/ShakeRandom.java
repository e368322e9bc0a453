// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.lang.ref.WeakReference;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.SecureRandomParameters;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * A {@link SecureRandom} over shakerand: by default the calling thread's system generator
 * (docs/system.md: the C library's engine per thread, seeded from the operating system mixed
 * with hardware sources, reseeded on its byte and time budget; on the pure-Java path a Java engine of
 * the same kind per thread), safe and fast from any number of threads: no method takes the
 * instance's monitor.
 *
 * <p>Every {@code next*} method of {@code Random} and {@code SecureRandom} is overridden here:
 * {@code SecureRandom}'s own would funnel through {@code next(bits)} and, for an instance built
 * with the protected (spi, provider) constructor, through a {@code synchronized} block;
 * {@code RandomGenerator}'s default methods draw through these. Bounded values use the C
 * library's exact samplers (Lemire's multiply-and-reject, RNG-BC-1 for {@link BigInteger}
 * bounds).
 *
 * <p>Threads: platform threads draw from a small per-thread buffer (8 KiB) refilled by one
 * native call; the first thread to use an instance also skips the ThreadLocal lookup. Virtual
 * threads hold no buffer of their own and call the C generator per value, so their number costs
 * no memory here. Without the native library the same holds with a Java generator per thread.
 *
 * <p>If the operating system gives no entropy when a thread's system generator is first seeded
 * (or for {@link #generateSeed}, {@link #setSeed(byte[])} and {@link #reseed()}), the call throws
 * {@link java.security.ProviderException}, as the JDK's NativePRNG does when reading /dev/urandom
 * fails, with the C library's reason in the message. Nothing weak is returned in its place, and
 * the next call tries again.
 *
 * <p>{@link #seeded(byte[], Kind)} gives an explicitly deterministic generator whose stream is
 * the C library's for that engine and seed; such an instance must be confined to one thread.
 * Its native engine is wiped and freed when the instance becomes unreachable.
 *
 * <p>The JDK's DRBG parameters work on a system instance as on the provider's
 * ({@link ShakeRandomSpi}: 256-bit strength, prediction resistance by a reseed from the
 * sources). Serialization: a system instance comes back as a new system instance (there is no
 * state to carry); a seeded one is not serialized ({@link NotSerializableException}), since its
 * state is the generator's key: keep the seed instead.
 */
public class ShakeRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;

    /**
     * The engines of docs/engines.md. Each constant names a row of the active backend's kind
     * table (the C library's shakerand_kind_* functions on the native path, the pure-Java
     * engines' own table otherwise): its name and seed rule come from there, not from here.
     */
    public enum Kind {
        /** TurboSHAKE256 in periods with a ratchet; a seed of any length. */
        TURBOSHAKE256,
        /** As TURBOSHAKE256 with SHAKE256 (24 rounds); a seed of any length. */
        SHAKE256,
        /** Eight TurboSHAKE256 lanes with key erasure every 1056 bytes; a seed of any length. */
        TURBOSHAKE256X8,
        /**
         * C2SP chacha8rand with key erasure every 992 bytes: for a 32-byte seed, the stream of
         * Go's {@code math/rand/v2} {@code NewChaCha8(seed)} (read with {@code nextLong} alone,
         * its {@code Uint64} values; with {@code nextBytes} alone, its {@code Read}). The seed
         * must be exactly 32 bytes.
         */
        CHACHA8RAND;

        /**
         * This kind's row in the table of the backend that serves {@link ShakeRandom#seeded}.
         * NativeLib.LOADED rather than SystemGenerator.NATIVE (the same value): NativeLib's
         * initialisation never uses this enum, while SystemGenerator's does (through
         * JavaSystemGenerator.KIND), so this read can never see it half done.
         */
        KindRow row() {
            return KindRow.of(NativeLib.LOADED ? NativeLib.kinds() : JavaEngines.KINDS, this);
        }

        /**
         * The C library's name of the engine.
         *
         * @return the name, e.g. "turboshake256x8"
         */
        public String engineName() {
            return row().name();
        }

        /**
         * The seed length this engine requires.
         *
         * @return the length in bytes, or -1 if any length (empty included) will do
         */
        public int seedLength() {
            int n = row().seedSize(); // the C table's 0 ("any length") is this API's -1
            return n == 0 ? -1 : n;
        }
    }

    /**
     * Called directly by the DRBG-parameter methods: SecureRandom's own would synchronize on this
     * instance (the (spi, provider) constructor leaves it without an algorithm, so not ThreadSafe).
     */
    private final transient ShakeRandomSpi spi;
    private final transient RandomStream seeded;
    private final transient Kind kind;
    private final transient boolean ready;

    /**
     * The first platform thread to draw from this instance and its buffer: that thread skips the
     * ThreadLocal lookup. Immutable, so a racy read sees either null or a complete pair, and a
     * thread only ever uses the buffer when it is the owner; other threads use their own. The
     * thread is held weakly: a long-lived instance must not keep a dead thread (and its context
     * class loader) alive. The owner is itself the weak reference, not an object holding one: a
     * draw loads one object fewer before it compares the thread.
     */
    private static final class Owner extends WeakReference<Thread> {
        final RandomStream local;

        Owner(Thread thread, RandomStream local) {
            super(thread);
            this.local = local;
        }
    }

    private transient Owner owner;

    /** A generator backed by the calling thread's system generator. */
    public ShakeRandom() {
        this(null, null);
    }

    private ShakeRandom(RandomStream seeded, Kind kind) {
        this(new ShakeRandomSpi(), seeded, kind);
    }

    private ShakeRandom(ShakeRandomSpi spi, RandomStream seeded, Kind kind) {
        super(spi, ShakeRandProvider.INSTANCE);
        this.spi = spi;
        this.seeded = seeded;
        this.kind = kind;
        this.ready = true;
    }

    /**
     * A deterministic generator: the stream of engine {@code kind} seeded with {@code seed}
     * (any length, empty included, except {@link Kind#CHACHA8RAND}: exactly 32 bytes),
     * byte-identical to the C library's shakerand_engine for that seed, on the native and the
     * pure-Java path. {@code nextLong} and {@code nextInt} are the next 8 and 4 bytes of the
     * stream read little-endian. Not thread-safe: confine it to one thread. {@code setSeed} and
     * {@code reseed} on it throw {@link UnsupportedOperationException}.
     *
     * @param seed the seed bytes (copied)
     * @param kind the engine
     * @return a new generator at the start of that stream
     * @throws NullPointerException if seed or kind is null
     * @throws IllegalArgumentException if the seed's length is not one {@code kind} takes
     *     ({@link Kind#seedLength()}); the message names the length
     */
    public static ShakeRandom seeded(byte[] seed, Kind kind) {
        Objects.requireNonNull(seed, "seed");
        Objects.requireNonNull(kind, "kind");
        return new ShakeRandom(kind.row().start(seed), kind);
    }

    /**
     * A deterministic generator seeded with a string: its UTF-8 bytes, the seed rule of every
     * language (docs/engines.md, "Seeds"), so {@code seeded("é", kind)} is {@code seeded(new
     * byte[] {(byte) 0xc3, (byte) 0xa9}, kind)}; otherwise as {@link #seeded(byte[], Kind)}. A
     * string with an unpaired surrogate has no UTF-8 form and is refused, where {@code
     * getBytes(UTF_8)} would put {@code '?'} in its place.
     *
     * @param seed the seed text
     * @param kind the engine
     * @return a new generator at the start of that stream
     * @throws NullPointerException if seed or kind is null
     * @throws IllegalArgumentException if seed has an unpaired surrogate (the message names its
     *     index), or its UTF-8 length is not one {@code kind} takes
     */
    public static ShakeRandom seeded(String seed, Kind kind) {
        Objects.requireNonNull(seed, "seed");
        Objects.requireNonNull(kind, "kind");
        for (int i = 0; i < seed.length(); i++) {
            char c = seed.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < seed.length()
                    && Character.isLowSurrogate(seed.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("the seed has an unpaired surrogate at index " + i
                        + ", so no UTF-8 bytes to seed with");
            }
        }
        byte[] bytes = seed.getBytes(StandardCharsets.UTF_8);
        try {
            return seeded(bytes, kind);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /** Pure-Java engine regardless of the native library (package-private, for the tests). */
    static ShakeRandom seededJava(byte[] seed, Kind kind) {
        return new ShakeRandom(JavaEngines.create(kind, seed), kind);
    }

    /**
     * What serves this process.
     *
     * @return native with its kernel and entropy sources, or pure Java and why
     */
    public static String implementation() {
        return SystemGenerator.describe();
    }

    /**
     * Whether the native library is in use.
     *
     * @return true on the native path, false on the pure-Java one
     */
    public static boolean isNative() {
        return SystemGenerator.NATIVE;
    }

    /**
     * A version 4 UUID from the calling thread's system generator: a faster UUID.randomUUID().
     *
     * @return a random UUID
     */
    public static UUID randomUUID() {
        return SystemGenerator.uuid4();
    }

    /**
     * Starts a new epoch of the system generator: every thread's next value, in every {@code
     * ShakeRandom} that is not seeded, comes from a reseeded generator, and nothing buffered before
     * the call is handed out after it. Call it after a snapshot is restored (AWS Lambda SnapStart,
     * CRaC, a VM restored); with {@code org.crac} on the class path this library calls it from its
     * own after-restore hook. Seeded instances ({@link #seeded(byte[], Kind)}) are reproducible by
     * design and
     * keep their stream.
     */
    public static void newEpoch() {
        SystemGenerator.newEpoch();
    }

    /**
     * Whether a restored VM snapshot is detected without {@link #newEpoch}: on Linux, where the
     * vmclock device's page is mapped (the native library; the pure-Java path only where the JDK
     * can map it, docs/system.md).
     *
     * @return true if the VM generation counter is watched
     */
    public static boolean watchesVmGeneration() {
        return SystemGenerator.watchesVmGeneration();
    }

    /**
     * The stream this call draws from. The owner is asked first: only a system instance has one,
     * so a seeded one goes on to its stream. {@code refersTo} compares without taking a strong
     * reference to the thread (no keep-alive barrier, unlike {@code get()}).
     */
    private RandomStream src() {
        Owner o = owner;
        if (o != null && o.refersTo(Thread.currentThread())) {
            return o.local;
        }
        return otherSrc();
    }

    /**
     * The seeded stream, or the calling thread's own (which becomes the owner's if there is none
     * yet: the samplers take the fast path from then on, as nextLong does), or, on a virtual
     * thread, the system generator per value.
     */
    private RandomStream otherSrc() {
        RandomStream s = seeded;
        if (s != null) {
            return s;
        }
        Thread t = Thread.currentThread();
        RandomStream local = SystemGenerator.local(t);
        if (local == null) {
            return SystemGenerator.STREAM; // a virtual thread, or no buffers (NativeSystemGenerator.BUFFERED)
        }
        Owner o = owner;
        Thread ot = o != null ? o.get() : null;
        if (ot == null || !ot.isAlive()) {
            // No owner yet, or one that died: this thread takes over the fast path, and the dead
            // thread's buffer is no longer kept alive by this instance.
            owner = new Owner(t, local);
        }
        return local;
    }

    RandomStream source() {
        return src();
    }

    @Override
    public String getAlgorithm() {
        return seeded == null ? "ShakeRandom" : "ShakeRandom/" + kind.engineName();
    }

    @Override
    public String toString() {
        return getAlgorithm() + " [" + implementation() + "]";
    }

    // ---- bytes and words ----

    @Override
    public void nextBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        RandomStream s = seeded;
        if (s != null) {
            s.fill(bytes, 0, bytes.length);
        } else {
            SystemGenerator.fill(bytes, 0, bytes.length);
        }
    }

    /** The next 4 bytes of a seeded stream; on the system generator half a buffered word. */
    @Override
    public int nextInt() {
        Owner o = owner;
        if (o != null && o.refersTo(Thread.currentThread())) {
            return o.local.u32();
        }
        return otherSrc().u32();
    }

    @Override
    public long nextLong() {
        Owner o = owner;
        if (o != null && o.refersTo(Thread.currentThread())) {
            return o.local.u64();
        }
        return otherLong();
    }

    /** nextLong() of a seeded instance, or of a thread that does not own this one. */
    private long otherLong() {
        return otherSrc().u64();
    }

    /** The top bit of {@link #nextInt()} (4 bytes of the stream). */
    @Override
    public boolean nextBoolean() {
        return nextInt() < 0;
    }

    @Override
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        return Samplers.belowU32(src(), bound);
    }

    @Override
    public int nextInt(int origin, int bound) {
        if (origin >= bound) {
            throw new IllegalArgumentException("bound must be greater than origin");
        }
        return origin + Samplers.belowU32(src(), bound - origin);
    }

    @Override
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        return Samplers.belowU64(src(), bound);
    }

    /** Uniform in [origin, bound): shakerand_range_i64(origin, bound - 1). */
    @Override
    public long nextLong(long origin, long bound) {
        if (origin >= bound) {
            throw new IllegalArgumentException("bound must be greater than origin");
        }
        return origin + Samplers.belowU64(src(), bound - origin);
    }

    /** k / 2^53 for 53 random bits k (shakerand_double). */
    @Override
    public double nextDouble() {
        return Samplers.nextDouble(src());
    }

    /** k / 2^24 for 24 random bits k (shakerand_float). */
    @Override
    public float nextFloat() {
        return Samplers.nextFloat(src());
    }

    /** Marsaglia's polar method without Random's cached second value (and its lock). */
    @Override
    public double nextGaussian() {
        RandomStream s = src();
        double v1;
        double v2;
        double q;
        do {
            v1 = 2 * Samplers.nextDouble(s) - 1;
            v2 = 2 * Samplers.nextDouble(s) - 1;
            q = v1 * v1 + v2 * v2;
        } while (q >= 1 || q == 0);
        return v1 * StrictMath.sqrt(-2 * StrictMath.log(q) / q);
    }

    /**
     * Uniform in [0, bound) by RNG-BC-1 (shakerand_below), e.g. for EC private keys or RSA-KEM.
     *
     * @param bound the exclusive upper bound, positive
     * @return a value in [0, bound), every one equally likely
     * @throws NullPointerException if bound is null
     * @throws IllegalArgumentException if bound is not positive
     */
    public BigInteger nextBigInteger(BigInteger bound) {
        Objects.requireNonNull(bound, "bound");
        if (bound.signum() <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        return new BigInteger(1, Samplers.below(src(), bound.toByteArray()));
    }

    /**
     * A version 4 UUID: 16 bytes of this generator's stream with version and variant set.
     *
     * @return the UUID
     */
    public UUID nextUUID() {
        RandomStream s = seeded;
        return s != null ? Samplers.uuid4(s) : SystemGenerator.uuid4();
    }

    /**
     * A version 7 UUID (Unix milliseconds, a 42-bit counter, 32 random bits), increasing within
     * the process.
     *
     * @return the UUID
     */
    public UUID nextUUIDv7() {
        return Samplers.uuid7(src());
    }

    // ---- seeding ----

    /**
     * Fresh entropy from the sources (the OS mixed with hardware on the native path; the JDK's
     * non-blocking source on the pure-Java path); never blocks once the OS pool is initialised.
     */
    @Override
    public byte[] generateSeed(int numBytes) {
        if (numBytes < 0) {
            throw new IllegalArgumentException("numBytes cannot be negative");
        }
        return SystemGenerator.entropy(numBytes);
    }

    /**
     * Never makes this generator deterministic: it reseeds the calling thread's generator from
     * the sources, with a digest of the bytes added to the new seed, so they add to the entropy
     * and never replace it. Seeded generators refuse it.
     */
    @Override
    public void setSeed(byte[] seed) {
        Objects.requireNonNull(seed, "seed");
        if (seeded != null) {
            throw new UnsupportedOperationException("a seeded ShakeRandom cannot be reseeded");
        }
        SystemGenerator.reseed(seed);
    }

    /** As {@link #setSeed(byte[])}; ignored while the superclass constructor calls it. */
    @Override
    public void setSeed(long seed) {
        if (!ready) {
            return;
        }
        byte[] b = new byte[8];
        Bytes.putLe64(b, 0, seed);
        setSeed(b);
    }

    @Override
    public void reseed() {
        if (seeded != null) {
            throw new UnsupportedOperationException("a seeded ShakeRandom cannot be reseeded");
        }
        SystemGenerator.reseed(new byte[0]);
    }

    /**
     * As {@link ShakeRandomSpi}, without the instance's monitor; seeded generators refuse it
     * (UnsupportedOperationException). Arguments are checked first, as {@code SecureRandom} does.
     */
    @Override
    public void reseed(SecureRandomParameters params) {
        if (params == null) {
            throw new IllegalArgumentException("params cannot be null");
        }
        if (seeded != null) {
            throw new UnsupportedOperationException("a seeded ShakeRandom cannot be reseeded");
        }
        spi.engineReseed(params);
    }

    /**
     * As {@link ShakeRandomSpi}, without the instance's monitor; seeded generators refuse it
     * (UnsupportedOperationException): they are deterministic, so prediction resistance and
     * additional input cannot be honoured. Arguments are checked first, as {@code SecureRandom}
     * does.
     */
    @Override
    public void nextBytes(byte[] bytes, SecureRandomParameters params) {
        if (params == null) {
            throw new IllegalArgumentException("params cannot be null");
        }
        Objects.requireNonNull(bytes, "bytes");
        if (seeded != null) {
            throw new UnsupportedOperationException(
                    "a seeded ShakeRandom takes no DrbgParameters: it is deterministic");
        }
        spi.engineNextBytes(bytes, params);
    }

    /** What a system instance is (a DRBG of 256 bits, {@code PR_AND_RESEED}); null if seeded. */
    @Override
    public SecureRandomParameters getParameters() {
        return seeded != null ? null : spi.engineGetParameters();
    }

    // ---- serialization ----

    /** A system instance's serialized form: nothing but its class. */
    private static final class SystemForm implements Serializable {
        private static final long serialVersionUID = 1L;

        private Object readResolve() {
            return new ShakeRandom();
        }
    }

    /**
     * A system instance is written as {@link SystemForm}; a seeded one is refused.
     *
     * @return the form written in this instance's place
     * @throws ObjectStreamException (NotSerializableException) for a seeded generator
     */
    protected final Object writeReplace() throws ObjectStreamException {
        if (seeded != null) {
            throw new NotSerializableException("a seeded ShakeRandom is not serialized: its state is "
                    + "the generator's key; keep the seed");
        }
        return new SystemForm();
    }

    /**
     * Refuses ShakeRandom's own fields in a stream: only {@code SystemForm} makes one.
     *
     * @param in the stream
     * @throws InvalidObjectException always
     */
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a ShakeRandom is read only through its serialized form");
    }

    // ---- streams: the same samplers, no monitor ----

    private static void checkSize(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be non-negative");
        }
    }

    private static void checkRange(long origin, long bound) {
        if (origin >= bound) {
            throw new IllegalArgumentException("bound must be greater than origin");
        }
    }

    private static void checkRange(double origin, double bound) {
        if (!(origin < bound && bound - origin < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("bound must be greater than origin");
        }
    }

    private double boundedDouble(double origin, double bound) {
        double r = nextDouble() * (bound - origin) + origin;
        return r >= bound ? Math.nextDown(bound) : r;
    }

    @Override
    public IntStream ints() {
        return IntStream.generate(this::nextInt);
    }

    @Override
    public IntStream ints(long streamSize) {
        checkSize(streamSize);
        return ints().limit(streamSize);
    }

    @Override
    public IntStream ints(int origin, int bound) {
        checkRange(origin, bound);
        return IntStream.generate(() -> nextInt(origin, bound));
    }

    @Override
    public IntStream ints(long streamSize, int origin, int bound) {
        checkSize(streamSize);
        return ints(origin, bound).limit(streamSize);
    }

    @Override
    public LongStream longs() {
        return LongStream.generate(this::nextLong);
    }

    @Override
    public LongStream longs(long streamSize) {
        checkSize(streamSize);
        return longs().limit(streamSize);
    }

    @Override
    public LongStream longs(long origin, long bound) {
        checkRange(origin, bound);
        return LongStream.generate(() -> nextLong(origin, bound));
    }

    @Override
    public LongStream longs(long streamSize, long origin, long bound) {
        checkSize(streamSize);
        return longs(origin, bound).limit(streamSize);
    }

    @Override
    public DoubleStream doubles() {
        return DoubleStream.generate(this::nextDouble);
    }

    @Override
    public DoubleStream doubles(long streamSize) {
        checkSize(streamSize);
        return doubles().limit(streamSize);
    }

    @Override
    public DoubleStream doubles(double origin, double bound) {
        checkRange(origin, bound);
        return DoubleStream.generate(() -> boundedDouble(origin, bound));
    }

    @Override
    public DoubleStream doubles(long streamSize, double origin, double bound) {
        checkSize(streamSize);
        return doubles(origin, bound).limit(streamSize);
    }
}
