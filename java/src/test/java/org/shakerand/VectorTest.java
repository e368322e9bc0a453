// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** The shared known-answer streams through seeded(...), native and pure-Java engines. */
class VectorTest {
    static ShakeRandom.Kind kind(String name) {
        for (ShakeRandom.Kind k : ShakeRandom.Kind.values()) {
            if (k.engineName().equals(name)) {
                return k;
            }
        }
        throw new AssertionError(name);
    }

    /** 65536 bytes drawn in irregular slices mixing nextBytes, nextLong and nextInt. */
    static byte[] stream(ShakeRandom r, int n) {
        byte[] out = new byte[n];
        int off = 0;
        int step = 0;
        int[] sizes = {1, 7, 136, 8, 4, 1000, 3, 4096, 8, 31, 1056, 4, 2049};
        while (off < n) {
            int want = Math.min(sizes[step++ % sizes.length], n - off);
            if (want == 8) {
                Bytes.putLe64(out, off, r.nextLong());
            } else if (want == 4) {
                Bytes.LE32.set(out, off, r.nextInt());
            } else {
                byte[] b = new byte[want];
                r.nextBytes(b);
                System.arraycopy(b, 0, out, off, want);
            }
            off += want;
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    void checkShakerandVectors(BiFunction<byte[], ShakeRandom.Kind, ShakeRandom> make) throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/shakerand.json");
        List<Object> engines = (List<Object>) root.get("engines");
        assertTrue(engines.size() >= 31);
        int chacha = 0;
        for (Object o : engines) {
            Map<String, Object> e = (Map<String, Object>) o;
            byte[] seed = TestSupport.hex((String) e.get("seed_hex"));
            ShakeRandom.Kind k = kind((String) e.get("engine"));
            chacha += k == ShakeRandom.Kind.CHACHA8RAND ? 1 : 0;
            byte[] s = stream(make.apply(seed, k), 65536);
            String what = e.get("engine") + " seed of " + seed.length + " bytes";
            assertEquals(e.get("sha256_of_first_65536"),
                    TestSupport.toHex(MessageDigest.getInstance("SHA-256").digest(s)), what);
            for (Object c : (List<Object>) e.get("chunks")) {
                Map<String, Object> chunk = (Map<String, Object>) c;
                int off = ((Long) chunk.get("offset")).intValue();
                byte[] want = TestSupport.hex((String) chunk.get("hex"));
                byte[] got = new byte[want.length];
                System.arraycopy(s, off, got, 0, want.length);
                assertArrayEquals(want, got, what + " at " + off);
            }
        }
        assertTrue(chacha >= 4, "chacha8rand entries: " + chacha);
    }

    @Test
    void shakerandVectorsDefaultPath() throws Exception {
        checkShakerandVectors(ShakeRandom::seeded);
    }

    @Test
    void shakerandVectorsPureJava() throws Exception {
        checkShakerandVectors(ShakeRandom::seededJava);
    }

    /**
     * A string seed is its UTF-8 bytes (docs/engines.md, "Seeds"): {@code seeded(String, Kind)}
     * gives the vector file's string_seeds streams; chacha8rand's 32 bytes are 29 chars; an
     * unpaired surrogate is refused.
     */
    @Test
    @SuppressWarnings("unchecked")
    void stringSeeds() throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/shakerand.json");
        List<Object> cases = (List<Object>) root.get("string_seeds");
        assertEquals(ShakeRandom.Kind.values().length, cases.size());
        for (Object o : cases) {
            Map<String, Object> c = (Map<String, Object>) o;
            String text = (String) c.get("seed_text");
            ShakeRandom.Kind k = kind((String) c.get("engine"));
            byte[] want = TestSupport.hex((String) c.get("first_64_hex"));
            assertArrayEquals(want, stream(ShakeRandom.seeded(text, k), 64), c.get("engine") + " " + text);
            assertArrayEquals(want, stream(ShakeRandom.seededJava(TestSupport.hex((String) c.get("seed_hex")), k), 64),
                    c.get("engine") + " seed_hex");
        }
        byte[] e16 = new byte[32];
        for (int i = 0; i < 32; i += 2) {
            e16[i] = (byte) 0xc3;
            e16[i + 1] = (byte) 0xa9;
        }
        assertArrayEquals(stream(ShakeRandom.seeded(e16, ShakeRandom.Kind.CHACHA8RAND), 64),
                stream(ShakeRandom.seeded("\u00e9".repeat(16), ShakeRandom.Kind.CHACHA8RAND), 64), "16 two-byte chars");
        assertThrows(IllegalArgumentException.class,
                () -> ShakeRandom.seeded("a".repeat(31) + "\u00e9", ShakeRandom.Kind.CHACHA8RAND));
        for (String bad : List.of("seed \ud83c", "\udfb2", "a\ud83c\ud83c", "\udfb2\ud83c")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ShakeRandom.seeded(bad, ShakeRandom.Kind.TURBOSHAKE256));
            assertTrue(e.getMessage().contains("unpaired surrogate"), e.getMessage());
        }
    }

    /**
     * The test vector published with C2SP chacha8rand: its first Uint64 values are nextLong's
     * (the next 8 bytes of the stream read little-endian, as for every kind), on both paths.
     */
    @Test
    @SuppressWarnings("unchecked")
    void c2spChaCha8Rand() throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/shakerand.json");
        Map<String, Object> v = (Map<String, Object>) root.get("c2sp_chacha8rand");
        byte[] seed = TestSupport.hex((String) v.get("seed_hex"));
        List<Object> hex = (List<Object>) v.get("uint64_hex");
        assertTrue(hex.size() >= 32, "words: " + hex.size());
        long[] want = new long[hex.size()];
        byte[] wantBytes = new byte[8 * want.length];
        for (int i = 0; i < want.length; i++) {
            want[i] = Long.parseUnsignedLong((String) hex.get(i), 16);
            Bytes.putLe64(wantBytes, 8 * i, want[i]);
        }
        ShakeRandom.Kind k = ShakeRandom.Kind.CHACHA8RAND;
        for (BiFunction<byte[], ShakeRandom.Kind, ShakeRandom> make
                : List.<BiFunction<byte[], ShakeRandom.Kind, ShakeRandom>>of(ShakeRandom::seeded, ShakeRandom::seededJava)) {
            ShakeRandom r = make.apply(seed, k);
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], r.nextLong(), "nextLong " + i);
            }
            RandomStream src = make.apply(seed, k).source();
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], src.u64(), "u64 " + i);
            }
            byte[] b = new byte[wantBytes.length];
            make.apply(seed, k).nextBytes(b);
            assertArrayEquals(wantBytes, b, "nextBytes");
            ShakeRandom w = make.apply(seed, k);
            for (int i = 0; i < want.length; i++) {
                assertEquals((int) want[i], w.nextInt(), "nextInt, low half of " + i);
                assertEquals((int) (want[i] >>> 32), w.nextInt(), "nextInt, high half of " + i);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void randomShakeVectors() throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/randomshake.json");
        List<Object> vectors = (List<Object>) root.get("vectors");
        assertEquals(4, vectors.size());
        for (Object o : vectors) {
            Map<String, Object> v = (Map<String, Object>) o;
            byte[] seed = TestSupport.hex((String) v.get("seed_hex"));
            ShakeRandom.Kind k = kind((String) v.get("engine"));
            for (ShakeRandom r : new ShakeRandom[] {ShakeRandom.seeded(seed, k), ShakeRandom.seededJava(seed, k)}) {
                byte[] s = new byte[65536];
                r.nextBytes(s);
                assertEquals(v.get("first_64_hex"), TestSupport.toHex(java.util.Arrays.copyOfRange(s, 0, 64)));
                assertEquals(v.get("bytes_1088_to_1152_hex"),
                        TestSupport.toHex(java.util.Arrays.copyOfRange(s, 1088, 1152)));
                assertEquals(v.get("sha256_of_first_65536"),
                        TestSupport.toHex(MessageDigest.getInstance("SHA-256").digest(s)));
            }
        }
    }

    @Test
    void xofKnownAnswers() {
        // FIPS 202 SHAKE256("") and RFC 9861 TurboSHAKE256("", D = 0x1F).
        assertEquals("46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f",
                TestSupport.toHex(Sponge.shake256(new byte[0], 32)));
        assertEquals("367a329dafea871c7802ec67f905ae13c57695dc2c6663c61035f59a18f8e7db",
                TestSupport.toHex(Sponge.turboshake256(new byte[0], 0x1F, 32)));
    }

    @Test
    void pathIsTheExpectedOne() {
        assertEquals(TestSupport.expectNative(), ShakeRandom.isNative(), ShakeRandom.implementation());
        assertTrue(ShakeRandom.implementation().startsWith(TestSupport.expectNative() ? "native" : "pure Java"),
                ShakeRandom.implementation());
    }
}
