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

    /**
     * The next 16 bytes the calling thread's system generator will hand out, read where they
     * wait (the native path's per-thread word buffer, or the pure-Java engine's byte buffer)
     * without taking them; words are drawn first if fewer than 16 bytes wait there. Two calls
     * with no draw in between give the same bytes; a draw of 16 bytes in between changes them.
     */
    static byte[] peekSystem16() throws ReflectiveOperationException {
        RandomStream local = SystemGenerator.local(Thread.currentThread());
        byte[] out = new byte[16];
        if (local instanceof NativeSystemGenerator.Buffer) {
            NativeSystemGenerator.Buffer b = (NativeSystemGenerator.Buffer) local;
            while (NativeSystemGenerator.WORDS - b.pos < 2) {
                b.take();
            }
            Bytes.putLe64(out, 0, b.w[b.pos]);
            Bytes.putLe64(out, 8, b.w[b.pos + 1]);
            return out;
        }
        JavaSystemGenerator.ThreadGenerator g = (JavaSystemGenerator.ThreadGenerator) local;
        Field f = JavaSystemGenerator.ThreadGenerator.class.getDeclaredField("engine");
        f.setAccessible(true);
        BufferedStream e = (BufferedStream) f.get(g);
        while (e.buf.length - e.pos < 16) {
            g.u64();
            e = (BufferedStream) f.get(g);
        }
        System.arraycopy(e.buf, e.pos, out, 0, 16);
        return out;
    }

    /** The UUID that UUID.randomUUID() makes of 16 random bytes (version 4, variant 2 set). */
    static UUID asRandomUuid(byte[] random) {
        byte[] b = random.clone();
        b[6] = (byte) ((b[6] & 0x0f) | 0x40);
        b[8] = (byte) ((b[8] & 0x3f) | 0x80);
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 8; i++) {
            msb = (msb << 8) | (b[i] & 0xff);
            lsb = (lsb << 8) | (b[8 + i] & 0xff);
        }
        return new UUID(msb, lsb);
    }

    /**
     * What serves UUID.randomUUID() here. With uuidBefore a UUID is made before anything else
     * (as a library or framework may do before main installs the provider); with install the
     * provider is then inserted first. uuid.shakerand says whether the next UUID.randomUUID()
     * is exactly the next 16 bytes of this thread's shakerand system generator, and
     * uuid.shakerandUntouched whether that generator still holds the same next 16 bytes after
     * it (it was not drawn from): both observed on shakerand's side, not through the JDK.
     * shake.shakerand says the same of ShakeRandom.randomUUID(), drawn last.
     */
    static void uuidProbe(boolean uuidBefore, boolean install) throws ReflectiveOperationException {
        if (uuidBefore) {
            System.out.println("before.version=" + UUID.randomUUID().version());
        }
        if (install) {
            Security.insertProviderAt(new ShakeRandProvider(), 1);
        }
        SecureRandom d = new SecureRandom();
        System.out.println("default.algorithm=" + d.getAlgorithm());
        System.out.println("default.provider=" + d.getProvider().getName());
        System.out.println("default.spi=" + spiOf(d));
        byte[] next = peekSystem16();
        UUID u = UUID.randomUUID();
        byte[] after = peekSystem16();
        System.out.println("uuid.version=" + u.version());
        System.out.println("uuid.shakerand=" + u.equals(asRandomUuid(next)));
        System.out.println("uuid.shakerandUntouched=" + java.util.Arrays.equals(next, after));
        SecureRandom ug = uuidGenerator();
        System.out.println("uuid.provider=" + ug.getProvider().getName());
        System.out.println("uuid.spi=" + spiOf(ug));
        byte[] own = peekSystem16();
        System.out.println("shake.shakerand=" + ShakeRandom.randomUUID().equals(asRandomUuid(own)));
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("provider")) {
            uuidProbe(false, true);
        }
        if (args.length > 0 && args[0].equals("provider-after-uuid")) {
            uuidProbe(true, true);
        }
        if (args.length > 0 && args[0].equals("provider-from-file")) {
            uuidProbe(false, false);
        }
        if (args.length > 0 && args[0].equals("logdraw")) {
            // The first draw initialises the system generator; its fall-back line goes to a
            // logging handler that draws a UUID (the provider first) while that happens.
            Security.insertProviderAt(new ShakeRandProvider(), 1);
            new SecureRandom().nextLong();
            System.out.println("uuid.provider=" + uuidGenerator().getProvider().getName());
        }
        if (args.length > 0 && args[0].equals("nosun")) {
            // A JDK without its SUN provider: the pure-Java path reads /dev/urandom itself where
            // it can; elsewhere it has no OS source, and each draw says so with
            // ProviderException, not an error that ends the class for good.
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
