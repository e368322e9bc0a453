// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Key erasure in the pure-Java chacha8rand engine: after any draw it holds the key of the next
 * iteration (never the one that made output already delivered) and the undelivered rest of the
 * live iteration, nothing else; whole iterations of a large fill never pass through it.
 */
class ChaCha8EngineTest {
    static final int OUT = ChaCha8Rand.OUTPUT_BYTES;
    static final ShakeRandom.Kind K = ShakeRandom.Kind.CHACHA8RAND;

    static byte[] keyBytes(JavaEngines.ChaCha8 e) {
        byte[] b = new byte[32];
        for (int i = 0; i < 8; i++) {
            Bytes.LE32.set(b, 4 * i, e.key[i]);
        }
        return b;
    }

    /** Draws n bytes in requests of at most chunk bytes (0: one fill; -8: u64 words, then bytes). */
    static void draw(BufferedStream e, int n, int chunk) {
        if (chunk == -8) {
            for (; n >= 8; n -= 8) {
                e.u64();
            }
            chunk = 0;
        }
        byte[] b = new byte[n];
        for (int off = 0; off < n; ) {
            int len = chunk == 0 ? n - off : Math.min(chunk, n - off);
            e.fill(b, off, len);
            off += len;
        }
    }

    @Test
    void holdsOnlyTheNextKeyAndTheUndeliveredRest() {
        byte[] seed = TestSupport.seed(K, "key erasure");
        byte[] stream = new byte[12 * OUT];
        JavaEngines.create(K, seed).fill(stream, 0, stream.length);
        int[] counts = {0, 1, 8, OUT - 1, OUT, OUT + 1, 2 * OUT, 5 * OUT + 7, 9 * OUT, 10 * OUT - 3};
        int[] chunks = {0, 1000, 37, -8};
        for (int n : counts) {
            for (int chunk : chunks) {
                String what = n + " bytes in requests of " + chunk;
                JavaEngines.ChaCha8 e = new JavaEngines.ChaCha8(seed);
                draw(e, n, chunk);
                int live = n / OUT; // the iteration buf holds
                assertEquals(n % OUT, e.pos, what);
                byte[] zeros = new byte[e.pos];
                assertArrayEquals(zeros, Arrays.copyOfRange(e.buf, 0, e.pos), "delivered bytes zeroed, " + what);
                assertArrayEquals(Arrays.copyOfRange(stream, n, (live + 1) * OUT),
                        Arrays.copyOfRange(e.buf, e.pos, OUT), "the undelivered rest, " + what);
                // The key held is the next iteration's: an engine seeded with it goes on from there.
                byte[] next = new byte[OUT];
                new JavaEngines.ChaCha8(keyBytes(e)).fill(next, 0, OUT);
                assertArrayEquals(Arrays.copyOfRange(stream, (live + 1) * OUT, (live + 2) * OUT), next,
                        "the key is the next iteration's, " + what);
                e.wipe();
                assertArrayEquals(new int[8], e.key);
                assertArrayEquals(new byte[OUT], e.buf);
            }
        }
    }

    /** The seed array is read, never kept or changed. */
    @Test
    void seedIsNotKept() {
        byte[] seed = TestSupport.seed(K, "seed");
        byte[] copy = seed.clone();
        JavaEngines.ChaCha8 e = new JavaEngines.ChaCha8(seed);
        assertArrayEquals(copy, seed);
        Arrays.fill(seed, (byte) 0);
        byte[] a = new byte[100];
        byte[] b = new byte[100];
        e.fill(a, 0, 100);
        new JavaEngines.ChaCha8(copy).fill(b, 0, 100);
        assertArrayEquals(b, a);
    }
}
