// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.security.DrbgParameters;
import java.security.SecureRandomParameters;
import java.security.SecureRandomSpi;

/**
 * The provider's SecureRandom implementation: the calling thread's system generator. Declared
 * ThreadSafe, so the JDK's SecureRandom calls it without synchronizing.
 *
 * <p>It speaks the JDK's DRBG parameters ({@link DrbgParameters}): an instance is a DRBG of
 * 256-bit strength with prediction resistance and reseeding ({@code PR_AND_RESEED}), whatever
 * was asked for at or below that. Prediction resistance on a request reseeds the calling
 * thread's generator from the entropy sources before it; additional input and a
 * personalization string are mixed into the calling thread's generator by a reseed (they add
 * to its entropy and never replace it). The system generators are per thread and shared by
 * every instance, so a personalization string does not separate one instance's stream from
 * another's.
 */
public final class ShakeRandomSpi extends SecureRandomSpi {
    private static final long serialVersionUID = 1L;

    /** The security strength in bits: TurboSHAKE256's and ChaCha8's keys are 256 bits. */
    static final int STRENGTH = 256;

    /** The personalization string asked for, or null (reported by engineGetParameters). */
    private final byte[] personalization;

    /** An instance without parameters (what {@code new SecureRandom()} makes). */
    public ShakeRandomSpi() {
        this(null);
    }

    /**
     * The constructor the JDK looks for first: null, or a {@link DrbgParameters.Instantiation}
     * asking for a strength of at most 256 bits (any capability). Anything else is an
     * IllegalArgumentException, which {@code SecureRandom.getInstance} reports as
     * NoSuchAlgorithmException.
     *
     * @param params null, or the DRBG instantiation parameters asked for
     * @throws IllegalArgumentException for parameters it cannot honour
     */
    public ShakeRandomSpi(SecureRandomParameters params) {
        super(params);
        byte[] personalization = null;
        if (params != null) {
            if (!(params instanceof DrbgParameters.Instantiation)) {
                throw new IllegalArgumentException("ShakeRandom takes DrbgParameters.Instantiation, not "
                        + params.getClass().getName());
            }
            DrbgParameters.Instantiation p = (DrbgParameters.Instantiation) params;
            checkStrength(p.getStrength());
            personalization = p.getPersonalizationString();
            if (personalization != null) {
                SystemGenerator.reseed(personalization);
            }
        }
        this.personalization = personalization;
    }

    private static void checkStrength(int strength) {
        if (strength > STRENGTH) {
            throw new IllegalArgumentException("strength " + strength
                    + " is above ShakeRandom's " + STRENGTH + " bits");
        }
    }

    @Override
    protected SecureRandomParameters engineGetParameters() {
        return DrbgParameters.instantiation(STRENGTH, DrbgParameters.Capability.PR_AND_RESEED,
                personalization);
    }

    @Override
    protected void engineSetSeed(byte[] seed) {
        if (seed == null) {
            throw new NullPointerException("seed");
        }
        SystemGenerator.reseed(seed);
    }

    @Override
    protected void engineNextBytes(byte[] bytes) {
        SystemGenerator.fill(bytes, 0, bytes.length);
    }

    /**
     * A request with {@link DrbgParameters.NextBytes}: strength at most 256; prediction
     * resistance or additional input reseed the calling thread's generator first.
     */
    @Override
    protected void engineNextBytes(byte[] bytes, SecureRandomParameters params) {
        if (!(params instanceof DrbgParameters.NextBytes)) {
            throw new IllegalArgumentException("ShakeRandom takes DrbgParameters.NextBytes, not "
                    + (params == null ? "null" : params.getClass().getName()));
        }
        DrbgParameters.NextBytes p = (DrbgParameters.NextBytes) params;
        checkStrength(p.getStrength());
        byte[] additional = p.getAdditionalInput();
        if (p.getPredictionResistance() || additional != null) {
            SystemGenerator.reseed(additional != null ? additional : new byte[0]);
        }
        SystemGenerator.fill(bytes, 0, bytes.length);
    }

    @Override
    protected byte[] engineGenerateSeed(int numBytes) {
        if (numBytes < 0) {
            throw new IllegalArgumentException("numBytes cannot be negative");
        }
        return SystemGenerator.entropy(numBytes);
    }

    /**
     * A reseed from the entropy sources (always: it is prediction resistant whether or not
     * {@link DrbgParameters.Reseed} asks), with its additional input mixed in.
     */
    @Override
    protected void engineReseed(SecureRandomParameters params) {
        byte[] additional = null;
        if (params != null) {
            if (!(params instanceof DrbgParameters.Reseed)) {
                throw new IllegalArgumentException("ShakeRandom takes DrbgParameters.Reseed, not "
                        + params.getClass().getName());
            }
            additional = ((DrbgParameters.Reseed) params).getAdditionalInput();
        }
        SystemGenerator.reseed(additional != null ? additional : new byte[0]);
    }

    @Override
    public String toString() {
        return "ShakeRandom [" + SystemGenerator.describe() + "]";
    }
}
