// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand.cractest;

/** jdk.crac's Context (see Resource). */
public abstract class Context<R extends Resource> implements Resource {
    protected Context() {}

    public abstract void register(R resource);
}
