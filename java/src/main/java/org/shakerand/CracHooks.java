// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * The system generator's hooks for a checkpoint and its restores (CRaC; AWS Lambda SnapStart runs
 * the same hooks), registered when the optional org.crac is present, at the generator's first use
 * (SystemGenerator). Before a checkpoint and after each restore a new epoch starts: no thread
 * hands out a byte buffered or computed before it, and every thread reseeds at its next draw; the
 * pure path also closes the vmclock device before the checkpoint (CRaC refuses one with a file
 * open) and opens it again after the restore. CRaC
 * runs after-restore hooks in the order they were registered: a resource registered before this
 * one that draws in its own afterRestore, or another thread drawing before this hook ran, still
 * gets the checkpoint's bytes; such code calls ShakeRandom.newEpoch() first (java/README.md).
 * org.crac forwards to jdk.crac on a CRaC JDK and does nothing on others.
 */
final class CracHooks implements Resource {
    /** Held here: a context may keep its resources only weakly. */
    private static final CracHooks INSTANCE = new CracHooks();

    private CracHooks() {}

    static void register() {
        Core.getGlobalContext().register(INSTANCE);
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        SystemGenerator.beforeCheckpoint();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        SystemGenerator.afterRestore();
    }
}
