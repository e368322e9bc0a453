// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.UUID;

/**
 * The default, non-deterministic source: the calling thread's system generator, served by the
 * backend chosen once when this class is initialised: {@link NativeSystemGenerator} when the
 * native library loaded, {@link JavaSystemGenerator} otherwise. Each backend splits platform
 * threads (a generator or buffer of their own) from virtual threads (none of their own: a
 * million virtual threads must not hold a million buffers).
 */
final class SystemGenerator {
    private SystemGenerator() {}

    /** What a backend provides; every method acts for the calling thread. */
    interface Backend {
        /**
         * The calling platform thread's own stream, serving that thread only; null on a virtual
         * thread, and on the native path where there is no fork mark (NativeSystemGenerator).
         */
        RandomStream local(Thread t);

        long u64();

        void fill(byte[] out, int off, int len);

        UUID uuid4();

        /** Reseeds the calling thread's generator from the sources with extra hashed into the seed. */
        void reseed(byte[] extra);

        /** n > 0 bytes of fresh conditioned entropy. */
        byte[] entropy(int n);

        /** Every thread reseeds before its next byte, buffered bytes dropped. */
        void newEpoch();

        /** Before a checkpoint (CracHooks): a new epoch, and what a checkpoint refuses closed. */
        default void beforeCheckpoint() {
            newEpoch();
        }

        /** After a restore (CracHooks): what beforeCheckpoint closed opened again, a new epoch. */
        default void afterRestore() {
            newEpoch();
        }

        boolean watchesVmGeneration();

        /** The epoch's word now (it moves at each new epoch). */
        long epochWord();

        /** The VM generation counter's word now, 0 where none is watched. */
        long vmGenerationWord();

        String describe();
    }

    static final boolean NATIVE = NativeLib.LOADED;

    private static final Backend BACKEND =
            NATIVE ? new NativeSystemGenerator() : new JavaSystemGenerator();

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

    /**
     * Whether org.crac (optional) can be used from here: on the class path, or resolved as a module
     * ({@code --add-modules org.crac}). CracHooks, which links against it, is loaded only then.
     */
    private static boolean cracPresent() {
        try {
            Class<?> core = Class.forName("org.crac.Core", false, SystemGenerator.class.getClassLoader());
            return SystemGenerator.class.getModule().canRead(core.getModule());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static boolean isVirtual(Thread t) {
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    static RandomStream local(Thread t) {
        return BACKEND.local(t);
    }

    static long u64() {
        return BACKEND.u64();
    }

    static int u32() {
        return (int) BACKEND.u64();
    }

    static void fill(byte[] out, int off, int len) {
        BACKEND.fill(out, off, len);
    }

    static UUID uuid4() {
        return BACKEND.uuid4();
    }

    static void reseed(byte[] extra) {
        BACKEND.reseed(extra);
    }

    static byte[] entropy(int n) {
        return n == 0 ? new byte[0] : BACKEND.entropy(n);
    }

    static String describe() {
        return BACKEND.describe();
    }

    static void newEpoch() {
        BACKEND.newEpoch();
    }

    static void beforeCheckpoint() {
        BACKEND.beforeCheckpoint();
    }

    static void afterRestore() {
        BACKEND.afterRestore();
    }

    static boolean watchesVmGeneration() {
        return BACKEND.watchesVmGeneration();
    }

    static long epochWord() {
        return BACKEND.epochWord();
    }

    static long vmGenerationWord() {
        return BACKEND.vmGenerationWord();
    }

    /** The system generator as a stream, for the samplers. */
    static final RandomStream STREAM = new RandomStream() {
        @Override
        public long u64() {
            return BACKEND.u64();
        }

        @Override
        public int u32() {
            return (int) BACKEND.u64();
        }

        @Override
        public void fill(byte[] out, int off, int len) {
            BACKEND.fill(out, off, len);
        }
    };

    // Last, with every field above in place: a logger that draws randomness (a UUID for its
    // record, say) comes back into this class while it is being initialised, on this thread.
    static {
        if (!NATIVE) {
            System.getLogger("org.shakerand").log(System.Logger.Level.INFO,
                    "shakerand: pure Java, " + NativeLib.STATUS);
        }
        if (cracPresent()) {
            try {
                CracHooks.register();
            } catch (RuntimeException | LinkageError e) { // the generator must still work
                System.getLogger("org.shakerand").log(System.Logger.Level.WARNING,
                        "shakerand: CRaC hooks not registered; call ShakeRandom.newEpoch() after a restore", e);
            }
        }
    }
}
