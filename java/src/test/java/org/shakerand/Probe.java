// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.lang.reflect.Field;
import java.security.SecureRandom;
import java.security.Security;
import java.util.UUID;

/** Run in a child JVM by the tests: reports what serves SecureRandom and UUID.randomUUID(). */
public final class Probe {
    private Probe() {}

    static String spiOf(SecureRandom sr) throws ReflectiveOperationException {
        Field f = SecureRandom.class.getDeclaredField("secureRandomSpi");
        f.setAccessible(true);
        return f.get(sr).getClass().getName();
    }

    /** The SecureRandom behind UUID.randomUUID() (surefire opens java.util). */
    static SecureRandom uuidGenerator() throws ReflectiveOperationException {
        Field g = Class.forName("java.util.UUID$Holder").getDeclaredField("numberGenerator");
        g.setAccessible(true);
        return (SecureRandom) g.get(null);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("provider")) {
            Security.insertProviderAt(new ShakeRandProvider(), 1);
            SecureRandom d = new SecureRandom();
            System.out.println("default.algorithm=" + d.getAlgorithm());
            System.out.println("default.provider=" + d.getProvider().getName());
            System.out.println("default.spi=" + spiOf(d));
            UUID u = UUID.randomUUID();
            System.out.println("uuid.version=" + u.version());
            SecureRandom ug = uuidGenerator();
            System.out.println("uuid.provider=" + ug.getProvider().getName());
            System.out.println("uuid.spi=" + spiOf(ug));
        }
        if (args.length > 0 && args[0].equals("logdraw")) {
            // The first draw initialises the system generator; its fall-back line goes to a
            // logging handler that draws a UUID (the provider first) while that happens.
            Security.insertProviderAt(new ShakeRandProvider(), 1);
            new SecureRandom().nextLong();
            System.out.println("uuid.provider=" + uuidGenerator().getProvider().getName());
        }
        if (args.length > 0 && args[0].equals("nosun")) {
            // A JDK without its SUN provider: the pure-Java path has no OS source, and each
            // draw says so with ProviderException, not an error that ends the class for good.
            Security.removeProvider("SUN");
            ShakeRandom r = new ShakeRandom();
            for (int i = 0; i < 2; i++) {
                try {
                    r.nextLong();
                    System.out.println("nosun.draw" + i + "=drew");
                } catch (java.security.ProviderException e) {
                    System.out.println("nosun.draw" + i + "=ProviderException: " + e.getMessage());
                }
            }
            return;
        }
        System.out.println("native=" + ShakeRandom.isNative());
        System.out.println("path=" + NativeLib.PATH);
        System.out.println("implementation=" + ShakeRandom.implementation());
        ShakeRandom r = new ShakeRandom();
        System.out.println("draws=" + (r.nextLong() != r.nextLong() && r.nextUUID().version() == 4));
        if (args.length > 1 && args[1].equals("hold")) {
            Thread.sleep(1500); // keep the library loaded while the other JVM loads its own
        }
    }
}
