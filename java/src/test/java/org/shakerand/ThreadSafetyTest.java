// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The provider's ThreadSafe claim: many threads, no lost or repeated output, no JDK lock. */
class ThreadSafetyTest {
    static final ShakeRandProvider PROVIDER = new ShakeRandProvider();

    @Test
    void serviceAttributes() {
        Provider.Service s = PROVIDER.getService("SecureRandom", "ShakeRandom");
        assertNotNull(s);
        assertEquals("true", s.getAttribute("ThreadSafe"));
        assertEquals("Software", s.getAttribute("ImplementedIn"));
        assertEquals("ShakeRand", PROVIDER.getName());
        boolean found = false;
        for (Provider p : ServiceLoader.load(Provider.class)) {
            found |= p instanceof ShakeRandProvider;
        }
        assertTrue(found, "META-INF/services/java.security.Provider");
    }

    /** Draws from one shared generator on many threads; every 64-bit value must be distinct. */
    private static void noRepeats(Supplier<Long> draw, int threads, int each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> parts = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                parts.add(pool.submit(() -> {
                    go.await();
                    long[] v = new long[each];
                    for (int i = 0; i < each; i++) {
                        v[i] = draw.get();
                    }
                    return v;
                }));
            }
            go.countDown();
            Set<Long> seen = new HashSet<>();
            for (Future<long[]> f : parts) {
                for (long v : f.get(60, TimeUnit.SECONDS)) {
                    assertTrue(seen.add(v), "repeated output");
                }
            }
            assertEquals(threads * each, seen.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyThreadsShakeRandom() throws Exception {
        ShakeRandom r = new ShakeRandom();
        noRepeats(r::nextLong, 8, 20_000);
        noRepeats(() -> r.nextUUID().getLeastSignificantBits(), 8, 5_000);
    }

    @Test
    void manyThreadsThroughTheJdk() throws Exception {
        SecureRandom r = SecureRandom.getInstance("ShakeRandom", PROVIDER);
        assertTrue(r.toString().contains("ShakeRandom"), r.toString());
        byte[] b = new byte[8];
        noRepeats(() -> {
            byte[] x = new byte[8];
            r.nextBytes(x);
            return Bytes.le64(x, 0);
        }, 8, 10_000);
        r.nextBytes(b);
    }

    @Test
    void virtualThreadsWhereAvailable() throws Exception {
        Method m;
        try {
            m = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        } catch (NoSuchMethodException e) {
            org.junit.jupiter.api.Assumptions.abort("no virtual threads before Java 21");
            return;
        }
        ExecutorService pool = (ExecutorService) m.invoke(null);
        ShakeRandom r = new ShakeRandom();
        Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try {
            List<Future<?>> fs = new java.util.ArrayList<>();
            for (int t = 0; t < 2000; t++) {
                fs.add(pool.submit(() -> {
                    byte[] small = new byte[16];
                    for (int i = 0; i < 20; i++) {
                        assertTrue(seen.add(r.nextLong()));
                        r.nextBytes(small);
                        assertTrue(seen.add(Bytes.le64(small, 0)));
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(2000 * 40, seen.size());
    }

    /**
     * While another thread holds the SecureRandom's monitor, nextBytes must still complete: the
     * JDK synchronises on the instance only for providers that are not ThreadSafe. The control
     * (the same SPI registered without the attribute) must block, which shows the check works.
     */
    @Test
    void jdkDoesNotSynchronize() throws Exception {
        assertFalse(blocksWhileMonitorHeld(SecureRandom.getInstance("ShakeRandom", PROVIDER)));

        Provider unsafe = new Provider("ShakeRandNotThreadSafe", "0", "control") {
            {
                putService(new Service(this, "SecureRandom", "ShakeRandom", ShakeRandomSpi.class.getName(),
                        null, Map.of()));
            }
        };
        assertTrue(blocksWhileMonitorHeld(SecureRandom.getInstance("ShakeRandom", unsafe)));
    }

    @Test
    void jdkFlagIsSet() throws Exception {
        // JDK 17 to 25 keep the attribute in this field (surefire opens java.security).
        Field f = SecureRandom.class.getDeclaredField("threadSafe");
        f.setAccessible(true);
        assertTrue(f.getBoolean(SecureRandom.getInstance("ShakeRandom", PROVIDER)));
    }

    /** An instance does not keep the first thread that drew from it (nor its class loader) alive. */
    @Test
    void instanceDoesNotKeepItsFirstThreadAlive() throws Exception {
        ShakeRandom shared = new ShakeRandom();
        Thread t = new Thread(() -> shared.nextLong());
        t.setContextClassLoader(new java.net.URLClassLoader(new java.net.URL[0]));
        java.lang.ref.WeakReference<Thread> gone = new java.lang.ref.WeakReference<>(t);
        t.start();
        t.join();
        t = null;
        for (int i = 0; i < 100 && gone.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(gone.get(), "the dead thread is still reachable");
        assertNotEquals(shared.nextLong(), shared.nextLong());
    }

    /** ShakeRandom's DRBG-parameter methods take no lock either (SecureRandom's own would). */
    @Test
    void drbgRequestsDoNotSynchronize() throws Exception {
        ShakeRandom r = new ShakeRandom();
        assertFalse(blocksWhileMonitorHeld(r, () -> r.nextBytes(new byte[32],
                java.security.DrbgParameters.nextBytes(256, true, null))));
        assertFalse(blocksWhileMonitorHeld(r, () -> r.reseed(
                java.security.DrbgParameters.reseed(true, null))));
        // the control: SecureRandom's own method, on an instance built the way ShakeRandom is
        SecureRandom plain = new SecureRandom(new ShakeRandomSpi(), PROVIDER) {};
        assertTrue(blocksWhileMonitorHeld(plain, () -> plain.nextBytes(new byte[32],
                java.security.DrbgParameters.nextBytes(256, true, null))));
    }

    /**
     * "No method takes its monitor" (README.md, java/README.md) as written: every public
     * instance method a ShakeRandom has, but Object's (the next* methods of Random,
     * SecureRandom and RandomGenerator, nextUUID and nextBigInteger, the ints/longs/doubles
     * streams, consumed, setSeed, reseed, generateSeed, getParameters), completes while another
     * thread holds the instance's monitor. Found by reflection, so a method a later JDK adds is
     * checked too; the control shows the check sees Random's synchronized nextGaussian.
     */
    @Test
    void noMethodTakesTheMonitor() throws Exception {
        ShakeRandom r = new ShakeRandom();
        List<String> checked = new java.util.ArrayList<>();
        for (Method m : ShakeRandom.class.getMethods()) {
            if (java.lang.reflect.Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class) {
                continue;
            }
            Object[] args = arguments(m);
            assertFalse(blocksWhileMonitorHeld(r, () -> {
                try {
                    Object v = m.invoke(r, args);
                    if (v instanceof java.util.stream.BaseStream) {
                        java.util.Iterator<?> it = ((java.util.stream.BaseStream<?, ?>) v).iterator();
                        for (int i = 0; i < 3; i++) {
                            assertNotNull(it.next());
                        }
                    }
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(m.toString(), e);
                }
            }), m.toString());
            checked.add(m.getName() + java.util.Arrays.toString(m.getParameterTypes()));
        }
        assertTrue(checked.size() >= 40 && checked.contains("setSeed[long]") && checked.contains("reseed[]")
                && checked.contains("nextExponential[]"), checked.toString());
        java.util.Random plain = new java.util.Random();
        assertTrue(blocksWhileMonitorHeld(plain, plain::nextGaussian));
    }

    /** Valid arguments for a method: stream sizes 5, a lone bound or count 10, a range [1, 10). */
    private static Object[] arguments(Method m) {
        Class<?>[] p = m.getParameterTypes();
        Object[] a = new Object[p.length];
        List<Integer> numbers = new java.util.ArrayList<>();
        for (int i = 0; i < p.length; i++) {
            if (p[i] == byte[].class) {
                a[i] = new byte[32];
            } else if (p[i] == java.security.SecureRandomParameters.class) {
                a[i] = m.getName().equals("reseed") ? java.security.DrbgParameters.reseed(false, null)
                        : java.security.DrbgParameters.nextBytes(256, false, null);
            } else if (p[i] == java.math.BigInteger.class) {
                a[i] = java.math.BigInteger.TEN.pow(30);
            } else if (p[i] == boolean.class) {
                a[i] = true; // equiDoubles(left, right, leftIncluded, rightIncluded), JDK 22+
            } else if (p[i].isPrimitive()) {
                numbers.add(i);
            } else {
                throw new AssertionError("no argument for " + m);
            }
        }
        if (!m.getName().startsWith("next") && numbers.size() % 2 == 1 && p[numbers.get(0)] == long.class
                && !m.getName().equals("setSeed")) {
            a[numbers.remove(0)] = 5L; // ints(long streamSize, ...) and the like
        }
        for (int j = 0; j < numbers.size(); j++) {
            int i = numbers.get(j);
            int v = numbers.size() == 2 && j == 0 ? 1 : 10;
            a[i] = p[i] == int.class ? (Object) v : p[i] == long.class ? (Object) (long) v
                    : p[i] == double.class ? (Object) (double) v : (Object) (float) v;
        }
        return a;
    }

    private static boolean blocksWhileMonitorHeld(SecureRandom sr) throws Exception {
        return blocksWhileMonitorHeld(sr, () -> sr.nextBytes(new byte[32]));
    }

    private static boolean blocksWhileMonitorHeld(Object sr, Runnable draw) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.submit(() -> {
                synchronized (sr) {
                    held.countDown();
                    release.await(10, TimeUnit.SECONDS);
                }
                return null;
            });
            assertTrue(held.await(10, TimeUnit.SECONDS));
            Future<?> call = pool.submit(draw);
            try {
                call.get(2, TimeUnit.SECONDS);
                return false;
            } catch (TimeoutException e) {
                return true;
            } finally {
                release.countDown();
                call.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void spiRefusesParametersItCannotHonour() {
        // DrbgParameters.instantiation above 256 bits, or parameters of another kind (DrbgTest
        // covers the ones it takes).
        assertThrows(java.security.NoSuchAlgorithmException.class, () -> SecureRandom.getInstance(
                "ShakeRandom", java.security.DrbgParameters.instantiation(384,
                        java.security.DrbgParameters.Capability.NONE, null), PROVIDER));
        assertThrows(java.security.NoSuchAlgorithmException.class, () -> SecureRandom.getInstance(
                "ShakeRandom", new java.security.SecureRandomParameters() {}, PROVIDER));
    }

    /**
     * An instance whose first user was a thread that has ended is taken over by the next thread
     * that draws: it no longer keeps the dead thread's buffer alive, and the new thread gets the
     * owner's fast path.
     */
    @Test
    void ownerThatDiedIsReplaced() throws Exception {
        ShakeRandom r = new ShakeRandom();
        Thread first = new Thread(r::nextLong);
        first.start();
        first.join();
        assertEquals(first, ownerThread(r));
        for (int i = 0; i < 4; i++) {
            r.nextInt(1000);
        }
        assertEquals(Thread.currentThread(), ownerThread(r));
    }

    private static Thread ownerThread(ShakeRandom r) throws Exception {
        Field ownerField = ShakeRandom.class.getDeclaredField("owner");
        ownerField.setAccessible(true);
        Object owner = ownerField.get(r);
        assertNotNull(owner, "no owner");
        return ((java.lang.ref.WeakReference<?>) owner).get() instanceof Thread t ? t : null;
    }
}
