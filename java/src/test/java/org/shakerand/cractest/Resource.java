// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.cractest;

/**
 * A stand-in for jdk.crac, which org.crac forwards to when the system property
 * org.crac.Core.Compat names this package (the tests' JVM arguments): what a CRaC JDK does around
 * a checkpoint, minus the checkpoint. Its API is jdk.crac's.
 */
public interface Resource {
    void beforeCheckpoint(Context<? extends Resource> context) throws Exception;

    void afterRestore(Context<? extends Resource> context) throws Exception;
}
