// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

/** A stream of random bytes; words are the next 8 (4) bytes read little-endian. */
interface RandomStream {
    long u64();

    int u32();

    void fill(byte[] out, int off, int len);
}
