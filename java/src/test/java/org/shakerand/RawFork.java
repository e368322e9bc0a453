// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

/**
 * A raw fork of the JVM (src/test/c/rawfork_jni.c, which ForkTest compiles into target/raw-fork/
 * and the child JVM loads with System.load): no fork handler runs, as after a clone or fork system
 * call made by any native code. Test-only; never in the jar.
 */
final class RawFork {
    private RawFork() {}

    /** The child's pid in the parent, 0 in the child, minus errno on failure. */
    static native int fork();

    /** In the child: writes words to path (NUL-terminated) and exits by the system call. */
    static native void writeAndExit(byte[] path, long[] words);

    /** In the parent: the child's exit status, or -1 if it did not exit within seconds. */
    static native int waitFor(int pid, int seconds);
}
