// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.security.SecureRandomParameters;
import java.security.SecureRandomSpi;

/**
 * The provider's SecureRandom implementation: the calling thread's system generator. Declared
 * ThreadSafe, so the JDK's SecureRandom calls it without synchronizing.
 */
public final class ShakeRandomSpi extends SecureRandomSpi {
    private static final long serialVersionUID = 1L;

    public ShakeRandomSpi() {
        super();
    }

    /**
     * The constructor the JDK looks for first. ShakeRandom takes no parameters: anything but
     * null is refused (SecureRandom.getInstance then reports NoSuchAlgorithmException).
     */
    public ShakeRandomSpi(SecureRandomParameters params) {
        super(params);
        if (params != null) {
            throw new IllegalArgumentException("ShakeRandom takes no SecureRandomParameters");
        }
    }

    @Override
    protected void engineSetSeed(byte[] seed) {
        if (seed == null) {
            throw new NullPointerException("seed");
        }
        Sys.reseed(seed);
    }

    @Override
    protected void engineNextBytes(byte[] bytes) {
        Sys.fill(bytes, 0, bytes.length);
    }

    @Override
    protected byte[] engineGenerateSeed(int numBytes) {
        if (numBytes < 0) {
            throw new IllegalArgumentException("numBytes cannot be negative");
        }
        return Sys.entropy(numBytes);
    }

    @Override
    protected void engineReseed(java.security.SecureRandomParameters params) {
        if (params != null) {
            throw new IllegalArgumentException("ShakeRandom takes no SecureRandomParameters");
        }
        Sys.reseed(new byte[0]);
    }

    @Override
    public String toString() {
        return "ShakeRandom [" + Sys.describe() + "]";
    }
}
