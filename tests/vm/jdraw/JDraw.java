// SPDX-License-Identifier: MIT OR Apache-2.0
//
// The Java front end in tests/vm's guest, run twice by agent.c from the jar
// on the class path: on the native path (the jar's bundled JNI library) and
// on the pure-Java path (-Dshakerand.native=false). Says which path it is on
// and which provider serves `new SecureRandom()`, then for each line N on its
// standard input writes N words of `new SecureRandom()` (the ShakeRand
// provider, installed first, so that the JDK's own DRBG is not what is
// measured) and then N words of a `new ShakeRandom()`, one per line in 16 hex
// digits (gdraw's protocol, two channels in that order).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.Security;
import org.shakerand.ShakeRandProvider;
import org.shakerand.ShakeRandom;

public final class JDraw {
    public static void main(String[] args) throws Exception {
        Security.insertProviderAt(new ShakeRandProvider(), 1);
        SecureRandom sr = new SecureRandom();
        ShakeRandom shake = new ShakeRandom();
        String provider = sr.getProvider().getName();
        if (!provider.equals("ShakeRand")) {
            System.err.println("jdraw: new SecureRandom() is " + provider + "'s " + sr.getAlgorithm());
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        out.println("native=" + ShakeRandom.isNative() + " watches_vm_generation="
                + ShakeRandom.watchesVmGeneration() + " securerandom=" + provider + "/"
                + sr.getAlgorithm() + " java=" + System.getProperty("java.version"));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        byte[] b = new byte[8];
        for (String line; (line = in.readLine()) != null; ) {
            int n = Integer.parseInt(line.trim());
            for (int i = 0; i < n; i++) {
                sr.nextBytes(b);
                out.printf("%016x%n", ByteBuffer.wrap(b).getLong());
            }
            for (int i = 0; i < n; i++)
                out.printf("%016x%n", shake.nextLong());
            out.flush();
        }
    }
}
