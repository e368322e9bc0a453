// SPDX-License-Identifier: MIT OR Apache-2.0

// The Java front end in a few lines: a die roll, a token, a UUID, then a seeded stream that is
// the same in every language. One file, run from source (Java 17+) against the jar that
// `cd java && mvn -DskipTests install` builds:
//   java --enable-native-access=ALL-UNNAMED -cp java/target/shakerand-0.1.0.jar \
//       examples/java/QuickStart.java
import java.util.HexFormat;
import org.shakerand.ShakeRandom;

public class QuickStart {
    public static void main(String[] args) {
        ShakeRandom rnd = new ShakeRandom(); // a SecureRandom; share it between threads
        System.out.println("die     " + rnd.nextInt(1, 7)); // 1 to 6, unbiased
        byte[] token = new byte[16];
        rnd.nextBytes(token);
        System.out.println("token   " + HexFormat.of().formatHex(token));
        System.out.println("uuid    " + ShakeRandom.randomUUID());

        // A seeded generator: the C engine's stream, the CLI's, Go's rand.NewChaCha8(seed)'s.
        byte[] seed = new byte[32];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) i;
        }
        ShakeRandom fixed = ShakeRandom.seeded(seed, ShakeRandom.Kind.CHACHA8RAND);
        byte[] got = new byte[16];
        fixed.nextBytes(got);
        String hex = HexFormat.of().formatHex(got);
        System.out.println("seeded  " + hex);
        if (!hex.equals("db9c412e11a2fdadddfe0e8df43bb39a")) {
            System.err.println("QuickStart: the seeded stream differs from the known one");
            System.exit(1);
        }
        System.out.println("runs on " + ShakeRandom.implementation());
    }
}
