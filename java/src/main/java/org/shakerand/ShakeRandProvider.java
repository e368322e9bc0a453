// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.security.Provider;
import java.util.List;
import java.util.Map;

/**
 * The JCA provider "ShakeRand": SecureRandom.ShakeRandom, ThreadSafe, ImplementedIn Software.
 * Installed first ({@code Security.insertProviderAt(new ShakeRandProvider(), 1)} or the
 * java.security file), it serves {@code new SecureRandom()}; it serves {@code UUID.randomUUID()}
 * only if it was installed before the JVM's first call of that method, which makes the
 * {@code SecureRandom} UUID keeps for the JVM's lifetime.
 */
public final class ShakeRandProvider extends Provider {
    private static final long serialVersionUID = 1L;

    static final ShakeRandProvider INSTANCE = new ShakeRandProvider();

    /** The provider, to install with {@code Security.insertProviderAt} or {@code addProvider}. */
    public ShakeRandProvider() {
        super("ShakeRand", "0.1.0",
                "ShakeRand: the shakerand C core's per-thread system generator as a SecureRandom");
        // DEFAULT, as Amazon Corretto Crypto Provider and BouncyCastle name their default.
        putService(new Service(this, "SecureRandom", "ShakeRandom", ShakeRandomSpi.class.getName(),
                List.of("DEFAULT"), Map.of("ThreadSafe", "true", "ImplementedIn", "Software")));
    }
}
