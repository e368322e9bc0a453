// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.Arrays;

/**
 * A generator's output served from a buffer that refill() loads: the pure-Java engines and the
 * native engine share it. Each byte is zeroed as it is handed out, and the next refill happens
 * as soon as the last byte of the current one is gone, so a captured object holds nothing
 * already delivered. A large fill may have the refills in between written straight into the
 * caller's array (fillWhole). Confined to one thread.
 */
abstract class BufferedStream implements RandomStream {
    final byte[] buf;
    int pos;
    private final int size;

    BufferedStream(int size) {
        this.buf = new byte[size];
        this.size = size;
        this.pos = size;
    }

    /** Loads buf[0, size) with the next output and moves the state past it. */
    abstract void refill();

    /** Erases the generator's state (the key); buf is erased by wipe(). */
    abstract void wipeState();

    /** Loads the first buffer; a subclass's constructor calls it once its state is set. */
    final void prime() {
        refill();
        pos = 0;
    }

    @Override
    public final long u64() {
        int p = pos;
        if (size - p >= 8) {
            long v = Bytes.le64(buf, p);
            Bytes.putLe64(buf, p, 0L);
            advance(p + 8);
            return v;
        }
        byte[] t = new byte[8];
        fill(t, 0, 8);
        long v = Bytes.le64(t, 0);
        Arrays.fill(t, (byte) 0);
        return v;
    }

    @Override
    public final int u32() {
        int p = pos;
        if (size - p >= 4) {
            int v = Bytes.le32(buf, p);
            Bytes.LE32.set(buf, p, 0);
            advance(p + 4);
            return v;
        }
        byte[] t = new byte[4];
        fill(t, 0, 4);
        int v = Bytes.le32(t, 0);
        Arrays.fill(t, (byte) 0);
        return v;
    }

    private void advance(int p) {
        if (p == size) {
            refill();
            p = 0;
        }
        pos = p;
    }

    /**
     * Writes the refills that follow the current one straight into out[off, off + k * size) for
     * the largest k with k * size <= len, exactly as k calls of refill() would load them into
     * buf, and returns k * size; this is called only when buf has been handed out in full. The
     * delivered bytes then never sit in the object. One that cannot returns 0.
     */
    int fillWhole(byte[] out, int off, int len) {
        return 0;
    }

    @Override
    public final void fill(byte[] out, int off, int len) {
        while (len > 0) {
            int p = pos;
            int n = Math.min(len, size - p);
            System.arraycopy(buf, p, out, off, n);
            Arrays.fill(buf, p, p + n, (byte) 0);
            off += n;
            len -= n;
            if (p + n < size) {
                pos = p + n;
                return;
            }
            if (len >= size) {
                int d = fillWhole(out, off, len);
                off += d;
                len -= d;
            }
            refill();
            pos = 0;
        }
    }

    /** Erases the buffer and the state; a later draw fails or gives a fresh refill, by subclass. */
    void wipe() {
        Arrays.fill(buf, (byte) 0);
        wipeState();
        pos = size;
    }
}
