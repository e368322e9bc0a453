// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.security.Provider;
import java.util.Map;

/**
 * The JCA provider "ShakeRand": SecureRandom.ShakeRandom, ThreadSafe, ImplementedIn Software.
 * Installed first ({@code Security.insertProviderAt(new ShakeRandProvider(), 1)} or the
 * java.security file), it serves {@code new SecureRandom()} and so {@code UUID.randomUUID()}.
 */
public final class ShakeRandProvider extends Provider {
    private static final long serialVersionUID = 1L;

    static final ShakeRandProvider INSTANCE = new ShakeRandProvider();

    public ShakeRandProvider() {
        super("ShakeRand", "0.1.0",
                "ShakeRand: per-thread Keccak (turboshake256x8) SecureRandom from the shakerand C core");
        putService(new Service(this, "SecureRandom", "ShakeRandom", ShakeRandomSpi.class.getName(),
                null, Map.of("ThreadSafe", "true", "ImplementedIn", "Software")));
    }
}
