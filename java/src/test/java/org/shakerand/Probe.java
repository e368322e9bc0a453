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

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("provider")) {
            Security.insertProviderAt(new ShakeRandProvider(), 1);
            SecureRandom d = new SecureRandom();
            System.out.println("default.algorithm=" + d.getAlgorithm());
            System.out.println("default.provider=" + d.getProvider().getName());
            System.out.println("default.spi=" + spiOf(d));
            UUID u = UUID.randomUUID();
            System.out.println("uuid.version=" + u.version());
            Class<?> holder = Class.forName("java.util.UUID$Holder");
            Field g = holder.getDeclaredField("numberGenerator");
            g.setAccessible(true);
            SecureRandom ug = (SecureRandom) g.get(null);
            System.out.println("uuid.provider=" + ug.getProvider().getName());
            System.out.println("uuid.spi=" + spiOf(ug));
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
