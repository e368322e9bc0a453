// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The pure-Java system generator against the "system_policy" of vectors/shakerand.json (the C
 * core's src/policy.h, as the reference model records it): its constants, the seed
 * derivation's known answers, and the budgets where they act. Runs on both paths: the pure-Java
 * generator is what the non-native path runs, whichever path this run takes.
 */
class JavaSystemPolicyTest {
    @SuppressWarnings("unchecked")
    private static Map<String, Object> policy() throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/shakerand.json");
        Map<String, Object> p = (Map<String, Object>) root.get("system_policy");
        assertTrue(p != null && p.containsKey("derivation"), "no system_policy in the vector file");
        return p;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static long number(Map<String, Object> policy, String name) {
        return ((Number) policy.get(name)).longValue();
    }

    /** Every value of the file is one of this path's, or named as having no counterpart here. */
    @Test
    void policyIsTheVectorFiles() throws Exception {
        Map<String, Long> have = new TreeMap<>();
        have.put("reseed_bytes", JavaSystemGenerator.RESEED_BYTES);
        have.put("reseed_seconds", JavaSystemGenerator.RESEED_SECONDS);
        have.put("clock_check_bytes", (long) JavaSystemGenerator.CLOCK_CHECK_BYTES);
        have.put("max_piece_bytes", (long) JavaSystemGenerator.MAX_PIECE_BYTES);
        have.put("conditioner_domain", (long) JavaSystemGenerator.CONDITIONER_DOMAIN);
        have.put("os_seed_bytes", (long) JavaSystemGenerator.OS_SEED_BYTES);
        have.put("counter_bytes", (long) JavaSystemGenerator.COUNTER_BYTES);
        have.put("seed_material_bytes", (long) JavaSystemGenerator.SEED_MATERIAL_BYTES);
        have.put("extra_domain", (long) JavaSystemGenerator.EXTRA_DOMAIN);
        have.put("extra_digest_bytes", (long) JavaSystemGenerator.EXTRA_DIGEST_BYTES);
        have.put("chacha8rand_key_domain", (long) JavaSystemGenerator.CHACHA8RAND_KEY_DOMAIN);
        Map<String, String> none = Map.of("hw_seed_bytes", "no hardware sources");
        assertEquals(JavaSystemGenerator.RESEED_SECONDS * 1_000_000_000L, JavaSystemGenerator.RESEED_NANOS);

        Map<String, Object> p = policy();
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Object> e : p.entrySet()) {
            String name = e.getKey();
            if (name.equals("derivation") || none.containsKey(name)) {
                continue;
            }
            Long mine = have.get(name);
            if (mine == null) {
                wrong.add(name + ": no counterpart in the pure-Java generator");
            } else if (mine != ((Number) e.getValue()).longValue()) {
                wrong.add(name + ": the file has " + e.getValue() + ", pure Java " + mine);
            }
        }
        for (String name : have.keySet()) {
            if (!p.containsKey(name)) {
                wrong.add(name + ": not in the vector file");
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * The conditioner gives the file's material for its OS bytes and counter, and each engine's
     * seed from that material (with the digest of the caller's bytes, when the entry has them)
     * is the file's.
     */
    @Test
    @SuppressWarnings("unchecked")
    void seedDerivationIsTheVectorFiles() throws Exception {
        List<Object> entries = (List<Object>) policy().get("derivation");
        assertFalse(entries.isEmpty());
        for (Object o : entries) {
            Map<String, Object> d = (Map<String, Object>) o;
            long counter = ((Number) d.get("counter")).longValue();
            byte[] material = JavaSystemGenerator.conditioner(TestSupport.hex((String) d.get("os_hex")),
                    counter, null, JavaSystemGenerator.SEED_MATERIAL_BYTES);
            assertEquals(d.get("material_hex"), hex(material), "material for " + d);
            byte[] extra = d.get("extra_hex") == null ? null : TestSupport.hex((String) d.get("extra_hex"));
            assertEquals(d.get("chacha8rand_key_hex"), hex(JavaSystemGenerator.engineSeed(
                    ShakeRandom.Kind.CHACHA8RAND, material, extra)), "chacha8rand key for " + d);
            assertEquals(d.get("turboshake256x8_seed_hex"), hex(JavaSystemGenerator.engineSeed(
                    ShakeRandom.Kind.TURBOSHAKE256X8, material, extra)), "turboshake256x8 seed for " + d);
        }
    }

    /**
     * After a restore: the constants are the file's "restore_derivation"; the jitter sample, timed
     * on a clock that replays each entry's deltas, has the entry's digest; and the conditioner
     * gives the entry's material for its OS bytes, counter and that digest.
     */
    @Test
    @SuppressWarnings("unchecked")
    void restoreDerivationIsTheVectorFiles() throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/shakerand.json");
        Map<String, Object> r = (Map<String, Object>) root.get("restore_derivation");
        assertTrue(r != null, "no restore_derivation in the vector file");
        assertEquals(Map.of("jitter_domain", (long) JavaSystemGenerator.JITTER_DOMAIN,
                "jitter_digest_bytes", (long) JavaSystemGenerator.JITTER_DIGEST_BYTES,
                "restore_conditioner_domain", (long) JavaSystemGenerator.RESTORE_CONDITIONER_DOMAIN),
                Map.of("jitter_domain", number(r, "jitter_domain"),
                        "jitter_digest_bytes", number(r, "jitter_digest_bytes"),
                        "restore_conditioner_domain", number(r, "restore_conditioner_domain")));
        List<Object> entries = (List<Object>) r.get("derivation");
        assertFalse(entries.isEmpty());
        for (Object o : entries) {
            Map<String, Object> d = (Map<String, Object>) o;
            assertEquals(JavaSystemGenerator.JITTER_SAMPLES, number(d, "delta_count"), "one sample's deltas");
            long first = number(d, "delta_first");
            long step = number(d, "delta_step");
            long[] clock = {0, 0}; // the time, the readings taken
            byte[] digest = JavaSystemGenerator.jitterSample(() -> {
                long k = clock[1]++;
                return k == 0 ? clock[0] : (clock[0] += first + (k - 1) * step);
            });
            assertEquals(JavaSystemGenerator.JITTER_SAMPLES + 1, clock[1], "the clock's readings");
            assertEquals(d.get("jitter_digest_hex"), hex(digest), "jitter digest for " + d);
            byte[] material = JavaSystemGenerator.conditioner(TestSupport.hex((String) d.get("os_hex")),
                    number(d, "counter"), digest, JavaSystemGenerator.SEED_MATERIAL_BYTES);
            assertEquals(d.get("material_hex"), hex(material), "material for " + d);
        }
    }

    /**
     * The budgets act where the file says: no reseed a clock check short of reseed_bytes, one a
     * check past; a reseed sets its deadline reseed_seconds ahead, and a passed deadline reseeds
     * at the next check.
     */
    @Test
    void reseedsWhereThePolicySays() throws Exception {
        Map<String, Object> p = policy();
        long budget = number(p, "reseed_bytes");
        int check = (int) number(p, "clock_check_bytes");
        long nanos = number(p, "reseed_seconds") * 1_000_000_000L;
        byte[] piece = new byte[check];

        long t0 = System.nanoTime();
        JavaSystemGenerator.ThreadGenerator g = new JavaSystemGenerator.ThreadGenerator();
        long t1 = System.nanoTime();
        assertTrue(g.deadline - (t0 + nanos) >= 0 && (t1 + nanos) - g.deadline >= 0,
                "the time reseed is not reseed_seconds after the seed");
        for (long n = 0; n + check < budget; n += check) {
            g.fill(piece, 0, check);
        }
        assertEquals(1, g.reseeds, "reseeded before the byte budget");
        g.fill(piece, 0, check);
        g.fill(piece, 0, check);
        assertEquals(2, g.reseeds, "no reseed at the byte budget");

        g.deadline = System.nanoTime() + 1_000_000_000L; // a second short
        for (int i = 0; i < 3; i++) {
            g.fill(piece, 0, check);
        }
        assertEquals(2, g.reseeds, "reseeded before the time budget");
        g.deadline = System.nanoTime() - 1;
        for (int i = 0; i < 3; i++) {
            g.fill(piece, 0, check);
        }
        assertEquals(3, g.reseeds, "no reseed at the time budget");
    }
}
