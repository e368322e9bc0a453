// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.DrbgParameters.Capability;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.Security;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The JDK 9+ SecureRandom API (DrbgParameters) on the provider and on ShakeRandom, the
 * DEFAULT alias, and serialization of both kinds of ShakeRandom. That prediction resistance
 * really reseeds from the sources is shown in DeadEntropyTest (it fails when they are dead).
 */
class DrbgTest {
    private static final ShakeRandProvider PROVIDER = new ShakeRandProvider();

    @Test
    void instantiationUpTo256BitsIsAcceptedAndReported() throws Exception {
        for (int strength : new int[] {-1, 112, 128, 192, 256}) {
            for (Capability c : Capability.values()) {
                SecureRandom r = SecureRandom.getInstance("ShakeRandom",
                        DrbgParameters.instantiation(strength, c, null), PROVIDER);
                DrbgParameters.Instantiation p = (DrbgParameters.Instantiation) r.getParameters();
                assertEquals(256, p.getStrength());
                assertEquals(Capability.PR_AND_RESEED, p.getCapability());
                assertNull(p.getPersonalizationString());
                r.nextBytes(new byte[16]);
            }
        }
        byte[] ps = "service 7".getBytes(StandardCharsets.UTF_8);
        SecureRandom r = SecureRandom.getInstance("ShakeRandom",
                DrbgParameters.instantiation(128, Capability.NONE, ps), PROVIDER);
        assertArrayEquals(ps, ((DrbgParameters.Instantiation) r.getParameters()).getPersonalizationString());
        // Without parameters it says the same of itself.
        SecureRandom plain = SecureRandom.getInstance("ShakeRandom", PROVIDER);
        assertEquals(256, ((DrbgParameters.Instantiation) plain.getParameters()).getStrength());
        assertEquals(256, ((DrbgParameters.Instantiation) new ShakeRandom().getParameters()).getStrength());
    }

    @Test
    void whatCannotBeHonouredIsRefusedAsTheJdkDocuments() throws Exception {
        assertThrows(NoSuchAlgorithmException.class, () -> SecureRandom.getInstance("ShakeRandom",
                DrbgParameters.instantiation(257, Capability.PR_AND_RESEED, null), PROVIDER));
        SecureRandom r = SecureRandom.getInstance("ShakeRandom", PROVIDER);
        byte[] b = new byte[32];
        for (SecureRandom g : new SecureRandom[] {r, new ShakeRandom()}) {
            assertThrows(IllegalArgumentException.class,
                    () -> g.nextBytes(b, DrbgParameters.nextBytes(384, false, null)));
            assertThrows(IllegalArgumentException.class, () -> g.nextBytes(b, null));
            assertThrows(IllegalArgumentException.class,
                    () -> g.nextBytes(b, DrbgParameters.reseed(true, null)));
            assertThrows(IllegalArgumentException.class, () -> g.reseed(null));
            assertThrows(IllegalArgumentException.class,
                    () -> g.reseed(DrbgParameters.nextBytes(-1, true, null)));
            assertThrows(NullPointerException.class,
                    () -> g.nextBytes(null, DrbgParameters.nextBytes(-1, true, null)));
        }
        assertTrue(Arrays.equals(b, new byte[32]), "nothing was written on error");
    }

    @Test
    void requestsWithPredictionResistanceAndAdditionalInput() throws Exception {
        SecureRandom r = SecureRandom.getInstance("ShakeRandom",
                DrbgParameters.instantiation(256, Capability.PR_AND_RESEED, null), PROVIDER);
        for (SecureRandom g : new SecureRandom[] {r, new ShakeRandom()}) {
            byte[] a = new byte[64];
            byte[] c = new byte[64];
            g.nextBytes(a, DrbgParameters.nextBytes(256, true, null));
            g.nextBytes(c, DrbgParameters.nextBytes(-1, false, new byte[] {1, 2, 3}));
            assertFalse(Arrays.equals(a, c));
            assertFalse(Arrays.equals(a, new byte[64]));
            g.reseed(DrbgParameters.reseed(true, null));
            g.reseed(DrbgParameters.reseed(false, "more".getBytes(StandardCharsets.UTF_8)));
            g.reseed();
        }
    }

    @Test
    void seededGeneratorsRefuseDrbgRequests() {
        ShakeRandom s = ShakeRandom.seeded(new byte[32], ShakeRandom.Kind.CHACHA8RAND);
        assertNull(s.getParameters());
        assertThrows(UnsupportedOperationException.class,
                () -> s.nextBytes(new byte[8], DrbgParameters.nextBytes(-1, false, null)));
        assertThrows(UnsupportedOperationException.class,
                () -> s.reseed(DrbgParameters.reseed(false, null)));
        // bad arguments first, with SecureRandom's exceptions, on both kinds of instance
        for (ShakeRandom r : new ShakeRandom[] {s, new ShakeRandom()}) {
            assertThrows(IllegalArgumentException.class, () -> r.nextBytes(new byte[8], null));
            assertThrows(IllegalArgumentException.class, () -> r.reseed(null));
            assertThrows(NullPointerException.class,
                    () -> r.nextBytes(null, DrbgParameters.nextBytes(-1, false, null)));
        }
        // and its stream did not move
        assertEquals(ShakeRandom.seeded(new byte[32], ShakeRandom.Kind.CHACHA8RAND).nextLong(), s.nextLong());
    }

    @Test
    void defaultAliasNamesTheService() throws Exception {
        SecureRandom r = SecureRandom.getInstance("DEFAULT", PROVIDER);
        assertEquals("ShakeRandom", PROVIDER.getService("SecureRandom", "DEFAULT").getAlgorithm());
        r.nextLong();
    }

    @Test
    void strongAlgorithmsPropertyServesGetInstanceStrong() throws Exception {
        String old = Security.getProperty("securerandom.strongAlgorithms");
        Security.insertProviderAt(PROVIDER, Security.getProviders().length + 1);
        try {
            Security.setProperty("securerandom.strongAlgorithms", "ShakeRandom:ShakeRand");
            SecureRandom strong = SecureRandom.getInstanceStrong();
            assertEquals("ShakeRandom", strong.getAlgorithm());
            assertEquals("ShakeRand", strong.getProvider().getName());
        } finally {
            Security.setProperty("securerandom.strongAlgorithms", old);
            Security.removeProvider("ShakeRand");
        }
    }

    @Test
    void systemInstancesSerializeSeededOnesRefuse() throws Exception {
        Object back = roundTrip(new ShakeRandom());
        ShakeRandom r = assertInstanceOf(ShakeRandom.class, back);
        assertEquals("ShakeRandom", r.getAlgorithm());
        r.nextLong();
        r.setSeed(new byte[] {1}); // a working system instance, not a half-built one
        for (ShakeRandom.Kind k : ShakeRandom.Kind.values()) {
            ShakeRandom s = ShakeRandom.seeded(new byte[32], k);
            assertThrows(NotSerializableException.class, () -> roundTrip(s));
        }
        // The provider's SecureRandom (stateless) round-trips too.
        SecureRandom p = SecureRandom.getInstance("ShakeRandom", PROVIDER);
        assertEquals("ShakeRandom", ((SecureRandom) roundTrip(p)).getAlgorithm());
    }

    private static byte[] serialize(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static Object roundTrip(Object o) throws Exception {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialize(o)))) {
            return in.readObject();
        }
    }
}
