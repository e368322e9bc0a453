// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian word access to byte arrays (the lanes of FIPS 202). */
final class Bytes {
    private Bytes() {}

    static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    static long le64(byte[] b, int off) {
        return (long) LE64.get(b, off);
    }

    static int le32(byte[] b, int off) {
        return (int) LE32.get(b, off);
    }

    static void putLe64(byte[] b, int off, long v) {
        LE64.set(b, off, v);
    }
}
