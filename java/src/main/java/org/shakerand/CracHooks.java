// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * The system generator's hooks for a checkpoint and its restores (CRaC; AWS Lambda SnapStart runs
 * the same hooks), registered when the optional org.crac is present (SystemGenerator). Before a
 * checkpoint and after each restore a new epoch starts: no thread hands out a byte buffered or
 * computed before it, and every thread reseeds at its next draw, so two restores of one checkpoint
 * never share output. org.crac forwards to jdk.crac on a CRaC JDK and does nothing on others.
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
        SystemGenerator.newEpoch();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        SystemGenerator.newEpoch();
    }
}
