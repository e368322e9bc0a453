// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.cractest;

import java.util.ArrayList;
import java.util.List;

/**
 * jdk.crac's Core (see Resource): checkpointRestore notifies every registered resource before
 * the checkpoint, in reverse order of registration, and after the restore, in order, as the
 * CRaC JDK does; nothing is saved or restored.
 */
public final class Core {
    private static final List<Resource> RESOURCES = new ArrayList<>();

    private static final Context<Resource> GLOBAL = new Context<>() {
        @Override
        public synchronized void register(Resource resource) {
            RESOURCES.add(resource);
        }

        @Override
        public void beforeCheckpoint(Context<? extends Resource> context) throws Exception {
            List<Resource> all;
            synchronized (this) {
                all = new ArrayList<>(RESOURCES);
            }
            for (int i = all.size() - 1; i >= 0; i--) {
                all.get(i).beforeCheckpoint(this);
            }
        }

        @Override
        public void afterRestore(Context<? extends Resource> context) throws Exception {
            List<Resource> all;
            synchronized (this) {
                all = new ArrayList<>(RESOURCES);
            }
            for (Resource r : all) {
                r.afterRestore(this);
            }
        }
    };

    private Core() {}

    public static Context<Resource> getGlobalContext() {
        return GLOBAL;
    }

    /** How many resources are registered (for the tests). */
    public static synchronized int registered() {
        return RESOURCES.size();
    }

    public static void checkpointRestore() throws CheckpointException, RestoreException {
        try {
            GLOBAL.beforeCheckpoint(null);
            GLOBAL.afterRestore(null);
        } catch (Exception e) {
            RestoreException r = new RestoreException();
            r.initCause(e);
            throw r;
        }
    }
}
