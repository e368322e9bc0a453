// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The library as the module org.shakerand on the module path (module-info.java): its package is
 * exported, its provider found by ServiceLoader, and its native library loads with
 * --enable-native-access=org.shakerand, including where the JDK denies native access to
 * everything else (JDK 24+: --illegal-native-access=deny); without that flag there it falls
 * back to pure Java instead of failing.
 */
class ModuleTest {
    private static final String PROBE = String.join("\n",
            "import java.security.Provider;",
            "import java.util.ServiceLoader;",
            "import org.shakerand.ShakeRandom;",
            "public class ModuleProbe {",
            "    public static void main(String[] args) {",
            "        System.out.println(\"module=\" + ShakeRandom.class.getModule().getName());",
            "        System.out.println(\"native=\" + ShakeRandom.isNative());",
            "        System.out.println(\"implementation=\" + ShakeRandom.implementation());",
            "        boolean found = false;",
            "        for (Provider p : ServiceLoader.load(Provider.class)) {",
            "            found |= p.getName().equals(\"ShakeRand\");",
            "        }",
            "        System.out.println(\"provider=\" + found);",
            "        ShakeRandom r = new ShakeRandom();",
            "        System.out.println(\"draws=\" + (r.nextLong() != r.nextLong()));",
            "    }",
            "}", "");

    private static List<String> run(List<String> flags) throws Exception {
        Path dir = Paths.get("target", "module-probe").toAbsolutePath();
        Files.createDirectories(dir);
        Path source = dir.resolve("ModuleProbe.java");
        Files.write(source, PROBE.getBytes(StandardCharsets.UTF_8));
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Dshakerand.native=" + System.getProperty("shakerand.native", "true"));
        cmd.addAll(List.of("--module-path", "target/classes", "--add-modules", "org.shakerand"));
        cmd.addAll(flags);
        cmd.add(source.toString());
        return TestSupport.output(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    @Test
    void runsAsTheModuleOrgShakerand() throws Exception {
        List<String> out = run(List.of("--enable-native-access=org.shakerand"));
        assertEquals("org.shakerand", TestSupport.field(out, "module"), out.toString());
        assertEquals("true", TestSupport.field(out, "provider"), out.toString());
        assertEquals("true", TestSupport.field(out, "draws"), out.toString());
        assertEquals(String.valueOf(TestSupport.expectNative()), TestSupport.field(out, "native"),
                out.toString());
    }

    @Test
    void nativeAccessDeniedElsewhereStillLoadsForTheModule() throws Exception {
        assumeTrue(Runtime.version().feature() >= 24, "--illegal-native-access exists from JDK 24");
        assumeTrue(TestSupport.expectNative(), "native path only");
        List<String> allowed = run(List.of("--illegal-native-access=deny",
                "--enable-native-access=org.shakerand"));
        assertEquals("true", TestSupport.field(allowed, "native"), allowed.toString());
        List<String> denied = run(List.of("--illegal-native-access=deny"));
        assertEquals("false", TestSupport.field(denied, "native"), denied.toString());
        assertTrue(TestSupport.field(denied, "implementation").contains("not loaded"), denied.toString());
        assertEquals("true", TestSupport.field(denied, "draws"), denied.toString());
    }
}
