// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The pure-Java system generator: one engine per thread of the kind the C system generator
 * runs (chacha8rand, or turboshake256x8 where the environment variable SHAKERAND_SYSTEM_ENGINE
 * says so), keyed with TurboSHAKE256(D = 0x22) of 64 bytes from the JDK's own non-blocking
 * source and a counter (32 bytes out for chacha8rand, 64 for turboshake256x8), reseeded after
 * 16 MiB of output or 60 seconds, the C system generator's policy (docs/system.md).
 */
final class JavaSystem {
    private JavaSystem() {}

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
        throw new IllegalStateException("no non-blocking OS random source in this JDK");
    }

    static String osSourceName() {
        return OS.getProvider().getName() + " " + OS.getAlgorithm();
    }

    private static synchronized long nextCounter() {
        return ++counter;
    }

    /** Fresh conditioned entropy: TurboSHAKE256(D = 0x22) of OS bytes, a counter and extra. */
    static byte[] entropy(int n, byte[] extra) {
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
    static final class Gen implements Source {
        private Engine engine;
        private long sinceSeed;
        private long deadline;
        int reseeds; // for the tests


        Gen() {
            reseed(new byte[0]);
        }

        void reseed(byte[] extra) {
            final boolean chacha = KIND == ShakeRandom.Kind.CHACHA8RAND;
            byte[] seed = entropy(chacha ? 32 : 64, extra);
            Engine old = engine;
            engine = chacha ? new Engine.ChaCha8Engine(seed) : new Engine.X8Engine(seed);
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

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
