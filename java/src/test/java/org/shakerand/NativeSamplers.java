// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.nio.file.Paths;

/**
 * The C samplers themselves on an engine of the tests' own library (src/test/c/samplers_jni.c,
 * built by src/main/c/build.sh or build-windows.sh into target/test-native/PLATFORM/, never in
 * the jar), for CrossCheckTest's comparison with the Java ports. Loaded on first use; needs the
 * native path.
 */
final class NativeSamplers {
    private NativeSamplers() {}

    static {
        System.load(Paths.get("target", "test-native", NativeLib.platform(),
                System.mapLibraryName("shakerand_samplers_jni"))
                .toAbsolutePath().toString());
    }

    static native long engineNew(int kind, byte[] seed);

    static native void engineFree(long engine);

    static native int uniformU32(long engine, int n);

    static native long uniformU64(long engine, long n);

    static native long rangeI64(long engine, long lo, long hi);

    static native double nextDouble(long engine);

    static native float nextFloat(long engine);

    static native byte[] below(long engine, byte[] r);

    static native byte[] uuid4(long engine);
}
